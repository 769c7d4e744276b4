/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-shadow": shadow entries and the inode LRU, one step
 * after another on one CPU, for the real kernel to referee. Reclaim of a
 * file page (shrink_inactive_list() -> shrink_folio_list() ->
 * __remove_mapping(), reclaimed) leaves workingset_eviction()'s shadow
 * entry in its mapping's XArray; an inode whose XArray holds shadows in
 * a node is not mapping_shrinkable() (include/linux/pagemap.h), so it
 * stays off the inode LRU until the shadow-node shrinker
 * (mm/workingset.c's count_shadow_nodes(), scan_shadow_nodes(),
 * shadow_lru_isolate()) frees the node and puts it on with
 * inode_add_lru(); a lone shadow at index 0 sits in the XArray's head,
 * which is shrinkable, so that inode goes on at reclaim. Compiled twice,
 * as kunit_inode_body.h is (after it: its inodes, prune and eviction
 * record are this case's too): wasm/scenarios/kunit_inode.c on the
 * simulated machine, kernel-tree/kunit/reclaim_lab_kunit.c in User-Mode
 * Linux.
 *
 * Four inodes, i0..i3, with 4, 1, 2 and 3 pages, charged to a memcg of
 * the case's own (its lruvec holds no one else's), i3's first two pages
 * read first and its last one last, so that it is the one folio a
 * shrink_inactive_list() of all the others leaves; every inode's last
 * reference dropped (none joins the LRU: all have pages); that reclaim,
 * of the memcg's inactive file list; the shadow-node shrinker's count
 * and scan for the memcg, as do_shrink_slab() calls them; a prune of the
 * inode LRU; i3 truncated; a prune again. After each step, each inode by
 * name: on the inode LRU or not, its nrpages and its shadow entries (the
 * XArray's value entries); the memcg's shadow nodes (their list_lru's
 * count) and the inode LRU's count and order.
 *
 * Besides kunit_inode_body.h's, each harness provides:
 * rl_shadow_memcg_create()/rl_shadow_memcg_release(memcg), a memcg
 * below the root, online; rl_shadow_flush(memcg), its statistics exact
 * (the shrinker reads them); rl_lru_shrink_inactive_list()
 * (kunit_lru_vmscan.h, compiled in mm/vmscan.c) and rl_shadow_count(),
 * rl_shadow_scan(), rl_shadow_nodes() (kunit_inode_workingset.h,
 * compiled in mm/workingset.c).
 */
#ifndef RECLAIM_LAB_KUNIT_SHADOW_BODY_H
#define RECLAIM_LAB_KUNIT_SHADOW_BODY_H

#define RL_SHADOW_INODES 4

/* kunit_lru_vmscan.h, compiled in mm/vmscan.c; kunit_inode_workingset.h, in mm/workingset.c */
unsigned long rl_lru_shrink_inactive_list(struct lruvec *lruvec, enum lru_list lru,
					  unsigned long nr_to_scan, unsigned long *scanned);
long rl_shadow_count(struct shrink_control *sc);
unsigned long rl_shadow_scan(struct shrink_control *sc);
unsigned long rl_shadow_nodes(int nid, struct mem_cgroup *memcg);

static struct mem_cgroup *rl_shadow_memcg;

/* The value entries of a mapping's XArray: workingset_eviction()'s shadows */
static unsigned long rl_shadow_entries(struct address_space *mapping)
{
	XA_STATE(xas, &mapping->i_pages, 0);
	unsigned long n = 0;
	void *entry;

	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX)
		if (xa_is_value(entry))
			n++;
	rcu_read_unlock();
	return n;
}

static void rl_shadow_state(struct super_block *sb, const char *step)
{
	struct rl_inode_walk w = { .names = "" };
	int i;

	rl_trace("step %s", step);
	for (i = 0; i < RL_SHADOW_INODES; i++) {
		struct inode *inode = rl_inode[i];

		if (!inode) {
			rl_trace("i%d freed", i);
			continue;
		}
		rl_trace("i%d lru=%d nrpages=%lu shadows=%lu", i, !list_empty(&inode->i_lru),
			 inode->i_data.nrpages, rl_shadow_entries(inode->i_mapping));
	}
	list_lru_walk(&sb->s_inode_lru, rl_inode_walk_cb, &w, 64);
	rl_trace("shadow_nodes=%lu list_lru_count=%lu walked=%lu order:%s",
		 rl_shadow_nodes(0, rl_shadow_memcg), list_lru_count(&sb->s_inode_lru), w.n,
		 w.n ? w.names : " -");
}

static void rl_shadow_prune(struct super_block *sb, unsigned long nr)
{
	long freed;

	rl_inode_freed[0] = '\0';
	freed = rl_prune(sb, nr);
	rl_trace("prune_icache_sb nr_to_scan=%lu -> %ld freed:%s", nr, freed,
		 rl_inode_freed[0] ? rl_inode_freed : " -");
	rl_shadow_state(sb, "prune");
}

/* A page of inode i at index, read in charged to the case's memcg */
static int rl_shadow_add_page(int i, unsigned long index)
{
	struct mem_cgroup *old = set_active_memcg(rl_shadow_memcg);
	int err = rl_inode_add_page(rl_inode[i], index);

	set_active_memcg(old);
	return err;
}

static int rl_shadow_run(void)
{
	static const unsigned long pages[RL_SHADOW_INODES] = { 4, 1, 2, 3 };
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL, .nid = 0 };
	unsigned long j, scanned = 0, reclaimed, total = 0;
	struct super_block *sb;
	long count;
	int i, err = 0;

	rl_trace("scenario kunit-shadow");
	memset(rl_inode, 0, sizeof(rl_inode));
	rl_shadow_memcg = rl_shadow_memcg_create();
	if (!rl_shadow_memcg)
		return -ENOMEM;
	sb = rl_inode_mount();
	if (!sb) {
		rl_shadow_memcg_release(rl_shadow_memcg);
		return -ENOMEM;
	}
	for (i = 0; i < RL_SHADOW_INODES && !err; i++) {
		rl_inode[i] = rl_inode_new(sb, RL_INODE_INO + i);
		if (!rl_inode[i])
			err = -ENOMEM;
	}
	/* i3's pages 0 and 1 first (the oldest on the list), its page 2 last */
	for (j = 0; j < 2 && !err; j++)
		err = rl_shadow_add_page(3, j);
	for (i = 0; i < 3; i++)
		for (j = 0; j < pages[i] && !err; j++)
			err = rl_shadow_add_page(i, j);
	if (!err)
		err = rl_shadow_add_page(3, 2);
	for (i = 0; i < RL_SHADOW_INODES; i++)
		total += pages[i];
	rl_inode_settle();
	if (err) {
		for (i = 0; i < RL_SHADOW_INODES; i++)
			if (rl_inode[i])
				iput(rl_inode[i]);
		goto out;
	}
	rl_shadow_state(sb, "new, in use");

	/* Unused: each keeps its pages, so none is shrinkable, none on the LRU */
	for (i = 0; i < RL_SHADOW_INODES; i++)
		iput(rl_inode[i]);
	rl_shadow_state(sb, "iput all");

	/* The memcg's inactive file list from its tail: every folio but i3's last */
	reclaimed = rl_lru_shrink_inactive_list(mem_cgroup_lruvec(rl_shadow_memcg, NODE_DATA(0)),
						LRU_INACTIVE_FILE, total - 1, &scanned);
	rl_inode_settle();
	rl_trace("shrink_inactive_list inactive_file nr_to_scan=%lu -> %lu scanned=%lu",
		 total - 1, reclaimed, scanned);
	rl_shadow_state(sb, "reclaim");

	/* The shadow-node shrinker for the memcg, as do_shrink_slab() calls it */
	sc.memcg = rl_shadow_memcg;
	rl_shadow_flush(rl_shadow_memcg);
	count = rl_shadow_count(&sc);
	rl_trace("count_shadow_nodes -> %ld", count);
	if (count > 0) {
		unsigned long freed;

		sc.nr_to_scan = (unsigned long)count;
		sc.nr_scanned = (unsigned long)count;
		/* the walk counts nr_to_scan down: read it before and after, in that order */
		freed = rl_shadow_scan(&sc);
		rl_trace("scan_shadow_nodes nr_to_scan=%ld -> %lu, nr_to_scan left %lu", count, freed, sc.nr_to_scan);
	}
	rl_shadow_state(sb, "shadow shrinker");

	rl_shadow_prune(sb, 100);
	if (rl_inode[3]) {
		rl_inode_truncate(rl_inode[3], 0);
		rl_shadow_state(sb, "truncate i3 from 0");
	}
	rl_shadow_prune(sb, 100);

out:
	rl_inode_unmount(sb);
	memset(rl_inode, 0, sizeof(rl_inode));
	rl_shadow_memcg_release(rl_shadow_memcg);
	rl_shadow_memcg = NULL;
	rl_trace("unmount");
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_SHADOW_BODY_H */
