// SPDX-License-Identifier: GPL-2.0-only
// The trace page's steps and search (traceSteps.ts), on sample lines
// written from include/trace/events/vmscan.h's TP_printk formats and on a
// trace User-Mode Linux's tracefs printed (wasm/tests/fixtures/).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFtrace } from './ftrace';
import { buildReclaimTrace } from './reclaimTrace';
import { deferredAt, nextMatch, peakSteps, searchSteps, traceSteps } from './traceSteps';

const L = (cpu: number, comm: string, pid: number, t: string, ev: string, text: string) =>
  `${comm.padStart(16)}-${String(pid).padEnd(7)} [${String(cpu).padStart(3, '0')}] ..... ${t.padStart(12)}: ${ev}: ${text}`;
const start = (sym: string, shr: string, toShrink: number, gfp: string, prio: number) =>
  `${sym} ${shr}: nid: 0 objects to shrink ${toShrink} gfp_flags ${gfp} cache items 500 delta 10 total_scan ${toShrink + 10} priority ${prio}`;
const end = (sym: string, shr: string, next: number, ret: number) =>
  `${sym} ${shr}: nid: 0 unused scan count 0 new scan count ${next} total_scan 10 last shrinker return val ${ret}`;
const DS = 'deferred_split_scan+0x0/0x2f0';
const SB = 'super_cache_scan+0x0/0x1b0 [xfs]';
const TEXT = [
  L(2, 'kswapd0', 97, '100.000100', 'mm_vmscan_kswapd_wake', 'nid=0 order=0'),
  L(2, 'kswapd0', 97, '100.000200', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 1000, 'GFP_KERNEL', 12)), // line 2
  L(2, 'kswapd0', 97, '100.000300', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 2000, 0)),
  L(2, 'kswapd0', 97, '100.000400', 'mm_shrink_slab_start', start(SB, '00000000bbbb0001', 0, 'GFP_KERNEL', 12)),
  L(2, 'kswapd0', 97, '100.000500', 'mm_shrink_slab_end', end(SB, '00000000bbbb0001', 0, 5)),
  L(2, 'kswapd0', 97, '100.000550', 'mm_vmscan_kswapd_sleep', 'nid=0'),
  L(0, 'stress', 2411, '100.000800', 'mm_vmscan_direct_reclaim_begin', 'order=0 gfp_flags=GFP_NOFS'), // line 7
  L(0, 'stress', 2411, '100.000900', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 2000, 'GFP_NOFS', 11)),
  L(0, 'stress', 2411, '100.001000', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 4000, 0)),
  L(0, 'stress', 2411, '100.001100', 'mm_vmscan_direct_reclaim_end', 'nr_reclaimed=32'),
  L(2, 'kswapd0', 97, '100.001300', 'mm_shrink_slab_start', start(DS, '00000000aaaa0001', 4000, 'GFP_KERNEL', 12)),
  L(2, 'kswapd0', 97, '100.001400', 'mm_shrink_slab_end', end(DS, '00000000aaaa0001', 3000, 1000)),
].join('\n');

describe('the steps of a real trace', () => {
  const model = buildReclaimTrace(parseFtrace(TEXT));
  const steps = traceSteps(model);
  const ds = model.shrinkers[0];
  const sb = model.shrinkers[1];

  it('are the passes in the order they ended', () => {
    expect(steps.map((s) => [s.row.func, s.pass.endLine])).toEqual([
      ['deferred_split_scan', 3],
      ['super_cache_scan', 5],
      ['deferred_split_scan', 9],
      ['deferred_split_scan', 12],
    ]);
    expect(steps[2].pass.gfp).toBe('GFP_NOFS');
  });

  it('read each shrinker\'s deferred count at a step, and where it peaks', () => {
    expect(ds.func).toBe('deferred_split_scan');
    expect(steps.map((s) => deferredAt(ds, s.pass))).toEqual([2000, 2000, 4000, 3000]);
    expect(deferredAt(sb, steps[0].pass)).toBeNull();
    expect(peakSteps(steps).get(ds)).toBe(2);
    expect(peakSteps(steps).get(sb)).toBe(1);
  });

  it('are found by scan function, module, shrinker address, CPU, task and gfp flags', () => {
    const found = (q: string) => searchSteps(model, steps, q).steps;
    expect(found('deferred_split')).toEqual([0, 2, 3]);
    expect(found('SUPER_CACHE_SCAN')).toEqual([1]);
    expect(found('[xfs]')).toEqual([1]);
    expect(found('bbbb0001')).toEqual([1]);
    expect(found('cpu 0')).toEqual([2]);
    expect(found('CPU2')).toEqual([0, 1, 3]);
    expect(found('cpu:2')).toEqual([0, 1, 3]);
    expect(found('stress')).toEqual([2]);
    expect(found('GFP_NOFS')).toEqual([2]);
    expect(found('new scan count 4000')).toEqual([2]);
    expect(found('priority 11')).toEqual([2]);
    expect(found('nothing like it')).toEqual([]);
    expect(found('  ')).toEqual([]);
  });

  it('are found by event name: every pass, or the first pass after each episode\'s line', () => {
    expect(searchSteps(model, steps, 'mm_shrink_slab_end').steps).toEqual([0, 1, 2, 3]);
    expect(searchSteps(model, steps, 'mm_vmscan_kswapd_wake').steps).toEqual([0]);
    expect(searchSteps(model, steps, 'mm_vmscan_kswapd_sleep').steps).toEqual([2]);
    expect(searchSteps(model, steps, 'mm_vmscan_direct_reclaim_begin').steps).toEqual([2]);
    expect(searchSteps(model, steps, 'mm_vmscan_direct_reclaim_end').steps).toEqual([3]);
    expect(searchSteps(model, steps, 'mm_vmscan_memcg_reclaim_begin').steps).toEqual([]);
    const lru = searchSteps(model, steps, 'mm_vmscan_lru_shrink_inactive');
    expect(lru.steps).toEqual([]);
    expect(lru.as).toMatch(/not steps/);
  });

  it('jump to the next or previous match, around the ends', () => {
    expect(nextMatch([0, 2, 3], 0, 1)).toBe(2);
    expect(nextMatch([0, 2, 3], 3, 1)).toBe(0);
    expect(nextMatch([0, 2, 3], 2, -1)).toBe(0);
    expect(nextMatch([0, 2, 3], 0, -1)).toBe(3);
    expect(nextMatch([], 0, 1)).toBeNull();
  });
});

describe('the steps of a trace User-Mode Linux made', () => {
  // kunit-deferred: many passes share one timestamp (UML's trace clock is coarse); the file's order decides.
  const text = readFileSync('wasm/tests/fixtures/uml-v6.12-ftrace-kunit-deferred.txt', 'utf8');
  const model = buildReclaimTrace(parseFtrace(text));
  const steps = traceSteps(model);
  it('follow the file\'s order of the ends, and the search finds the kernel\'s own shrinker', () => {
    const ends = [...text.matchAll(/: mm_shrink_slab_end: (\w+)\+/g)].map((m) => m[1]);
    expect(steps.map((s) => s.row.func)).toEqual(ends);
    const rcu = searchSteps(model, steps, 'kfree_rcu_shrink_scan').steps;
    expect(rcu.length).toBe(ends.filter((f) => f === 'kfree_rcu_shrink_scan').length);
    expect(rcu.every((i) => steps[i].row.func === 'kfree_rcu_shrink_scan')).toBe(true);
  });
});
