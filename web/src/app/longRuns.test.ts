// SPDX-License-Identifier: GPL-2.0-only
// Long runs of every scene, made natively as the worker would make them in
// wasm (the same records), read the way the page reads them: the packed
// columns hold exactly what a record-by-record reading gives, and the
// scene's state reached through checkpoints is the state a replay from the
// first event gives, at random steps, in random order, stepping back and
// forth. (In app/: it runs every scene's reducer, which only the app may
// import together.)
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { EventLog, packRecords } from '../engine/log';
import { CLOCK_EVERY, History, approxBytes, type Reducer } from '../engine/history';
import { readRecords } from '../engine/testing/records';
import { dumpNative } from '../lessons/replay';
import { SCENES } from '../scenes/registry';
import { foldRun } from './useRuns';

// Each scene's run, made long where its set-up allows (its default run otherwise).
const LONG: Record<string, string> = {
  'lru-batch': 'batch,t16,p128,r2',
  'shrinker-lifetime': 'r24,o32',
};

/** A small deterministic generator (xorshift32), so that a failure names steps that come back. */
function steps(n: number, count: number, seed: number): number[] {
  let x = seed >>> 0 || 1;
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push((x >>> 0) % n);
  }
  return out;
}

/** The first index where a column and the reference differ (-1: none). */
function firstDiff(col: ArrayLike<number>, ref: number[]): number {
  if (col.length !== ref.length) return Math.min(col.length, ref.length);
  for (let i = 0; i < ref.length; i++) if (col[i] !== ref[i]) return i;
  return -1;
}

/** Equal states: the same bytes serialized (quick on large typed arrays); else the difference, shown. */
function expectSame(got: unknown, want: unknown, what: string) {
  if (serialize(got).equals(serialize(want))) return;
  expect(got, what).toEqual(want);
}

describe.each(SCENES.map((s) => [s.id, s] as const))('%s: a long run', (id, scene) => {
  const { records, meta } = dumpNative(id, { variant: scene.variants[0], seed: 1, policy: 'timed', sched: '', prog: LONG[id] ?? '' });
  const log = new EventLog(records, meta);

  it('reads into columns exactly what a record-by-record reading gives', () => {
    expect(log.length).toBe(meta.events);
    const ref = readRecords(records);
    for (const c of ['time', 'site', 'kind', 'cpu', 'task', 'args'] as const) expect(firstDiff(log[c], ref[c]), c).toBe(-1);
    // From a view that starts off a word boundary (a record buffer inside a larger one), the same.
    const shifted = new Uint8Array(records.byteLength + 1);
    shifted.set(new Uint8Array(records), 1);
    const again = new EventLog(packRecords(shifted.subarray(1)), meta);
    for (const c of ['time', 'site', 'kind', 'cpu', 'task', 'args'] as const) expect(firstDiff(again[c], Array.from(log[c])), c).toBe(-1);
  });

  it('folds its checkpoints when given time, or as far as a step asks, keeping those a fold at once keeps', () => {
    const { history } = foldRun(log, scene, true);
    expect(history.folded).toBe(false);
    expect(history.checkpointCount).toBe(0); // not even the state before the first event
    const reducer = scene.reducer as Reducer<unknown>;
    const whole = new History(log, reducer, { every: 97 });
    const sliced = new History(log, reducer, { every: 97, deferred: true });
    const mid = Math.floor(log.length / 3);
    expectSame(sliced.at(mid), whole.at(mid), `step ${mid}`); // the fold taken as far as the step, no farther
    expect(sliced.folded).toBe(false);
    expect(sliced.checkpointSteps.at(-1)).toBeLessThanOrEqual(mid + 1);
    let slices = 0;
    while (!sliced.foldFor(0)) slices++; // a clock period of events each: a slice ends at each multiple of it
    let periods = 0;
    for (let m = CLOCK_EVERY; m < log.length; m += CLOCK_EVERY) if (m > mid + 2) periods++;
    expect(slices).toBe(periods);
    expect(sliced.checkpointSteps).toEqual(whole.checkpointSteps);
    while (!history.foldFor(5));
    expect(history.checkpointSteps[0]).toBe(0);
  });

  it('reaches through checkpoints the state a full replay gives, at random steps', () => {
    const reducer = scene.reducer as Reducer<unknown>;
    const at = steps(log.length, 12, 0x9e3779b9 ^ log.length);
    at.push(0, log.length - 1, Math.floor(log.length / 2));
    const sorted = [...new Set(at.flatMap((k) => [k, Math.max(0, k - 1), Math.min(log.length - 1, k + 1)]))].sort((a, b) => a - b);
    // The full replay: one fold from the first event, a copy at each step asked for.
    const full = new Map<number, unknown>();
    const s = reducer.init(log);
    let i = 0;
    for (const k of sorted) {
      for (; i <= k; i++) reducer.apply(s, log, i);
      full.set(k, structuredClone(s));
    }
    const histories = [
      new History(log, reducer), // spaced by the measured cost of replay
      new History(log, reducer, { every: 997 }), // a spacing that is no round number
      new History(log, reducer, { every: 61, maxBytes: 40 * approxBytes(reducer.init(log)) }), // thinned to fit its memory
      new History(log, reducer, { deferred: true }), // folded only as far as each step asks
    ];
    for (const h of histories) {
      for (const k of at) {
        expectSame(h.at(k), full.get(k), `step ${k}`);
        // One step back, then forward again past it (from the last state asked for).
        if (k > 0) expectSame(h.at(k - 1), full.get(k - 1), `step ${k - 1}`);
        if (k + 1 < log.length) expectSame(h.at(k + 1), full.get(k + 1), `step ${k + 1}`);
      }
    }
  });
});

describe('checkpoints', () => {
  const scene = SCENES.find((s) => s.id === 'lru-batch')!;
  const { records, meta } = dumpNative('lru-batch', { variant: scene.variants[0], seed: 1, policy: 'timed', sched: '', prog: LONG['lru-batch'] });
  const log = new EventLog(records, meta);
  const reducer = scene.reducer as Reducer<unknown>;

  it('stay within their memory bound, the first at the start', () => {
    const one = approxBytes(reducer.init(log));
    const h = new History(log, reducer, { every: 8, maxBytes: 50 * one });
    expect(h.checkpointSteps[0]).toBe(0);
    // Thinned: each holds at least the initial state's bytes, so at most 50 fit, and more than 25 stay.
    expect(h.checkpointCount).toBeLessThanOrEqual(50);
    expect(h.checkpointCount).toBeGreaterThan(12);
    expect(h.checkpointBytes).toBeLessThanOrEqual(50 * one);
  });

  it('are spaced by the replay budget: none past the first with no budget left to spend, one every clock reading with none', () => {
    expect(new History(log, reducer, { budgetMs: Infinity }).checkpointCount).toBe(1);
    const dense = new History(log, reducer, { budgetMs: 0, maxCheckpoints: 100_000, maxBytes: Infinity });
    expect(dense.checkpointCount).toBe(Math.ceil(log.length / CLOCK_EVERY));
  });
});
