// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memcg life cycle, as mm/memcontrol.c drives the shrinker and list_lru
 * code (v6.12): online assigns kmemcg_id and calls alloc_shrinker_info();
 * offline reparents list_lrus and deferred counts before the memcg stops
 * being online; free calls free_shrinker_info(). mem_cgroup_iter() walks
 * the tree in pre-order like css_next_descendant_pre(), without the
 * css refcounting the simulation does not need.
 */
#include <linux/kernel.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include "glue.h"

struct mem_cgroup *root_mem_cgroup;
static int next_memcg_id = 1;	/* mem_cgroup_idr starts at 1 */

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
	}
	memcg->id = next_memcg_id++;
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
	}

	/* mem_cgroup_css_online(): memcg_online_kmem() then alloc_shrinker_info() */
	if (parent)
		memcg->kmemcg_id = memcg->id;
	if (alloc_shrinker_info(memcg)) {
		sim_memcg_free(memcg);
		return NULL;
	}
	WRITE_ONCE(memcg->online, true);
	return memcg;
fail:
	for_each_node(nid)
		kfree(memcg->nodeinfo[nid]);
	kfree(memcg);
	return NULL;
}

void sim_memcg_offline(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);

	/* memcg_offline_kmem(): objcgs, then list_lrus, move to the parent */
	if (!mem_cgroup_is_root(memcg)) {
		sim_slab_recharge(memcg, parent ? parent : root_mem_cgroup);
		memcg_reparent_list_lrus(memcg, parent ? parent : root_mem_cgroup);
	}
	reparent_shrinker_deferred(memcg);
	/* offline_css() clears CSS_ONLINE after ->css_offline() */
	WRITE_ONCE(memcg->online, false);
}

void sim_memcg_free(struct mem_cgroup *memcg)
{
	struct mem_cgroup **link;
	int nid;

	free_shrinker_info(memcg);
	if (memcg->parent) {
		for (link = &memcg->parent->first_child; *link != memcg; link = &(*link)->next_sibling)
			;
		*link = memcg->next_sibling;
	} else {
		root_mem_cgroup = NULL;
	}
	for_each_node(nid)
		kfree(memcg->nodeinfo[nid]);
	kfree(memcg);
}
