/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-offline": what charging and memcg ids do once memcgs go
 * offline, in a three-level tree (root -> A -> A/B -> A/B/C, and X beside
 * A). Objects charged to A/B/C before it goes offline follow their objcg
 * to A/B (memcg_reparent_objcgs()); objects allocated for A/B/C after go
 * to its nearest online ancestor (current_obj_cgroup()), A/B and then A,
 * and set that ancestor's shrinker bit (list_lru_add()), so reclaim of it
 * calls the shrinker. The ids of the memcgs taken offline are free again
 * (mem_cgroup_id_remove()), so the memcgs made after get them, and
 * list_lru_walk_node(), which visits memcg lists by kmemcg_id, reaches
 * them before X: a walk with a budget frees theirs, not X's.
 */
#ifndef RECLAIM_LAB_KUNIT_OFFLINE_BODY_H
#define RECLAIM_LAB_KUNIT_OFFLINE_BODY_H

#include "kunit_common.h"

static struct rl_cache rl_offline_cache = { .name = "fs" };

/* Whom the newest of memcg m's objects on c is charged to now. */
static void rl_charged(struct rl_cache *c, int m)
{
	struct rl_obj *obj, *last = NULL;
	const char *to;

	list_for_each_entry(obj, &c->objs, all)
		if (obj->memcg == m)
			last = obj;
	if (!last)
		return;
	rcu_read_lock();
	to = rl_memcg_name(mem_cgroup_from_slab_obj(last));
	rcu_read_unlock();
	rl_trace("charged %s %s:%d -> %s", c->name, rl_memcg_names[m], last->id, to);
}

/* list_lru_walk_node() of c on node 0 with a budget: what it freed, in order. */
static void rl_walk(struct rl_cache *c, unsigned long budget)
{
	unsigned long nr = budget, freed;
	char ranges[RL_RANGES];
	LIST_HEAD(dispose);

	freed = list_lru_walk_node(&c->lru, 0, rl_isolate, &dispose, &nr);
	rl_ranges(&dispose, ranges, sizeof(ranges));
	rl_trace("list_lru_walk_node %s budget=%lu -> %lu freed: %s", c->name, budget, freed,
		 ranges);
	rl_dispose(&dispose);
}

static int rl_offline_run(void)
{
	struct rl_cache *c = &rl_offline_cache;
	int a, b, cm, x, d, e, err = -ENOMEM;

	rl_trace("scenario kunit-offline");
	rl_memcgs_init();
	a = rl_memcg_add(0, "A");
	b = a < 0 ? a : rl_memcg_add(a, "A/B");
	cm = b < 0 ? b : rl_memcg_add(b, "A/B/C");
	x = cm < 0 ? cm : rl_memcg_add(0, "X");
	if (x < 0)
		goto out_memcgs;
	rl_trace("memcgs root A A/B A/B/C X online");
	if (rl_cache_setup(c, true, false))
		goto out_cache;

	/* Charged before offline: the objcg, and so the objects, go to the parent. */
	if (rl_add(c, cm, 3))
		goto out_cache;
	rl_charged(c, cm);
	rl_memcg_offline(rl_memcgs[cm]);
	rl_trace("offline A/B/C");
	rl_charged(c, cm);
	rl_bits(b);
	/* A/B's list emptied, and its bit cleared by the SHRINK_EMPTY after */
	rl_reclaim(b, 0);
	rl_reclaim(b, 0);

	/* Allocated after offline: charged to A/B, whose bit it sets again. */
	if (rl_add(c, cm, 2))
		goto out_cache;
	rl_charged(c, cm);
	rl_bits(b);
	rl_reclaim(b, 12);

	/* Two levels up: A/B goes too; A/B/C's and A/B's new objects are A's. */
	rl_memcg_offline(rl_memcgs[b]);
	rl_trace("offline A/B");
	rl_charged(c, cm);
	if (rl_add(c, cm, 2) || rl_add(c, b, 1))
		goto out_cache;
	rl_charged(c, cm);
	rl_charged(c, b);
	rl_bits(a);

	/* New memcgs get the ids A/B and A/B/C gave back: before X's. */
	d = rl_memcg_add(0, "D");
	e = d < 0 ? d : rl_memcg_add(a, "A/E");
	if (e < 0)
		goto out_cache;
	rl_trace("memcgs D A/E online");
	if (rl_add(c, x, 2) || rl_add(c, d, 2) || rl_add(c, e, 2))
		goto out_cache;
	rl_counts_of(c);
	rl_walk(c, 7);
	rl_counts_of(c);
	rl_reclaim(0, 0);
	err = 0;

out_cache:
	rl_cache_teardown(c, true);
out_memcgs:
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_OFFLINE_BODY_H */
