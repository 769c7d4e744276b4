// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { encodeSchedule, isScheduleText } from './decisions';
import { loadDecisions, loadRun } from './testing/fixtures';

describe('scheduling decisions', () => {
  const log = loadRun('shrinker-lifetime', 1);
  const d = loadDecisions('shrinker-lifetime', 1);

  it('decode to the schedule the C side recorded', () => {
    expect(d.length).toBe(log.meta.decisions);
    expect(d.schedule(d.length)).toBe(log.meta.schedule);
    expect(isScheduleText(log.meta.schedule)).toBe(true);
  });

  it('lie between events, each choosing a runnable CPU', () => {
    for (let i = 0; i < d.length; i++) {
      expect(d.event[i]).toBeLessThanOrEqual(log.length);
      if (i) expect(d.event[i]).toBeGreaterThanOrEqual(d.event[i - 1]);
      expect(d.runnableCpus(i)).toContain(d.cpu[i]);
      expect(d.runnableCpus(i).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('find the next decision after a step', () => {
    const k = d.nextAfter(100);
    expect(d.event[k]).toBeGreaterThan(100);
    if (k > 0) expect(d.event[k - 1]).toBeLessThanOrEqual(100);
  });

  it('encode runs the way lab_schedule_encode() does', () => {
    expect(encodeSchedule([0, 0, 0, 1, 0, 1, 1])).toBe('0x3.1.0.1x2');
    expect(encodeSchedule([])).toBe('');
    expect(isScheduleText('0x3.1.q')).toBe(false);
  });
});
