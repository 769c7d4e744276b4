// SPDX-License-Identifier: GPL-2.0-only
// Talk mode: the presenter window drives the audience window, slide by
// slide and step by step, through a BroadcastChannel.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Lab, labFields } from './lab';

const lab = (page: Page) => labFields(page);
const slideOf = async (page: Page) => Number(await page.getByTestId('talk.slide').getAttribute('data-slide'));

test('presenter and audience stay identical over 20 steps of the demo', async ({ context }) => {
  const audience = await context.newPage();
  await audience.goto('?lesson=bitmap-recheck&talk=1');
  await expect(audience.getByTestId('talk.audience')).toBeVisible();
  const presenter = await context.newPage();
  await presenter.goto('?lesson=bitmap-recheck&talk=presenter');
  await expect(presenter.getByTestId('talk.presenter')).toBeVisible();
  await expect(presenter.getByTestId('talk.notes')).toBeVisible();
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);

  // To the demo slide, from the presenter's keyboard.
  for (let i = 0; i < 3; i++) await presenter.keyboard.press('ArrowRight');
  await expect.poll(() => slideOf(audience)).toBe(3);
  await expect(audience.getByTestId('talk.slide')).toContainText('CPU0');
  await expect(presenter.getByTestId('talk.next-slide')).toHaveText('Goals');

  // The speaker shows the solution's kernel and schedule, then steps it.
  await presenter.getByTestId('scene.seed').fill('88');
  await presenter.getByTestId('scene.seed').press('Enter');
  await presenter.getByTestId('scene.policy').selectOption('random');
  await expect.poll(async () => {
    const a = await lab(audience);
    return a.ready && a.seed === 88;
  }).toBe(true);
  for (let i = 0; i < 20; i++) {
    await presenter.getByTestId('scene.step').click();
    const p = await lab(presenter);
    await expect.poll(async () => (await lab(audience)).step).toBe(p.step);
    expect(await audience.evaluate(() => window.__lab!.narration())).toBe(
      await presenter.evaluate(() => window.__lab!.narration()),
    );
  }
  expect((await lab(audience)).step).toBe(20);
  await audience.screenshot({ path: 'test-results/talk-audience.png' });
  await presenter.screenshot({ path: 'test-results/talk-presenter.png' });
});

test('talk keys: arrows move, ? shows help, . steps the demo', async ({ page }) => {
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect(page.getByTestId('talk.audience')).toBeVisible();
  await expect(page.getByTestId('talk.slide')).toContainText('Where shrinkers sit in reclaim');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => slideOf(page)).toBe(1);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => slideOf(page)).toBe(0);
  await page.keyboard.press('?');
  await expect(page.getByTestId('keys.help')).toContainText('fullscreen');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keys.help')).toHaveCount(0);
  await expect.poll(async () => (await lab(page)).ready).toBe(true);
  await page.keyboard.press('.');
  await expect.poll(async () => (await lab(page)).step).toBe(1);
});

/** Press → until the slide of this kind is shown; its index. */
async function toSlide(page: Page, kind: string) {
  for (let i = 0; i < 20; i++) {
    if ((await page.getByTestId('talk.slide').getAttribute('data-kind')) === kind) return slideOf(page);
    await page.keyboard.press('ArrowRight');
  }
  throw new Error(`no ${kind} slide`);
}

test('the Goals slide ticks each goal once the demo has passed it', async ({ page }) => {
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect.poll(async () => (await lab(page)).ready).toBe(true);
  await toSlide(page, 'goals');
  const goals = page.locator('[data-testid^="talk.goal."]');
  await expect(goals).toHaveCount(2);
  for (const g of await goals.all()) await expect(g).toHaveAttribute('data-met', '0');
  // Step the demo (from the goals slide: the keys step it on any slide) to where do_shrink_slab() traces.
  const scan = await page.evaluate(() => window.__lab!.find('SHRINK_START', 0));
  expect(scan).toBeGreaterThan(0);
  await page.evaluate((n) => window.__lab!.goTo(n - 1), scan);
  await expect(page.getByTestId('talk.goal.scan')).toHaveAttribute('data-met', '0');
  await page.keyboard.press('.');
  await expect(page.getByTestId('talk.goal.scan')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('talk.goal.scan')).toContainText(`✔`);
  await expect(page.getByTestId('talk.goal.scan')).toContainText(`at event ${scan}`);
  await expect(page.getByTestId('talk.goal.count')).toHaveAttribute('data-met', '1');
  await page.keyboard.press(',');
  await expect(page.getByTestId('talk.goal.scan')).toHaveAttribute('data-met', '0');
});

test('the patch slide shows the hunk from the branch diff, changed lines marked, and the message-id', async ({ page }) => {
  const manifest = JSON.parse(readFileSync('kernel-tree/manifest.json', 'utf8')) as { series: { id: string; cover: string }[] };
  const lesson = JSON.parse(readFileSync('lessons/05-bitmap-recheck.json', 'utf8')) as {
    start: { variant: string };
    patch: { series: string; branch: string; file: string; lines: [number, number] };
  };
  const kernels = (JSON.parse(readFileSync('kernel-tree/manifest.json', 'utf8')) as { kernels: { name: string; branch: string; base?: string }[] }).kernels;
  const kernel = kernels.find((k) => k.name === lesson.start.variant)!;
  await page.goto('?lesson=bitmap-recheck&talk=1');
  await toSlide(page, 'patch');
  const code = page.getByTestId('talk.patch.code');
  // The lesson runs a break: the diff shown is its base's against it, where the recheck is removed.
  await expect(page.getByTestId('talk.patch.diff')).toHaveText(`${kernel.base}..${kernel.branch}`);
  await expect(code.locator('.pl-del').first()).toBeVisible();
  await expect(page.getByTestId('talk.message-id')).toHaveText(manifest.series.find((s) => s.id === lesson.patch.series)!.cover);
  // Every line on the lesson's side is that line of the file on its branch.
  const truth = Lab.kernelLines(lesson.patch.branch, lesson.patch.file, lesson.patch.lines[1] + 10);
  const shown = await code.locator('.pl-ctx, .pl-del').evaluateAll((els) =>
    els.map((e) => [Number(e.querySelector('.ln')!.textContent), e.querySelector('.src')!.textContent] as const),
  );
  expect(shown.length).toBeGreaterThan(5);
  for (const [n, text] of shown) expect(text === ' ' ? '' : text).toBe(truth[n - 1]);
  const [first, last] = lesson.patch.lines;
  expect(shown.some(([n]) => n >= first && n <= last)).toBe(true);
  await page.screenshot({ path: 'test-results/talk-patch.png' });
});

test('z zooms the code pane on the lit line; b blacks the audience screen out and back, from the presenter', async ({ context }) => {
  const audience = await context.newPage();
  await audience.setViewportSize({ width: 1920, height: 1080 });
  await audience.goto('?lesson=intro-reclaim&talk=1');
  const presenter = await context.newPage();
  await presenter.goto('?lesson=intro-reclaim&talk=presenter');
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);
  await presenter.keyboard.press('?');
  await expect(presenter.getByTestId('keys.help')).toContainText('zoom the code pane');
  await expect(presenter.getByTestId('keys.help')).toContainText('black the screen out');
  await presenter.keyboard.press('Escape');
  await toSlide(presenter, 'demo');
  await expect.poll(() => slideOf(audience)).toBe(await slideOf(presenter));
  for (let i = 0; i < 30; i++) await presenter.keyboard.press('.');
  await expect.poll(async () => (await lab(audience)).step).toBe(30);
  const lit = audience.getByTestId('code.line.current');
  const size = () => lit.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(await size()).toBeGreaterThanOrEqual(22);
  await presenter.keyboard.press('z');
  await expect(audience.getByTestId('talk.demo')).toHaveClass(/zoom/);
  await expect.poll(size).toBeGreaterThanOrEqual(34);
  // The lit line is inside the code pane's visible box, whole.
  const inside = async () => {
    const body = await audience.getByTestId('code.body').boundingBox();
    const l = await lit.boundingBox();
    return !!body && !!l && l.y >= body.y && l.y + l.height <= body.y + body.height;
  };
  await expect.poll(inside).toBe(true);
  await audience.screenshot({ path: 'test-results/talk-zoom.png' });
  await presenter.keyboard.press('z');
  await expect(audience.getByTestId('talk.demo')).not.toHaveClass(/zoom/);

  await expect(audience.getByTestId('talk.blackout')).toHaveCount(0);
  await presenter.keyboard.press('b');
  await expect(audience.getByTestId('talk.blackout')).toBeVisible();
  await expect(presenter.getByTestId('talk.black-badge')).toBeVisible();
  await expect(presenter.getByTestId('talk.blackout')).toHaveCount(0); // the speaker still sees the slide
  // What the audience sees is black: the element on top at the slide's centre is the blackout.
  expect(await audience.evaluate(() => document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.getAttribute('data-testid'))).toBe('talk.blackout');
  await presenter.keyboard.press('b');
  await expect(audience.getByTestId('talk.blackout')).toHaveCount(0);
});

test('presenter and audience stay identical over a keyboard-only run of 50 steps; the presenter sees the next decision', async ({ context }) => {
  const audience = await context.newPage();
  await audience.setViewportSize({ width: 1280, height: 720 });
  await audience.goto('?lesson=intro-reclaim&talk=1');
  const presenter = await context.newPage();
  await presenter.goto('?lesson=intro-reclaim&talk=presenter');
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);
  await toSlide(presenter, 'demo');
  await expect.poll(() => slideOf(audience)).toBe(await slideOf(presenter));
  await expect(presenter.getByTestId('sched.panel')).toBeVisible();
  await expect(audience.getByTestId('sched.panel')).toHaveCount(0); // no presenter controls for the audience
  await expect(audience.locator('.controls')).toHaveCount(0);
  // What the slide says: the timeline's cursor, the scene, the code pane's file and lit line, the caption
  // (the code pane draws as many lines around the lit one as its height holds, which differs).
  const slideText = (p: Page) =>
    p.getByTestId('talk.slide').evaluate((e) =>
      [
        e.querySelector('[data-testid="scene.timeline"]')?.getAttribute('aria-label'),
        ...[...e.querySelectorAll<HTMLElement>('.talk-scene, .code-head, [data-testid="code.line.current"], .talk-caption')].map((x) => x.innerText),
      ].join('\n'),
    );
  let at = 0;
  for (let i = 1; i <= 50; i++) {
    await presenter.keyboard.press(i % 10 === 0 ? 'Shift+.' : '.');
    at += i % 10 === 0 ? 10 : 1;
    await expect.poll(async () => (await lab(presenter)).step).toBe(at);
    await expect.poll(async () => (await lab(audience)).step).toBe(at);
    const said = await slideText(presenter);
    await expect.poll(() => slideText(audience)).toBe(said);
  }
  expect(at).toBe(45 + 5 * 10);
  await audience.screenshot({ path: 'test-results/talk-audience-50.png' });
  await presenter.screenshot({ path: 'test-results/talk-presenter-50.png' });
});

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
]) {
  test(`the audience window never scrolls: its document is no taller or wider than the window, at ${w}×${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('?deck=five-series');
    await expect.poll(async () => (await lab(page)).ready).toBe(true);
    for (const kind of ['title', 'demo']) {
      await toSlide(page, kind);
      const size = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));
      expect(size.h, `${kind}: document height`).toBeLessThanOrEqual(h);
      expect(size.w, `${kind}: document width`).toBeLessThanOrEqual(w);
      // A touchpad nudge, and the menu brought up by the pointer: the projected slide stays where it is.
      await page.mouse.move(w / 2, h / 2);
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(100);
      expect(await page.evaluate(() => [window.scrollX, window.scrollY]), `${kind}: scrolled`).toEqual([0, 0]);
      const slide = (await page.getByTestId('talk.slide').boundingBox())!;
      expect(slide.y + slide.height).toBeLessThanOrEqual(h + 0.5);
    }
  });
}

test('a lit line wider than a slide\'s code pane wraps: the line and its statement whole in the pane, nothing cut at its edge', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect.poll(async () => (await lab(page)).ready).toBe(true);
  await toSlide(page, 'demo');
  const length = (await lab(page)).length;
  // The first events whose lit line is wider than the pane: drawn on more than one row.
  let checked = 0;
  for (let n = 0; n < length && checked < 3; n++) {
    await page.evaluate((k) => window.__lab!.goTo(k), n);
    await expect.poll(async () => (await lab(page)).step).toBe(n);
    const r = await page.evaluate(async () => {
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      const body = document.querySelector<HTMLElement>('[data-testid="talk.slide"] [data-testid="code.body"]');
      const line = body?.querySelector<HTMLElement>('.code-line.current');
      if (!body || !line) return null;
      const row = parseFloat(getComputedStyle(line).lineHeight);
      if (line.offsetHeight < 1.5 * row) return null;
      const b = body.getBoundingClientRect();
      const stmt = [...body.querySelectorAll<HTMLElement>('.code-line.current, .code-line.stmt')].map((e) => e.getBoundingClientRect());
      const inside = stmt.every((e) => e.top >= b.top - 1 && e.bottom <= b.bottom + 1 && e.left >= b.left - 1 && e.right <= b.right + 1);
      return { text: line.textContent, rows: Math.round(line.offsetHeight / row), inside, sw: body.scrollWidth, cw: body.clientWidth };
    });
    if (!r) continue;
    checked++;
    expect(r.inside, `event ${n}: ${JSON.stringify(r)}`).toBe(true);
    expect(r.sw, `event ${n}: nothing past the pane's right edge`).toBeLessThanOrEqual(r.cw);
  }
  expect(checked).toBe(3);
  await page.screenshot({ path: test.info().outputPath('wrapped-line-1280x720.png') });
});

test('a talk file: the presenter moves to live slides of other scenes, the audience follows, and the demo steps from each permalink', async ({ context }) => {
  const audience = await context.newPage();
  await audience.goto('?deck=five-series');
  await expect(audience.getByTestId('talk.audience')).toBeVisible();
  const presenter = await context.newPage();
  await presenter.goto('?deck=five-series&talk=presenter');
  await expect(presenter.getByTestId('talk.notes')).toContainText('0:00');
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);
  const talk = JSON.parse(readFileSync('talks/five-series.json', 'utf8')) as { slides: { live?: string }[] };
  // Every live slide in turn, from the presenter's keyboard: both windows stand at its permalink's scene, kernel and step.
  for (let s = 1; s < talk.slides.length; s++) {
    await presenter.keyboard.press('ArrowRight');
    await expect.poll(() => slideOf(audience)).toBe(s);
    const live = talk.slides[s].live;
    if (!live) continue;
    const q = new URLSearchParams(live.slice(live.indexOf('?')));
    for (const p of [presenter, audience])
      await expect.poll(async () => {
        const l = await lab(p);
        return `${l.scene} ${l.variant} ${l.seed} ${l.memory} ${l.step}`;
      }).toBe(`${q.get('scene')} ${q.get('variant')} ${q.get('seed')} ${q.get('memory') ?? 'sc'} ${q.get('step')}`);
    // The speaker steps it (back: some stand at their run's last event), and the audience follows.
    await presenter.keyboard.press(',');
    await expect.poll(async () => (await lab(presenter)).step, 'presenter').toBe(Number(q.get('step')) - 1);
    await expect.poll(async () => (await lab(audience)).step).toBe(Number(q.get('step')) - 1);
  }
  await expect(presenter.getByTestId('talk.next-slide')).toHaveText('the end');
  // Back to a live slide already shown: its state is loaded again, in the other scene.
  let back = -1; // the last live slide of shrinker-lifetime
  talk.slides.forEach((x, i) => x.live?.includes('scene=shrinker-lifetime') && (back = i));
  expect(back).toBeGreaterThan(0);
  for (let i = talk.slides.length - 1; i > back; i--) await presenter.keyboard.press('ArrowLeft');
  await expect.poll(() => slideOf(audience)).toBe(back);
  await expect.poll(async () => (await lab(audience)).scene).toBe('shrinker-lifetime');
  await expect(audience.locator('[data-testid="talk.slide"] [data-testid="code.line.current"]')).toBeVisible();
});

test('the presenter\'s slide is the audience\'s; the form that changes the run is beside it, and the audience follows it', async ({ context }) => {
  const audience = await context.newPage();
  await audience.setViewportSize({ width: 1920, height: 1080 });
  await audience.goto('?deck=five-series');
  const presenter = await context.newPage();
  await presenter.setViewportSize({ width: 1920, height: 1080 });
  await presenter.goto('?deck=five-series&talk=presenter');
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);
  // The talk's first live slide of memcg-bitmap, the scene with the By hand actions.
  const talk = JSON.parse(readFileSync('talks/five-series.json', 'utf8')) as { slides: { live?: string }[] };
  const at = talk.slides.findIndex((s) => s.live?.includes('scene=memcg-bitmap'));
  expect(at).toBeGreaterThan(0);
  for (let i = 0; i < at; i++) await presenter.keyboard.press('ArrowRight');
  await expect.poll(() => slideOf(audience)).toBe(at);
  const slide = presenter.getByTestId('talk.slide');
  await expect(slide.getByTestId('bitmap.matrix')).toBeVisible();
  // On the slide: what the audience sees, whole in its box, and no form.
  await expect(slide.getByTestId('bitmap.actions')).toHaveCount(0);
  await expect(audience.getByTestId('bitmap.actions')).toHaveCount(0);
  const fits = (page: Page) =>
    page.evaluate(() => {
      const s = document.querySelector<HTMLElement>('[data-testid="talk.slide"] .talk-scene')!;
      return s.scrollHeight <= s.clientHeight + 1 && s.scrollWidth <= s.clientWidth + 1;
    });
  expect(await fits(presenter)).toBe(true);
  // Beside it, the presenter's form: a global pass added by hand is run, and both windows stand where it went.
  const form = presenter.getByTestId('talk.form');
  await expect(form.getByTestId('bitmap.actions')).toBeVisible();
  const before = (await lab(presenter)).prog;
  await form.getByTestId('action.pass').click();
  await expect.poll(async () => (await lab(presenter)).prog).not.toBe(before);
  const prog = (await lab(presenter)).prog;
  await expect.poll(async () => (await lab(audience)).prog).toBe(prog);
  await expect.poll(async () => (await lab(audience)).step).toBe((await lab(presenter)).step);
  await expect(slide.getByTestId('bitmap.actions')).toHaveCount(0);
  expect(await fits(presenter)).toBe(true);
});
