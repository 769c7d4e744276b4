// SPDX-License-Identifier: GPL-2.0-only
// The reclaim trace page (?import): a file opened here is read in a worker,
// its malformed lines named, its shrinkers drawn with their deferred count
// at each pass; a large one can be cancelled. The sample lines are written
// from include/trace/events/vmscan.h's TP_printk formats (v6.12).
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

const L = (cpu: number, comm: string, pid: number, t: string, ev: string, text: string) =>
  `${comm.padStart(16)}-${String(pid).padEnd(7)} [${String(cpu).padStart(3, '0')}] ..... ${t.padStart(12)}: ${ev}: ${text}`;
const start = (sym: string, shr: string, toShrink: number, items: number, total: number) =>
  `${sym} ${shr}: nid: 0 objects to shrink ${toShrink} gfp_flags GFP_KERNEL cache items ${items} delta 10 total_scan ${total} priority 12`;
const end = (sym: string, shr: string, next: number, ret: number) =>
  `${sym} ${shr}: nid: 0 unused scan count 0 new scan count ${next} total_scan 10 last shrinker return val ${ret}`;
const DS = 'deferred_split_scan+0x0/0x2f0';
const SB = 'super_cache_scan+0x0/0x1b0';
const SAMPLE = [
  '# tracer: nop',
  L(2, 'kswapd0', 97, '100.000100', 'mm_vmscan_kswapd_wake', 'nid=0 order=0'),
  L(2, 'kswapd0', 97, '100.000200', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 1000, 500, 1010)),
  L(2, 'kswapd0', 97, '100.000300', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 2000, 0)),
  L(2, 'kswapd0', 97, '100.000400', 'mm_shrink_slab_start', start(SB, '00000000bbbb0001', 0, 300, 5)),
  L(2, 'kswapd0', 97, '100.000500', 'mm_shrink_slab_end', end(SB, '00000000bbbb0001', 0, 5)),
  L(0, 'stress', 2411, '100.000800', 'mm_vmscan_direct_reclaim_begin', 'order=0 gfp_flags=GFP_HIGHUSER_MOVABLE'),
  L(0, 'stress', 2411, '100.000900', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 2000, 500, 2010)),
  L(0, 'stress', 2411, '100.001000', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 4000, 0)),
  L(0, 'stress', 2411, '100.001200', 'mm_vmscan_direct_reclaim_end', 'nr_reclaimed=32'),
  '         kswapd0-97      [002] .....   100.001250: mm_shrink_slab_start: super_cache_scan+0x0/0x1b0 00000000bbbb0001: nid: 0 objects to shr',
  L(2, 'kswapd0', 97, '100.001300', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 4000, 500, 4010)),
  L(2, 'kswapd0', 97, '100.001400', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 8000, 0)),
  L(2, 'kswapd0', 97, '100.001450', 'sched_switch', 'prev_comm=kswapd0 prev_pid=97'),
  L(2, 'kswapd0', 97, '100.001500', 'mm_vmscan_kswapd_sleep', 'nid=0'),
].join('\n');

test('a trace file: malformed lines by number, each shrinker\'s deferred count at a pass', async ({ page }, info) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  // Reached from the landing view.
  await page.goto('./');
  await page.getByTestId('landing.import').click();
  await expect(page).toHaveURL(/\?import$/);
  await page.getByTestId('import.file').setInputFiles({ name: 'kswapd.txt', mimeType: 'text/plain', buffer: Buffer.from(SAMPLE) });
  const summary = page.getByTestId('import.summary');
  await expect(summary).toContainText('kswapd.txt: 15 lines (ftrace), 12 vmscan events');
  await expect(summary).toContainText('Other events, skipped: sched_switch 1');
  await expect(page.getByTestId('import.malformed')).toContainText('line 11: not the mm_shrink_slab_start text');
  // The runaway deferred count first; its value after each of its passes.
  const rows = page.getByTestId('import.shrinker');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute('data-key', 'deferred_split_scan 00000000aaaa0001');
  const deferred = rows.first().getByTestId('import.deferred');
  await expect(deferred).toHaveText('2000');
  await expect(rows.nth(1).getByTestId('import.deferred')).toHaveText('–');
  await page.getByTestId('import.step').fill('2');
  await expect(page.getByTestId('import.at')).toContainText('Pass 2 of 0–3: deferred_split_scan 00000000aaaa0001 on CPU0 (stress-2411), lines 8–9');
  await expect(deferred).toHaveText('4000');
  await expect(rows.nth(1).getByTestId('import.deferred')).toHaveText('0');
  await page.getByTestId('import.step').fill('3');
  await expect(deferred).toHaveText('8000');
  // No serious accessibility violation (axe-core, as web/e2e/a11y.spec.ts checks the scenes).
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // The file never left the page: no request after the page's own files.
  expect(requests.filter((u) => !u.startsWith(new URL(page.url()).origin))).toEqual([]);
  const shot = info.outputPath('trace-import.png');
  await page.screenshot({ path: shot, fullPage: true });
  expect(statSync(shot).size).toBeGreaterThan(20_000);
});

test('a trace the real kernel made: User-Mode Linux\'s tracefs, its deferred count at each pass', async ({ page }) => {
  // kunit-deferred's trace file from v6.12's tracefs (wasm/tests/fixtures/README.md)
  const path = 'wasm/tests/fixtures/uml-v6.12-ftrace-kunit-deferred.txt';
  const text = readFileSync(path, 'utf8');
  // Its passes in the file's order (one timestamp for many: UML's trace clock is coarse).
  const ends = [...text.matchAll(/: mm_shrink_slab_end: (\w+)\+\S+ (\w+): .* new scan count (\d+) /g)].map((m) => ({ func: m[1], shr: m[2], next: Number(m[3]) }));
  const global = ends.find((e) => e.func === 'rl_scan')!.shr;
  const mine = ends.map((e, i) => ({ ...e, step: i })).filter((e) => e.shr === global);
  const most = mine.reduce((a, b) => (b.next > a.next ? b : a));
  const before = mine[mine.indexOf(most) - 1];
  await page.goto('?import');
  await page.getByTestId('import.file').setInputFiles(path);
  await expect(page.getByTestId('import.summary')).toContainText(`uml-v6.12-ftrace-kunit-deferred.txt: ${text.trimEnd().split('\n').length} lines (ftrace), ${ends.length * 2} vmscan events`);
  await expect(page.getByTestId('import.malformed')).toHaveCount(0);
  const row = page.locator(`[data-testid="import.shrinker"][data-key="rl_scan ${global}"]`);
  const deferred = row.getByTestId('import.deferred');
  await page.getByTestId('import.step').fill(String(before.step));
  await expect(deferred).toHaveText(String(before.next));
  await page.getByTestId('import.step').fill(String(most.step));
  await expect(page.getByTestId('import.at')).toContainText(`Pass ${most.step} of 0–${ends.length - 1}: rl_scan ${global} on CPU0 (kunit_try_catch-`);
  await expect(deferred).toHaveText(String(most.next));
  expect(most.next).toBeGreaterThan(before.next);
});

/** A file of n lines that repeat the sample's, in the test's output folder. */
function bigFile(path: string, n: number) {
  const lines = SAMPLE.split('\n').slice(1);
  writeFileSync(path, Array.from({ length: n }, (_, i) => lines[i % lines.length]).join('\n'));
  return path;
}

test('the trace page without a file lists every bundled real-kernel capture with what it shows, one click from it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?import');
  const list = page.getByTestId('import.bundled');
  await expect(list).toBeVisible();
  // Every capture of wasm/tests/fixtures, with its KUnit case's title from wasm/scenarios/kunit.def.
  const def = readFileSync('wasm/scenarios/kunit.def', 'utf8');
  const names = readdirSync('wasm/tests/fixtures').filter((f) => /^uml-.*-ftrace-.*\.txt$/.test(f)).map((f) => f.slice(0, -4)).sort();
  expect(names.length).toBeGreaterThan(3);
  await expect(list.locator('li')).toHaveCount(names.length);
  for (const name of names) {
    const [, kernel, scenario] = /^uml-(.+?)-ftrace-(.+)$/.exec(name)!;
    const title = new RegExp(`"${scenario}",[^"]*"([^"(]+)`).exec(def)![1].trim();
    const item = page.getByTestId(`import.bundled.${name}`);
    await expect(item).toContainText(title);
    await expect(item).toContainText(`Linux ${kernel}, KUnit case ${scenario}`);
  }
  await expect(page.getByTestId('import.bundled.uml-v6.12-ftrace-kunit-runaway')).toContainText('lesson:');
  const box = (await list.boundingBox())!;
  expect(box.y, 'the list starts above the fold').toBeLessThan(720);
  await page.screenshot({ path: test.info().outputPath('trace-page-1280x720.png') });
  // One click opens a capture, read in the page; the list then makes way for it.
  await page.getByTestId('import.bundled.uml-v6.12-ftrace-kunit-deferred').getByRole('link').first().click();
  await expect(page).toHaveURL(/import=uml-v6\.12-ftrace-kunit-deferred/);
  await expect(page.getByTestId('import.summary')).toBeVisible({ timeout: 30_000 });
  await expect(list).toHaveCount(0);
});

test('a large trace is read in a worker with progress, and Cancel stops it', async ({ page }, info) => {
  await page.goto('?import');
  const path = bigFile(info.outputPath('big.txt'), 300_000);
  await page.getByTestId('import.file').setInputFiles(path);
  await expect(page.getByTestId('import.progress')).toBeVisible();
  await page.getByTestId('import.cancel').click();
  await expect(page.getByTestId('import.status')).toHaveText('Cancelled: big.txt was not read.');
  await expect(page.getByTestId('import.summary')).toHaveCount(0);
  unlinkSync(path);
});

// The import rate of a million lines in Chromium, the figure in docs/traces.md (make test-e2e-slow).
test('a million-line trace is read to its end @slow', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.goto('?import');
  const path = bigFile(info.outputPath('million.txt'), 1_000_000);
  await page.getByTestId('import.file').setInputFiles(path);
  const summary = page.getByTestId('import.summary');
  // 14 lines repeat: 12 vmscan events, 1 malformed, 1 other event.
  await expect(summary).toContainText('million.txt: 1,000,000 lines (ftrace), 857,144 vmscan events', { timeout: 150_000 });
  await expect(page.getByTestId('import.malformed')).toContainText('71428 malformed lines');
  console.log(`import: ${await summary.locator('p').first().textContent()}`);
  unlinkSync(path);
});

// The trace User-Mode Linux's tracefs printed for kunit-runaway (wasm/tests/fixtures/README.md):
// two rl_scan shrinkers in memcg A reclaimed without __GFP_FS, one of which runs to its cap.
const RUNAWAY = 'uml-v6.12-ftrace-kunit-runaway';

function runawayPasses() {
  const text = readFileSync(`wasm/tests/fixtures/${RUNAWAY}.txt`, 'utf8');
  const starts = [...text.matchAll(/: mm_shrink_slab_start: \S+ (\w+): .* gfp_flags (\S+) /g)].map((m) => ({ shr: m[1], gfp: m[2] }));
  const ends = [...text.matchAll(/: mm_shrink_slab_end: \S+ (\w+): .* new scan count (\d+) /g)].map((m, i) => ({ shr: m[1], next: Number(m[2]), gfp: starts[i].gfp, step: i }));
  const top = Math.max(...ends.map((e) => e.next));
  const runaway = ends.find((e) => e.next === top)!.shr;
  return { ends, runaway, peak: ends.find((e) => e.next === top)!.step, kernel: ends.filter((e) => e.gfp === 'GFP_KERNEL').map((e) => e.step) };
}

test('a bundled trace by its permalink: search, the scenes\' keys, the deferred count at a pass', async ({ page }, info) => {
  const { ends, runaway, peak, kernel } = runawayPasses();
  const last = ends.length - 1;
  await page.goto(`?import=${RUNAWAY}&step=3`);
  await expect(page.getByTestId('import.summary')).toContainText(`${RUNAWAY}.txt: `);
  const counter = page.getByTestId('import.counter');
  await expect(counter).toHaveText(`pass 3 of 0–${last}`);
  await expect(page).toHaveURL(new RegExp(`\\?import=${RUNAWAY}&step=3$`));
  await expect(page.getByTestId('url.notices')).toHaveCount(0);
  await expect(page.getByTestId('import.nolink')).toHaveCount(0);
  await expect(page.getByTestId('import.noepisodes')).toBeVisible();
  // The page's first script starts the simulation worker for any parameter; the trace page, which runs nothing,
  // stops it: what is left is the trace's reader.
  expect(page.workers().map((w) => new URL(w.url()).pathname.split('/').pop())).toEqual([expect.stringMatching(/^traceWorker/)]);
  const row = page.locator(`[data-testid="import.shrinker"][data-key="rl_scan ${runaway}"]`);
  await expect(page.getByTestId('import.shrinker').first()).toHaveAttribute('data-key', `rl_scan ${runaway}`);
  const deferred = row.getByTestId('import.deferred');

  // The search: the passes made with __GFP_FS, Enter jumps to the next.
  const search = page.getByTestId('import.search');
  await search.fill('GFP_KERNEL');
  await expect(page.getByTestId('import.search.count')).toContainText(`${kernel.length} matches`);
  await search.press('Enter');
  await expect(counter).toHaveText(`pass ${kernel[0]} of 0–${last}`);
  await expect(page).toHaveURL(new RegExp(`step=${kernel[0]}$`));
  // Typing in the search keeps the keys: the arrows move its caret, not the pass.
  await search.press('ArrowLeft');
  await expect(counter).toHaveText(`pass ${kernel[0]} of 0–${last}`);
  await page.getByTestId('import.search.prev').click();
  await expect(counter).toHaveText(`pass ${kernel[kernel.length - 1]} of 0–${last}`);
  await search.fill('cpu 0');
  await expect(page.getByTestId('import.search.count')).toContainText(`${ends.length} matches`);
  await search.fill('mm_vmscan_kswapd_wake');
  await expect(page.getByTestId('import.search.count')).toContainText('0 matches');

  // The keys of ui/keymap.ts, after Escape left the search (its query kept).
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('mm_vmscan_kswapd_wake');
  await expect(search).not.toBeFocused();
  await page.keyboard.press('Home');
  await expect(counter).toHaveText(`pass 0 of 0–${last}`);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(counter).toHaveText(`pass 10 of 0–${last}`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(counter).toHaveText(`pass 9 of 0–${last}`);
  await page.keyboard.press('End');
  await expect(counter).toHaveText(`pass ${last} of 0–${last}`);
  await expect(deferred).toHaveText(String(ends[last].next));
  // The scrubber.
  await page.getByTestId('import.step').fill(String(peak - 1));
  await expect(deferred).toHaveText(String(ends.filter((e) => e.shr === runaway && e.step < peak).at(-1)!.next));
  // The runaway count at its peak: twice the cache.
  await row.getByTestId('import.peak').click();
  await expect(counter).toHaveText(`pass ${peak} of 0–${last}`);
  await expect(deferred).toHaveText('2000');
  await expect(page.getByTestId('import.at')).toContainText('cache items 1000');
  await expect(page.getByTestId('import.at.deferred')).toHaveText('2000');
  // Space plays to the end.
  await page.keyboard.press(' ');
  await expect(counter).toHaveText(`pass ${last} of 0–${last}`, { timeout: 10_000 });
  await page.keyboard.press('?');
  await expect(page.getByTestId('keys.help')).toContainText('next pass (Shift: ten)');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keys.help')).toHaveCount(0);
  // The permalink reproduces the pass.
  await page.goto(`?import=${RUNAWAY}&step=${peak}`);
  await expect(deferred).toHaveText('2000');
  for (const [w, h] of [[1500, 1000], [1280, 720]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: info.outputPath(`trace-import-runaway-${w}x${h}.png`), fullPage: w === 1500 });
  }
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the trace page\'s bad parameters are named, and a file from the disk has no permalink', async ({ page }) => {
  const { ends } = runawayPasses();
  const last = ends.length - 1;
  await page.goto(`?import=${RUNAWAY}&step=900`);
  await expect(page.getByTestId('import.counter')).toHaveText(`pass ${last} of 0–${last}`);
  await expect(page.getByTestId('url.notice')).toHaveText(`Ignored step=900: the trace has passes 0 to ${last}; showing pass ${last}, the last.`);
  await expect(page).toHaveURL(new RegExp(`step=${last}$`));
  await page.goto('?import=no-such-trace&step=x&seed=2');
  const notices = page.getByTestId('url.notice');
  await expect(notices).toHaveCount(3);
  await expect(notices.nth(0)).toHaveAttribute('data-param', 'seed');
  await expect(notices.nth(1)).toContainText('Ignored import=no-such-trace: there is no bundled trace of that name');
  await expect(notices.nth(2)).toHaveAttribute('data-param', 'step');
  await page.goto('?import=https://elsewhere.example/t.txt');
  await expect(page.getByTestId('url.notice')).toContainText('a trace by URL must be on this site');
  // A file of this site by URL: the built page's own copy of the fixture, by its path; one that is not there.
  const asset = readdirSync('dist/assets').find((f) => f.startsWith(`${RUNAWAY}-`) && f.endsWith('.txt'))!;
  await page.goto(`?import=./assets/${asset}&step=5`);
  await expect(page.getByTestId('import.counter')).toHaveText(`pass 5 of 0–${last}`);
  await expect(page.getByTestId('import.summary')).toContainText(`${asset}: `);
  await expect(page).toHaveURL(new RegExp(`\\?import=\\.%2Fassets%2F${asset.replace(/\./g, '\\.')}&step=5$`));
  await page.goto('?import=./no-such-trace.txt');
  await expect(page.getByTestId('url.notice')).toHaveText('Ignored import=./no-such-trace.txt: it could not be fetched (HTTP 404); opened none.');
  await page.goto(`?import=${RUNAWAY}`);
  await expect(page.getByTestId('import.counter')).toBeVisible();
  await page.getByTestId('import.file').setInputFiles(`wasm/tests/fixtures/${RUNAWAY}.txt`);
  await expect(page.getByTestId('import.nolink')).toContainText('a permalink to a trace and a pass needs a trace bundled with the lab');
  await expect(page).toHaveURL(/\?import$/);
  await page.keyboard.press('End');
  await expect(page).toHaveURL(/\?import$/);
});

test('lesson runaway-deferred: its goals tick at the passes the trace page reaches', async ({ page }, info) => {
  const { peak, kernel } = runawayPasses();
  await page.goto('?lesson=runaway-deferred');
  const lesson = page.getByTestId('lesson');
  await expect(lesson).toContainText('kunit-runaway');
  await expect(page.getByTestId('goal.peak')).toHaveAttribute('data-met', '0');
  await expect(page.getByTestId('goal.pile')).toHaveAttribute('data-met', '0');
  await expect(page.getByTestId('import.counter')).toContainText('pass 0 of');
  await page.getByTestId('import.shrinker').first().getByTestId('import.peak').click();
  await expect(page.getByTestId('goal.peak')).toHaveAttribute('data-met', '1');
  await expect(page).toHaveURL(new RegExp(`\\?lesson=runaway-deferred&step=${peak}$`));
  const search = page.getByTestId('import.search');
  await search.fill('GFP_KERNEL');
  for (let i = 0; i < kernel.length; i++) await search.press('Enter');
  await expect(page.getByTestId('import.counter')).toContainText(`pass ${kernel[kernel.length - 1]} of`);
  await expect(page.getByTestId('goal.pile')).toHaveAttribute('data-met', '1');
  // Each met goal goes back to the pass that met it.
  await page.getByTestId('goal.peak').getByRole('button').click();
  await expect(page.getByTestId('import.counter')).toContainText(`pass ${peak} of`);
  await page.getByTestId('goal.pile').getByRole('button').click();
  await expect(page.getByTestId('lesson.patch')).toContainText('mm/shrinker.c lines 458–473 on branch v6.12');
  await expect(page.getByTestId('lesson.credit')).toContainText('Make shrinker\'s nr_deferred memcg aware');
  await page.setViewportSize({ width: 1500, height: 1000 });
  await page.screenshot({ path: info.outputPath('trace-lesson-1500x1000.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: info.outputPath('trace-lesson-1280x720.png') });
  // Listed on the landing view with its progress.
  await page.goto('./');
  await expect(page.getByTestId('landing.lesson.runaway-deferred')).toHaveAttribute('data-done', '1');
});

test('lesson runaway-deferred: Start over clears the goals, and the solution meets them without marking the lesson done', async ({ page }) => {
  const { kernel } = runawayPasses();
  await page.goto('?lesson=runaway-deferred&step=3');
  await expect(page.getByTestId('import.counter')).toContainText('pass 3 of');
  await page.getByTestId('lesson.solve').click();
  await expect(page.getByTestId('goal.peak')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.pile')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('import.counter')).toContainText(`pass ${kernel[kernel.length - 1]} of`);
  await expect(page.getByTestId('lesson.by-solution')).toBeVisible();
  await page.getByTestId('lesson.hint').click();
  await expect(page.getByTestId('lesson.hints').locator('li')).toHaveCount(1);
  await page.getByTestId('lesson.restart').click();
  await expect(page.getByTestId('goal.peak')).toHaveAttribute('data-met', '0');
  await expect(page.getByTestId('import.counter')).toContainText('pass 0 of');
  await page.goto('./');
  await expect(page.getByTestId('landing.lesson.runaway-deferred')).toHaveAttribute('data-done', '0');
});
