/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For scenario "kunit-lru" (kunit_lru_body.h): shrink_inactive_list() of
 * an lruvec's list, as a memcg's reclaim reaches it
 * (try_to_free_mem_cgroup_pages() -> shrink_node() -> shrink_list()),
 * with that reclaim's scan_control: compiled at the end of mm/vmscan.c,
 * whose statics it calls. Twice: inside User-Mode Linux by
 * kernel-tree/kunit/run.sh (appended to the copy of the branch's
 * mm/vmscan.c), and in the simulation by wasm/glue/lru/vmscan.c, after the
 * code it extracts from that file.
 */
#ifndef RECLAIM_LAB_KUNIT_LRU_VMSCAN_H
#define RECLAIM_LAB_KUNIT_LRU_VMSCAN_H

unsigned long rl_lru_shrink_inactive_list(struct lruvec *lruvec, enum lru_list lru,
					  unsigned long nr_to_scan, unsigned long *scanned);

unsigned long rl_lru_shrink_inactive_list(struct lruvec *lruvec, enum lru_list lru,
					  unsigned long nr_to_scan, unsigned long *scanned)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp_mask = GFP_KERNEL,
		.reclaim_idx = MAX_NR_ZONES - 1,
		.target_mem_cgroup = lruvec_memcg(lruvec),
		.priority = DEF_PRIORITY,
		.may_writepage = 1,
		.may_unmap = 1,
		.may_swap = 1,
	};
	unsigned long nr_reclaimed = shrink_inactive_list(nr_to_scan, lruvec, &sc, lru);

	*scanned = sc.nr_scanned;
	return nr_reclaimed;
}

#endif /* RECLAIM_LAB_KUNIT_LRU_VMSCAN_H */
