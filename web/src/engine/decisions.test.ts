// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { Decisions, encodeSchedule, isScheduleText, withSchedule } from './decisions';
import { CHOICE_LETTERS, DECISION_OFFSETS, DECISION_SIZE } from './generated/events';
import { loadDecisions, loadRun } from './testing/fixtures';

describe('scheduling decisions', () => {
  const log = loadRun('shrinker-lifetime', 1);
  const d = loadDecisions('shrinker-lifetime', 1);

  it('decode to the schedule the C side recorded', () => {
    expect(d.length).toBe(log.meta.decisions);
    expect(d.schedule(d.length)).toBe(log.meta.schedule);
    expect(isScheduleText(log.meta.schedule)).toBe(true);
  });

  it('make the schedule of a meta that leaves it out, as the C side writes it', () => {
    const meta: { schedule?: string } = { ...log.meta };
    delete meta.schedule;
    expect(withSchedule(meta, d).schedule).toBe(log.meta.schedule);
    expect(JSON.parse(JSON.stringify(meta)).schedule).toBe(log.meta.schedule);
    const given = { ...log.meta, schedule: '0x3' };
    expect(withSchedule(given, d).schedule).toBe('0x3');
  });

  it('lie between events, each choosing a runnable CPU', () => {
    for (let i = 0; i < d.length; i++) {
      expect(d.event[i]).toBeLessThanOrEqual(log.length);
      if (i) expect(d.event[i]).toBeGreaterThanOrEqual(d.event[i - 1]);
      expect(d.runnableCpus(i)).toContain(d.cpu[i]);
      expect(d.runnableCpus(i).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('read a runnable mask of 64 CPUs, both words', () => {
    const buf = new ArrayBuffer(2 * DECISION_SIZE);
    const dv = new DataView(buf);
    dv.setBigUint64(DECISION_OFFSETS.runnable, (1n << 0n) | (1n << 31n) | (1n << 32n) | (1n << 63n), true);
    dv.setBigUint64(DECISION_SIZE + DECISION_OFFSETS.runnable, 1n << 40n, true);
    const two = Decisions.fromRecords(buf);
    expect(two.runnableCpus(0)).toEqual([0, 31, 32, 63]);
    expect(two.runnableCpus(1)).toEqual([40]);
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

  it('write a choice point of another kind by its letter, and read a permalink of either kind', () => {
    const litmus = CHOICE_LETTERS.indexOf('l');
    expect(litmus).toBeGreaterThan(0);
    expect(encodeSchedule([0, 0, 2, 1], [0, 0, litmus, 0])).toBe('0x2.l2.1');
    expect(isScheduleText('0x2.l2.1')).toBe(true);
    expect(isScheduleText('0x12.1')).toBe(true);
    expect(isScheduleText('0x2.q2.1')).toBe(false);
  });
});
