// SPDX-License-Identifier: GPL-2.0-only
// The explorer's counterexample opens in the page at its failing step: the
// schedule text labrun --explore prints is the URL's sched=, its step the
// report's event (wasm/explore/). The panel's figures are the ones
// labrun --explore gives natively on the machine the page runs (its word size
// from the run's meta: native64 at the default).
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { exploreNative, exploreRace, kernelWithTrait, Lab, nativeLabrun, reportTextTop, type ExploreSummary } from './lab';

interface Shortest {
  preemptions: number;
  decisions: number;
  kinds: string[];
  schedule: string;
  replayed: { kinds: string[]; step: number; report: string };
}

/** The explorer's last summary, run natively on the scene's own set-up (slow shrinkers on a break kernel). */
function explore(bits: number, variant: string, bound: number): { shortest: Shortest | null } {
  const r = spawnSync(
    nativeLabrun(bits, variant),
    ['--explore', '--scenario', 'shrinker-lifetime', '--slow-ns', '3000', '--bound', String(bound)],
    { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, maxBuffer: 1 << 24 },
  );
  // 1: an execution failed, which is what is looked for here
  expect(r.status, r.stderr).toBe(1);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** The panel's bars for bound k: the executions it added, passed and failed (ExplorePanel's byBound). */
function bar(lines: ExploreSummary[], k: number): string {
  const failed = lines[k].failing_executions - (k ? lines[k - 1].failing_executions : 0);
  return `${lines[k].executions - failed} passed, ${failed} failed`;
}

/** The first counterexample's label: preemptions, decisions, and the report. */
function firstLabel(s: NonNullable<ExploreSummary['shortest']>): RegExp {
  return new RegExp(`^${s.preemptions} preemptions?, ${s.decisions} decisions: `);
}

test("the explorer's shortest failing schedule opens in the page at its KASAN report", async ({ page }, info) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&variant=break-no-wait&seed=1&step=0');
  const found = explore(await lab.bits(), 'break-no-wait', 0);
  expect(found.shortest).not.toBeNull();
  const s = found.shortest!;
  expect(s.kinds).toContain('kasan');
  expect(s.replayed.report).toBe('KASAN: slab-use-after-free');

  const q = new URLSearchParams({
    scene: 'shrinker-lifetime',
    variant: 'break-no-wait',
    seed: '1',
    sched: s.schedule,
    step: String(s.replayed.step),
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await lab.open(`?${q.toString()}`);
  expect(await lab.currentStep()).toBe(s.replayed.step);
  // A link to a report opens with the report in view.
  await expect.poll(() => reportTextTop(page), 'the report text starts in the window').toMatchObject({ inView: true });
  const ev = await page.evaluate(() => window.__lab!.event()!);
  expect(ev.kindName).toBe('REPORT');
  await expect(page.getByTestId('sched.panel')).toContainText('follow a schedule from the URL');
  await page.getByTestId('reports').getByRole('button', { name: /KASAN/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: slab-use-after-free');
  const path = info.outputPath('explore-counterexample.png');
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).toBeGreaterThan(20_000);
});

test('the Explore panel finds the race on break-no-wait and opens its shortest counterexample at its report', async ({ page }, info) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&variant=break-no-wait&seed=1');
  const race = exploreRace('shrinker-lifetime');
  const lines = await exploreNative(await lab.bits(), 'break-no-wait', race.scenario, race.args, 1);
  const n = lines[1];
  const panel = page.getByTestId('explore');
  await expect(panel.getByRole('heading', { name: 'Explore every schedule' })).toBeVisible();
  // Keyboard: the bound and the button are reachable and work without a mouse.
  await panel.getByTestId('explore.bound').selectOption('1');
  // Every text the progress line shows, caught as the page draws it: a bound-1
  // search can finish within a poll's interval, so polling for the running
  // text races the search (it ended in 0.4 s once, 195 executions at 465/s).
  await panel.evaluate((el) => {
    const seen: string[] = [];
    (window as unknown as { __progressSeen: string[] }).__progressSeen = seen;
    const note = () => {
      const t = el.querySelector('[data-testid="explore.progress"]')?.textContent ?? '';
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    };
    new MutationObserver(note).observe(el, { subtree: true, childList: true, characterData: true });
  });
  await panel.getByTestId('explore.run').focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('explore.verdict')).toBeVisible({ timeout: 90_000 });
  // While it ran, the line said so, with a count.
  const seen = await page.evaluate(() => (window as unknown as { __progressSeen: string[] }).__progressSeen);
  expect(seen.some((t) => /Exploring bound [01]: \d+ executions/.test(t)), seen.join('\n')).toBe(true);
  const progress = await panel.getByTestId('explore.progress').textContent();
  // The search in the page finds what it finds natively (and as wasm under Node: wasm/tests/explore-wasm.sh).
  expect(n.failing_executions).toBeGreaterThan(0);
  expect(progress).toContain(`Explored bound 1: ${n.executions_total} executions, ${n.end_states} distinct end states, ${n.failing_executions} failing`);
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`Fails: ${n.failing_executions} of ${n.executions_total} executions with at most 1 preemption`));
  await expect(panel.getByTestId('explore.bars')).toContainText('k = 0');
  await expect(panel.getByTestId('explore.bars')).toContainText(bar(lines, 0));
  await expect(panel.getByTestId('explore.bars')).toContainText(bar(lines, 1));
  const links = panel.getByTestId('explore.counterexample');
  expect(await links.count()).toBe(Math.min(n.failing_executions, 8)); // ExplorePanel's FAILING_LISTED
  await expect(links.first()).toHaveText(firstLabel(n.shortest!));
  await expect(links.first()).toContainText('KASAN: slab-use-after-free');
  await panel.screenshot({ path: info.outputPath('explore-panel.png') });
  // The panel with its results drawn, under axe as every scene is (a11y.spec.ts).
  const axe = await new AxeBuilder({ page }).include('[data-testid="explore"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const href = (await links.first().getAttribute('href'))!;
  const q = new URLSearchParams(href.slice(1));
  expect(q.get('sched')).toBe(n.shortest!.schedule); // the shortest labrun --explore prints
  expect(q.get('prog')).toBe('r1,o1,s0');
  const step = Number(q.get('step'));
  // A laptop's window: the counterexample opens with its report in view, not below the fold.
  await page.setViewportSize({ width: 1280, height: 720 });
  await links.first().click();
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
  expect(await lab.currentStep()).toBe(step);
  const ev = await page.evaluate(() => window.__lab!.event()!);
  expect(ev.kindName).toBe('REPORT');
  await expect.poll(() => reportTextTop(page), 'the report text starts in the window').toMatchObject({ inView: true });
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: slab-use-after-free');
  await page.screenshot({ path: info.outputPath('explore-opened-1280x720.png') });
  await page.getByTestId('reports').getByRole('button', { name: /KASAN/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: slab-use-after-free');
  await page.screenshot({ path: info.outputPath('explore-opened.png'), fullPage: true });
});

test('the Explore panel finds nothing on v6.12 within one preemption, and Cancel stops a search', async ({ page }, info) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&variant=v6.12&seed=1');
  const race = exploreRace('shrinker-lifetime');
  const want = exploreNative(await lab.bits(), 'v6.12', race.scenario, race.args, 1);
  const panel = page.getByTestId('explore');
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toBeVisible({ timeout: 90_000 });
  const n = (await want)[1];
  expect(n.failing_executions).toBe(0);
  await expect(panel.getByTestId('explore.progress')).toContainText(`Explored bound 1: ${n.executions_total} executions, ${n.end_states} distinct end states, 0 failing`);
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`No execution fails with at most 1 preemption \\(${n.executions_total} executions`));
  await expect(panel.getByTestId('explore.failing')).toHaveCount(0);
  await panel.screenshot({ path: info.outputPath('explore-v6.12.png') });

  // Bound 2 is too big to wait for: Cancel ends the worker, and the count stays where it stopped.
  await panel.getByTestId('explore.bound').selectOption('2');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.progress')).toContainText(/Exploring bound 2/, { timeout: 60_000 });
  await panel.getByTestId('explore.cancel').click();
  await expect(panel.getByTestId('explore.note')).toHaveText(/Cancelled/);
  await expect(panel.getByTestId('explore.run')).toBeVisible();
  const stopped = await panel.getByTestId('explore.progress').textContent();
  await page.waitForTimeout(1000);
  expect(await panel.getByTestId('explore.progress').textContent()).toBe(stopped);
  expect(stopped).toMatch(/^Explored bound 2/);
});

test('lesson explore-the-race: the learner bounds the search, opens the shortest failing schedule and meets the goal', async ({ page }, info) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  await lab.open('?lesson=explore-the-race');
  const race = exploreRace('shrinker-lifetime');
  const n = (await exploreNative(await lab.bits(), 'break-no-wait', race.scenario, race.args, 1))[1];
  // The lesson's own run on its small set-up ends cleanly: the goal is not met by the start.
  await expect(page.getByTestId('goal.kasan')).toHaveAttribute('data-met', '0');
  const panel = page.getByTestId('explore');
  await panel.getByTestId('explore.bound').selectOption('0');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toHaveText(/No execution fails with at most 0 preemptions \(1 execution,/, { timeout: 60_000 });
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`Fails: ${n.failing_executions} of ${n.executions_total} `), { timeout: 90_000 });
  await panel.getByTestId('explore.counterexample').first().click();
  await expect(page).toHaveURL(/lesson=explore-the-race/);
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('goal.kasan')).toHaveAttribute('data-met', '1');
  await page.screenshot({ path: info.outputPath('explore-lesson.png'), fullPage: true });
});

test('lesson explore-the-lost-bit: on memcg-bitmap the panel finds the lost bit on the lesson\'s kernel, its shortest schedule opens at the WARN', async ({ page }, info) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  await lab.open('?lesson=explore-the-lost-bit');
  const race = exploreRace('memcg-bitmap');
  const lesson = JSON.parse(readFileSync('lessons/12-explore-the-lost-bit.json', 'utf8')) as { start: { variant: string } };
  const n = (await exploreNative(await lab.bits(), lesson.start.variant, race.scenario, race.args, 1))[1];
  await expect(page.getByTestId('goal.warn')).toHaveAttribute('data-met', '0');
  const panel = page.getByTestId('explore');
  await expect(panel).toContainText('list_lru_add() against the clear_bit() of shrink_slab_memcg()');
  await panel.getByTestId('explore.bound').selectOption('0');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toHaveText(/No execution fails with at most 0 preemptions \(1 execution,/, { timeout: 60_000 });
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  // As labrun --explore finds it natively (wasm/explore.json, make explore).
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`Fails: ${n.failing_executions} of ${n.executions_total} executions with at most 1 preemption`), { timeout: 90_000 });
  const links = panel.getByTestId('explore.counterexample');
  await expect(links.first()).toHaveText(firstLabel(n.shortest!));
  await expect(links.first()).toHaveText(/ decisions: WARNING at wasm\/scenarios\/memcg_bitmap\.c:\d+ race\(\)/);
  // Where it branches off: the 12th decision gives CPU1 (the writer) the step while kswapd0 on CPU0 could go on.
  const branch = panel.getByTestId('explore.branch');
  await expect(branch).toContainText(
    'leaves the run without preemptions, which passes, at decision 12 of 26: there CPU1 is given the step while CPU0 could go on');
  await panel.screenshot({ path: info.outputPath('explore-lost-bit-panel.png') });
  const bq = new URLSearchParams((await branch.getByTestId('explore.branch.link').getAttribute('href'))!.slice(1));
  expect(bq.get('sched')).toBe(n.shortest!.schedule);
  const q = new URLSearchParams((await links.first().getAttribute('href'))!.slice(1));
  expect(q.get('sched')).toBe(n.shortest!.schedule);
  expect(q.get('prog')).toBe('c3.1');
  const step = Number(q.get('step'));
  await links.first().click();
  await expect(page).toHaveURL(/lesson=explore-the-lost-bit/);
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
  expect(await lab.currentStep()).toBe(step);
  expect((await page.evaluate(() => window.__lab!.event()!)).kindName).toBe('WARN');
  await expect(page.getByTestId('goal.warn')).toHaveAttribute('data-met', '1');
  await page.screenshot({ path: info.outputPath('explore-lost-bit-opened.png'), fullPage: true });
  // The race's own verdict comes one step after the WARN.
  await expect(page.getByTestId('goal.lost')).toHaveAttribute('data-met', '0');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => lab.currentStep()).toBe(step + 1);
  await expect(page.getByTestId('goal.lost')).toHaveAttribute('data-met', '1');

  // The branch link opens the same schedule at its first preemption: the writer's first step on CPU1.
  await lab.open(`?${bq.toString()}`);
  expect(await lab.currentStep()).toBe(Number(bq.get('step')));
  expect((await page.evaluate(() => window.__lab!.event()!)).kindName).toBe('TASK_START');
  await page.screenshot({ path: info.outputPath('explore-lost-bit-branch.png'), fullPage: true });
});

test('the Explore panel on shrinker-churn: nothing fails on srcu within one preemption; on break-no-wait the unmount frees what kswapd0 reads, and its shortest schedule opens at the KASAN report', async ({ page }, info) => {
  test.setTimeout(240_000);
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-churn&variant=srcu&seed=1');
  const race = exploreRace('shrinker-churn');
  const bits = await lab.bits();
  const srcuSearch = exploreNative(bits, 'srcu', race.scenario, race.args, 1);
  const broken = exploreNative(bits, 'break-no-wait', race.scenario, race.args, 1);
  const panel = page.getByTestId('explore');
  await expect(panel).toContainText('unregister against a shrink_slab() reader');
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  // As labrun --explore finds it natively and as wasm under Node (wasm/explore.json, make explore).
  const srcu = (await srcuSearch)[1];
  expect(srcu.failing_executions).toBe(0);
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`No execution fails with at most 1 preemption \\(${srcu.executions_total} executions`), { timeout: 150_000 });
  await expect(panel.getByTestId('explore.progress')).toContainText(`Explored bound 1: ${srcu.executions_total} executions, ${srcu.end_states} distinct end states, 0 failing`);
  await panel.screenshot({ path: info.outputPath('explore-churn-srcu.png') });

  await lab.open('?scene=shrinker-churn&variant=break-no-wait&seed=1');
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  const n = (await broken)[1];
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`Fails: ${n.failing_executions} of ${n.executions_total} executions with at most 1 preemption`), { timeout: 200_000 });
  const links = panel.getByTestId('explore.counterexample');
  await expect(links.first()).toHaveText(firstLabel(n.shortest!));
  await expect(links.first()).toContainText('KASAN: slab-use-after-free');
  await panel.screenshot({ path: info.outputPath('explore-churn-panel.png') });
  const q = new URLSearchParams((await links.first().getAttribute('href'))!.slice(1));
  expect(q.get('sched')).toBe(n.shortest!.schedule);
  expect(q.get('prog')).toBe('t2,r1,o1');
  const step = Number(q.get('step'));
  await links.first().click();
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
  expect(await lab.currentStep()).toBe(step);
  expect((await page.evaluate(() => window.__lab!.event()!)).kindName).toBe('REPORT');
  await page.getByTestId('reports').getByRole('button', { name: /KASAN/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: slab-use-after-free');
  await expect(page.getByTestId('reports.text')).toContainText('list_lru_count_one()');
  await page.screenshot({ path: info.outputPath('explore-churn-opened.png'), fullPage: true });
});

test('lru-batch offers two races: with the migrate scanner, nothing fails on lru-splice within one preemption, as natively', async ({ page }, info) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&variant=lru-splice&seed=1');
  const races = (JSON.parse(readFileSync('wasm/explore.json', 'utf8')) as { races: { id: string; scenario: string; args: string[]; prog: string }[] }).races;
  const race = races.find((r) => r.id === 'lru-add-isolate')!;
  const want = exploreNative(await lab.bits(), 'lru-splice', race.scenario, race.args, 1);
  const pick = page.getByTestId('explore.race').locator('select');
  await expect(pick.locator('option')).toHaveCount(2);
  await expect(pick).toHaveValue('0'); // the run's own set-up is the sentinel removals'
  await pick.selectOption({ label: `the lru_add drain against compaction's migrate scanner (prog=${race.prog})` });
  const panel = page.getByTestId('explore');
  await expect(panel).toContainText(`prog=${race.prog}`);
  await pick.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('explore-race-picker.png') });
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toBeVisible({ timeout: 90_000 });
  const n = (await want)[1];
  expect(n.failing_executions).toBe(0);
  await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`No execution fails with at most 1 preemption \\(${n.executions_total} executions`));
  await panel.screenshot({ path: info.outputPath('explore-lru-add-isolate.png') });
});

test('memcg-bitmap: on the kernel that publishes a shrinker_info without release, the expansion race fails under relaxed alone, as natively', async ({ page }, info) => {
  test.setTimeout(120_000);
  const lab = new Lab(page);
  const variant = kernelWithTrait('memcg-bitmap', 'publishes-without-release').name;
  await lab.open(`?scene=memcg-bitmap&variant=${variant}&seed=1&memory=relaxed`);
  const races = (JSON.parse(readFileSync('wasm/explore.json', 'utf8')) as { races: { id: string; title: string; scenario: string; args: string[]; prog: string }[] }).races;
  const race = races.find((r) => r.id === 'expand-publish')!;
  const bits = await lab.bits();
  const pick = page.getByTestId('explore.race').locator('select');
  await pick.selectOption({ label: `${race.title} (prog=${race.prog})` });
  const panel = page.getByTestId('explore');
  await expect(panel).toContainText(`prog=${race.prog}`);
  await panel.getByTestId('explore.bound').selectOption('1');
  for (const memory of ['relaxed', 'tso']) {
    if (memory !== 'relaxed') {
      await page.getByTestId('scene.memory').selectOption(memory);
      await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
      await pick.selectOption({ label: `${race.title} (prog=${race.prog})` });
      await panel.getByTestId('explore.bound').selectOption('1');
    }
    const n = (await exploreNative(bits, variant, race.scenario, [...race.args, '--memory', memory], 1))[1];
    await panel.getByTestId('explore.run').click();
    await expect(panel.getByTestId('explore.verdict')).toBeVisible({ timeout: 90_000 });
    if (memory === 'relaxed') {
      expect(n.failing_executions).toBeGreaterThan(0);
      await expect(panel.getByTestId('explore.verdict')).toHaveText(`Fails: ${n.failing_executions} of ${n.executions_total} executions with at most 1 preemption.`);
      await expect(panel.getByTestId('explore.counterexample').first()).toContainText('set_shrinker_bit()');
      await panel.screenshot({ path: info.outputPath('explore-expand-publish-relaxed.png') });
    } else {
      expect(n.failing_executions).toBe(0);
      await expect(panel.getByTestId('explore.verdict')).toHaveText(new RegExp(`No execution fails with at most 1 preemption \\(${n.executions_total} executions`));
    }
  }
});
