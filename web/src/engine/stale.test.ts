// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { EVENT_OFFSETS, EVENT_SIZE, EventKind } from './generated/events';
import { EventLog } from './log';
import type { RunMeta } from './meta';
import { narrate } from './narrate';
import { staleRead, storeStep, storeWords } from './stale';

const meta = {
  cpus: 2,
  sites: [
    { tree: '', file: '', line: 0, func: '', expr: null },
    { tree: 'v6.12', file: 'mm/list_lru.c', line: 189, func: 'list_lru_count_one', expr: 'l->nr_items' },
    { tree: 'v6.12', file: 'mm/shrinker.c', line: 216, func: 'set_shrinker_bit', expr: null },
    { tree: 'v6.12', file: 'lib/xarray.c', line: 1484, func: 'xa_load', expr: null },
  ],
  names: [],
  tasks: [],
  kinds: [],
} as unknown as RunMeta;

type Row = { kind: number; cpu: number; site: number; args: number[] };

function encode(rows: Row[]) {
  const buf = new ArrayBuffer(rows.length * EVENT_SIZE);
  const dv = new DataView(buf);
  rows.forEach((r, i) => {
    const o = i * EVENT_SIZE;
    dv.setUint32(o + EVENT_OFFSETS.site, r.site, true);
    dv.setUint16(o + EVENT_OFFSETS.kind, r.kind, true);
    dv.setUint8(o + EVENT_OFFSETS.cpu, r.cpu);
    dv.setUint8(o + EVENT_OFFSETS.task, 255); // no task
    r.args.forEach((a, k) => dv.setInt32(o + EVENT_OFFSETS.args + 4 * k, a, true));
  });
  return new EventLog(buf, meta);
}

const other = (cpu: number, site: number): Row => ({ kind: EventKind.BARRIER, cpu, site, args: [1, 0, 0, 0] });
const stale = (site: number, storeCpu: number, storeBefore: number, obj = 40): Row => ({ kind: EventKind.MM_STALE, cpu: 0, site: 1, args: [obj, site, storeCpu, storeBefore] });

describe('a stale load', () => {
  it('names a marked store by its own line, and goes to its CPU\'s last event before it', () => {
    // CPU1's store at shrinker.c:216 came after CPU1's event 1 (at xarray.c), so the line is the store's own.
    const log = encode([other(1, 3), other(1, 3), other(0, 1), stale(2, 1, 2)]);
    const r = staleRead(log, 3)!;
    expect(r).toMatchObject({ storeCpu: 1, storeBefore: 2, after: 1, obj: 40, store: { line: 216 } });
    expect(storeStep(log, r)).toBe(1);
    expect(narrate(log, 3, new Map([[40, 'list_lru_one']]))).toBe(
      "CPU0: reads an older value of l->nr_items in list_lru_one (#40): it has not yet seen CPU1's store at " +
        'mm/shrinker.c:216 (set_shrinker_bit()) at mm/list_lru.c:189',
    );
  });

  it('places a plain store (the line of its CPU\'s last event) by that event, not as its own line', () => {
    // The model gave the store the line of CPU1's last event (3, xa_load): the store came after it.
    const log = encode([other(1, 3), other(0, 1), other(0, 1), stale(3, 1, 2)]);
    const r = staleRead(log, 3)!;
    expect(r.store).toBeNull();
    expect(r.after).toBe(0);
    expect(storeWords(log, r)).toBe("CPU1's store, made after its event 0 at lib/xarray.c:1484 (xa_load())");
    expect(storeStep(log, r)).toBe(0);
  });

  it('is nothing for another kind; a store before any event of its CPU is placed by the log alone', () => {
    const log = encode([other(0, 1), stale(0, 1, 1, 0)]);
    expect(staleRead(log, 0)).toBeNull();
    expect(narrate(log, 1, new Map())).toContain("in static data: it has not yet seen CPU1's store, made before event 1");
    expect(storeStep(log, staleRead(log, 1)!)).toBe(0);
  });
});
