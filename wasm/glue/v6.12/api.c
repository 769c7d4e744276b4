// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lab's shrinker and list_lru interface (glue.h) on v6.12: shrinkers
 * are allocated by shrinker_alloc() and freed by shrinker_free().
 */
#include <linux/kernel.h>
#include <linux/shrinker.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include "../glue.h"

/* What 6.12's generic KASAN calls a read of a freed slab object (mm/kasan/report_generic.c). */
const char sim_kasan_uaf_bug_type[] = "slab-use-after-free";
#include <sim.h>

/* mm/internal.h declares it; the shim's stand-in for that file does not. */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg, int priority);

const char lab_register_fn[] = "shrinker_register";
const char lab_unregister_fn[] = "shrinker_free";

struct shrinker *lab_shrinker_alloc(unsigned int flags, const char *name)
{
	return shrinker_alloc(flags, "%s", name);
}

void (lab_shrinker_register)(struct shrinker *s, lab_shrinker_fn count, lab_shrinker_fn scan,
			   void *private_data)
{
	s->count_objects = count;
	s->scan_objects = scan;
	s->private_data = private_data;
	shrinker_register(s);
}

void *lab_shrinker_private(struct shrinker *s)
{
	return s->private_data;
}

void lab_shrinker_free(struct shrinker *s)
{
	shrinker_free(s);
}

int lab_list_lru_add(struct list_lru *lru, struct list_head *item)
{
	return list_lru_add_obj(lru, item);
}

int lab_list_lru_del(struct list_lru *lru, struct list_head *item)
{
	return list_lru_del_obj(lru, item);
}

bool lab_shrinker_bit(struct mem_cgroup *memcg, int nid, struct shrinker *s)
{
	struct shrinker_info *info;
	bool set = false;

	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
	if (info && s->id >= 0 && s->id < info->map_nr_max)
		set = test_bit(s->id % SHRINKER_UNIT_BITS, info->unit[s->id / SHRINKER_UNIT_BITS]->map);
	rcu_read_unlock();
	return set;
}

/* mm/shrinker.c: xchg_nr_deferred() and xchg_nr_deferred_memcg(), read without the xchg */
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
	if (info && s->id >= 0 && s->id < info->map_nr_max)
		nr = atomic_long_read(&info->unit[s->id / SHRINKER_UNIT_BITS]->nr_deferred[s->id % SHRINKER_UNIT_BITS]);
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
	int nid, i;

	rcu_read_lock();
	for_each_node(nid) {
		info = rcu_dereference(memcg->nodeinfo[nid]->shrinker_info);
		for (i = 0; info && i * SHRINKER_UNIT_BITS < info->map_nr_max; i++)
			sim_event(SIM_EV_BITMAP, SIM_SITE(), sim_obj_of(info->unit[i]), sim_obj_of(memcg),
				  nid, i * SHRINKER_UNIT_BITS);
	}
	rcu_read_unlock();
}

int lab_set_shrinker_bits(struct mem_cgroup *memcg, int nid, int *ids, int max)
{
	struct shrinker_info *info = rcu_dereference_raw(memcg->nodeinfo[nid]->shrinker_info);
	int n = 0, id;

	for (id = 0; info && id < info->map_nr_max && n < max; id++)
		if (test_bit(id % SHRINKER_UNIT_BITS, info->unit[id / SHRINKER_UNIT_BITS]->map))
			ids[n++] = id;
	return n;
}

unsigned long lab_shrink_slab(unsigned int gfp_mask, int nid, struct mem_cgroup *memcg, int priority)
{
	return shrink_slab(gfp_mask, nid, memcg, priority);
}
