#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
// The figures panels in Chromium (Debian's, driven by Playwright), against
// the production build served as `make start` serves it: the time from a
// click on a panel's run button until its last figure is on the page (the
// runs made in the panel's workers, read and drawn), for memcg-bitmap's
// scale run (2000 shrinkers x 2000 memcgs, both kernels), inode-lru's
// seed table (7 rows x 3 kernels) and lru-batch's RFC table (3 modes x 5
// task counts), each in three new pages (--runs), the median kept. Prints each, with the workers the page used
// (navigator.hardwareConcurrency, capped). Then the frames while playing
// lru-batch with 64 tasks at 1024 events/s for 5 s: the intervals between
// requestAnimationFrame callbacks (median, and p95 in whole vsync periods:
// frameStats) and the main thread's long
// tasks (PerformanceObserver 'longtask': over 50 ms), and the main thread's
// CPU time per frame (a trace's thread clock), with its script (React and
// the scenes' drawing), style, layout and paint. Adds rows to
// BENCH_ROWS when wasm/bench-all.sh runs it (name, value, unit, goal).
import { addRows, checkArgs, launch, median, opt, runsOpt, serve } from './bench-browser.mjs';

const PORT = Number(opt('port', process.env.BENCH_PORT ?? '4191'));
const ONLY = opt('only', '');
const ROOT = opt('root', 'dist');
const RUNS = runsOpt('3'); // each panel is timed this many times, each in a page of its own; the median is kept

// Each panel: where it is, its run button (its progress and error share the prefix), and the goal
// (docs/performance.md's table of make bench's goals; the lru-batch table has none of its own: it is timed for the record).
const PANELS = [
  {
    id: 'scale', name: 'memcg-bitmap scale 2000x2000, both kernels', query: '?scene=memcg-bitmap&step=0', run: 'scale.run', goal: 5,
  },
  {
    id: 'inode', name: 'inode-lru seed table, 7 rows x 3 kernels', query: '?scene=inode-lru&variant=inode&step=0', run: 'inode.figures.run', goal: 10,
  },
  {
    id: 'lru', name: 'lru-batch RFC table, 3 modes x 5 task counts', query: '?scene=lru-batch&step=0', run: 'figures.run', goal: null,
  },
];
checkArgs(
  `node scripts/bench-figures.mjs [--port 4191] [--root dist] [--runs N] [--only ${[...PANELS.map((p) => p.id), 'frames'].join('|')}]`,
  ['port', 'root', 'runs', 'only'],
  { only: [...PANELS.map((p) => p.id), 'frames'] },
);

async function measure(browser, p) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${PORT}/${p.query}`);
  await page.getByTestId('scene.ready').waitFor({ timeout: 120_000 });
  const run = page.getByTestId(p.run);
  await run.waitFor();
  const t0 = Date.now();
  await run.click();
  // The panel shows its progress while it runs and its run button again when every run is read.
  const progress = page.getByTestId(p.run.replace(/run$/, 'progress'));
  await progress.waitFor({ timeout: 10_000 });
  const workers = Number((await progress.getAttribute('data-workers')) ?? 1);
  await run.waitFor({ timeout: 600_000 });
  const s = (Date.now() - t0) / 1000;
  const error = await page.getByTestId(p.run.replace(/run$/, 'error')).count();
  if (error) throw new Error(`${p.name}: ${await page.getByTestId(p.run.replace(/run$/, 'error')).textContent()}`);
  await context.close();
  return { s, workers };
}

const PLAY = { query: '?scene=lru-batch&prog=t64', speed: 1024, seconds: 5 };

async function frames(browser) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${PORT}/${PLAY.query}`);
  await page.getByTestId('scene.ready').waitFor({ timeout: 120_000 });
  await page.getByTestId('scene.speed').selectOption(String(PLAY.speed));
  await page.evaluate(() => {
    window.__frames = { deltas: [], long: [] };
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__frames.long.push(e.duration))).observe({ type: 'longtask' });
  });
  // The main thread's CPU time too (the trace's thread clock): on a shared machine the wall-clock frames include waiting for a core.
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata'] });
  await page.getByTestId('scene.play').click();
  const r = await page.evaluate(async (seconds) => {
    const f = window.__frames;
    const t0 = performance.now();
    let prev = t0;
    await new Promise((done) => {
      const tick = (now) => {
        f.deltas.push(now - prev);
        prev = now;
        if (now - t0 < seconds * 1000) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    return { deltas: f.deltas.slice(1), long: f.long, step: window.__lab.step, length: window.__lab.length };
  }, PLAY.seconds);
  const trace = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const main = trace.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const tasks = trace.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === main?.pid && e.tid === main?.tid && e.tdur !== undefined);
  const cpuMs = tasks.reduce((a, e) => a + e.tdur, 0) / 1000;
  // Where it goes: script (React's render and commit, the scene's drawing), style, layout and paint, each event
  // counted once where events of one name nest (a layer's Paint inside the page's); script includes the style and layout it forces.
  const onMain = trace.filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid && e.tdur !== undefined).sort((a, b) => a.ts - b.ts);
  const phase = (name) => {
    let end = -Infinity;
    let us = 0;
    for (const e of onMain) {
      if (e.name !== name || e.ts < end) continue;
      us += e.tdur;
      end = e.ts + e.dur;
    }
    return us / 1000;
  };
  const parts = { script: phase('FunctionCall'), style: phase('UpdateLayoutTree'), layout: phase('Layout'), paint: phase('Paint') };
  await context.close();
  const perFrame = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v / Math.max(1, r.deltas.length)]));
  return { perFrame, cpuPerFrame: cpuMs / Math.max(1, r.deltas.length), ...frameStats(r.deltas), long: r.long.length, longest: Math.max(0, ...r.long), step: r.step, length: r.length };
}

/**
 * The intervals between frames, as the display shows them. A frame is shown at a vsync, so an
 * interval is a whole number of vsync periods; the page's clock reads each frame's time rounded
 * to 0.1 ms (a page that is not cross-origin isolated), so a steady 60 Hz reads 16.6, 16.7 and
 * 16.8 ms in turn. Each interval is counted as the whole number of periods nearest to it, the
 * period being the median interval; the raw quantiles are kept too.
 */
function frameStats(deltas) {
  const quantile = (xs, x) => xs[Math.min(xs.length - 1, Math.floor(x * xs.length))];
  const raw = [...deltas].sort((a, b) => a - b);
  const median = quantile(raw, 0.5);
  const near = raw.filter((d) => Math.abs(d - median) < median / 4);
  const period = near.reduce((a, d) => a + d, 0) / near.length;
  const periods = raw.map((d) => Math.max(1, Math.round(d / period)));
  return {
    frames: raw.length,
    period,
    missed: periods.reduce((a, k) => a + k - 1, 0),
    max: raw.at(-1),
    median,
    p95: quantile(periods, 0.95) * period,
    p95periods: quantile(periods, 0.95),
    rawP95: quantile(raw, 0.95),
  };
}

const stop = await serve(PORT, ROOT);
const browser = await launch();
const cores = await (async () => {
  const pg = await browser.newPage();
  const n = await pg.evaluate(() => navigator.hardwareConcurrency);
  await pg.close();
  return n;
})();
console.log(`figures: click on a panel's run button to its last figure on the page, in Chromium (${cores} cores)`);
const rows = [];
try {
  for (const p of PANELS) {
    if (ONLY && p.id !== ONLY) continue;
    // A visitor's click each time: a new page, its own workers, the median kept (one click can meet a busy moment).
    const all = [];
    for (let i = 0; i < RUNS; i++) all.push(await measure(browser, p));
    const s = median(all.map((x) => x.s));
    const { workers } = all[0];
    console.log(`  ${p.name.padEnd(48)} ${s.toFixed(2).padStart(7)} s  (${workers} worker${workers > 1 ? 's' : ''}; ` +
      `the median of ${all.length} pages: ${all.map((x) => x.s.toFixed(2)).join(', ')} s)`);
    if (p.goal) rows.push([`figures: ${p.name}, ${workers} workers`, s.toFixed(2), 's', '<=', p.goal]);
  }
  if (!ONLY || ONLY === 'frames') {
    const f = await frames(browser);
    console.log(`  playing lru-batch, 64 tasks, ${PLAY.speed} events/s, ${PLAY.seconds} s: ${f.frames} frames, median ${f.median.toFixed(1)} ms, ` +
      `p95 ${f.p95.toFixed(1)} ms (${f.p95periods} vsync period${f.p95periods > 1 ? 's' : ''}; the clock read ${f.rawP95.toFixed(1)}), ${f.missed} vsyncs missed, longest ${f.max.toFixed(1)} ms; main thread ${f.cpuPerFrame.toFixed(1)} ms of CPU per frame (` +
      `${Object.entries(f.perFrame).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}); ${f.long} long tasks (longest ${f.longest.toFixed(0)} ms); at event ${f.step} of ${f.length}`);
    rows.push([`frames: lru-batch 64 tasks at ${PLAY.speed} events/s, p95 frame`, f.p95.toFixed(1), 'ms', '<=', 16.7]);
    // A task of the main thread holds the next frame back: no interval over 50 ms, no task over 50 ms.
    rows.push([`frames: lru-batch 64 tasks at ${PLAY.speed} events/s, longest frame`, f.max.toFixed(1), 'ms', '<=', 50]);
  }
} finally {
  await browser.close();
  stop();
}
addRows(rows);
