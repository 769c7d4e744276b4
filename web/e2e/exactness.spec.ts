// SPDX-License-Identifier: GPL-2.0-only
// What names event N lands on event N: every timeline mark, every report,
// every heat-map slice and every lesson goal's "at event N", in every scene
// (the list comes from the scene registry, through the test handle) on
// every kernel it runs on; the scrubber keeps its geometry, and the counter
// and the footer count the same way.
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { heatCellPoints, Lab, labFields } from './lab';

const lessons = readdirSync('lessons')
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(`lessons/${f}`, 'utf8')) as { id: string; scene: string; trace?: unknown })
  .filter((l) => !l.trace); // a lesson on a trace has no run: trace-import.spec.ts checks its "at pass N"

/** The kind of the event the page stands at. */
const kindHere = (page: Page) =>
  page.evaluate(() => window.__lab!.event()?.kindName);

async function sceneList(page: Page): Promise<{ id: string; variants: string[] }[]> {
  const l = new Lab(page);
  await l.open('?step=0');
  return labFields(page).then((f) => f.sceneDefs);
}

/** Up to n items spread evenly, the first and the last included. */
function spread<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, k) => xs[Math.round((k * (xs.length - 1)) / (n - 1))]);
}

/** Click every (sampled) timeline mark where a person would, and check it lands on the event it names. */
async function checkMarks(page: Page, l: Lab, where: string): Promise<number> {
  const marks = page.locator('[data-testid="scene.timeline"] path.mark');
  const n = await marks.count();
  let checked = 0;
  for (const k of spread(Array.from({ length: n }, (_, i) => i), 6)) {
    const m = marks.nth(k);
    await m.scrollIntoViewIfNeeded();
    const box = (await m.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 3;
    // The mark on top at that point (marks of one nanosecond can overlap) is the one clicked.
    const hit = await page.evaluate(([px, py]) => {
      const el = document.elementFromPoint(px, py);
      return el?.classList.contains('mark') ? { event: Number(el.getAttribute('data-event')), title: el.textContent ?? '' } : null;
    }, [x, y]);
    expect(hit, `${where}: mark ${k} is under the pointer`).not.toBeNull();
    expect(hit!.title, where).toMatch(new RegExp(`^event ${hit!.event}:`));
    await page.mouse.click(x, y);
    await expect.poll(() => l.currentStep(), `${where}: the mark titled "${hit!.title}"`).toBe(hit!.event);
    checked++;
  }
  return checked;
}

/** Every report in the panel goes to its event, which is the report's own event. */
async function checkReports(page: Page, l: Lab, where: string): Promise<number> {
  const buttons = page.getByTestId('reports').getByRole('button');
  const n = await buttons.count();
  for (let k = 0; k < n; k++) {
    const text = (await buttons.nth(k).textContent())!;
    const named = Number(/^event (\d+):/.exec(text)![1]);
    await buttons.nth(k).click();
    await expect.poll(() => l.currentStep(), `${where}: report "${text}"`).toBe(named);
    expect(['REPORT', 'WARN', 'BUG']).toContain(await kindHere(page));
  }
  return n;
}

test('every timeline mark and every report lands on its event, in every scene on every kernel', async ({ page }) => {
  test.setTimeout(600_000);
  const l = new Lab(page);
  let marks = 0;
  let reports = 0;
  for (const scene of await sceneList(page)) {
    for (const variant of scene.variants) {
      const where = `${scene.id} on ${variant}`;
      await l.open(`?scene=${scene.id}&variant=${variant}&step=0`);
      marks += await checkMarks(page, l, where);
      reports += await checkReports(page, l, where);
    }
  }
  // The lessons' runs (lesson 02's give-ups among them) and the runs that end in a report.
  for (const q of [...lessons.map((x) => `?lesson=${x.id}`), '?scene=lru-batch&prog=batch,t1,p537,r1,all']) {
    await l.open(q);
    marks += await checkMarks(page, l, q);
    reports += await checkReports(page, l, q);
  }
  console.log(`exactness: ${marks} marks and ${reports} reports clicked, each on its event`);
  expect(marks).toBeGreaterThan(20);
  expect(reports).toBeGreaterThan(5);
});

test('lesson 02: the give-up marks land on their events, and the goal ticks', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?lesson=rwsem-bailout');
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '0');
  // The first give-up in shrink_slab() itself (the goal), among give-ups a few pixels apart.
  const marks = page.locator('[data-testid="scene.timeline"] path.mark');
  const events = await marks.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-event'))));
  let goal = -1;
  for (const e of events) {
    await l.goTo(0);
    await page.locator(`[data-testid="scene.timeline"] path.mark[data-event="${e}"]`).dispatchEvent('click');
    await expect.poll(() => l.currentStep()).toBe(e);
    if ((await l.site())?.func === 'shrink_slab') {
      goal = e;
      break;
    }
  }
  expect(goal).toBeGreaterThan(0);
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.tryfail').getByRole('button')).toHaveText(`at event ${goal}`);
  await l.goTo(goal + 20);
  await page.getByTestId('goal.tryfail').getByRole('button').click();
  await expect.poll(() => l.currentStep()).toBe(goal);
});

test('a heat-map slice goes to the first contention in it', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=lru-batch&step=0');
  const cells = await heatCellPoints(page);
  expect(cells.length).toBeGreaterThan(0);
  for (const cell of spread(cells, 10)) {
    await l.goTo(0);
    await page.getByTestId('lru.heat.cells').click({ position: cell });
    await expect.poll(() => l.currentStep()).toBeGreaterThan(0);
    expect(await kindHere(page)).toBe('LOCK_CONTEND');
  }
});

test('the scrubber keeps its place and size, and the counter counts as the footer does', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&step=0');
  const scrub = page.getByTestId('scene.scrub');
  const at0 = await scrub.boundingBox();
  const last = await labFields(page).then((f) => f.length - 1);
  await expect(page.getByTestId('scene.counter')).toHaveText(`event 0 of 0–${last}`);
  await expect(page.getByTestId('run.facts')).toContainText(`events 0–${last} (${last + 1})`);
  // The same point of the scrubber is the same event, from the start, from the end, while playing.
  const clickAt = async (f: number) => {
    const b = (await scrub.boundingBox())!;
    await page.mouse.click(b.x + b.width * f, b.y + b.height / 2);
    return l.currentStep();
  };
  const first = await clickAt(0.37);
  await l.goTo(last);
  await expect(page.getByTestId('scene.counter')).toHaveText(`event ${last} of 0–${last}`);
  expect(await scrub.boundingBox()).toEqual(at0);
  expect(await clickAt(0.37)).toBe(first);
  await l.goTo(7);
  await page.getByTestId('scene.play').click();
  await expect(page.getByTestId('scene.play')).toHaveText(/Pause/);
  expect(await scrub.boundingBox()).toEqual(at0);
  await page.getByTestId('scene.play').click();
  expect(await clickAt(0.37)).toBe(first);
});

test('while playing, the counter and the code pane follow at a reader’s rate; paused or stepped, they are the step’s', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=lru-batch&prog=batch,t64&step=0');
  await page.getByTestId('scene.speed').selectOption('1024');
  const counter = page.getByTestId('scene.counter');
  const shown = async () => Number((await counter.locator('b').textContent()) ?? NaN);
  const codeAt = async () => {
    const s = (await page.evaluate(() => window.__lab!.codeShown()))!;
    await expect(page.getByTestId('code.file')).toContainText(`${s.file}:${s.line}`);
  };
  await page.getByTestId('scene.play').click();
  // Playing: the counter moves on, never ahead of the step (usePlayback.ts: the reading step is a step already reached).
  const seen = new Set<number>();
  for (let i = 0; i < 8; i++) {
    const [c, step] = [await shown(), await l.currentStep()];
    expect(c).toBeLessThanOrEqual(step);
    seen.add(c);
    await page.waitForTimeout(120);
  }
  expect(seen.size, 'the counter moves while playing').toBeGreaterThan(2);
  await page.getByTestId('scene.play').click();
  await expect(page.getByTestId('scene.play')).toHaveText(/Play/);
  // Paused: exactly the step, in the counter, the scrubber and the code pane.
  const at = await l.currentStep();
  await expect(counter).toHaveText(new RegExp(`^event ${at} of`));
  await expect(page.getByTestId('scene.scrub')).toHaveValue(String(at));
  await codeAt();
  // A step: the next event's, at once.
  await page.getByTestId('scene.step').click();
  await expect(counter).toHaveText(new RegExp(`^event ${at + 1} of`));
  await codeAt();
});

test('no lane of the time axis is drawn past its end, whatever the policy (each CPU keeps its own clock)', async ({ page }) => {
  const l = new Lab(page);
  // The random policy on planted-bugs ends on an event earlier than CPU0's clock: its last lane ran past the last event.
  for (const q of ['?scene=planted-bugs&policy=random&seed=1', '?scene=shrinker-lifetime&policy=rr&seed=1', '?scene=lru-batch&policy=random&seed=1']) {
    await l.open(`${q}&step=0`);
    const r = await page.locator('.timeline').first().evaluate((box) => {
      const cv = box.querySelector('canvas')!;
      const domain = box.querySelector<SVGPathElement>('.axis path.domain')!.getBoundingClientRect();
      const c = cv.getBoundingClientRect();
      const k = cv.width / c.width;
      // Right of the axis's end (plus its stroke): nothing painted, over the lanes' height.
      const x0 = Math.ceil((domain.right - c.left + 1) * k);
      const h = Math.floor((domain.top - c.top) * k);
      if (x0 >= cv.width) return { painted: 0, x0, width: cv.width };
      const px = cv.getContext('2d')!.getImageData(x0, 0, cv.width - x0, h).data;
      let painted = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i] > 0) painted++;
      return { painted, x0, width: cv.width };
    });
    expect(r.painted, `${q}: pixels right of the axis's end ${JSON.stringify(r)}`).toBe(0);
    // And the run's facts give its time as the latest any CPU reached.
    await expect(page.getByTestId('run.facts')).toContainText('µs of virtual time');
  }
});
