// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene, on the RFC's port on 6.12's folio LRU: the strip
// rebuilt from the kernel's list operations, the code pane on their lines,
// the thread's release_pages() bug and why 6.12 cannot hit it, a removal
// made to wait for lru_lock over a sentinel by stepping CPUs by hand, the
// heat map, and the RFC's table run in the page.
import { expect, test, type Page } from '@playwright/test';
import { heatCellPoints, Lab, labFields, modelState } from './lab';

interface LruState {
  removing: Record<number, { page: number; sentinel: boolean }>;
  lru: { length: number };
  holder: Record<number, number>;
  doing: Record<number, string>;
  collisions: number;
  sentinelCollisions: number;
  lastCollision: { lock: number; ownerSentinel: boolean; spinnerSentinel: boolean } | null;
  bug: { text: string } | null;
  machine: { tasks: { id: number; name: string; cpu: number }[] };
}

const state = (page: Page) => modelState<LruState>(page);
const nextDecision = (page: Page) =>
  page.evaluate(() => window.__lab!.nextDecision());
const eventAt = (page: Page) =>
  page.evaluate(() => window.__lab!.event()!);

test('the strip is the list the port traced, and the code pane shows the port’s line', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&step=1500');
  const s = await state(page);
  expect(s.lru.length).toBeGreaterThan(0);
  // The canvas drew a page per page on the list; the text form draws sentinels and inner pages as the cover letter does.
  const strip = page.getByTestId('lru.strip');
  await expect(strip).toHaveAttribute('data-pages', String(s.lru.length));
  // Each page is named under the pointer, as the SVG's titles named it: the first after the head is a sentinel.
  await strip.hover({ position: { x: 58, y: 20 } });
  await expect(strip).toHaveAttribute('title', /^folio \d+: batch lock \d+, a sentinel$/);
  await strip.hover({ position: { x: 20, y: 20 } });
  await expect(strip).toHaveAttribute('title', /list head/);
  const text = await page.getByTestId('lru.text').textContent();
  expect(text).toMatch(/^[*o ]+$/);
  expect(text!.replace(/ /g, '').length).toBe(s.lru.length);
  expect(text).toMatch(/\*o+\*/); // a full batch: sentinels at its edges, inner pages between

  // Go to the next folio linked on, and read its line on the branch: the list_add() of the port's __lruvec_add_folio().
  const add = await page.evaluate(() => window.__lab!.find('LRU_ADD', 1500));
  expect(add).toBeGreaterThan(0);
  await lab.goTo(add);
  const site = await lab.site();
  expect(site?.tree).toBe('lru-batch-port');
  expect(site?.file).toBe('include/linux/mm_inline.h');
  expect(site?.func).toBe('__lruvec_add_folio');
  expect(Lab.kernelLine('lru-batch-port', site!.file, site!.line)).toMatch(/^\tlist_add\(&folio->lru, head\);$/);
  await expect(lab.highlightedLine()).toContainText('list_add(&folio->lru, head);');
  await expect(page.getByTestId('code.pane').getByText(/project port of “lru_lock scalability” on 6\.12’s real LRU/)).toBeVisible();
  await expect(page.getByTestId('series.code')).toContainText('project port of “lru_lock scalability” (not upstream code) on 6.12’s real LRU');
});

test('the strip out of view keeps its drawing, and draws the step shown as it comes into view', async ({ page }) => {
  // A short window: the strip is well below the fold (and below the margin it is drawn ahead of the view in). The page
  // puts it high (above the fold at 1280×720), so the window is very short.
  await page.setViewportSize({ width: 1280, height: 240 });
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&step=1500');
  const strip = page.getByTestId('lru.strip');
  const before = (await state(page)).lru.length;
  await expect(strip).toHaveAttribute('data-pages', String(before));
  expect(await strip.evaluate((el) => el.getBoundingClientRect().top - window.innerHeight)).toBeGreaterThan(300);
  await lab.goTo(Math.floor((await page.evaluate(() => window.__lab!.length)) / 2));
  const after = (await state(page)).lru.length;
  expect(after).not.toBe(before);
  // Two frames later the canvas still shows what it drew; scrolled to, it draws the step's list.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(strip).toHaveAttribute('data-pages', String(before));
  await strip.scrollIntoViewIfNeeded();
  await expect(strip).toHaveAttribute('data-pages', String(after));
});

test('the thread’s bug: 537 pages in one release_pages() run clean on 6.12, and the story says why', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch');
  await page.getByTestId('lru.bug').click();
  await expect(page).toHaveURL(/prog=t1%2Cp537%2Cr1%2Call/);
  await expect(page.getByTestId('scene.ready')).toBeVisible();
  await page.keyboard.press('End');
  const meta = await page.evaluate(() => window.__lab!.meta()!);
  expect(meta.status).toBe('done');
  expect(meta.reports).toHaveLength(0);
  expect((await state(page)).bug).toBeNull();
  await expect(page.getByTestId('lru.bug.story')).toContainText('a BUILD_BUG_ON holds the bound');
  await expect(page.getByTestId('lru.bug.story')).toContainText('537 pages cannot overrun it');
});

test('stepping CPUs by hand, a sentinel’s removal waits for lru_lock', async ({ page }) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch');
  await page.getByTestId('lru.preset.collide').click(); // two tasks whose pages share one batch
  await expect(page).toHaveURL(/prog=t2%2Cp7%2Cr1/);
  await expect(page.getByTestId('scene.ready')).toBeVisible();
  await lab.goTo(0);
  // Under the timed policy the two unmaps never meet: nobody spins in release_pages().
  await page.keyboard.press('End');
  expect((await state(page)).collisions).toBe(0);
  await lab.goTo(0);

  // A person's rule: bring both tasks into release_pages() (whose lru_add drain puts each task's folios on the list);
  // then let one of them go on until it holds lru_lock and has taken a sentinel off, and give the next step to the other.
  let found = false;
  for (let n = 0; n < 400 && !found; n++) {
    const d = await nextDecision(page);
    if (!d) break;
    const s = await state(page);
    const taskOn = (cpu: number) => s.machine.tasks.find((t) => t.cpu === cpu && t.name.startsWith('pf1-'))!.id;
    const inRelease = (cpu: number) => s.doing[taskOn(cpu)] === 'release_pages';
    const holds = (cpu: number) => Object.values(s.holder).includes(taskOn(cpu));
    const offSentinel = (cpu: number) => s.holder[-1] === taskOn(cpu) && !!s.removing[taskOn(cpu)]?.sentinel;
    let cpu = d.cpu;
    const other = d.runnable.find((c) => c !== d.cpu);
    if (other !== undefined) {
      const [a, b] = [d.cpu, other];
      if (inRelease(a) !== inRelease(b)) cpu = inRelease(a) ? b : a; // let the other catch up
      else if (inRelease(a)) {
        if (offSentinel(a)) cpu = b;
        else if (offSentinel(b)) cpu = a;
        else if (holds(b) && !holds(a)) cpu = b; // the one under way goes on
      }
    }
    await page.getByTestId(`sched.cpu.${cpu}`).click();
    await expect.poll(() => lab.currentStep()).toBe(d.event);
    const now = await state(page);
    found = now.sentinelCollisions > 0;
  }
  expect(found).toBe(true);
  await expect(page).toHaveURL(/sched=/);
  const c = (await state(page)).lastCollision!;
  expect(c.ownerSentinel).toBe(true);
  await expect(page.getByTestId('lru.collision')).toContainText(c.spinnerSentinel ? 'is taking a sentinel off' : 'two removals meet');
  const ev = await eventAt(page);
  expect(ev.kindName).toBe('LOCK_CONTEND');
  // The spinning CPU is shown on the lock it waits for.
  await expect(page.getByTestId(`lru.lock.${c.lock < 0 ? 'lru' : c.lock}`)).toContainText('spinning: CPU');
});

test('the heat map takes you to a slice’s first contention', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&prog=t16,p28,r1');
  const cells = page.getByTestId('lru.heat.cells');
  await expect(cells).toBeVisible();
  const [cell] = await heatCellPoints(page);
  await cells.hover({ position: cell });
  await expect(cells).toHaveAttribute('title', /^(lru_lock|batch lock \d+): .* of spinning in this slice; click for its first contention$/);
  await cells.click({ position: cell });
  await expect.poll(async () => (await eventAt(page)).kindName).toBe('LOCK_CONTEND');
});

test('the setup goes into the link, and the kernel picker chooses the locking', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&variant=lru-splice');
  await page.getByTestId('lru.setup.tasks').fill('4');
  await page.getByTestId('lru.setup.apply').click();
  await expect(page).toHaveURL(/prog=t4%2Cp28%2Cr2/);
  await expect(page).toHaveURL(/variant=lru-splice/);
  await expect(page.getByTestId('scene.ready')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__lab!.meta()!.cpus)).toBe(4);
  // A bad setup: a notice, and the scene's default setup runs.
  await lab.open('?scene=lru-batch&prog=t99');
  await expect(page.locator('[data-testid="url.notice"][data-param="prog"]')).toContainText('tasks must be 1 to 64');
});

test('the RFC’s table: on 6.12 splicing beats one lru_lock from 16 tasks on, batch locks alone do not, and it can be cancelled', async ({ page }) => {
  test.setTimeout(180_000);
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch');
  await page.getByTestId('figures.run').click();
  await expect(page.getByTestId('figures.progress')).toBeVisible();
  await page.getByTestId('figures.cancel').click();
  await expect(page.getByTestId('figures.error')).toHaveText('Cancelled.');

  await page.getByTestId('figures.run').click();
  await expect(page.getByTestId('figures.verdict')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('figures.verdict')).toContainText(
    // docs/performance.md: on 6.12's folio LRU batch locks alone take lru_lock more often than v6.12 does
    'From 16 tasks on, batch locks do not beat one lru_lock, batch locks with splicing beat it, and splicing beats batch locks alone',
  );
  for (const t of [1, 4, 16, 32, 64]) await expect(page.getByTestId(`figures.splice.${t}`)).toContainText(' M');
  // The page kept stepping meanwhile.
  await lab.step();
});

test('the RFC’s table run in parallel workers is the table run in one', async ({ browser }) => {
  test.setTimeout(240_000);
  // The pool takes one worker per core the browser reports: one, then four.
  const table = async (cores: number) => {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    await context.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
    const page = await context.newPage();
    await new Lab(page).open('?scene=lru-batch');
    await page.getByTestId('figures.pages').fill('14');
    await page.getByTestId('figures.rounds').fill('1');
    await page.getByTestId('figures.run').click();
    await expect(page.getByTestId('figures.took')).toHaveAttribute('data-workers', String(cores), { timeout: 200_000 });
    const rows = await page.getByTestId('figures.table').locator('tbody').innerText();
    await context.close();
    return rows;
  };
  const serial = await table(1);
  expect(serial).toMatch(/\d\.\d\d M/);
  expect(await table(4)).toBe(serial);
});

test('the time axis paints each CPU’s lane, and names what the CPU does under the pointer', async ({ page }) => {
  const lab = new Lab(page);
  // 64 CPUs: the lanes are painted as pixels, a dozen intervals to a pixel (ui/lanePixels.ts).
  await lab.open('?scene=lru-batch&prog=t64,p64,r1');
  const axis = page.getByTestId('scene.timeline');
  const canvas = page.locator('.panel.timeline canvas');
  for (const cpu of [0, 31, 63]) {
    const label = await axis.locator('text.lane-label', { hasText: new RegExp(`^CPU${cpu}$`) }).boundingBox();
    const box = (await axis.boundingBox())!;
    const point = { x: label!.x + label!.width + 120 - box.x, y: label!.y + label!.height / 2 - box.y };
    // The pixel under the point is painted: the lane is there to see.
    const alpha = await canvas.evaluate((cv: HTMLCanvasElement, p) => {
      const k = cv.width / cv.clientWidth;
      return cv.getContext('2d')!.getImageData(Math.round(p.x * k), Math.round(p.y * k), 1, 1).data[3];
    }, point);
    expect(alpha, `CPU${cpu}`).toBeGreaterThan(0);
    await axis.hover({ position: point });
    await expect(axis.locator('title')).toHaveText(new RegExp(`^CPU${cpu} (runs|spins in|idle)`));
  }
});

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
]) {
  test(`the LRU strip, the scene's subject, is above the fold at ${w}×${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const l = new Lab(page);
    await l.open('?scene=lru-batch');
    const n = (await labFields(page)).length;
    for (const at of [0, Math.floor(n / 2)]) {
      await l.goTo(at);
      await page.evaluate(() => window.scrollTo(0, 0));
      const strip = (await page.getByTestId('lru.strip').boundingBox())!;
      // Whole at the start; later (a longer list, more rows) its first row at least.
      if (at === 0) expect(strip.y + strip.height, `event ${at}: the strip ends at y = ${strip.y + strip.height}`).toBeLessThanOrEqual(h);
      else expect(strip.y + 40, `event ${at}: the strip starts at y = ${strip.y}`).toBeLessThanOrEqual(h);
    }
    await page.screenshot({ path: test.info().outputPath(`lru-batch-${w}x${h}.png`) });
  });
}
