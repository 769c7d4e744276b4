// SPDX-License-Identifier: GPL-2.0-only
// A real trace's shrinkers and reclaim episodes (reclaimTrace.ts), and the
// chunked reading of a file with progress and Cancel.
import { describe, expect, it } from 'vitest';
import { parseFtrace } from './ftrace';
import { buildReclaimTrace, Cancelled, readTrace } from './reclaimTrace';

// kswapd0 on CPU2 with a shrinker whose deferred count runs away (new scan
// count grows every pass while little is freed), two superblocks' shrinkers
// that share super_cache_scan, a direct reclaimer on CPU0, and one end the
// buffer dropped.
const L = (cpu: number, comm: string, pid: number, t: string, ev: string, text: string) =>
  `${comm.padStart(16)}-${String(pid).padEnd(7)} [${String(cpu).padStart(3, '0')}] ..... ${t.padStart(12)}: ${ev}: ${text}`;
const start = (sym: string, shr: string, toShrink: number, items: number, delta: number, total: number, prio: number) =>
  `${sym} ${shr}: nid: 0 objects to shrink ${toShrink} gfp_flags GFP_KERNEL cache items ${items} delta ${delta} total_scan ${total} priority ${prio}`;
const end = (sym: string, shr: string, unused: number, next: number, total: number, ret: number) =>
  `${sym} ${shr}: nid: 0 unused scan count ${unused} new scan count ${next} total_scan ${total} last shrinker return val ${ret}`;
const DS = 'deferred_split_scan+0x0/0x2f0';
const SB = 'super_cache_scan+0x0/0x1b0';
const TEXT = [
  '# tracer: nop',
  L(2, 'kswapd0', 97, '100.000100', 'mm_vmscan_kswapd_wake', 'nid=0 order=0'),
  L(2, 'kswapd0', 97, '100.000200', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 1000, 500, 10, 1010, 12)),
  L(2, 'kswapd0', 97, '100.000300', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 1000, 2000, 10, 0)),
  L(2, 'kswapd0', 97, '100.000400', 'mm_shrink_slab_start', start(SB, '00000000bbbb0001', 0, 300, 5, 5, 12)),
  L(2, 'kswapd0', 97, '100.000500', 'mm_shrink_slab_end', end(SB, '00000000bbbb0001', 0, 0, 5, 5)),
  L(2, 'kswapd0', 97, '100.000600', 'mm_shrink_slab_start', start(SB, '00000000bbbb0002', 0, 40, 1, 1, 12)),
  L(2, 'kswapd0', 97, '100.000700', 'mm_shrink_slab_end', end(SB, '00000000bbbb0002', 0, 0, 1, 1)),
  L(0, 'stress', 2411, '100.000800', 'mm_vmscan_direct_reclaim_begin', 'order=0 gfp_flags=GFP_HIGHUSER_MOVABLE'),
  L(0, 'stress', 2411, '100.000900', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 2000, 500, 10, 2010, 12)),
  L(0, 'stress', 2411, '100.001000', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 2000, 4000, 10, 0)),
  L(0, 'stress', 2411, '100.001100', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 4000, 500, 10, 4010, 11)),
  L(0, 'stress', 2411, '100.001200', 'mm_vmscan_direct_reclaim_end', 'nr_reclaimed=32'),
  L(2, 'kswapd0', 97, '100.001300', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 4000, 500, 10, 4010, 12)),
  L(2, 'kswapd0', 97, '100.001400', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 4000, 8000, 10, 0)),
  L(2, 'kswapd0', 97, '100.001500', 'mm_vmscan_kswapd_sleep', 'nid=0'),
  L(1, 'kswapd1', 98, '100.001600', 'mm_vmscan_kswapd_wake', 'nid=1 order=2'),
].join('\n');

describe('a real reclaim trace as shrinkers and episodes', () => {
  const parsed = parseFtrace(TEXT);
  const r = buildReclaimTrace(parsed);

  it('parses the sample whole', () => {
    expect(parsed.malformed).toEqual([]);
  });

  it('a row per shrinker, by scan function and address, the runaway deferred count first', () => {
    expect(r.shrinkers.map((s) => s.key)).toEqual([
      'deferred_split_scan 00000000aaaa0001',
      'super_cache_scan 00000000bbbb0001',
      'super_cache_scan 00000000bbbb0002',
    ]);
    const ds = r.shrinkers[0];
    expect(ds.passes.map((p) => p.newScan)).toEqual([2000, 4000, 8000]);
    expect(ds.passes.map((p) => p.nrObjectsToShrink)).toEqual([1000, 2000, 4000]);
    expect(ds.passes.map((p) => [p.comm, p.cpu])).toEqual([['kswapd0', 2], ['stress', 0], ['kswapd0', 2]]);
    expect(ds.maxDeferred).toBe(8000);
    expect(ds.passes[0]).toMatchObject({ start: 100_000_200_000, end: 100_000_300_000, startLine: 3, endLine: 4, cacheItems: 500, delta: 10, totalScan: 1010, priority: 12, unusedScan: 1000, retval: 0 });
    expect(r.shrinkers[1].passes[0].retval).toBe(5);
  });

  it('episodes per CPU: kswapd wake to sleep, direct reclaim begin to end, one the trace cuts', () => {
    expect(r.episodes.map((e) => [e.kind, e.comm, e.cpu, e.start, e.end, e.nrReclaimed])).toEqual([
      ['kswapd', 'kswapd0', 2, 100_000_100_000, 100_001_500_000, null],
      ['direct', 'stress', 0, 100_000_800_000, 100_001_200_000, 32],
      ['kswapd', 'kswapd1', 1, 100_001_600_000, null, null],
    ]);
    expect(r.start).toBe(100_000_100_000);
    expect(r.end).toBe(100_001_600_000);
  });

  it('a start whose end was dropped is named by its line', () => {
    expect(r.unpaired).toEqual([{ line: 12, why: 'mm_shrink_slab_start with no end' }]);
  });
});

describe('reading a trace file in chunks', () => {
  // A comm with a two-byte character, so that some chunk boundary falls inside it.
  const text = `${TEXT}\n${L(3, 'kworker/ü', 7, '100.001700', 'mm_vmscan_kswapd_sleep', 'nid=1')}\n`;
  const blob = new Blob([text]);

  it('gives what parsing the whole text gives, at every chunk size, with progress to the end', async () => {
    const whole = parseFtrace(text);
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const seen: number[] = [];
      const r = await readTrace(blob, { chunkBytes, onProgress: (b) => seen.push(b) });
      expect(r).toEqual(whole);
      expect(seen[seen.length - 1]).toBe(blob.size);
      expect(seen.every((b, k) => k === 0 || b > seen[k - 1])).toBe(true);
    }
    expect(whole.events[whole.events.length - 1].comm).toBe('kworker/ü');
  });

  it('stops when cancelled', async () => {
    const ac = new AbortController();
    let calls = 0;
    const reading = readTrace(blob, {
      chunkBytes: 100,
      signal: ac.signal,
      onProgress: () => {
        if (++calls === 2) ac.abort();
      },
    });
    await expect(reading).rejects.toBeInstanceOf(Cancelled);
    expect(calls).toBe(2);
  });
});
