// SPDX-License-Identifier: GPL-2.0-only
// The reclaim trace page (?import): a file opened here is read in a worker,
// its malformed lines named, its shrinkers drawn with their deferred count
// at each pass; a large one can be cancelled. The sample lines are written
// from include/trace/events/vmscan.h's TP_printk formats (v6.12).
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

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
  await expect(page.getByTestId('import.at')).toContainText('3 of 4: deferred_split_scan on CPU0 (stress), line 9');
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
  await expect(page.getByTestId('import.at')).toContainText(`${most.step + 1} of ${ends.length}: rl_scan on CPU0 (kunit_try_catch)`);
  await expect(deferred).toHaveText(String(most.next));
  expect(most.next).toBeGreaterThan(before.next);
});

/** A file of n lines that repeat the sample's, in the test's output folder. */
function bigFile(path: string, n: number) {
  const lines = SAMPLE.split('\n').slice(1);
  writeFileSync(path, Array.from({ length: n }, (_, i) => lines[i % lines.length]).join('\n'));
  return path;
}

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

// The import rate of a million lines in Chromium, the figure in the README (make test-e2e-slow).
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
