/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-reuse": a shrinker freed while its list_lru still holds
 * objects, and its id taken by the next shrinker. Unmount frees the
 * shrinker first (deactivate_locked_super()), and neither shrinker_free()
 * nor the drain of the lists after it clears the memcg's shrinker bit or
 * its deferred count at that id: the kernel leaves both in the memcg's
 * shrinker_info. The next shrinker_alloc() takes the lowest free id, the
 * one just freed, and inherits both: a reclaim of the memcg calls it at
 * once (its count says SHRINK_EMPTY, and the bit is cleared), and its
 * first scans start from the deferred work of the shrinker before it.
 */
#ifndef RECLAIM_LAB_KUNIT_REUSE_BODY_H
#define RECLAIM_LAB_KUNIT_REUSE_BODY_H

#include "kunit_common.h"

static struct rl_cache rl_reuse_old = {
	.name = "old", .phantom = 400,
};
static struct rl_cache rl_reuse_new = { .name = "new" };

static int rl_reuse_run(void)
{
	struct rl_cache *old = &rl_reuse_old, *new = &rl_reuse_new;
	int a, err = -ENOMEM;

	rl_trace("scenario kunit-reuse");
	rl_memcgs_init();
	a = rl_memcg_add(0, "A");
	if (a < 0)
		goto out_memcgs;

	/* old defers work in A: each reclaim's share of its count stays below a batch */
	if (rl_cache_setup(old, true, false) || rl_add(old, a, 20))
		goto out_old;
	rl_reclaim(a, 6);
	rl_reclaim(a, 4);
	rl_deferred(old, a);

	/* unmounted with objects on its list: shrinker_free(), then the drain */
	rl_cache_teardown(old, true);

	/* the next shrinker takes the freed id, and finds A's bit and deferred count */
	if (rl_cache_setup(new, true, false))
		goto out_new;
	rl_bits(a);
	rl_deferred(new, a);
	rl_reclaim(a, 12);
	rl_deferred(new, a);
	if (rl_add(new, a, 30))
		goto out_new;
	rl_bits(a);
	rl_reclaim(a, 0);
	rl_deferred(new, a);
	rl_counts_of(new);
	err = 0;

out_new:
	rl_cache_teardown(new, true);
out_old:
	rl_cache_teardown(old, true);
out_memcgs:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_REUSE_BODY_H */
