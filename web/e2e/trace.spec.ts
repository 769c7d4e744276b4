// SPDX-License-Identifier: GPL-2.0-only
// The run as a trace for Perfetto: "Download trace" saves valid trace-event
// JSON (the same checker as the unit tests), a counterexample the explorer
// finds exports with its KASAN report, and "Open in Perfetto" opens a window
// only when clicked and hands it the trace through Perfetto's PING/PONG
// handshake (answered here by a stand-in page: the test makes no request to
// the network).
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { checkTrace } from '../src/engine/testing/traceFormat';
import { Lab, nativeLabrun } from './lab';

async function download(page: Page): Promise<{ name: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('trace.download').click()]);
  const path = await d.path();
  return { name: d.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

test('Download trace saves the run as valid trace-event JSON', async ({ page }, info) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&seed=7');
  const { name, text } = await download(page);
  expect(name).toBe('reclaim-lab-shrinker-lifetime-v6.12-seed7.json');
  await expect(page.getByTestId('trace.status')).toContainText(name);
  // The file is the run the page shows, as the test handle exports it.
  expect(text).toBe(await page.evaluate(() => window.__lab!.trace()));
  const t = checkTrace(JSON.parse(text));
  expect(t.problems).toEqual([]);
  expect(t.threads.get('1:1')).toBe('CPU0');
  expect(t.threads.get('1:2')).toBe('CPU1');
  expect(t.slices.some((s) => s.name === 'shrink_slab()')).toBe(true);
  expect(t.flows.some((f) => f.cat === 'rcu')).toBe(true);
  expect(t.flows.some((f) => f.cat === 'sched')).toBe(true);
  expect(t.asyncSlices.some((s) => s.name === 'grace period')).toBe(true);
  expect([...t.counters.keys()].some((k) => k.endsWith(' nr_deferred'))).toBe(true);
  const meta = await page.evaluate(() => window.__lab!.meta()!);
  expect(JSON.parse(text).otherData.events).toBe(meta.events);
  const shot = info.outputPath('trace-header.png');
  await page.getByRole('banner').screenshot({ path: shot });
  expect(statSync(shot).size).toBeGreaterThan(5_000);
});

test("the explorer's counterexample exports with its KASAN report", async ({ page }) => {
  // As web/e2e/explore.spec.ts: the shortest failing schedule on break-no-wait, opened by its URL,
  // found natively on the machine the page runs.
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&variant=break-no-wait&seed=1&step=0');
  const r = spawnSync(nativeLabrun(await lab.bits(), 'break-no-wait'), ['--explore', '--scenario', 'shrinker-lifetime', '--slow-ns', '3000', '--bound', '0'], {
    encoding: 'utf8',
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' },
    maxBuffer: 1 << 24,
  });
  expect(r.status, r.stderr).toBe(1);
  const lines = r.stdout.trim().split('\n');
  const s = JSON.parse(lines[lines.length - 1]).shortest as { schedule: string; replayed: { step: number } };
  await lab.open(`?${new URLSearchParams({ scene: 'shrinker-lifetime', variant: 'break-no-wait', seed: '1', sched: s.schedule, step: String(s.replayed.step) })}`);
  const { name, text } = await download(page);
  expect(name).toBe('reclaim-lab-shrinker-lifetime-break-no-wait-seed1-schedule.json');
  const t = checkTrace(JSON.parse(text));
  expect(t.problems).toEqual([]);
  const kasan = t.instants.find((x) => x.cat === 'report' && /KASAN/.test(x.name));
  expect(kasan).toBeDefined();
  expect(String(kasan!.args.text)).toContain('BUG: KASAN: slab-use-after-free');
  expect(kasan!.args.event).toBe(s.replayed.step);
});

test('Open in Perfetto offline: within a few seconds the page says Perfetto did not answer and offers the file', async ({ page, context }) => {
  // No network: the Perfetto UI does not load, and its window never answers.
  await context.route('https://ui.perfetto.dev/**', (route) => route.abort('internetdisconnected'));
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-churn&variant=srcu&seed=2');
  const t0 = Date.now();
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('trace.perfetto').click()]);
  await expect(page.getByTestId('trace.status')).toContainText('Waiting for Perfetto');
  await expect(page.getByTestId('trace.status')).toContainText('has not answered', { timeout: 8_000 });
  const said = Date.now() - t0;
  expect(said, 'said within a few seconds').toBeLessThan(7_000);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('trace.offer').click()]);
  expect(download.suggestedFilename()).toBe('reclaim-lab-shrinker-churn-srcu-seed2.json');
  const t = checkTrace(JSON.parse(readFileSync((await download.path())!, 'utf8')));
  expect(t.problems).toEqual([]);
  await expect(page.getByTestId('trace.status')).toContainText('Saved reclaim-lab-shrinker-churn-srcu-seed2.json');
  // A window closed before it answered is said so too.
  await popup.close();
  const [again] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('trace.perfetto').click()]);
  await again.close();
  await expect(page.getByTestId('trace.status')).toContainText('closed before it answered', { timeout: 3_000 });
  await expect(page.getByTestId('trace.offer')).toBeVisible();
});

test('Open in Perfetto: a window only when clicked, then PING until PONG, then the trace', async ({ page, context }) => {
  const perfetto: string[] = [];
  // A stand-in for ui.perfetto.dev that answers as the real one does, and keeps what it is sent.
  await context.route('https://ui.perfetto.dev/**', (route) => {
    perfetto.push(route.request().url());
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>stand-in</title><script>
        window.pings = 0;
        window.addEventListener('message', (e) => {
          if (e.data === 'PING') { if (++window.pings === 3) e.source.postMessage('PONG', '*'); return; }
          if (e.data && e.data.perfetto) {
            const p = e.data.perfetto;
            window.got = { title: p.title, fileName: p.fileName, text: new TextDecoder().decode(p.buffer), origin: e.origin };
          }
        });
      </script>`,
    });
  });
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-churn&variant=srcu&seed=2');
  expect(perfetto).toEqual([]); // nothing until asked
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('trace.perfetto').click()]);
  await expect.poll(() => popup.evaluate(() => (window as unknown as { got?: unknown }).got !== undefined), { timeout: 20_000 }).toBe(true);
  const got = await popup.evaluate(() => (window as unknown as { got: { title: string; fileName: string; text: string; origin: string } }).got);
  expect(perfetto.length).toBe(1);
  expect(got.fileName).toBe('reclaim-lab-shrinker-churn-srcu-seed2.json');
  expect(got.title).toMatch(/kernel srcu, seed 2$/);
  expect(got.origin).toBe(new URL(page.url()).origin);
  expect(await popup.evaluate(() => (window as unknown as { pings: number }).pings)).toBeGreaterThanOrEqual(3);
  const t = checkTrace(JSON.parse(got.text));
  expect(t.problems).toEqual([]);
  // The SRCU design: its grace periods are async slices of their own.
  expect(t.asyncSlices.some((s) => s.cat === 'srcu')).toBe(true);
  await expect(page.getByTestId('trace.status')).toContainText('Sent to Perfetto');
});
