/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-lifetime": the shrinker-lifetime scene's operations one
 * after another on one CPU, for the real kernel to referee (the scene
 * itself races them on two CPUs, which UML cannot). Compiled twice, as
 * kunit_seq_body.h is: wasm/scenarios/kunit_seq.c, and
 * kernel-tree/kunit/reclaim_lab_kunit.c inside User-Mode Linux.
 *
 * Memcgs root -> A. Three rounds of a shrinker's life, as a filesystem
 * mounted and unmounted: shrinker_alloc() and shrinker_register() (6.1:
 * prealloc_shrinker(), register_shrinker_prepared()) of a memcg-aware
 * cache "fs-N" over a list_lru; six objects, charged to the root and to A;
 * shrink_slab() for the root (the global shrinker list) and for A (its
 * shrinker bitmap), twice, at the scene's falling priorities 12, 6, 2, 0;
 * then the unmount, shrinker_free() first (6.1: unregister_shrinker()),
 * the objects, list_lru_destroy(); then shrink_slab() for both again,
 * which must no longer call the freed shrinker. The next round's
 * shrinker takes the freed one's id: the trace shows what it finds in A's
 * bitmap when it is registered, before any object of its own.
 */
#ifndef RECLAIM_LAB_KUNIT_LIFETIME_BODY_H
#define RECLAIM_LAB_KUNIT_LIFETIME_BODY_H

#include "kunit_common.h"

#define RL_LIFETIME_ROUNDS 3
#define RL_LIFETIME_OBJECTS 6

static int rl_lifetime_run(void)
{
	static const int priorities[] = { 12, 6, 2, 0 };
	int round, i, pass = 0, err = -ENOMEM;

	rl_trace("scenario kunit-lifetime");
	rl_memcgs_init();
	if (rl_memcg_add(0, "A") < 0)
		goto out;
	rl_trace("memcgs root A online");

	for (round = 0; round < RL_LIFETIME_ROUNDS; round++) {
		struct rl_cache *fs = rl_cache_new(true, false, "fs-%d", round, 0);

		if (!fs)
			goto out;
		/* What the bitmap of A holds for the new shrinker before it has objects. */
		rl_bits(1);
		/* As the scene fills: object i charged to A when i is odd, to the root when even. */
		for (i = 0; i < RL_LIFETIME_OBJECTS; i++)
			if (rl_add(fs, i % 2, 1)) {
				rl_cache_delete(fs, true);
				goto out;
			}
		for (i = 0; i < 2; i++, pass++) {
			rl_reclaim(0, priorities[pass % ARRAY_SIZE(priorities)]);
			rl_reclaim(1, priorities[pass % ARRAY_SIZE(priorities)]);
		}
		rl_counts_of(fs);
		/* deactivate_locked_super(): the shrinker goes first, then the objects. */
		rl_cache_delete(fs, true);
		rl_reclaim(0, 0);
		rl_reclaim(1, 0);
	}
	err = 0;
out:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_LIFETIME_BODY_H */
