// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker code of v6.1's mm/vmscan.c (or of the srcu-shrinkers branch
 * built on it), and the lab's shrinker and list_lru interface (glue.h) on it.
 *
 * mm/vmscan.c is too large to compile whole against the shim; the build
 * extracts its shrinker functions and declarations into
 * mm/vmscan-extract.c with #line directives (wasm/extract/v6.1-vmscan.txt),
 * and this file compiles them in after the headers mm/vmscan.c would have
 * included. shrink_slab() is static there;
 * lab_shrink_slab() gives the scenarios a way in.
 *
 * In 6.1 a shrinker lives inside its owner (a super_block...), registered
 * with prealloc_shrinker() and register_shrinker_prepared() and, once
 * unregister_shrinker() returns, freed with its owner. Here the owner is a
 * small wrapper that also carries the scenario's private pointer, which
 * 6.1's struct shrinker does not have.
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/rwsem.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/list_lru.h>
#include <linux/debugfs.h>
#include <linux/srcu.h>
#include <linux/rculist.h>
#include <trace/events/vmscan.h>
#include "../glue.h"

/* What 6.1's generic KASAN calls a read of a freed slab object (mm/kasan/report_generic.c). */
const char sim_kasan_uaf_bug_type[] = "use-after-free";
#include <sim.h>

/* Lines here name mm/vmscan.c (the #line directives), so events are v6.1's. */
#include "mm/vmscan-extract.c"

struct owned_shrinker {
	struct shrinker shrinker;
	void *private_data;
	bool registered;
};

const char lab_register_fn[] = "register_shrinker_prepared";
const char lab_unregister_fn[] = "unregister_shrinker";

struct shrinker *lab_shrinker_alloc(unsigned int flags, const char *name)
{
	struct owned_shrinker *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return NULL;
	o->shrinker.flags = flags;
	o->shrinker.seeks = DEFAULT_SEEKS;
	if (prealloc_shrinker(&o->shrinker, "%s", name)) {
		kfree(o);
		return NULL;
	}
	return &o->shrinker;
}

void (lab_shrinker_register)(struct shrinker *s, lab_shrinker_fn count, lab_shrinker_fn scan,
			   void *private_data)
{
	struct owned_shrinker *o = container_of(s, struct owned_shrinker, shrinker);

	s->count_objects = count;
	s->scan_objects = scan;
	o->private_data = private_data;
	register_shrinker_prepared(s);
	o->registered = true;
}

void *lab_shrinker_private(struct shrinker *s)
{
	return container_of(s, struct owned_shrinker, shrinker)->private_data;
}

void lab_shrinker_free(struct shrinker *s)
{
	struct owned_shrinker *o;

	if (!s)
		return;
	o = container_of(s, struct owned_shrinker, shrinker);
	if (o->registered)
		unregister_shrinker(s);
	else
		free_prealloced_shrinker(s);
	kfree(o);
}

int lab_list_lru_add(struct list_lru *lru, struct list_head *item)
{
	return list_lru_add(lru, item);
}

int lab_list_lru_del(struct list_lru *lru, struct list_head *item)
{
	return list_lru_del(lru, item);
}

bool lab_shrinker_bit(struct mem_cgroup *memcg, int nid, struct shrinker *s)
{
	struct shrinker_info *info;
	bool set = false;

	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
	if (info && s->id >= 0)
		set = test_bit(s->id, info->map);
	rcu_read_unlock();
	return set;
}

/* mm/vmscan.c: xchg_nr_deferred() and xchg_nr_deferred_memcg(), read without the xchg */
long lab_nr_deferred(struct mem_cgroup *memcg, int nid, struct shrinker *s)
{
	struct shrinker_info *info;
	long nr = 0;

	if (!(s->flags & SHRINKER_NUMA_AWARE))
		nid = 0;
	if (!memcg || !(s->flags & SHRINKER_MEMCG_AWARE))
		return atomic_long_read(&s->nr_deferred[nid]);
	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
	if (info && s->id >= 0)
		nr = atomic_long_read(&info->nr_deferred[s->id]);
	rcu_read_unlock();
	return nr;
}

int lab_shrinker_id(struct shrinker *s)
{
	return s->id;
}

void lab_name_shrinker_maps(struct mem_cgroup *memcg)
{
	struct shrinker_info *info;
	int nid;

	rcu_read_lock();
	for_each_node(nid) {
		info = rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
		if (info)
			sim_event(SIM_EV_BITMAP, SIM_SITE(), sim_obj_of(info->map), sim_obj_of(memcg), nid, 0);
	}
	rcu_read_unlock();
}

int lab_set_shrinker_bits(struct mem_cgroup *memcg, int nid, int *ids, int max)
{
	struct shrinker_info *info = rcu_dereference_raw(memcg->nodeinfo[nid]->shrinker_info);
	int n = 0, id;

	for (id = 0; info && id < shrinker_nr_max && n < max; id++)
		if (test_bit(id, info->map))
			ids[n++] = id;
	return n;
}

unsigned long lab_shrink_slab(unsigned int gfp_mask, int nid, struct mem_cgroup *memcg, int priority)
{
	return shrink_slab(gfp_mask, nid, memcg, priority);
}
