// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, EVENT_OFFSETS, EVENT_SIZE, EventKind } from './generated/events';
import { EventLog } from './log';
import type { RunMeta } from './meta';
import { loadRun } from './testing/fixtures';

const meta = { cpus: 2, sites: [{ tree: '', file: '', line: 0, func: '', expr: null }], names: ['x'], tasks: [], kinds: [] } as unknown as RunMeta;

function encode(rows: { time: number; kind: number; cpu: number; task: number; site: number; args: number[] }[]) {
  const buf = new ArrayBuffer(rows.length * EVENT_SIZE);
  const dv = new DataView(buf);
  rows.forEach((r, i) => {
    const o = i * EVENT_SIZE;
    dv.setUint32(o + EVENT_OFFSETS.time, r.time % 2 ** 32, true);
    dv.setUint32(o + EVENT_OFFSETS.time + 4, Math.floor(r.time / 2 ** 32), true);
    dv.setUint32(o + EVENT_OFFSETS.site, r.site, true);
    dv.setUint16(o + EVENT_OFFSETS.kind, r.kind, true);
    dv.setUint8(o + EVENT_OFFSETS.cpu, r.cpu);
    dv.setUint8(o + EVENT_OFFSETS.task, r.task);
    r.args.forEach((a, k) => dv.setInt32(o + EVENT_OFFSETS.args + 4 * k, a, true));
  });
  return buf;
}

describe('event decoding', () => {
  it('decodes every field of a record, including 64-bit times and negative args', () => {
    const log = new EventLog(
      encode([
        { time: 5, kind: EventKind.TASK_START, cpu: 0, task: 3, site: 0, args: [3, 0, 0, 0] },
        { time: 2 ** 33 + 7, kind: EventKind.REFCOUNT, cpu: 1, task: 255, site: 0, args: [9, 1, -1, 3] },
      ]),
      meta,
    );
    expect(log.length).toBe(2);
    expect(log.event(1)).toEqual({ index: 1, time: 2 ** 33 + 7, kind: EventKind.REFCOUNT, cpu: 1, task: -1, site: 0, args: [9, 1, -1, 3] });
    expect(log.event(0).task).toBe(3);
    expect(log.namedArgs(1)).toEqual({ obj: 9, old: 1, new: -1, op: 3 });
  });

  it('refuses a buffer that is not whole records, and unknown kinds', () => {
    expect(() => new EventLog(new ArrayBuffer(EVENT_SIZE + 3), meta)).toThrow(/whole number/);
    expect(() => new EventLog(encode([{ time: 0, kind: EVENT_KINDS.length, cpu: 0, task: 0, site: 0, args: [] }]), meta)).toThrow(/unknown kind/);
  });

  it('finds the event at a virtual time', () => {
    const log = new EventLog(
      encode([10, 20, 20, 30].map((time) => ({ time, kind: 0, cpu: 0, task: 0, site: 0, args: [] }))),
      meta,
    );
    expect(log.indexAtTime(5)).toBe(-1);
    expect(log.indexAtTime(20)).toBe(2);
    expect(log.indexAtTime(29)).toBe(2);
    expect(log.indexAtTime(99)).toBe(3);
  });

  it('decodes a real run exactly as the C side wrote it', () => {
    const log = loadRun('shrinker-lifetime', 1);
    expect(log.length).toBe(log.meta.events);
    expect(log.meta.status).toBe('done');
    for (let i = 1; i < log.length; i++) expect(log.time[i]).toBeGreaterThanOrEqual(log.time[i - 1]);
    for (let i = 0; i < log.length; i++) expect(log.site[i]).toBeLessThan(log.meta.sites.length);
    expect(log.meta.kinds.map((k) => k.name)).toEqual(EVENT_KINDS.map((k) => k.name));
    const first = log.event(0);
    expect(first.kind).toBe(EventKind.TASK_START);
    expect(log.name(first.args[1])).toBe('init');
    // Kernel lines name files of the v6.12 tree.
    const files = new Set(log.meta.sites.filter((s) => s.tree === 'v6.12').map((s) => s.file));
    expect(files).toContain('mm/shrinker.c');
    expect(files).toContain('mm/list_lru.c');
  });
});
