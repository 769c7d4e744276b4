import { it } from 'vitest';
import { parseFtrace } from './ftrace';
it('rate', () => {
  const lines = [
    '         kswapd0-97      [002] .....   184.324532: mm_shrink_slab_start: super_cache_scan+0x0/0x1b0 00000000c3c2fa8e: nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 2241 delta 17 total_scan 17 priority 12',
    '         kswapd0-97      [002] .....   184.324987: mm_shrink_slab_end: super_cache_scan+0x0/0x1b0 00000000c3c2fa8e: nid: 0 unused scan count 0 new scan count 0 total_scan 0 last shrinker return val 17',
    '         kswapd0-97      [002] .....   184.325900: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=32 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC',
    '         kswapd0-97      [002] d..1.   184.325400: sched_switch: prev_comm=kswapd0 prev_pid=97 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120',
  ];
  const N = Number(process.env.N ?? 200000);
  const text = Array.from({ length: N }, (_, i) => lines[i % 4]).join('\n') + '\n';
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    const r = parseFtrace(text);
    const ms = performance.now() - t0;
    console.log(`lines ${r.lines} events ${r.events.length} MB ${(text.length/1e6).toFixed(0)} ms ${ms.toFixed(0)} rate ${(r.lines / ms * 1000).toFixed(0)}/s`);
  }
});
