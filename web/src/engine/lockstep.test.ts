// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { stepAtTime, timePeaks } from './lockstep';

/** The same answer by a linear scan: the last i with max(time[0..i]) <= t, else 0. */
function byScan(time: number[], t: number): number {
  let best = 0;
  let m = -Infinity;
  for (let i = 0; i < time.length; i++) {
    m = Math.max(m, time[i]);
    if (m <= t) best = i;
  }
  return best;
}

describe('timePeaks', () => {
  it('is the running maximum, so a clock that goes back does not lower it', () => {
    expect([...timePeaks([5, 3, 8, 8, 2, 9])]).toEqual([5, 5, 8, 8, 8, 9]);
  });
  it('of an empty log is empty', () => {
    expect(timePeaks([]).length).toBe(0);
  });
});

describe('stepAtTime', () => {
  const time = [0, 10, 7, 20, 20, 15, 30];
  const peaks = timePeaks(time);
  it('stands on the last event at or before the time', () => {
    expect(stepAtTime(peaks, 10)).toBe(2); // event 2 (t=7) came after the clock reached 10
    expect(stepAtTime(peaks, 19)).toBe(2);
    expect(stepAtTime(peaks, 20)).toBe(5); // equal times: the last of them
    expect(stepAtTime(peaks, 29)).toBe(5);
  });
  it('clamps before the first and after the last event', () => {
    expect(stepAtTime(timePeaks([4, 6]), 1)).toBe(0);
    expect(stepAtTime(peaks, 1e12)).toBe(time.length - 1);
  });
  it('is 0 on an empty log', () => {
    expect(stepAtTime(timePeaks([]), 5)).toBe(0);
  });
  it('agrees with a linear scan on random interleaved clocks', () => {
    let x = 12345;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 200; n++) {
      const len = Math.floor(rnd() * 40);
      const t: number[] = [];
      for (let i = 0, c = 0; i < len; i++) t.push((c += Math.floor(rnd() * 10)) - Math.floor(rnd() * 15));
      const p = timePeaks(t);
      for (let q = -20; q < 250; q += 3) expect(stepAtTime(p, q), `times ${t} at ${q}`).toBe(byScan(t, q));
    }
  });
});
