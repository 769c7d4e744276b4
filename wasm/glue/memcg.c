// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memcg life cycle, as mm/memcontrol.c drives the shrinker and list_lru
 * code (v6.12, and v6.1 alike for what is here): online assigns kmemcg_id
 * and calls alloc_shrinker_info(); offline reparents objcgs, list_lrus and
 * deferred counts, frees the memcg id, and then the memcg stops being
 * online; free calls free_shrinker_info(). mem_cgroup_iter() walks the tree
 * in pre-order like css_next_descendant_pre(), without the css refcounting
 * the simulation does not need.
 *
 * Every rule names the kernel function it follows. Each variant and each
 * scene gets them from here: the runtime's slab (wasm/runtime/slab.c)
 * asks memcg_charge_target() whom an allocation is charged to.
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <linux/list_lru.h>
#include "glue.h"

struct mem_cgroup *root_mem_cgroup;

/*
 * Memcg ids (memcg->id.id), as mem_cgroup_alloc() takes them:
 * xa_alloc(&mem_cgroup_ids, ..., XA_LIMIT(1, MEM_CGROUP_ID_MAX)) in 6.12,
 * idr_alloc(&mem_cgroup_idr, NULL, 1, MEM_CGROUP_ID_MAX + 1) in 6.1: the
 * lowest free id from 1. mem_cgroup_id_remove() frees it when the id's
 * last reference goes, at the end of mem_cgroup_css_offline()
 * (mem_cgroup_id_put(); nothing else pins it here: no swap).
 */
#define MEMCG_ID_MAX	USHRT_MAX	/* MEM_CGROUP_ID_MAX */
static unsigned long memcg_ids[(MEMCG_ID_MAX + 1) / BITS_PER_LONG];

static int memcg_id_alloc(void)
{
	int id;

	for (id = 1; id <= MEMCG_ID_MAX; id++)
		if (!(memcg_ids[id / BITS_PER_LONG] & (1UL << (id % BITS_PER_LONG)))) {
			memcg_ids[id / BITS_PER_LONG] |= 1UL << (id % BITS_PER_LONG);
			return id;
		}
	return -ENOSPC;
}

/* mem_cgroup_id_remove() */
static void memcg_id_remove(struct mem_cgroup *memcg)
{
	if (memcg->id > 0) {
		memcg_ids[memcg->id / BITS_PER_LONG] &= ~(1UL << (memcg->id % BITS_PER_LONG));
		memcg->id = 0;
	}
}

/*
 * Whom an allocation made for memcg (active_memcg) is charged to:
 * current_obj_cgroup() -> __get_obj_cgroup_from_memcg() walks up from
 * memcg to the first memcg below the root that still has its objcg.
 * memcg_online_kmem() gives every memcg but the root an objcg;
 * memcg_reparent_objcgs() takes it away at offline. So an allocation for
 * an offline memcg is charged to its nearest online ancestor, and one for
 * the root, or with no online ancestor below it, to none (NULL): it goes
 * on the global lists, as mem_cgroup_from_slab_obj() then says NULL.
 */
static void *memcg_charge_target(void *p)
{
	struct mem_cgroup *memcg = p;

	for (; memcg && !mem_cgroup_is_root(memcg); memcg = parent_mem_cgroup(memcg))
		if (memcg->has_objcg)
			return memcg;
	return NULL;
}

struct mem_cgroup *sim_memcg_charge_target(struct mem_cgroup *memcg)
{
	return memcg_charge_target(memcg);
}

/*
 * mm/memcontrol.c __memcg_slab_post_alloc_hook(), for kmem_cache_alloc_lru():
 * an accounted object (__GFP_ACCOUNT) made for the active memcg is charged
 * to its charge target above, and when it is bound for lru, that memcg
 * gets its list there first (memcg_list_lru_alloc()), or the allocation
 * fails. (The runtime's slab charges every object made for an active
 * memcg, accounted or not.)
 */
void *sim_kmem_cache_alloc_lru(struct kmem_cache *s, struct list_lru *lru, gfp_t gfp,
			       const struct sim_site *site)
{
	struct mem_cgroup *to = NULL;

	if (lru && (gfp & __GFP_ACCOUNT) && sim_alloc_memcg())
		to = memcg_charge_target(sim_alloc_memcg());
	if (to && memcg_list_lru_alloc(to, lru, gfp))
		return NULL;
	return sim_kmem_cache_alloc(s, gfp, site);
}

static struct mem_cgroup *next_pre(struct mem_cgroup *pos, struct mem_cgroup *root)
{
	if (pos->first_child)
		return pos->first_child;
	while (pos != root) {
		if (pos->next_sibling)
			return pos->next_sibling;
		pos = pos->parent;
	}
	return NULL;
}

struct cgroup_subsys_state *sim_css_next_pre(struct cgroup_subsys_state *pos,
					     struct cgroup_subsys_state *root)
{
	struct mem_cgroup *next;

	if (!pos)
		return root;
	next = next_pre(mem_cgroup_from_css(pos), mem_cgroup_from_css(root));
	return next ? &next->css : NULL;
}

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev,
				   struct mem_cgroup_reclaim_cookie *reclaim)
{
	if (!root)
		root = root_mem_cgroup;
	if (!prev)
		return root;
	return next_pre(prev, root);
}

void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev)
{
}

struct mem_cgroup *sim_memcg_create(struct mem_cgroup *parent, const char *name)
{
	struct mem_cgroup *memcg, **link;
	int nid;

	memcg = kzalloc(sizeof(*memcg), GFP_KERNEL);
	if (!memcg)
		return NULL;
	sim_event(SIM_EV_LABEL, SIM_SITE(), sim_obj_of(memcg), 2, sim_name(name), 0);
	for_each_node(nid) {
		memcg->nodeinfo[nid] = kzalloc_node(sizeof(struct mem_cgroup_per_node),
						    GFP_KERNEL, nid);
		if (!memcg->nodeinfo[nid])
			goto fail;
#ifdef SIM_FOLIO_LRU
		/* alloc_mem_cgroup_per_node_info() */
		memcg->nodeinfo[nid]->lruvec_stats = kzalloc_node(sizeof(struct lruvec_stats),
								  GFP_KERNEL, nid);
		if (!memcg->nodeinfo[nid]->lruvec_stats)
			goto fail;
		lruvec_init(&memcg->nodeinfo[nid]->lruvec);
		memcg->nodeinfo[nid]->memcg = memcg;
		lab_lruvec_register(&memcg->nodeinfo[nid]->lruvec);
#endif
	}
	/* mem_cgroup_alloc(): the lowest free id; no kmemcg_id yet */
	memcg->id = memcg_id_alloc();
	if (memcg->id < 0)
		goto fail;
	memcg->kmemcg_id = -1;
	memcg->parent = parent;
	memcg->css.cgroup = &memcg->cgrp;
	memcg->css.parent = parent ? &parent->css : NULL;
	memcg->cgrp.level = parent ? parent->cgrp.level + 1 : 0;
	if (parent) {
		for (link = &parent->first_child; *link; link = &(*link)->next_sibling)
			;
		*link = memcg;
	} else {
		root_mem_cgroup = memcg;
		sim_charge_target = memcg_charge_target;
	}

	/*
	 * mem_cgroup_css_online(): memcg_online_kmem() (an objcg, and the
	 * memcg id as kmemcg_id; not for the root), then alloc_shrinker_info()
	 */
	if (parent) {
		memcg->has_objcg = true;
		memcg->kmemcg_id = memcg->id;
	}
	if (alloc_shrinker_info(memcg)) {
		sim_memcg_free(memcg);
		return NULL;
	}
	WRITE_ONCE(memcg->online, true);
	return memcg;
fail:
	memcg_id_remove(memcg);
	for_each_node(nid) {
#ifdef SIM_FOLIO_LRU
		if (memcg->nodeinfo[nid]) {
			lab_lruvec_unregister(&memcg->nodeinfo[nid]->lruvec);
			kfree(memcg->nodeinfo[nid]->lruvec_stats);
		}
#endif
		kfree(memcg->nodeinfo[nid]);
	}
	kfree(memcg);
	return NULL;
}

/* mem_cgroup_css_offline(), as rmdir gets there (offline_css()) */
void sim_memcg_offline(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);

	/* memcg_offline_kmem(): not for the root; the parent, or the root */
	if (!mem_cgroup_is_root(memcg)) {
		if (!parent)
			parent = root_mem_cgroup;
		/*
		 * memcg_reparent_objcgs(): the memcg loses its objcg (new
		 * allocations go to an ancestor: memcg_charge_target()), and
		 * its objcgs now belong to the parent, so the objects charged
		 * to it so far are the parent's (mem_cgroup_from_slab_obj())
		 */
		memcg->has_objcg = false;
		sim_slab_recharge(memcg, parent);
		/* then its list_lrus' items go to the parent's lists (mm/list_lru.c) */
		memcg_reparent_list_lrus(memcg, parent);
	}
	/* its deferred counts go to the parent (mm/shrinker.c, 6.1: mm/vmscan.c) */
	reparent_shrinker_deferred(memcg);
	/* mem_cgroup_id_put(): the last reference to the id, which is freed */
	memcg_id_remove(memcg);
	/* offline_css() clears CSS_ONLINE after ->css_offline() */
	WRITE_ONCE(memcg->online, false);
}

void sim_memcg_free(struct mem_cgroup *memcg)
{
	struct mem_cgroup **link;
	int nid;

	free_shrinker_info(memcg);
	/* the root, which never goes offline, keeps its id until here */
	memcg_id_remove(memcg);
	if (memcg->parent) {
		for (link = &memcg->parent->first_child; *link != memcg; link = &(*link)->next_sibling)
			;
		*link = memcg->next_sibling;
	} else {
		root_mem_cgroup = NULL;
		sim_charge_target = NULL;
	}
	for_each_node(nid) {
#ifdef SIM_FOLIO_LRU
		lab_lruvec_unregister(&memcg->nodeinfo[nid]->lruvec);
		kfree(memcg->nodeinfo[nid]->lruvec_stats);
#endif
		kfree(memcg->nodeinfo[nid]);
	}
	kfree(memcg);
}
