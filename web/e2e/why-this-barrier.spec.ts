// SPDX-License-Identifier: GPL-2.0-only
// Lesson why-this-barrier done by its text alone: on break-no-mb-recheck
// the Explore panel finds nothing under sc and tso and the lost bit under
// relaxed (the figures its hint states are the page's), the counterexample
// opens under relaxed at the WARN with its stale read, v6.12 under relaxed
// finds nothing, and the lines it cites are the tree's. Then: a talk
// slide's memory model reaches the page and both windows of the talk.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Lab, labFields } from './lab';

interface LessonFile { text: string[]; hints: string[]; solution: { sched: string; memory: string } }
const LESSON = JSON.parse(readFileSync('lessons/14-why-this-barrier.json', 'utf8')) as LessonFile;

/** The figures the lesson's hint states: executions (and failing ones) at bound 1, per kernel and model. */
function statedFigures() {
  const h = LESSON.hints.find((t) => /executions under sc/.test(t))!;
  const m = /runs (\d+) executions under sc and (\d+) under tso, none failing, and (\d+) under relaxed, of which (\d+) fail; the shortest takes (\d+) decisions.*v6\.12 under relaxed it runs (\d+), none failing/.exec(h);
  expect(m, `the hint states the figures: ${h}`).not.toBeNull();
  const [sc, tso, relaxed, failing, decisions, v612] = m!.slice(1).map(Number);
  return { sc, tso, relaxed, failing, decisions, v612 };
}

async function explore(page: Page, bound: number) {
  const panel = page.getByTestId('explore');
  await panel.getByTestId('explore.bound').selectOption(String(bound));
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toBeVisible({ timeout: 120_000 });
  return (await panel.getByTestId('explore.verdict').textContent())!;
}

/** The run shown has settled on a model (the picker changed it, a new run was made). */
async function memoryIs(page: Page, model: string) {
  await expect(page.getByTestId('scene.memory')).toHaveValue(model);
  await expect.poll(async () => { const l = await labFields(page); return l.ready && l.memory; }).toBe(model);
}

test('lesson why-this-barrier by its text alone: nothing fails under sc and tso, the lost bit under relaxed, none on v6.12', async ({ page }, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new Lab(page);
  await lab.open('?lesson=why-this-barrier');
  const goals = ['stale', 'warn', 'lost'];
  for (const g of goals) await expect(page.getByTestId(`goal.${g}`)).toHaveAttribute('data-met', '0');
  const words = (await page.getByTestId('lesson').textContent())!;
  for (const w of ['memory menu', 'at most 1 preemption', 'Explore', 'set memory to tso', 'Set memory to relaxed', 'Open the shortest failing schedule', 'Stale read', 'set the kernel to v6.12'])
    expect(words).toContain(w);
  const want = statedFigures();
  const panel = page.getByTestId('explore');

  // "Start under sc, the menu's default ... choose at most 1 preemption and Explore."
  await memoryIs(page, 'sc');
  expect(await explore(page, 1)).toMatch(new RegExp(`^No execution fails with at most 1 preemption \\(${want.sc} executions`));
  // "Now set memory to tso and Explore again (the panel clears what it found under sc)".
  await page.getByTestId('scene.memory').selectOption('tso');
  await memoryIs(page, 'tso');
  await expect(panel.getByTestId('explore.note')).toHaveText(/Cleared: what was found was under the sc memory model, and the run is now under tso/);
  await expect(panel.getByTestId('explore.verdict')).toHaveCount(0);
  await expect(panel.getByTestId('explore.bars')).toHaveCount(0);
  expect(await explore(page, 1)).toMatch(new RegExp(`^No execution fails with at most 1 preemption \\(${want.tso} executions`));
  // "Set memory to relaxed and Explore once more: now some executions fail, with the WARN for the lost bit."
  await page.getByTestId('scene.memory').selectOption('relaxed');
  await memoryIs(page, 'relaxed');
  await expect(panel.getByTestId('explore.note')).toHaveText(/under the tso memory model/);
  expect(await explore(page, 1)).toBe(`Fails: ${want.failing} of ${want.relaxed} executions with at most 1 preemption.`);
  const first = panel.getByTestId('explore.counterexample').first();
  await expect(first).toHaveText(new RegExp(`^1 preemption, ${want.decisions} decisions: WARNING at .* race\\(\\)`));
  await panel.screenshot({ path: info.outputPath('why-this-barrier-explore-relaxed.png') });

  // "Open the shortest failing schedule: the page replays it under relaxed and stands at the WARN."
  await first.click();
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => (await labFields(page)).ready).toBe(true);
  await expect(page).toHaveURL(/lesson=why-this-barrier/);
  await expect(page).toHaveURL(/memory=relaxed/);
  await memoryIs(page, 'relaxed');
  expect((await page.evaluate(() => window.__lab!.event()!)).kindName).toBe('WARN');
  await expect(page.getByTestId('goal.warn')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.stale')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.lost')).toHaveAttribute('data-met', '0');
  const warnAt = await lab.currentStep();
  // "... one step past the WARN the race returns 1".
  await lab.step();
  await expect.poll(() => lab.currentStep()).toBe(warnAt + 1);
  await expect(page.getByTestId('goal.lost')).toHaveAttribute('data-met', '1');
  // Every goal met, by the learner's own run: the real lines at the end.
  await expect(page.getByTestId('lesson.patch')).toContainText('mm/shrinker.c lines 561–582 on branch v6.12');
  // "Step back to the stale read": the goal's button stands at it; the panel and the code pane say so.
  await page.getByTestId('goal.stale').getByRole('button').click();
  const staleAt = await lab.currentStep();
  expect(staleAt).toBeLessThan(warnAt);
  expect(await lab.site()).toMatchObject({ file: 'mm/list_lru.c', line: 189, func: 'list_lru_count_one', expr: 'l->nr_items' });
  await expect(page.getByTestId('event.stale')).toContainText('Stale read. CPU0 read l->nr_items');
  await expect(page.getByTestId('code.also')).toContainText('Stale read');
  await expect(lab.highlightedLine()).toHaveAttribute('data-line', '189');
  await page.screenshot({ path: info.outputPath('why-this-barrier-stale-1280x720.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: info.outputPath('why-this-barrier-stale-1920x1080.png') });
  await page.setViewportSize({ width: 1280, height: 720 });

  // "Last, put the barrier back: set the kernel to v6.12, keep memory at relaxed, and Explore at 1 preemption."
  await page.getByTestId('scene.variant').selectOption('v6.12');
  await expect.poll(async () => { const l = await labFields(page); return l.ready && l.variant; }).toBe('v6.12');
  await memoryIs(page, 'relaxed');
  expect(await explore(page, 1)).toMatch(new RegExp(`^No execution fails with at most 1 preemption \\(${want.v612} executions`));
  console.log(`why-this-barrier at bound 1: break-no-mb-recheck sc ${want.sc}, tso ${want.tso}, relaxed ${want.failing}/${want.relaxed} (shortest ${want.decisions} decisions); v6.12 relaxed ${want.v612}`);
});

test('the lines lesson why-this-barrier cites are the tree\'s', () => {
  const text = LESSON.text.join(' ');
  const cited: [string, string, number, RegExp][] = [
    ['v6.12', 'mm/shrinker.c', 577, /smp_mb__after_atomic\(\);/],
    ['v6.12', 'mm/shrinker.c', 561, /clear_bit\(offset, unit->map\);/],
    ['v6.12', 'mm/shrinker.c', 578, /ret = do_shrink_slab\(/],
    ['v6.12', 'mm/shrinker.c', 216, /smp_mb__before_atomic\(\);/],
    ['v6.12', 'mm/shrinker.c', 217, /set_bit\(/],
    ['v6.12', 'mm/shrinker.c', 569, /The memory barrier here pairs with the barrier in/],
    ['v6.12', 'mm/shrinker.c', 575, /set_bit\(\)\s+do_shrink_slab\(\)/],
    ['v6.12', 'mm/shrinker.c', 582, /set_shrinker_bit\(memcg, nid, shrinker_id\);/],
    ['v6.12', 'mm/list_lru.c', 189, /READ_ONCE\(l->nr_items\)/],
    ['v6.12', 'mm/list_lru.c', 100, /l->nr_items\+\+/],
    ['v6.12', 'arch/x86/include/asm/bitops.h', 79, /LOCK_PREFIX __ASM_SIZE\(btr\)/],
    ['v6.12', 'arch/x86/include/asm/barrier.h', 76, /__smp_mb__after_atomic\(\)\s+do \{ \} while \(0\)/],
  ];
  for (const [branch, file, line, holds] of cited) expect(Lab.kernelLine(branch, file, line), `${file}:${line}`).toMatch(holds);
  for (const cite of ['mm/shrinker.c line 577', "clear_bit() at line 561", 'do_shrink_slab() at line 578', 'mm/shrinker.c lines 216-217', 'lines 569-575', 'line 582', 'mm/list_lru.c line 189', 'mm/list_lru.c line 100', 'bitops.h line 79', 'barrier.h line 76'])
    expect(text).toContain(cite);
  // The documentation it credits says what the text says it says.
  expect(readDoc('Documentation/atomic_bitops.txt')).toContain('RMW operations that have no return value are unordered');
  expect(readDoc('Documentation/memory-barriers.txt')).toMatch(/smp_mb__after_atomic\(\);\n\n\s+These are for use with atomic RMW functions that do not imply memory\n\s+barriers/);
  expect(readDoc('Documentation/memory-barriers.txt')).toContain('RMW bitop functions that do not imply a\n     memory barrier (such as set_bit and clear_bit)');
});

const readDoc = (file: string) => Lab.kernelLines('v6.12', file, 1e6).join('\n');

test('"Show the solution" runs under the solution\'s memory model, and the memory menu shows it', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?lesson=why-this-barrier');
  await memoryIs(page, 'sc');
  await page.getByTestId('lesson.solve').click();
  await memoryIs(page, LESSON.solution.memory);
  expect((await labFields(page)).sched).toBe(LESSON.solution.sched);
  for (const g of ['stale', 'warn', 'lost']) await expect(page.getByTestId(`goal.${g}`)).toHaveAttribute('data-met', '1');
  await expect(page).toHaveURL(/memory=relaxed/);
  // Start over: the start names no model, so it is sc's again.
  await page.getByTestId('lesson.restart').click();
  await memoryIs(page, 'sc');
});

/** The talk slide of five-series whose live state names a memory model, counted from 1 as its corner counts. */
function relaxedSlide(): { n: number; q: URLSearchParams } {
  const talk = JSON.parse(readFileSync('talks/five-series.json', 'utf8')) as { slides: { live?: string }[] };
  const i = talk.slides.findIndex((s) => s.live?.includes('memory=relaxed'));
  expect(i).toBeGreaterThan(0);
  return { n: i + 1, q: new URLSearchParams(talk.slides[i].live!.slice(talk.slides[i].live!.indexOf('?'))) };
}

test('a talk slide\'s memory model reaches the page and both windows; the next slide\'s run is sc again', async ({ context }, info) => {
  test.setTimeout(120_000);
  const { n, q } = relaxedSlide();
  const audience = await context.newPage();
  await audience.setViewportSize({ width: 1920, height: 1080 });
  await audience.goto(`?deck=five-series&slide=${n - 1}`);
  const presenter = await context.newPage();
  await presenter.goto(`?deck=five-series&talk=presenter&slide=${n - 1}`);
  const lab = (p: Page) => labFields(p);
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);
  await presenter.keyboard.press('ArrowRight');
  for (const p of [presenter, audience])
    await expect.poll(async () => { const l = await lab(p); return `${l.ready} ${l.variant} ${l.memory} ${l.sched} ${l.step}`; }, { timeout: 30_000 })
      .toBe(`true ${q.get('variant')} relaxed ${q.get('sched')} ${q.get('step')}`);
  // The slide stands at the stale read: the caption tells it, the code pane lights the load.
  expect((await audience.evaluate(() => window.__lab!.event()!)).kindName).toBe('MM_STALE');
  await expect(audience.getByTestId('talk.slide')).toContainText('reads an older value of l->nr_items');
  await audience.screenshot({ path: info.outputPath(`five-series-slide-${n}-1920x1080.png`) });
  await audience.setViewportSize({ width: 1280, height: 720 });
  await audience.screenshot({ path: info.outputPath(`five-series-slide-${n}-1280x720.png`) });
  // The presenter steps on to the WARN; the audience follows, under the same model.
  const warn = await presenter.evaluate(() => window.__lab!.find('WARN', window.__lab!.step));
  expect(warn).toBeGreaterThan(Number(q.get('step')));
  for (let s = Number(q.get('step')); s < warn; s++) await presenter.keyboard.press('.');
  await expect.poll(async () => `${(await lab(audience)).step} ${(await lab(audience)).memory}`).toBe(`${warn} relaxed`);
  // The presenter changes the model by the menu: the audience's run follows it.
  await presenter.getByTestId('scene.memory').selectOption('tso');
  await expect.poll(async () => { const l = await lab(audience); return `${l.ready} ${l.memory}`; }, { timeout: 30_000 }).toBe('true tso');
  // The next slide names no model: both windows run it under sc.
  await presenter.keyboard.press('ArrowRight');
  await presenter.keyboard.press('ArrowRight');
  for (const p of [presenter, audience]) await expect.poll(async () => { const l = await lab(p); return l.ready && l.memory; }, { timeout: 30_000 }).toBe('sc');
});
