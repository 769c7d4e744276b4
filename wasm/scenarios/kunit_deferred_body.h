/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-deferred": the work do_shrink_slab() defers, carried
 * from one shrink_slab() to the next.
 *
 * "big" is a global shrinker (not memcg-aware, DEFAULT_SEEKS,
 * SHRINK_BATCH) whose count_objects() reports far more objects than its
 * list holds, and whose scan_objects() says SHRINK_STOP once a
 * shrink_slab() has freed a hundred. Reclaim at priorities 12 down to 0
 * shows each call's batches (nr_to_scan) and the deferred count after it:
 * the part of delta that was not scanned is added to nr_deferred, the next
 * call starts from nr >> priority more, and the count stays below twice
 * what count_objects() said.
 *
 * "mc" is memcg-aware with seeks 0 (delta is half the count, whatever the
 * priority) and a batch of 16, in A/B, two levels down. Its deferred count
 * lives in A/B's shrinker_info; when A/B goes offline,
 * reparent_shrinker_deferred() adds it to A's, and the objects go to A's
 * list (memcg_reparent_list_lrus()), so A's next reclaim starts from it.
 *
 * Only fresh memcgs' and fresh shrinkers' deferred counts are read: the
 * root's shrinker_info keeps what earlier cases' shrinkers at the same
 * ids left there, in User-Mode Linux, which shares one boot.
 */
#ifndef RECLAIM_LAB_KUNIT_DEFERRED_BODY_H
#define RECLAIM_LAB_KUNIT_DEFERRED_BODY_H

#include "kunit_common.h"

static struct rl_cache rl_deferred_big = {
	.name = "big", .phantom = 2000, .stop_after = 100,
};
static struct rl_cache rl_deferred_mc = {
	.name = "mc", .tuned = true, .seeks = 0, .batch = 16, .stop_after = 24,
};

static int rl_deferred_run(void)
{
	struct rl_cache *big = &rl_deferred_big, *mc = &rl_deferred_mc;
	int a, b, priority, err = -ENOMEM;

	rl_trace("scenario kunit-deferred");
	rl_memcgs_init();
	a = rl_memcg_add(0, "A");
	b = a < 0 ? a : rl_memcg_add(a, "A/B");
	if (b < 0)
		goto out_memcgs;

	/* A global shrinker, priorities 12 down to 0, nr_deferred carried. */
	if (rl_cache_setup(big, false, false))
		goto out_big;
	if (rl_add(big, 0, 300))
		goto out_big;
	for (priority = RL_DEF_PRIORITY; priority >= 0; priority--) {
		rl_reclaim(0, priority);
		rl_deferred(big, 0);
	}
	rl_counts_of(big);
	rl_cache_teardown(big, true);

	/* seeks 0, batch 16, in A/B: the deferred count is A/B's, then A's. */
	if (rl_cache_setup(mc, true, false))
		goto out_mc;
	if (rl_add(mc, b, 40))
		goto out_mc;
	rl_reclaim(b, RL_DEF_PRIORITY);
	rl_deferred(mc, b);
	rl_reclaim(b, RL_DEF_PRIORITY);
	rl_deferred(mc, b);
	rl_deferred(mc, a);
	rl_memcg_offline(rl_memcgs[b]);
	rl_trace("offline A/B");
	rl_deferred(mc, a);
	rl_counts_of(mc);
	rl_reclaim(a, 0);
	rl_deferred(mc, a);
	rl_reclaim(a, 0);
	rl_deferred(mc, a);
	rl_counts_of(mc);
	err = 0;

out_mc:
	rl_cache_teardown(mc, true);
out_big:
	rl_cache_teardown(big, true);
out_memcgs:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_DEFERRED_BODY_H */
