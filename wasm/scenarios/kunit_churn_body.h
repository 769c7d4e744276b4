/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-churn": the shrinker-churn scene's operations one after
 * another on one CPU, for the real kernel to referee (the scene runs them
 * on four CPUs, which UML cannot). Compiled twice, as kunit_seq_body.h
 * is: wasm/scenarios/kunit_seq.c, and kernel-tree/kunit/reclaim_lab_kunit.c
 * inside User-Mode Linux.
 *
 * Memcgs root -> A. Three resident caches stay registered all along with
 * four objects each, all in use: their scans rotate the objects to the
 * tail and free none, and every reclaim keeps calling them. Two mounters
 * mount and unmount ramfs-like caches (a memcg-aware shrinker over a
 * list_lru, four objects charged to the root and to A), three rounds
 * each, interleaved with the scene's two reclaimers: shrink_slab() for
 * the root (kswapd0) and for A (reclaim-A) at falling priorities 12, 10,
 * 8, 6, 4, 2. Round r: mount ramfs-0.r, kswapd0; mount ramfs-1.r,
 * reclaim-A; unmount ramfs-0.r, kswapd0; unmount ramfs-1.r, reclaim-A.
 * At those priorities a few objects are only ever counted, never scanned
 * (their share, count >> priority, is 0), so the end goes one step
 * further than the scene: with ramfs-0.3 mounted, both reclaimers at
 * priority 0, twice: its objects are isolated and freed, the residents'
 * rotated and kept.
 */
#ifndef RECLAIM_LAB_KUNIT_CHURN_BODY_H
#define RECLAIM_LAB_KUNIT_CHURN_BODY_H

#include "kunit_common.h"

#define RL_CHURN_RESIDENT 3
#define RL_CHURN_MOUNTERS 2
#define RL_CHURN_ROUNDS 3
#define RL_CHURN_OBJECTS 4

/* Mount a cache ("resident-<i>", or "ramfs-<mounter>.<round>" as the scene names them) and fill it. */
static struct rl_cache *rl_churn_mount(bool resident, int id, int round)
{
	struct rl_cache *fs = rl_cache_new(true, resident, resident ? "resident-%d" : "ramfs-%d.%d",
					   id, round);
	int i;

	if (!fs)
		return NULL;
	for (i = 0; i < RL_CHURN_OBJECTS; i++)
		if (rl_add(fs, i % 2, 1)) {
			rl_cache_delete(fs, true);
			return NULL;
		}
	return fs;
}

static int rl_churn_run(void)
{
	static const int priorities[] = { 12, 10, 8, 6, 4, 2 };
	struct rl_cache *resident[RL_CHURN_RESIDENT] = { }, *fs[RL_CHURN_MOUNTERS];
	int pass[2] = { 0, 0 };	/* kswapd0's, reclaim-A's */
	int i, k, round, err = -ENOMEM;

	rl_trace("scenario kunit-churn");
	rl_memcgs_init();
	if (rl_memcg_add(0, "A") < 0)
		goto out;
	rl_trace("memcgs root A online");
	for (i = 0; i < RL_CHURN_RESIDENT; i++)
		if (!(resident[i] = rl_churn_mount(true, i, 0)))
			goto out;

	for (round = 0; round < RL_CHURN_ROUNDS; round++) {
		for (k = 0; k < RL_CHURN_MOUNTERS; k++) {
			fs[k] = rl_churn_mount(false, k, round);
			if (!fs[k]) {
				while (k--)
					rl_cache_delete(fs[k], true);
				goto out;
			}
			rl_reclaim(k, priorities[pass[k]++ % ARRAY_SIZE(priorities)]);
		}
		for (k = 0; k < RL_CHURN_MOUNTERS; k++) {
			rl_cache_delete(fs[k], true);
			rl_reclaim(k, priorities[pass[k]++ % ARRAY_SIZE(priorities)]);
		}
	}
	fs[0] = rl_churn_mount(false, 0, RL_CHURN_ROUNDS);
	if (!fs[0])
		goto out;
	for (i = 0; i < 2; i++)
		for (k = 0; k < RL_CHURN_MOUNTERS; k++)
			rl_reclaim(k, 0);
	rl_counts_of(fs[0]);
	rl_cache_delete(fs[0], true);
	for (i = 0; i < RL_CHURN_RESIDENT; i++)
		rl_counts_of(resident[i]);
	err = 0;
out:
	for (i = 0; i < RL_CHURN_RESIDENT; i++)
		rl_cache_delete(resident[i], true);
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_CHURN_BODY_H */
