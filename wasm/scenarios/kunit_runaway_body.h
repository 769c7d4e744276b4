/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-runaway": a deferred count that runs to its cap, the
 * failure behind Yang Shi's series "Make shrinker's nr_deferred memcg
 * aware" (linux-mm, 2020-21, merged in 5.13).
 *
 * "nofs" is memcg-aware, with the default seeks and batch, and its
 * scan_objects() says SHRINK_STOP to a caller without __GFP_FS, as
 * super_cache_scan() does. Memcg A reclaims with GFP_NOFS at priorities
 * 12 down to 0 and then 12 to 10: every pass scans nothing, so
 * do_shrink_slab() adds its whole delta to A's nr_deferred, which climbs
 * until it is held at twice what count_objects() says. "ok", beside it in
 * A, frees what it is asked to, and its count stays small. Memcg B's
 * reclaim of "nofs" starts from B's own count, not A's (since 5.13 the
 * count of a memcg-aware shrinker is per memcg). Then A reclaims once
 * with GFP_KERNEL at priority 2: the pass takes A's whole pile with its
 * own share, and its total_scan is the whole cache where its share alone
 * was half.
 */
#ifndef RECLAIM_LAB_KUNIT_RUNAWAY_BODY_H
#define RECLAIM_LAB_KUNIT_RUNAWAY_BODY_H

#include "kunit_common.h"

static struct rl_cache rl_runaway_nofs = { .name = "nofs", .needs_fs = true };
static struct rl_cache rl_runaway_ok = { .name = "ok" };

static int rl_runaway_run(void)
{
	struct rl_cache *nofs = &rl_runaway_nofs, *ok = &rl_runaway_ok;
	int a, b, priority, err = -ENOMEM;

	rl_trace("scenario kunit-runaway");
	rl_memcgs_init();
	a = rl_memcg_add(0, "A");
	b = a < 0 ? a : rl_memcg_add(0, "B");
	if (b < 0)
		goto out_memcgs;
	if (rl_cache_setup(nofs, true, false) || rl_cache_setup(ok, true, false))
		goto out;
	if (rl_add(nofs, a, 1000) || rl_add(ok, a, 1000) || rl_add(nofs, b, 1000))
		goto out;

	/* A's reclaim without __GFP_FS: "nofs" defers all it is asked to do. */
	for (priority = RL_DEF_PRIORITY; priority >= 0; priority--)
		rl_reclaim_gfp(a, priority, GFP_NOFS);
	rl_deferred(nofs, a);
	for (priority = RL_DEF_PRIORITY; priority >= 10; priority--)
		rl_reclaim_gfp(a, priority, GFP_NOFS);
	rl_deferred(nofs, a);
	rl_deferred(ok, a);

	/* B's reclaim of the same shrinker: B's count, not A's. */
	rl_reclaim(b, RL_DEF_PRIORITY);
	rl_reclaim(b, 6);
	rl_deferred(nofs, b);

	/* A with __GFP_FS: its own share at priority 2 is half the cache; the pile doubles it. */
	rl_reclaim(a, 2);
	rl_deferred(nofs, a);
	rl_counts_of(nofs);
	err = 0;
out:
	rl_cache_teardown(ok, true);
	rl_cache_teardown(nofs, true);
out_memcgs:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_RUNAWAY_BODY_H */
