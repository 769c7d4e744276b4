#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
// make bench-browser: long runs in the page, in Debian's Chromium driven by
// Playwright, against the production build served as `make start` serves
// it. For each run: the time from navigation until the scene is ready (the
// run made in the worker, its timeline built, the first frame drawn; the
// scene's checkpoints are folded between frames after it, and their time is
// printed beside), then, once they are all kept, the main thread's JS heap after a
// forced garbage collection (CDP HeapProfiler.collectGarbage, then
// Runtime.getHeapUsage: V8's used heap plus ArrayBuffer backing stores;
// the DOM's own heap and node count are printed beside it), and the time each move takes until the page stands
// at its step and has drawn a frame: End, Home, a scrub to the middle (the
// seek a click on the timeline makes), one step back (←), with the main
// thread's CPU time over each move beside it (Performance.getMetrics'
// ThreadTime: on a loaded machine the wall time includes waiting for a core). Keys are pressed
// as a person presses them. Prints each run's figures, and adds its rows
// to BENCH_ROWS when wasm/bench-all.sh runs it (name, value, unit, goal).
import { addRows, checkArgs, launch, median, opt, runsOpt, serve } from './bench-browser.mjs';

const PORT = Number(opt('port', process.env.BENCH_PORT ?? '4192'));
const ROOT = opt('root', 'dist'); // the build served
const REPEAT = runsOpt('3'); // each move is timed this many times; the median is kept
const ONLY = opt('only', ''); // the runs whose name starts so (all if empty)

// The runs measured: [row name, query]. lru-batch's largest setting the
// issue names; shrinker-lifetime at 600 mount/unmount rounds of 64 objects.
// No bits= in the queries: the page's default machine (64-bit), as a visitor opens it;
// each row names the machine its run ran on.
const RUNS = [
  ['lru-batch 64x512x4', '?scene=lru-batch&prog=t64,p512,r4'],
  ['shrinker-lifetime r600 o64', '?scene=shrinker-lifetime&prog=r600,o64'],
];
// The goals for a long run in the page (docs/performance.md's table of make bench's goals).
const GOALS = { heap: 300, load: 3, move: 100 };

checkArgs('node scripts/bench-page.mjs [--port 4192] [--runs N] [--root dist] [--only PREFIX] (the runs whose name starts so)', [
  'port',
  'runs',
  'root',
  'only',
]);
if (!RUNS.some(([n]) => n.startsWith(ONLY))) {
  console.error(`--only ${ONLY}: no run's name starts so (the runs: ${RUNS.map(([n]) => n).join(', ')})`);
  process.exit(2);
}

/** The main thread's CPU time so far, in ms (CDP Performance.getMetrics ThreadTime). */
async function threadMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
}

/**
 * Presses a key (or seeks) in the page, and times until the step is `target` and a frame is drawn after it;
 * also the main thread's CPU time over the move (on a loaded machine the wall time includes waiting for a core).
 */
async function timeMove(page, cdp, move) {
  const cpu0 = await threadMs(cdp);
  const r = await timeMoveWall(page, move);
  return { ...r, cpuMs: (await threadMs(cdp)) - cpu0 };
}

async function timeMoveWall(page, move) {
  return page.evaluate(async (m) => {
    const lab = window.__lab;
    const target = m.key === 'End' ? lab.length - 1 : m.key === 'Home' ? 0 : m.key === 'ArrowLeft' ? lab.step - 1 : m.step;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    await frame();
    const t0 = performance.now();
    if (m.key) document.dispatchEvent(new KeyboardEvent('keydown', { key: m.key, bubbles: true, cancelable: true }));
    else lab.goTo(target);
    // The handle is refreshed by an effect after the render that shows the step; then one more frame is drawn.
    while (window.__lab.step !== target) {
      await frame();
      if (performance.now() - t0 > 60_000) throw new Error(`never reached step ${target}`);
    }
    await frame();
    return { ms: performance.now() - t0, step: target };
  }, move);
}

async function measure(browser, name, query) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${PORT}/${query}`);
  await page.getByTestId('scene.ready').waitFor({ timeout: 300_000 });
  await page.waitForFunction(() => window.__lab?.ready, null, { timeout: 300_000, polling: 20 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const loadS = (Date.now() - t0) / 1000;
  const info = await page.evaluate(() => ({ length: window.__lab.length, status: window.__lab.meta().status, bits: window.__lab.meta().bits, phases: window.__lab.loadPhases?.() ?? {} }));
  // The page folds the run's checkpoints between frames after the first: the heap and the moves are measured once they are all kept.
  const t1 = Date.now();
  await page.waitForFunction(() => window.__lab.folded?.()?.done ?? true, null, { timeout: 300_000, polling: 20 });
  const fold = { afterS: (Date.now() - t1) / 1000, ms: (await page.evaluate(() => window.__lab.folded?.()?.ms)) ?? 0 };
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  // The JS heap: V8's objects plus the ArrayBuffers' backing stores (the typed-array columns live there).
  const heap = await cdp.send('Runtime.getHeapUsage');
  const heapMB = (heap.usedSize + (heap.backingStorageSize ?? 0)) / 2 ** 20;
  const domMB = (heap.embedderHeapUsedSize ?? 0) / 2 ** 20;
  await cdp.send('Performance.enable');
  const nodes = (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'Nodes')?.value ?? 0;
  const moves = { End: [], Home: [], middle: [], back: [] };
  const cpu = { End: [], Home: [], middle: [], back: [] };
  for (let r = 0; r < REPEAT; r++) {
    for (const [k, m] of [['End', { key: 'End' }], ['Home', { key: 'Home' }], ['middle', { step: Math.floor(info.length / 2) }], ['back', { key: 'ArrowLeft' }]]) {
      const t = await timeMove(page, cdp, m);
      moves[k].push(t.ms);
      cpu[k].push(t.cpuMs);
    }
  }
  await context.close();
  const ms = Object.fromEntries(Object.entries(moves).map(([k, v]) => [k, median(v)]));
  const cpuMs = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
  return { name, query, events: info.length, status: info.status, bits: info.bits, phases: info.phases, loadS, fold, heapMB, domMB, nodes, ms, cpuMs };
}

const stop = await serve(PORT, ROOT);
const browser = await launch();
console.log('page: long runs in Chromium (load: navigation to a drawn, ready scene; heap: main thread after GC; moves: median of ' +
  `${REPEAT}, key to the frame drawn at the step)`);
const rows = [];
try {
  for (const [name, query] of RUNS.filter(([n]) => n.startsWith(ONLY))) {
    const r = await measure(browser, name, query);
    console.log(`  ${name.padEnd(26)} ${String(r.events).padStart(9)} events (${r.status}, ${r.bits}-bit machine)  load ${r.loadS.toFixed(2)} s  heap ${r.heapMB.toFixed(1)} MB (DOM ${r.domMB.toFixed(1)} MB, ${r.nodes} nodes)  ` +
      ['End', 'Home', 'middle', 'back'].map((k) => `${k} ${r.ms[k].toFixed(0)} ms (CPU ${r.cpuMs[k].toFixed(0)})`).join('  '));
    // Where the load went: the page's start, the worker's phases, the reply's way to the page, the page's model and first frame.
    const known = Object.values(r.phases).reduce((a, x) => a + x, 0);
    console.log(`  ${''.padEnd(26)} load: ${Object.entries(r.phases).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}, the rest ${(r.loadS * 1000 - known).toFixed(0)} ms`);
    console.log(`  ${''.padEnd(26)} after: the checkpoints folded between frames, all kept ${r.fold.afterS.toFixed(2)} s after the load (the fold's time ${r.fold.ms.toFixed(0)} ms)`);
    const ev = `${(r.events / 1e6).toFixed(2)}M ev, ${r.bits}-bit`;
    rows.push([`page ${name} (${ev}): JS heap`, r.heapMB.toFixed(1), 'MB', '<=', GOALS.heap]);
    rows.push([`page ${name} (${ev}): load`, r.loadS.toFixed(2), 's', '<=', GOALS.load]);
    for (const [k, label] of [['End', 'End'], ['Home', 'Home'], ['middle', 'scrub to middle'], ['back', 'one step back']]) {
      rows.push([`page ${name} (${ev}): ${label}`, Math.max(1, r.ms[k]).toFixed(0), 'ms', '<=', GOALS.move]);
    }
  }
} finally {
  await browser.close();
  stop();
}
addRows(rows);
