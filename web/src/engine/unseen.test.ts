// SPDX-License-Identifier: GPL-2.0-only
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventKind, UNSEEN_OFFSETS, UNSEEN_SIZE } from './generated/events';
import { EventLog } from './log';
import type { RunMeta, Site } from './meta';
import { staleRead } from './stale';
import { Unseen, unseenCount, unseenHeadline, unseenLocWords } from './unseen';

interface Rec { event: number; cpu: number; loc: number; count: number; name?: number; storeCpu?: number; read?: bigint; newest?: bigint; obj?: number; newestObj?: number }

/** Records as the runtime writes them (struct sim_unseen, little-endian). */
function records(rs: Rec[]): ArrayBuffer {
  const buf = new ArrayBuffer(rs.length * UNSEEN_SIZE);
  const v = new DataView(buf);
  rs.forEach((r, i) => {
    const o = i * UNSEEN_SIZE;
    v.setUint32(o + UNSEEN_OFFSETS.event, r.event, true);
    v.setUint8(o + UNSEEN_OFFSETS.cpu, r.cpu);
    v.setUint32(o + UNSEEN_OFFSETS.loc, r.loc, true);
    v.setUint16(o + UNSEEN_OFFSETS.count, r.count, true);
    v.setUint32(o + UNSEEN_OFFSETS.name, r.name ?? 0, true);
    v.setInt8(o + UNSEEN_OFFSETS.store_cpu, r.storeCpu ?? 1 - r.cpu);
    v.setBigUint64(o + UNSEEN_OFFSETS.read, r.read ?? 0n, true);
    v.setBigUint64(o + UNSEEN_OFFSETS.newest, r.newest ?? 1n, true);
    v.setInt32(o + UNSEEN_OFFSETS.obj, r.obj ?? 40, true);
    v.setInt32(o + UNSEEN_OFFSETS.newest_obj, r.newestObj ?? 0, true);
  });
  return buf;
}

const site = (expr: string): Site => ({ tree: 'v6.12', file: 'mm/list_lru.c', line: 189, func: 'list_lru_count_one', expr });

describe('what each CPU has not yet seen, from its records', () => {
  const u = new Unseen({
    from: 10,
    to: 30,
    sites: { 7: site('l->nr_items'), 8: site('head->next') },
    records: records([
      { event: 10, cpu: 0, loc: 5, count: 1, name: 7 },
      { event: 12, cpu: 0, loc: 6, count: 2, name: 8, newest: 0x1000n, newestObj: 43 },
      { event: 13, cpu: 1, loc: 5, count: 1 },
      { event: 13, cpu: 0, loc: 5, count: 3, name: 7, newest: 4n },
      { event: 15, cpu: 0, loc: 5, count: 0 },
      { event: 20, cpu: 1, loc: 5, count: 0 },
    ]),
  });

  it('counts, at each step, the stores each CPU has not seen: a record replaces the last of its CPU and location', () => {
    const count = (step: number, cpu: number) => unseenCount(u.at(step).get(cpu) ?? []);
    expect([10, 11, 12, 13, 14, 15, 19, 20, 29].map((s) => count(s, 0))).toEqual([1, 1, 3, 5, 5, 2, 2, 2, 2]);
    expect([12, 13, 19, 20].map((s) => count(s, 1))).toEqual([0, 1, 1, 0]);
    expect(u.at(20).has(1)).toBe(false); // a CPU that has seen everything is absent
    expect(u.covers(9)).toBe(false);
    expect(u.covers(29)).toBe(true);
    expect(u.covers(30)).toBe(false);
  });

  it('names each location and its values, and says whose stores they are', () => {
    const locs = u.at(14).get(0)!;
    expect(locs.map((l) => l.name)).toEqual(['head->next', 'l->nr_items']); // the newest change last
    expect(unseenHeadline(0, locs, 2)).toBe('CPU0 has not yet seen 5 stores of CPU1');
    expect(unseenHeadline(0, locs, 3)).toBe('CPU0 has not yet seen 5 stores of the other CPUs');
    const name = (o: number) => `object #${o}`;
    expect(unseenLocWords(locs[1], name)).toBe("l->nr_items in object #40 (3 stores): reads 0, CPU1's newest store wrote 4");
    expect(unseenLocWords(locs[0], name)).toBe("head->next in object #40 (2 stores): reads 0, CPU1's newest store wrote a pointer into object #43");
    expect(unseenHeadline(1, u.at(13).get(1)!, 2)).toBe('CPU1 has not yet seen 1 store of CPU0');
  });
});

// The model's own records, natively (labrun --unseen-check also checks every change against the model's count):
// at lesson why-this-barrier's stale read, the reading CPU has not seen the writer's store to l->nr_items.
const LABRUN = 'build/native/break-no-mb-recheck/labrun';
describe.skipIf(!existsSync(LABRUN))('on break-no-mb-recheck under relaxed, the lesson\'s failing schedule', () => {
  it('has the store the stale read missed among what its CPU has not seen, from 0 to 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'unseen-'));
    try {
      const r = spawnSync(LABRUN, ['--scenario', 'memcg-bitmap', '--seed', '1', '--policy', 'timed', '--memory', 'relaxed', '--program', '6,3,1',
        '--schedule', '0x11.1x15.r1', '--unseen-check', '--dump', dir], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const ev = readFileSync(join(dir, 'events.bin'));
      const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
      const log = new EventLog(ev.buffer.slice(ev.byteOffset, ev.byteOffset + ev.byteLength), meta);
      const rec = readFileSync(join(dir, 'unseen.bin'));
      const sites = Object.fromEntries(meta.sites.map((s, i) => [i, s]));
      const u = new Unseen({ from: 0, to: log.length, records: rec.buffer.slice(rec.byteOffset, rec.byteOffset + rec.byteLength), sites });
      const at = [...Array(log.length).keys()].filter((i) => log.kind[i] === EventKind.MM_STALE);
      expect(at.length).toBeGreaterThan(0);
      for (const i of at) {
        const stale = staleRead(log, i)!;
        const mine = u.at(i).get(log.cpu[i]) ?? [];
        const missed = mine.find((l) => l.name === 'l->nr_items' && l.obj === stale.obj);
        expect(missed, `event ${i}`).toBeDefined();
        expect(missed).toMatchObject({ storeCpu: stale.storeCpu, read: 0n, newest: 1n, count: 1 });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
