// SPDX-License-Identifier: GPL-2.0-only
// The vmscan trace parser on sample lines of each layout and tool, written
// from the TP_printk formats of include/trace/events/vmscan.h (v6.1 and
// v6.12 print these events alike), the older mm_shrink_slab_start layout
// (%pF, pgs_scanned and lru_pgs, no priority) and kernel/trace's line
// prefix; and on malformed lines.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { FtraceParser, parseFtrace, parseSymbol, VMSCAN_EVENTS, type ShrinkSlabEnd, type ShrinkSlabStart } from './ftrace';

const FTRACE_6 = `# tracer: nop
#
# entries-in-buffer/entries-written: 12/12   #P:4
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
         kswapd0-97      [002] .....   184.324110: mm_vmscan_kswapd_wake: nid=0 order=0
         kswapd0-97      [002] .....   184.324532: mm_shrink_slab_start: super_cache_scan+0x0/0x1b0 00000000c3c2fa8e: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 2241 delta 17 total_scan 17 priority 12
         kswapd0-97      [002] .....   184.324987: mm_shrink_slab_end: super_cache_scan+0x0/0x1b0 00000000c3c2fa8e: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 17
         kswapd0-97      [002] .....   184.325001: mm_shrink_slab_start: nfs4_xattr_cache_scan+0x0/0x90 [nfsv4] 000000009b3f0c11: nid: 0 objects to shrink 40 gfp_flags GFP_KERNEL cache items 3 delta 0 total_scan 40 priority 12
         kswapd0-97      [002] .....   184.325002: mm_shrink_slab_end: nfs4_xattr_cache_scan+0x0/0x90 [nfsv4] 000000009b3f0c11: nid: 0 unused scan count 40 new scan count 43 total_scan 3 last shrinker return val -1
         kswapd0-97      [002] d..1.   184.325400: sched_switch: prev_comm=kswapd0 prev_pid=97 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120
         kswapd0-97      [002] .....   184.325900: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=32 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
         kswapd0-97      [002] .....   184.326000: mm_vmscan_kswapd_sleep: nid=0
CPU:1 [LOST 120 EVENTS]
          stress-2411    [001] .....   185.000001: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COMP
          stress-2411    [001] .....   185.000950: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
 <...>-2412    (   2400) [003] .....   185.100000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
 <...>-2412    (   2400) [003] .....   185.100200: mm_vmscan_memcg_reclaim_end: nr_reclaimed=12
`;

const TRACE_CMD = `version = 6
CPU 3 is empty
cpus=4
         kswapd0-97    [002]   184.324532: mm_shrink_slab_start: super_cache_scan+0x0/0x1b0 0xffff8881062e5c38: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 2241 delta 17 total_scan 17 priority 12
         kswapd0-97    [002]   184.324987: mm_shrink_slab_end:   super_cache_scan+0x0/0x1b0 0xffff8881062e5c38: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 17
`;

const PERF = `         kswapd0    97 [002]   184.324532: vmscan:mm_shrink_slab_start: super_cache_scan+0x0/0x1b0 0xffff8881062e5c38: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 2241 delta 17 total_scan 17 priority 12
     Web Content  3011/3019 [000]   190.000100: vmscan:mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
     Web Content  3011/3019 [000]   190.000200: vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=31
         kswapd0    97 [002]   184.324987: vmscan:mm_shrink_slab_end: super_cache_scan+0x0/0x1b0 0xffff8881062e5c38: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 17
         kswapd0    97 [002]   184.325400: sched:sched_switch: prev_comm=kswapd0 prev_pid=97
`;

// Before 4.16 (%pF until 5.0): pgs_scanned and lru_pgs, no priority; before nid was added, no nid either.
const OLD = `         kswapd0-38    [001] ....  1234.567890: mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 ffff88003c8b6ac0: nid: 0 objects to shrink 1240 gfp_flags GFP_KERNEL pgs_scanned 32 lru_pgs 1932 cache items 3112 delta 6 total_scan 626
         kswapd0-38    [001] ....  1234.568100: mm_shrink_slab_end: super_cache_scan+0x0/0x1a0 ffff88003c8b6ac0: nid: 0 unused scan count 1240 new scan count 1246 total_scan 6 last shrinker return val 0
         kswapd0-38    [001] ....  1300.000001: mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 ffff88003c8b6ac0: objects to shrink 12 gfp_flags GFP_KERNEL pgs_scanned 32 lru_pgs 1932 cache items 3112 delta 6 total_scan 18
         kswapd0-38    [001] ....  1300.000050: mm_shrink_slab_end: super_cache_scan+0x0/0x1a0 ffff88003c8b6ac0: unused scan count 12 new scan count 18 total_scan 6 last shrinker return val 0
`;

describe('vmscan trace parser', () => {
  it('reads ftrace text of 6.1/6.12: every event, headers skipped, others counted, lost events summed', () => {
    const r = parseFtrace(FTRACE_6);
    expect(r.malformed).toEqual([]);
    expect(r.tools).toEqual(['ftrace']);
    expect(r.clock).toBe('seconds');
    expect(r.unknown).toEqual({ sched_switch: 1 });
    expect(r.lost).toBe(120);
    expect(r.events.map((e) => e.event)).toEqual([
      'mm_vmscan_kswapd_wake', 'mm_shrink_slab_start', 'mm_shrink_slab_end', 'mm_shrink_slab_start', 'mm_shrink_slab_end',
      'mm_vmscan_lru_shrink_inactive', 'mm_vmscan_kswapd_sleep', 'mm_vmscan_direct_reclaim_begin', 'mm_vmscan_direct_reclaim_end',
      'mm_vmscan_memcg_reclaim_begin', 'mm_vmscan_memcg_reclaim_end',
    ]);
    // Every event this parser knows appears above but none twice by accident: the list is the sample's.
    expect(new Set(r.events.map((e) => e.event))).toEqual(new Set(VMSCAN_EVENTS));
    const start = r.events[1] as ShrinkSlabStart;
    expect(start).toMatchObject({
      line: 14, comm: 'kswapd0', pid: 97, cpu: 2, ts: 184_324_532_000, layout: 'v6', shr: '00000000c3c2fa8e', nid: 0,
      nrObjectsToShrink: 0, gfpFlags: 'GFP_KERNEL', cacheItems: 2241, delta: 17, totalScan: 17, priority: 12, pgsScanned: null,
    });
    expect(start.shrink).toEqual({ text: 'super_cache_scan+0x0/0x1b0', func: 'super_cache_scan', offset: 0, size: 0x1b0, module: null });
    const end = r.events[4] as ShrinkSlabEnd;
    expect(end.shrink.module).toBe('nfsv4');
    expect(end).toMatchObject({ unusedScan: 40, newScan: 43, totalScan: 3, retval: -1 });
    const inactive = r.events[5];
    expect(inactive.event === 'mm_vmscan_lru_shrink_inactive' && inactive.fields).toMatchObject({ nid: 0, nr_scanned: 32, nr_reclaimed: 32, priority: 12, flags: 'RECLAIM_WB_FILE|RECLAIM_WB_ASYNC' });
    // record-tgid's column and an unknown comm
    expect(r.events[9]).toMatchObject({ comm: '<...>', pid: 2412, cpu: 3 });
  });

  it('reads trace-cmd report', () => {
    const r = parseFtrace(TRACE_CMD);
    expect(r.malformed).toEqual([]);
    expect(r.tools).toEqual(['trace-cmd']);
    expect(r.events).toHaveLength(2);
    expect(r.events[0]).toMatchObject({ line: 4, shr: '0xffff8881062e5c38', totalScan: 17, priority: 12 });
    expect(r.events[1]).toMatchObject({ line: 5, retval: 17, newScan: 0 });
  });

  it('reads perf script, with pid/tid and comms that hold spaces', () => {
    const r = parseFtrace(PERF);
    expect(r.malformed).toEqual([]);
    expect(r.tools).toEqual(['perf']);
    expect(r.unknown).toEqual({ sched_switch: 1 });
    expect(r.events.map((e) => [e.event, e.comm, e.pid, e.cpu])).toEqual([
      ['mm_shrink_slab_start', 'kswapd0', 97, 2],
      ['mm_vmscan_direct_reclaim_begin', 'Web Content', 3019, 0],
      ['mm_vmscan_direct_reclaim_end', 'Web Content', 3019, 0],
      ['mm_shrink_slab_end', 'kswapd0', 97, 2],
    ]);
  });

  it('reads the older layout: pgs_scanned and lru_pgs, no priority, with and without nid', () => {
    const r = parseFtrace(OLD);
    expect(r.malformed).toEqual([]);
    const [a, b, c, d] = r.events as [ShrinkSlabStart, ShrinkSlabEnd, ShrinkSlabStart, ShrinkSlabEnd];
    expect(a).toMatchObject({ layout: 'old', nid: 0, nrObjectsToShrink: 1240, pgsScanned: 32, lruPgs: 1932, cacheItems: 3112, delta: 6, totalScan: 626, priority: null });
    expect(b).toMatchObject({ nid: 0, unusedScan: 1240, newScan: 1246 });
    expect(c).toMatchObject({ layout: 'old', nid: null, nrObjectsToShrink: 12, totalScan: 18 });
    expect(d).toMatchObject({ nid: null, newScan: 18 });
  });

  it('reports malformed lines by number and text, and goes on', () => {
    const text = [
      '# tracer: nop',
      '         kswapd0-97      [002] .....   184.324532: mm_shrink_slab_start: super_cache_scan+0x0/0x1b0 00000000c3c2fa8e: nid: 0 objects to shr',
      'hello world',
      '         kswapd0-97      [002] .....   184.324600: mm_vmscan_kswapd_wake: nid=0',
      '         kswapd0-97      [002] .....   184.324700: mm_vmscan_kswapd_sleep: nid=0 garbage',
      '         kswapd0-97      [002] .....   184.324800: mm_shrink_slab_end: super_cache_scan+0x0/0x1b0 00000000c3c2fa8e: nid: 0 unused scan count x new scan count 0 total_scan 0 last shrinker return val 17',
      '         kswapd0-97      [002] .....   184.324900: mm_vmscan_kswapd_sleep: nid=0',
      '         kswapd0-97      [002] .....   18432411023: mm_vmscan_kswapd_sleep: nid=0',
    ].join('\n');
    const r = parseFtrace(text);
    expect(r.malformed.map((m) => m.line)).toEqual([2, 3, 4, 5, 6, 8]);
    expect(r.malformed[0].text).toContain('objects to shr');
    expect(r.malformed[0].why).toMatch(/mm_shrink_slab_start/);
    expect(r.malformed[1].why).toMatch(/not a trace line/);
    expect(r.malformed[2].why).toBe('no order');
    expect(r.malformed[3].why).toMatch(/"garbage" is not key=value/);
    expect(r.malformed[5].why).toMatch(/counter timestamp in a trace of seconds/);
    expect(r.events).toHaveLength(1);
    expect(r.events[0].line).toBe(7);
    expect(r.lines).toBe(8);
  });

  it('takes a clock that counts (no seconds) as it is', () => {
    const r = parseFtrace('         kswapd0-97      [002] .....   18432411023: mm_vmscan_kswapd_sleep: nid=0\n');
    expect(r.clock).toBe('counter');
    expect(r.events[0].ts).toBe(18432411023);
  });

  it('fed line by line gives what the whole text gives, CRLF included', () => {
    const p = new FtraceParser();
    for (const l of FTRACE_6.split('\n').slice(0, -1)) p.line(`${l}\r`);
    expect(p.result()).toEqual(parseFtrace(FTRACE_6));
  });

  it('reads symbols as %pS and %pF print them', () => {
    expect(parseSymbol('deferred_split_scan+0x0/0x2f0')).toMatchObject({ func: 'deferred_split_scan', offset: 0, size: 0x2f0, module: null });
    expect(parseSymbol('i915_gem_shrinker_scan+0x0/0x120 [i915]')).toMatchObject({ func: 'i915_gem_shrinker_scan', module: 'i915' });
    expect(parseSymbol('super_cache_scan+0x0')).toMatchObject({ func: 'super_cache_scan', offset: 0, size: null });
    expect(parseSymbol('0xffffffff812a3b40')).toMatchObject({ func: '0xffffffff812a3b40', offset: null });
  });

  it('knows the field layouts of the kernel tree (v6.1, v6.12) as the samples assume', () => {
    for (const branch of ['v6.1', 'v6.12']) {
      const h = execFileSync('git', ['-C', 'kernel-tree/linux', 'show', `${branch}:include/trace/events/vmscan.h`], { encoding: 'utf8' });
      const flat = h.replace(/\\\n/g, '').replace(/\s+/g, ' ');
      expect(flat).toContain('TP_printk("%pS %p: nid: %d objects to shrink %ld gfp_flags %s cache items %ld delta %lld total_scan %ld priority %d"');
      expect(flat).toContain('TP_printk("%pS %p: nid: %d unused scan count %ld new scan count %ld total_scan %ld last shrinker return val %d"');
      for (const e of VMSCAN_EVENTS) expect(h, `${branch} ${e}`).toMatch(new RegExp(`(TRACE_EVENT\\(|DEFINE_EVENT\\(\\w+,\\s*)${e}\\b`));
    }
  });
});
