// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { UNSEEN_REACH, unseenWindow } from './useUnseen';

describe('the window of events the CPU cards ask for', () => {
  it('takes a short run whole, and a long one around the step, within the run', () => {
    expect(unseenWindow(256, 691)).toEqual({ from: 0, to: 691 });
    expect(unseenWindow(0, 2 * UNSEEN_REACH)).toEqual({ from: 0, to: 2 * UNSEEN_REACH });
    expect(unseenWindow(5867, 11735)).toEqual({ from: 5867 - UNSEEN_REACH, to: 5867 + UNSEEN_REACH });
    expect(unseenWindow(10, 11735)).toEqual({ from: 0, to: 2 * UNSEEN_REACH });
    expect(unseenWindow(11734, 11735)).toEqual({ from: 11734 - UNSEEN_REACH, to: 11735 });
    for (const step of [0, 999, 1000, 5000, 11734]) {
      const w = unseenWindow(step, 11735);
      expect(step >= w.from && step < w.to, `step ${step} in ${w.from}..${w.to}`).toBe(true);
    }
  });
});
