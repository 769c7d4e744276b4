// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { History, MAX_CHECKPOINTS } from './history';
import { machineReducer, buildTimeline } from './machine';
import { loadRun } from './testing/fixtures';
import type { EventLog } from './log';

function replay<S>(log: EventLog, reducer: { init(l: EventLog): S; apply(s: S, l: EventLog, i: number): void }, upTo: number): S {
  const s = reducer.init(log);
  for (let i = 0; i <= upTo; i++) reducer.apply(s, log, i);
  return s;
}

describe('history', () => {
  const log = loadRun('shrinker-lifetime', 1);

  it('gives at any step the state a replay from the start gives', () => {
    const h = new History(log, machineReducer, 64);
    const steps = [0, 1, 63, 64, 65, 500, 1234, log.length - 1];
    for (const k of steps) expect(h.at(k)).toEqual(replay(log, machineReducer, k));
  });

  it('steps back by lookup: back then forward returns the same states', () => {
    const h = new History(log, machineReducer, 32);
    const forward = [];
    for (let k = 700; k < 720; k++) forward.push(structuredClone(h.at(k)));
    for (let k = 719; k >= 700; k--) expect(h.at(k)).toEqual(forward[k - 700]);
  });

  it('plays forward in place without touching its checkpoints', () => {
    const h = new History(log, machineReducer, 64);
    const first = h.at(60);
    // Forward, a few events at a time as play does: the working state folds on, the same instance.
    for (let k = 61; k < 300; k += 7) {
      expect(h.at(k)).toBe(first);
      expect(h.at(k)).toEqual(replay(log, machineReducer, k));
    }
    // Back across the checkpoints it started from: they still hold their own steps' states.
    for (const k of [130, 64, 63, 0]) expect(h.at(k)).toEqual(replay(log, machineReducer, k));
  });

  it('keeps at most MAX_CHECKPOINTS on a long log, spaced wider, and stays exact', () => {
    // Asked for a checkpoint every 4 events, a log of this length would keep more than the cap.
    expect(Math.ceil(log.length / 4)).toBeGreaterThan(MAX_CHECKPOINTS);
    const h = new History(log, machineReducer, 4);
    expect(h.checkpointCount).toBeLessThanOrEqual(MAX_CHECKPOINTS);
    expect(h.checkpointCount).toBeGreaterThan(MAX_CHECKPOINTS / 2);
    const every = Math.ceil(log.length / MAX_CHECKPOINTS);
    for (const k of [0, every - 1, every, every + 1, 5 * every - 1, log.length - 2, log.length - 1])
      expect(h.at(k)).toEqual(replay(log, machineReducer, k));
  });

  it('returns the same instance when the step has not changed', () => {
    const h = new History(log, machineReducer);
    expect(h.at(100)).toBe(h.at(100));
    expect(h.at(-5)).toEqual(machineReducer.init(log));
  });

  it('builds a timeline whose CPU segments tile each lane', () => {
    const t = buildTimeline(log);
    for (let cpu = 0; cpu < log.meta.cpus; cpu++) {
      const segs = t.cpuSegments.filter((s) => s.cpu === cpu).sort((a, b) => a.start - b.start);
      for (let k = 1; k < segs.length; k++) expect(segs[k].start).toBe(segs[k - 1].end);
      expect(segs.at(-1)!.end).toBe(log.endTime);
    }
    expect(t.gracePeriods.length).toBeGreaterThan(0);
    for (const gp of t.gracePeriods) expect(gp.end).toBeGreaterThanOrEqual(gp.start);
  });
});
