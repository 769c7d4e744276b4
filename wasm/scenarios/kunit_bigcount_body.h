/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-bigcount": counts past 2^31 in do_shrink_slab().
 *
 * "big" is memcg-aware, says 600 million objects more than its list holds
 * (as a cache of dentries or inodes on a large machine may), with seeks 2
 * and a batch of 2^30, and says SHRINK_STOP to a caller without __GFP_FS.
 * Memcg A reclaims with GFP_NOFS at priorities 12 down to 0: nothing is
 * scanned, so A's nr_deferred climbs towards its cap, twice the count
 * (1,200,000,008). At priority 0, nr_deferred + delta (2 * 600,000,004) is
 * about 2.4 billion, past 2^31: do_shrink_slab() computes it in unsigned
 * long long and keeps it in a long, so a 64-bit kernel caps it at twice
 * the count, where a 32-bit one (long of 32 bits) would see it negative
 * and drop the whole pile to 0. Then A reclaims once with GFP_KERNEL at
 * priority 0: total_scan (nr + delta, again past 2^31) is capped at twice
 * the count, and the first batch of 2^30 is scanned.
 *
 * The simulated machine reproduces this only at 64 bits (make kunit64); at
 * 32 bits the scenario says so and runs nothing (kunit.def: WORD64).
 */
#ifndef RECLAIM_LAB_KUNIT_BIGCOUNT_BODY_H
#define RECLAIM_LAB_KUNIT_BIGCOUNT_BODY_H

#include "kunit_common.h"

static struct rl_cache rl_bigcount_big = {
	.name = "big", .tuned = true, .seeks = 2, .batch = 1L << 30,
	.phantom = 600000000, .needs_fs = true,
};

static int rl_bigcount_run(void)
{
	struct rl_cache *big = &rl_bigcount_big;
	int a, priority, err = -ENOMEM;

	rl_trace("scenario kunit-bigcount");
	if (BITS_PER_LONG < 64) {
		rl_trace("left out: a long of %d bits cannot hold nr_deferred + delta past 2^31 (LONG_MAX %ld); the scenario needs a 64-bit machine",
			 BITS_PER_LONG, LONG_MAX);
		return 0;
	}
	rl_memcgs_init();
	a = rl_memcg_add(0, "A");
	if (a < 0)
		goto out_memcgs;
	if (rl_cache_setup(big, true, false) || rl_add(big, a, 4))
		goto out;

	/* Without __GFP_FS nothing is scanned: the pile grows to twice the count. */
	for (priority = RL_DEF_PRIORITY; priority >= 0; priority--) {
		rl_reclaim_gfp(a, priority, GFP_NOFS);
		if (priority <= 1)
			rl_deferred(big, a);
	}
	/* With __GFP_FS: total_scan past 2^31 before its cap, a batch of 2^30 scanned. */
	rl_reclaim(a, 0);
	rl_deferred(big, a);
	rl_counts_of(big);
	err = 0;
out:
	rl_cache_teardown(big, true);
out_memcgs:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_BIGCOUNT_BODY_H */
