// SPDX-License-Identifier: GPL-2.0-only
// The explorer's counterexample opens in the page at its failing step: the
// schedule text labrun --explore prints is the URL's sched=, its step the
// report's event (wasm/runtime/explore.c).
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { Lab } from './lab';

interface Shortest {
  preemptions: number;
  decisions: number;
  kinds: string[];
  schedule: string;
  replayed: { kinds: string[]; step: number; report: string };
}

/** The explorer's last summary, run natively on the scene's own set-up (slow shrinkers on a break kernel). */
function explore(variant: string, bound: number): { shortest: Shortest | null } {
  const r = spawnSync(
    `build/native/${variant}/labrun`,
    ['--explore', '--scenario', 'shrinker-lifetime', '--slow-ns', '3000', '--bound', String(bound)],
    { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, maxBuffer: 1 << 24 },
  );
  // 1: an execution failed, which is what is looked for here
  expect(r.status, r.stderr).toBe(1);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

test("the explorer's shortest failing schedule opens in the page at its KASAN report", async ({ page }, info) => {
  const found = explore('break-no-wait', 0);
  expect(found.shortest).not.toBeNull();
  const s = found.shortest!;
  expect(s.kinds).toContain('kasan');
  expect(s.replayed.report).toBe('KASAN: slab-use-after-free');

  const lab = new Lab(page);
  const q = new URLSearchParams({
    scene: 'shrinker-lifetime',
    variant: 'break-no-wait',
    seed: '1',
    sched: s.schedule,
    step: String(s.replayed.step),
  });
  await lab.open(`?${q.toString()}`);
  expect(await lab.currentStep()).toBe(s.replayed.step);
  const ev = await page.evaluate(() => window.__lab!.event()!);
  expect(ev.kindName).toBe('REPORT');
  await expect(page.getByTestId('sched.panel')).toContainText('follow a schedule from the URL');
  await page.getByTestId('reports').getByRole('button', { name: /KASAN/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: slab-use-after-free');
  const path = info.outputPath('explore-counterexample.png');
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).toBeGreaterThan(20_000);
});
