/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: memory cgroups, reduced to what shrinkers and list_lrus see.
 * A mem_cgroup here has the fields mm/shrinker.c and mm/list_lru.c read
 * (css, kmemcg_id, nodeinfo[]->shrinker_info) plus the tree the simulation
 * walks. The life cycle (online, offline, free) is driven by
 * wasm/glue/memcg.c, which calls the real shrinker and list_lru hooks in
 * the order mm/memcontrol.c calls them. A kernel with the folio LRU
 * (SIM_FOLIO_LRU) gives each memcg an lruvec per node, as
 * alloc_mem_cgroup_per_node_info() does, with its LRU sizes and its
 * counters (exact, and hierarchical as the kernel's are once rstat has
 * folded them: wasm/glue/lru/mm.c).
 */
#ifndef _LINUX_MEMCONTROL_H
#define _LINUX_MEMCONTROL_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/nodemask.h>
/* What the real header brings in on the way, and the files rely on. */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/idr.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/version.h>
#include <sim.h>

struct mem_cgroup_reclaim_cookie;

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
/*
 * The branch's own struct shrinker_info (6.7 moved it to shrinker.h),
 * extracted from its include/linux/memcontrol.h with its line number
 * (wasm/extract/v6.1-memcontrol.txt): v6.1's, or the SRCU series' with
 * map_nr_max, or a reviewer's series' layout.
 */
#include <linux/memcontrol-extract.h>
#else
struct shrinker_info;
#endif

struct cgroup {
	int level;		/* depth: the root cgroup is 0 */
};

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys_state *parent;
};

#ifdef SIM_FOLIO_LRU
/*
 * The branch's own struct mem_cgroup_per_node (wasm/extract/
 * lru-memcontrol-types-h.txt), with its lruvec and LRU sizes; its
 * lruvec_stats are the project's: exact counters of each node stat item
 * (mm/memcontrol.c keeps per-CPU ones that rstat folds), added to by
 * wasm/glue/lru/mm.c as the fold adds, with one read-modify-write.
 */
#include <linux/mmzone.h>
struct lruvec_stats_percpu;
struct lruvec_stats {
	atomic_long_t state[NR_VM_NODE_STAT_ITEMS];
};
#include <linux/memcontrol-types-extract.h>
#else
struct mem_cgroup_per_node {
	struct shrinker_info __rcu *shrinker_info;
};
#endif

/* An objcg: a kmem folio's memcg_data points to one (none here are kmem). */
struct obj_cgroup {
	struct mem_cgroup *memcg;
};

static inline struct mem_cgroup *obj_cgroup_memcg(struct obj_cgroup *objcg)
{
	return READ_ONCE(objcg->memcg);
}

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct cgroup cgrp;
	int id;			/* memcg->id.id */
	int kmemcg_id;
	bool online;
	bool has_objcg;		/* memcg->objcg: from memcg_online_kmem() to memcg_reparent_objcgs() */
	struct mem_cgroup *parent, *first_child, *next_sibling;
	struct mem_cgroup_per_node *nodeinfo[MAX_NUMNODES];
#ifdef SIM_FOLIO_LRU
	long nr_charged;	/* pages charged to it (memcg->memory's usage): wasm/glue/lru/mm.c */
#endif
};

extern struct mem_cgroup *root_mem_cgroup;

static inline bool mem_cgroup_disabled(void) { return false; }
static inline bool mem_cgroup_kmem_disabled(void) { return false; }
static inline bool memcg_kmem_online(void) { return true; }
static inline bool memcg_kmem_enabled(void) { return true; }	/* its name before 6.7 */

static inline bool mem_cgroup_is_root(struct mem_cgroup *memcg)
{
	return memcg == root_mem_cgroup;
}

static inline bool mem_cgroup_online(struct mem_cgroup *memcg)
{
	return READ_ONCE(memcg->online);
}

static inline int memcg_kmem_id(struct mem_cgroup *memcg)
{
	return memcg ? memcg->kmemcg_id : -1;
}

static inline struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return memcg->parent;
}

static inline struct mem_cgroup *mem_cgroup_from_css(struct cgroup_subsys_state *css)
{
	return css ? container_of(css, struct mem_cgroup, css) : NULL;
}

static inline struct mem_cgroup *mem_cgroup_from_slab_obj(void *p)
{
	return (struct mem_cgroup *)sim_obj_memcg(p);
}

/* Pre-order walk of the memcg tree, as css_next_descendant_pre(). */
struct cgroup_subsys_state *sim_css_next_pre(struct cgroup_subsys_state *pos,
					     struct cgroup_subsys_state *root);
#define css_for_each_descendant_pre(pos, css) \
	for ((pos) = sim_css_next_pre(NULL, (css)); (pos); (pos) = sim_css_next_pre((pos), (css)))

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev,
				   struct mem_cgroup_reclaim_cookie *reclaim);
void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev);

/* The hooks mm/memcontrol.c calls, defined in mm/shrinker.c and mm/list_lru.c. */
int alloc_shrinker_info(struct mem_cgroup *memcg);
void free_shrinker_info(struct mem_cgroup *memcg);
void set_shrinker_bit(struct mem_cgroup *memcg, int nid, int shrinker_id);
void reparent_shrinker_deferred(struct mem_cgroup *memcg);
void memcg_reparent_list_lrus(struct mem_cgroup *memcg, struct mem_cgroup *parent);

#endif /* _LINUX_MEMCONTROL_H */
