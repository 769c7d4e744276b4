/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the slab allocator. Every allocation is an object of the
 * simulator (wasm/runtime/slab.c) with an id, a node and a memcg, recorded
 * at the caller's line; kfree() of anything else is a BUG.
 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include <linux/gfp.h>
#include <linux/overflow.h>
#include <asm/page.h>	/* the kernel's brings it through linux/gfp.h */
#include <linux/types.h>
#include <sim.h>

#define NUMA_NO_NODE	(-1)
#define SLAB_RECLAIM_ACCOUNT	0x00020000U
#define SLAB_PANIC		0x00040000U
#define SLAB_ACCOUNT		0x04000000U

struct list_lru;

struct kmem_cache {
	const char *name;
	unsigned int size;
	unsigned int flags;
	void (*ctor)(void *);
};

#define kmalloc(size, gfp)	sim_kmalloc(size, !!((gfp) & __GFP_ZERO), NUMA_NO_NODE, SIM_SITE())
#define kzalloc(size, gfp)	sim_kmalloc(size, 1, NUMA_NO_NODE, SIM_SITE())
#define kmalloc_node(size, gfp, nid)	sim_kmalloc(size, !!((gfp) & __GFP_ZERO), nid, SIM_SITE())
#define kzalloc_node(size, gfp, nid)	sim_kmalloc(size, 1, nid, SIM_SITE())
#define kvmalloc(size, gfp)	kmalloc(size, gfp)
#define kvzalloc(size, gfp)	kzalloc(size, gfp)
#define kvzalloc_node(size, gfp, nid)	kzalloc_node(size, gfp, nid)
#define kvmalloc_node(size, gfp, nid)	kmalloc_node(size, gfp, nid)
#define kmalloc_array(n, size, gfp)	sim_kmalloc(size_mul(n, size), !!((gfp) & __GFP_ZERO), NUMA_NO_NODE, SIM_SITE())
#define kmalloc_track_caller(size, gfp)	kmalloc(size, gfp)
#define kmalloc_array_node(n, size, gfp, node) \
	sim_kmalloc(size_mul(n, size), !!((gfp) & __GFP_ZERO), node, SIM_SITE())
#define kcalloc(n, size, gfp)	sim_kmalloc(size_mul(n, size), 1, NUMA_NO_NODE, SIM_SITE())
#define kfree(p)		sim_kfree(p, SIM_SITE_EXPR(#p))
#define kvfree(p)		sim_kfree(p, SIM_SITE_EXPR(#p))
#define ksize(p)		sim_ksize(p)

static inline void *sim_kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp, const struct sim_site *site)
{
	void *p = sim_kmalloc(s->size, !!(gfp & __GFP_ZERO), NUMA_NO_NODE, site);

	if (p && s->ctor)
		s->ctor(p);
	return p;
}

#define kmem_cache_alloc(s, gfp)	sim_kmem_cache_alloc(s, gfp, SIM_SITE())
/*
 * mm/slub.c's kmem_cache_alloc_lru(): an object bound for a list_lru,
 * whose memcg_slab_post_alloc_hook() gives the memcg it is charged to its
 * list there first (memcg_list_lru_alloc()); wasm/glue/memcg.c.
 */
struct list_lru;
#ifdef SIM_SELFTEST
/* the library self-tests run without memcgs (no wasm/glue/memcg.c): no list to give */
#define kmem_cache_alloc_lru(s, lru, gfp)	((void)(lru), sim_kmem_cache_alloc(s, gfp, SIM_SITE()))
#else
void *sim_kmem_cache_alloc_lru(struct kmem_cache *s, struct list_lru *lru, gfp_t gfp,
			       const struct sim_site *site);
#define kmem_cache_alloc_lru(s, lru, gfp)	sim_kmem_cache_alloc_lru(s, lru, gfp, SIM_SITE())
#endif
#define kmem_cache_zalloc(s, gfp)	sim_kmem_cache_alloc(s, (gfp) | __GFP_ZERO, SIM_SITE())
#define kmem_cache_free(s, p)	sim_kfree(p, SIM_SITE_EXPR(#p))

#endif /* _LINUX_SLAB_H */
