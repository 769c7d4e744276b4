/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-inode": the inode-lru scene's rule, one step after
 * another on one CPU, for the real kernel to referee: since 5.16 (v6.12
 * fs/inode.c __inode_add_lru(), include/linux/pagemap.h
 * mapping_shrinkable()) an unused inode whose page cache holds more than
 * one entry stays off its super block's inode LRU, and the callers that
 * take its pages away put it on with inode_add_lru() (here the truncate
 * path, mm/filemap.c delete_from_page_cache_batch()). Compiled twice:
 * wasm/scenarios/kunit_inode.c on the simulated machine (variant inode:
 * the code extracted from v6.12 fs/inode.c and its page cache,
 * mm/filemap.c and mm/truncate.c) and kernel-tree/kunit/reclaim_lab_kunit.c inside User-Mode Linux
 * (inodes of a pseudo file system mounted with kern_mount(), whose
 * super_operations leave drop_inode to generic_drop_inode(), so that the
 * final iput() of a hashed inode keeps it cached: iput_final() ->
 * __inode_add_lru(); real page cache pages).
 *
 * Six inodes i0..i5 with 4, 4, 1, 0, 3, 2 pages (a page at index 0
 * alone, i2's, sits in the XArray's head: still not shrinkable, which
 * only a shadow entry there is); the last reference of each dropped
 * (only the empty i3 joins the LRU); pages truncated from some (all of
 * i0, all but index 0 of i4); i3 taken with igrab() while on the LRU and
 * given two pages, i0 taken and put (I_REFERENCED), i3 put (not
 * shrinkable: stays on the LRU, off only lazily); prune_icache_sb() with
 * nr_to_scan 2 (i3 taken off, i0 rotated), 3 with i0 in use (taken off,
 * put back by its iput()), 10 after truncating i5, 100 after the rest. After
 * each step, each inode by name: on the inode LRU or not
 * (list_empty(&inode->i_lru)) and its nrpages; the LRU's
 * list_lru_count() (the super block is the scenario's own) and its order,
 * read with list_lru_walk() and a callback that skips every item; for a
 * prune, what it returned and the inodes evict() freed, in order.
 *
 * Each harness provides: rl_inode_mount()/rl_inode_unmount(), a super
 * block whose final iput() keeps hashed inodes; rl_inode_new(sb, ino), an
 * inode in use (i_count 1), hashed; rl_inode_add_page(inode, index), a
 * clean page of its page cache; rl_inode_settle(), the pages in place
 * (lru_add_drain(), so that no per-CPU batch holds a reference
 * invalidate_mapping_pages() would refuse);
 * rl_inode_truncate(inode, index), truncate_inode_pages() from that
 * page; rl_prune_icache_sb(sb, sc), the kernel's prune_icache_sb(); and
 * evict() calls rl_inode_evicted() for each inode it frees.
 */
#ifndef RECLAIM_LAB_KUNIT_INODE_BODY_H
#define RECLAIM_LAB_KUNIT_INODE_BODY_H

#define RL_INODES 6
#define RL_INODE_INO 100	/* i_ino of i0; a pseudo file system's root is 1 */

static struct inode *rl_inode[RL_INODES];
static char rl_inode_freed[128];

/* prune_icache_sb() for node 0 and no memcg */
static long rl_prune(struct super_block *sb, unsigned long nr)
{
	struct shrink_control sc = {
		.gfp_mask = GFP_KERNEL,
		.nid = 0,
		.memcg = NULL,
		.nr_to_scan = nr,
	};

	return rl_prune_icache_sb(sb, &sc);
}

static int rl_inode_index(struct inode *inode)
{
	int i;

	for (i = 0; i < RL_INODES; i++)
		if (rl_inode[i] && rl_inode[i] == inode)
			return i;
	return -1;
}

/* From evict(), for each inode it frees: its name, in order; ours only. */
static void rl_inode_evicted(struct inode *inode)
{
	int i = rl_inode_index(inode);
	size_t len = strlen(rl_inode_freed);

	if (i < 0)
		return;
	rl_inode[i] = NULL;
	snprintf(rl_inode_freed + len, sizeof(rl_inode_freed) - len, " i%d", i);
}

struct rl_inode_walk {
	char names[128];
	unsigned long n;
};

/* list_lru_walk() callback: record the inode's name, leave it where it is. */
static enum lru_status rl_inode_walk_cb(struct list_head *item, struct list_lru_one *list,
					spinlock_t *lock, void *arg)
{
	struct rl_inode_walk *w = arg;
	int i = rl_inode_index(container_of(item, struct inode, i_lru));
	size_t len = strlen(w->names);

	if (i < 0)
		snprintf(w->names + len, sizeof(w->names) - len, " ?");
	else
		snprintf(w->names + len, sizeof(w->names) - len, " i%d", i);
	w->n++;
	return LRU_SKIP;
}

/* The state after a step: each inode, then the LRU's count and order. */
static void rl_inode_state(struct super_block *sb, const char *step)
{
	struct rl_inode_walk w = { .names = "" };
	int i;

	rl_trace("step %s", step);
	for (i = 0; i < RL_INODES; i++) {
		struct inode *inode = rl_inode[i];

		if (!inode) {
			rl_trace("i%d freed", i);
			continue;
		}
		rl_trace("i%d lru=%d nrpages=%lu", i, !list_empty(&inode->i_lru),
			 inode->i_data.nrpages);
	}
	list_lru_walk(&sb->s_inode_lru, rl_inode_walk_cb, &w, 64);
	rl_trace("list_lru_count=%lu walked=%lu order:%s",
		 list_lru_count(&sb->s_inode_lru), w.n, w.n ? w.names : " -");
}

static void rl_inode_prune(struct super_block *sb, unsigned long nr)
{
	long freed;
	char step[32];

	rl_inode_freed[0] = '\0';
	freed = rl_prune(sb, nr);
	rl_trace("prune_icache_sb nr_to_scan=%lu -> %ld freed:%s", nr, freed,
		 rl_inode_freed[0] ? rl_inode_freed : " -");
	snprintf(step, sizeof(step), "prune %lu", nr);
	rl_inode_state(sb, step);
}

static void rl_inode_truncate_trace(struct super_block *sb, int i, unsigned long index)
{
	char step[32];

	if (!rl_inode[i]) {
		rl_trace("truncate i%d: freed already", i);
		return;
	}
	rl_inode_truncate(rl_inode[i], index);
	snprintf(step, sizeof(step), "truncate i%d from %lu", i, index);
	rl_inode_state(sb, step);
}

static int rl_inode_run(void)
{
	static const unsigned long pages[RL_INODES] = { 4, 4, 1, 0, 3, 2 };
	struct super_block *sb;
	unsigned long j;
	int i, err = 0;

	rl_trace("scenario kunit-inode");
	memset(rl_inode, 0, sizeof(rl_inode));
	sb = rl_inode_mount();
	if (!sb)
		return -ENOMEM;

	for (i = 0; i < RL_INODES; i++) {
		rl_inode[i] = rl_inode_new(sb, RL_INODE_INO + i);
		if (!rl_inode[i]) {
			err = -ENOMEM;
			break;
		}
		for (j = 0; j < pages[i] && !err; j++)
			err = rl_inode_add_page(rl_inode[i], j);
		if (err)
			break;
	}
	if (err) {
		/* in use: the final iput() of each (then unmount frees them) */
		for (i = 0; i < RL_INODES; i++)
			if (rl_inode[i])
				iput(rl_inode[i]);
		goto out;
	}
	rl_inode_settle();
	rl_inode_state(sb, "new, in use");

	/* The final iput() of each: only the shrinkable ones join the LRU. */
	for (i = 0; i < RL_INODES; i++)
		iput(rl_inode[i]);
	rl_inode_state(sb, "iput all");

	rl_inode_truncate_trace(sb, 0, 0);
	rl_inode_truncate_trace(sb, 4, 1);

	/* In use again while on the LRU (igrab() leaves it there), and given pages. */
	if (!rl_inode[3] || !igrab(rl_inode[3])) {
		rl_trace("igrab i3: freed");
		err = -ENOENT;
		goto out;
	}
	for (j = 0; j < 2 && !err; j++)
		err = rl_inode_add_page(rl_inode[3], j);
	rl_inode_settle();
	rl_inode_state(sb, "igrab i3, 2 pages");
	/* A reference and its iput(): I_REFERENCED, since i0 is on the LRU already. */
	if (!rl_inode[0] || !igrab(rl_inode[0])) {
		rl_trace("igrab i0: freed");
		iput(rl_inode[3]);
		err = -ENOENT;
		goto out;
	}
	iput(rl_inode[0]);
	rl_inode_state(sb, "igrab, iput i0");
	/* Not shrinkable: __inode_add_lru() returns early; i3 stays on the LRU. */
	iput(rl_inode[3]);
	rl_inode_state(sb, "iput i3");
	if (err)
		goto out;
	/* i3 taken off lazily (not shrinkable), i0 rotated (referenced) */
	rl_inode_prune(sb, 2);
	/* in use on the LRU: taken off; its iput() puts it back */
	if (!rl_inode[0] || !igrab(rl_inode[0])) {
		rl_trace("igrab i0: freed");
		err = -ENOENT;
		goto out;
	}
	rl_inode_prune(sb, 3);
	iput(rl_inode[0]);
	rl_inode_state(sb, "iput i0");
	rl_inode_truncate_trace(sb, 5, 0);
	rl_inode_prune(sb, 10);
	for (i = 1; i < RL_INODES; i++)
		if (rl_inode[i])
			rl_inode_truncate_trace(sb, i, 0);
	rl_inode_prune(sb, 100);

out:
	rl_inode_unmount(sb);
	/* whatever unmount freed of ours is not traced: evict_inodes()' order is the sb's list */
	memset(rl_inode, 0, sizeof(rl_inode));
	rl_trace("unmount");
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_INODE_BODY_H */
