/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-seq", the first sequential scenario the real kernel
 * referees: one body, compiled twice. wasm/scenarios/kunit_seq.c runs it
 * on the simulated machine (the shim, natively and in wasm);
 * kernel-tree/kunit/reclaim_lab_kunit.c runs it as a KUnit test inside
 * User-Mode Linux, against the kernel's own memcgs, slab and RCU. Both
 * print the same normalised trace (kunit_common.h says what is in it and
 * what the harness defines); kernel-tree/kunit/compare.sh diffs them.
 */
#ifndef RECLAIM_LAB_KUNIT_SEQ_BODY_H
#define RECLAIM_LAB_KUNIT_SEQ_BODY_H

#include "kunit_common.h"

static struct rl_cache rl_seq_caches[] = {
	{ .name = "icache" },
	{ .name = "dcache" },
	{ .name = "global" },
};

static void rl_seq_counts(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rl_seq_caches); i++)
		rl_counts_of(&rl_seq_caches[i]);
}

/*
 * The scenario: memcgs root -> A -> A/B; two memcg-aware caches (a
 * super_block's inode and dentry LRUs) and a global one; objects in each
 * memcg; an eviction; reclaim of each memcg at priorities 12, 8, 4; A/B
 * taken offline (its lists and bits move to A); reclaim at priority 0
 * until the lists are empty and SHRINK_EMPTY clears the bits; then once
 * more, when shrink_slab_memcg() must skip A; a new object in A sets its
 * bit again; unmount. Returns 0 or -errno.
 */
static int rl_seq_run(void)
{
	static const int priorities[] = { 12, 8, 4 };
	struct rl_cache *icache = &rl_seq_caches[0], *dcache = &rl_seq_caches[1];
	int i, m, p, err = -ENOMEM;

	rl_trace("scenario kunit-seq");
	rl_memcgs_init();
	if (rl_memcg_add(0, "A") < 0 || rl_memcg_add(1, "A/B") < 0)
		goto out_memcgs;
	rl_trace("memcgs root A A/B online");

	for (i = 0; i < ARRAY_SIZE(rl_seq_caches); i++)
		if (rl_cache_setup(&rl_seq_caches[i], i < 2, false))
			goto out_caches;

	if (rl_add(icache, 0, 150) || rl_add(icache, 1, 300) || rl_add(icache, 2, 100) ||
	    rl_add(dcache, 1, 20) || rl_add(dcache, 2, 50) || rl_add(&rl_seq_caches[2], 0, 200))
		goto out_caches;
	rl_del(icache, 1, 0, 10);
	rl_del(dcache, 1, 5, 3);
	rl_bits(1);
	rl_bits(2);

	for (p = 0; p < ARRAY_SIZE(priorities); p++)
		for (m = 0; m < 3; m++)
			rl_reclaim(m, priorities[p]);
	rl_seq_counts();

	rl_memcg_offline(rl_memcgs[2]);
	rl_trace("offline A/B");
	rl_bits(1);
	rl_seq_counts();

	for (p = 0; p < 3; p++)
		for (m = 0; m < 2; m++)
			rl_reclaim(m, 0);
	rl_seq_counts();

	/* An object on an empty list sets the cleared bit again; unmount frees it. */
	if (rl_add(icache, 1, 5))
		goto out_caches;
	rl_bits(1);
	err = 0;

out_caches:
	for (i = 0; i < ARRAY_SIZE(rl_seq_caches); i++)
		rl_cache_teardown(&rl_seq_caches[i], true);
out_memcgs:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_SEQ_BODY_H */
