/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the sequential scenarios the real kernel referees have in common:
 * memcgs, caches (a shrinker over a list_lru, as a super_block has) and
 * their objects, and the trace they print. Compiled twice, like the
 * scenario bodies that include it: in the simulation by
 * wasm/scenarios/kunit_seq.c, inside User-Mode Linux by
 * kernel-tree/kunit/reclaim_lab_kunit.c. (kunit_lru_batch_body.h, which
 * has no memcgs or shrinkers, stands alone.)
 *
 * The trace is one "reclaim_lab: " line per step: count_objects() and
 * scan_objects() calls with their arguments and results, the objects each
 * scan freed, shrinker bits read after a reclaim; names, never pointers,
 * ids or bitmap units (UML registers shrinkers of its own and is 64-bit,
 * so ids and SHRINKER_UNIT_BITS differ from the simulation's).
 *
 * No CPU races another and there is one node: UML has neither SMP nor
 * NUMA, so only what a sequential run decides can be compared.
 *
 * The harness defines, before including this file:
 *   rl_trace(fmt, ...)                   print one trace line
 *   rl_memcg_create(parent, name)        a memcg, online
 *   rl_memcg_offline(memcg)              rmdir: offline, reparented
 *   rl_memcg_release(memcg)              drop it for good
 *   rl_shrinker_alloc(flags, name)       shrinker_alloc() (or 6.1's embed)
 *   rl_shrinker_register(s, count, scan, private)
 *   rl_shrinker_private(s)
 *   rl_shrinker_free(s)
 *   rl_shrink_slab(gfp, memcg, priority) the kernel's shrink_slab(), node 0
 *   rl_list_lru_add(lru, item)           list_lru_add_obj() (6.1: list_lru_add())
 *   rl_list_lru_del(lru, item)           list_lru_del_obj() (6.1: list_lru_del())
 *   rl_shrinker_bit(memcg, s)            s's bit in memcg's shrinker_info
 *   rl_nr_deferred(memcg, s)             s's deferred count for memcg (node 0),
 *                                        where do_shrink_slab() keeps it
 *   rl_alloc_charged(size, memcg)        kzalloc() charged to memcg (kmemcg)
 *   RL_ROOT                              the root memcg
 */
#ifndef RECLAIM_LAB_KUNIT_COMMON_H
#define RECLAIM_LAB_KUNIT_COMMON_H

#define RL_MAX_MEMCGS 8
#define RL_MAX_CACHES 80	/* registered at once, by one scenario */
#define RL_RANGES 160
#define RL_DEF_PRIORITY 12	/* DEF_PRIORITY of include/linux/mmzone.h: where reclaim starts */

struct rl_cache {
	char name[24];
	bool memcg_aware;
	bool in_use;		/* its objects are all in use: a scan rotates them, frees none */
	struct shrinker *shrinker;
	struct list_lru lru;
	int next_id[RL_MAX_MEMCGS];	/* objects are named memcg:index */
	struct list_head objs;		/* not freed yet, in allocation order */
	/* set before rl_cache_setup(), all 0 for a cache as a mount makes one */
	bool tuned;		/* seeks and batch below, not DEFAULT_SEEKS and SHRINK_BATCH */
	int seeks;
	long batch;
	unsigned long phantom;	/* count_objects() says this many more than are on the list */
	unsigned long stop_after;	/* scan_objects() says SHRINK_STOP once this shrink_slab()
					 * has freed this many (as a trylock that fails), if not 0 */
	bool needs_fs;		/* scan_objects() says SHRINK_STOP to a caller without
				 * __GFP_FS, as super_cache_scan() does */
};

struct rl_obj {
	struct list_head lru;
	struct list_head all;		/* on its cache's objs */
	int memcg;			/* where it was charged first */
	int id;
};

static struct mem_cgroup *rl_memcgs[RL_MAX_MEMCGS];
static const char *rl_memcg_names[RL_MAX_MEMCGS];
static int rl_nr_memcgs;
static struct rl_cache *rl_registered[RL_MAX_CACHES];	/* whose bits rl_bits() reads */
static int rl_nr_registered;
static bool rl_bits_compact;	/* one line per memcg naming its set bits */
static unsigned long rl_freed;	/* by our scan_objects(), this shrink_slab() */
static unsigned long rl_counted;	/* our count_objects() calls, this shrink_slab() */

static const char *rl_memcg_name(struct mem_cgroup *memcg)
{
	int i;

	for (i = 0; i < rl_nr_memcgs; i++)
		if (rl_memcgs[i] == memcg)
			return rl_memcg_names[i];
	return memcg ? "other" : "none";
}

/* The root is memcg 0. */
static void rl_memcgs_init(void)
{
	memset(rl_memcgs, 0, sizeof(rl_memcgs));
	rl_memcgs[0] = RL_ROOT;
	rl_memcg_names[0] = "root";
	rl_nr_memcgs = 1;
	rl_nr_registered = 0;
	rl_bits_compact = false;
}

/* A memcg named name under memcg parent; its index, or -ENOMEM. */
static int rl_memcg_add(int parent, const char *name)
{
	struct mem_cgroup *memcg;

	if (rl_nr_memcgs >= RL_MAX_MEMCGS)
		return -ENOMEM;
	memcg = rl_memcg_create(rl_memcgs[parent], name);
	if (!memcg)
		return -ENOMEM;
	rl_memcgs[rl_nr_memcgs] = memcg;
	rl_memcg_names[rl_nr_memcgs] = name;
	return rl_nr_memcgs++;
}

/* Every memcg but the root, the last made first (children before parents). */
static void rl_memcgs_release(void)
{
	while (rl_nr_memcgs > 1) {
		rl_nr_memcgs--;
		rl_memcg_release(rl_memcgs[rl_nr_memcgs]);
		rl_memcgs[rl_nr_memcgs] = NULL;
	}
}

/*
 * Object names as runs, in list order: "A:0-127 A/B:49-20 root:3". A run
 * goes up or down by one (a walk that isolates onto a dispose list
 * reverses the order).
 */
static void rl_ranges(struct list_head *objs, char *buf, int size)
{
	struct rl_obj *obj, *prev = NULL;
	int len = 0, start = 0, dir = 0;

	buf[0] = '\0';
	list_for_each_entry(obj, objs, lru) {
		if (prev && obj->memcg == prev->memcg &&
		    (obj->id - prev->id == (dir ? dir : 1) || (!dir && obj->id - prev->id == -1))) {
			dir = obj->id - prev->id;
			prev = obj;
			continue;
		}
		if (prev && prev->id != start)
			len += snprintf(buf + len, size - len, "-%d", prev->id);
		if (len >= size - 24) {
			snprintf(buf + len, size - len, " ...");
			return;
		}
		len += snprintf(buf + len, size - len, "%s%s:%d", prev ? " " : "",
				rl_memcg_names[obj->memcg], obj->id);
		start = obj->id;
		dir = 0;
		prev = obj;
	}
	if (!prev)
		snprintf(buf, size, "-");
	else if (prev->id != start)
		snprintf(buf + len, size - len, "-%d", prev->id);
}

static void rl_dispose(struct list_head *dispose)
{
	struct rl_obj *obj, *next;

	list_for_each_entry_safe(obj, next, dispose, lru) {
		list_del(&obj->lru);
		list_del(&obj->all);
		kfree(obj);
	}
}

static unsigned long rl_count(struct shrinker *s, struct shrink_control *sc)
{
	struct rl_cache *c = rl_shrinker_private(s);
	unsigned long n = list_lru_shrink_count(&c->lru, sc) + c->phantom;

	rl_counted++;
	/* super_cache_count(): nothing at all is SHRINK_EMPTY, not 0 */
	if (n)
		rl_trace("count %s memcg=%s nid=%d -> %lu", c->name, rl_memcg_name(sc->memcg),
			 sc->nid, n);
	else
		rl_trace("count %s memcg=%s nid=%d -> SHRINK_EMPTY", c->name,
			 rl_memcg_name(sc->memcg), sc->nid);
	return n ? n : SHRINK_EMPTY;
}

static enum lru_status rl_isolate(struct list_head *item, struct list_lru_one *list,
				  spinlock_t *lock, void *arg)
{
	list_lru_isolate_move(list, item, arg);
	return LRU_REMOVED;
}

/* An object in use, as an inode with page cache: to the tail, not freed. */
static enum lru_status rl_rotate(struct list_head *item, struct list_lru_one *list,
				 spinlock_t *lock, void *arg)
{
	return LRU_ROTATE;
}

static unsigned long rl_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct rl_cache *c = rl_shrinker_private(s);
	unsigned long nr = sc->nr_to_scan, freed;
	char ranges[RL_RANGES];
	LIST_HEAD(dispose);

	if ((c->needs_fs && !(sc->gfp_mask & __GFP_FS)) ||
	    (c->stop_after && rl_freed >= c->stop_after)) {
		rl_trace("scan %s memcg=%s nid=%d nr_to_scan=%lu -> SHRINK_STOP", c->name,
			 rl_memcg_name(sc->memcg), sc->nid, nr);
		return SHRINK_STOP;
	}
	freed = list_lru_shrink_walk(&c->lru, sc, c->in_use ? rl_rotate : rl_isolate, &dispose);
	rl_ranges(&dispose, ranges, sizeof(ranges));
	rl_trace("scan %s memcg=%s nid=%d nr_to_scan=%lu -> %lu freed: %s%s", c->name,
		 rl_memcg_name(sc->memcg), sc->nid, nr, freed, ranges,
		 c->in_use ? " (in use: rotated)" : "");
	rl_dispose(&dispose);
	rl_freed += freed;
	return freed;
}

/* Memcg m's shrinker bits, read by name: one line per cache, or the set ones in one line. */
static void rl_bits(int m)
{
	char line[RL_RANGES];
	int i, len = 0;

	if (!m)
		return;		/* the root has no shrinker bits: its walk is the global list */
	if (!rl_bits_compact) {
		for (i = 0; i < rl_nr_registered; i++)
			if (rl_registered[i]->memcg_aware)
				rl_trace("bit %s %s=%d", rl_memcg_names[m], rl_registered[i]->name,
					 rl_shrinker_bit(rl_memcgs[m], rl_registered[i]->shrinker));
		return;
	}
	line[0] = '\0';
	for (i = 0; i < rl_nr_registered && len < (int)sizeof(line) - 32; i++)
		if (rl_registered[i]->memcg_aware &&
		    rl_shrinker_bit(rl_memcgs[m], rl_registered[i]->shrinker))
			len += snprintf(line + len, sizeof(line) - len, " %s", rl_registered[i]->name);
	rl_trace("bits %s:%s", rl_memcg_names[m], len ? line : " -");
}

/* shrink_slab() for memcg m at priority with gfp; what our shrinkers did; m's bits after. */
static void rl_reclaim_gfp(int m, int priority, gfp_t gfp)
{
	const char *nofs = gfp & __GFP_FS ? "" : " GFP_NOFS";

	rl_freed = 0;
	rl_counted = 0;
	rl_trace("shrink_slab memcg=%s priority=%d%s", rl_memcg_names[m], priority, nofs);
	rl_shrink_slab(gfp, rl_memcgs[m], priority);
	rl_trace("shrink_slab memcg=%s priority=%d%s: ours freed %lu", rl_memcg_names[m], priority,
		 nofs, rl_freed);
	rl_bits(m);
}

static void rl_reclaim(int m, int priority)
{
	rl_reclaim_gfp(m, priority, GFP_KERNEL);
}

/*
 * A cache as a mount makes one: shrinker_alloc() (memcg- and NUMA-aware
 * when memcg_aware), list_lru_init_memcg() (or list_lru_init()),
 * shrinker_register(). 0 or -ENOMEM.
 */
static int rl_cache_setup(struct rl_cache *c, bool memcg_aware, bool in_use)
{
	if (rl_nr_registered >= RL_MAX_CACHES)
		return -ENOMEM;
	c->memcg_aware = memcg_aware;
	c->in_use = in_use;
	memset(c->next_id, 0, sizeof(c->next_id));
	INIT_LIST_HEAD(&c->objs);
	c->shrinker = rl_shrinker_alloc(memcg_aware ? SHRINKER_MEMCG_AWARE | SHRINKER_NUMA_AWARE : 0,
					c->name);
	if (!c->shrinker)
		return -ENOMEM;
	if (c->tuned) {
		c->shrinker->seeks = c->seeks;
		c->shrinker->batch = c->batch;
	}
	if (memcg_aware ? list_lru_init_memcg(&c->lru, c->shrinker) : list_lru_init(&c->lru)) {
		rl_shrinker_free(c->shrinker);
		c->shrinker = NULL;
		return -ENOMEM;
	}
	rl_shrinker_register(c->shrinker, rl_count, rl_scan, c);
	rl_registered[rl_nr_registered++] = c;
	if (c->tuned)
		rl_trace("shrinker_register %s memcg_aware=%d seeks=%d batch=%ld", c->name,
			 c->memcg_aware, c->seeks, c->batch);
	else
		rl_trace("shrinker_register %s memcg_aware=%d", c->name, c->memcg_aware);
	return 0;
}

/* n objects charged to memcg m on cache c, as kmem_cache_alloc_lru() + list_lru_add_obj() */
static int rl_add(struct rl_cache *c, int m, int n)
{
	int i, added = 0, first = c->next_id[m];

	if (c->memcg_aware && m && memcg_list_lru_alloc(rl_memcgs[m], &c->lru, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct rl_obj *obj = rl_alloc_charged(sizeof(*obj), c->memcg_aware && m ? rl_memcgs[m] : NULL);

		if (!obj)
			return -ENOMEM;
		INIT_LIST_HEAD(&obj->lru);
		obj->memcg = m;
		obj->id = c->next_id[m]++;
		list_add_tail(&obj->all, &c->objs);
		added += rl_list_lru_add(&c->lru, &obj->lru);
	}
	rl_trace("add %s memcg=%s %s:%d-%d -> %d added, count %lu", c->name, rl_memcg_names[m],
		 rl_memcg_names[m], first, c->next_id[m] - 1, added,
		 list_lru_count_one(&c->lru, 0, c->memcg_aware ? rl_memcgs[m] : NULL));
	return 0;
}

/*
 * Delete memcg m's objects first..first+n-1 from cache c (those still
 * there), as an inode evicted; n < 0: all of memcg m's.
 */
static void rl_del(struct rl_cache *c, int m, int first, int n)
{
	struct rl_obj *obj, *next;
	char ranges[RL_RANGES];
	LIST_HEAD(gone);
	int deleted = 0;

	list_for_each_entry_safe(obj, next, &c->objs, all) {
		if (obj->memcg != m || obj->id < first || (n >= 0 && obj->id >= first + n))
			continue;
		if (!rl_list_lru_del(&c->lru, &obj->lru))
			continue;
		list_add_tail(&obj->lru, &gone);
		deleted++;
	}
	rl_ranges(&gone, ranges, sizeof(ranges));
	rl_trace("del %s memcg=%s -> %d deleted: %s, count %lu", c->name, rl_memcg_names[m],
		 deleted, ranges,
		 list_lru_count_one(&c->lru, 0, c->memcg_aware ? rl_memcgs[m] : NULL));
	rl_dispose(&gone);
}

/* What is left on cache c's lists, deleted and freed, at unmount: memcg by memcg. */
static void rl_drain(struct rl_cache *c, bool trace)
{
	struct rl_obj *obj, *next;
	char ranges[RL_RANGES];
	LIST_HEAD(gone);
	int m, deleted = 0;

	for (m = 0; m < RL_MAX_MEMCGS; m++)
		list_for_each_entry_safe(obj, next, &c->objs, all) {
			if (obj->memcg != m)
				continue;
			if (rl_list_lru_del(&c->lru, &obj->lru))
				deleted++;
			list_add_tail(&obj->lru, &gone);
		}
	rl_ranges(&gone, ranges, sizeof(ranges));
	if (trace)
		rl_trace("drain %s -> %d deleted: %s", c->name, deleted, ranges);
	rl_dispose(&gone);
}

/*
 * An unmount, in deactivate_locked_super()'s order: shrinker_free() first
 * (6.1: unregister_shrinker()), then what is left on the lists, then
 * list_lru_destroy().
 */
static void rl_cache_teardown(struct rl_cache *c, bool trace)
{
	int i;

	if (!c->shrinker)
		return;
	for (i = 0; i < rl_nr_registered && rl_registered[i] != c; i++)
		;
	if (i < rl_nr_registered) {
		rl_nr_registered--;
		for (; i < rl_nr_registered; i++)
			rl_registered[i] = rl_registered[i + 1];
	}
	rl_shrinker_free(c->shrinker);
	c->shrinker = NULL;
	rl_drain(c, trace);
	list_lru_destroy(&c->lru);
	if (trace)
		rl_trace("shrinker_free %s", c->name);
}

/*
 * A cache of its own, named by fmt with a and b (printf ignores what fmt
 * does not use): rl_cache_setup() on kzalloc()ed memory.
 */
static struct rl_cache *rl_cache_new(bool memcg_aware, bool in_use, const char *fmt, int a, int b)
{
	struct rl_cache *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	snprintf(c->name, sizeof(c->name), fmt, a, b);
	if (rl_cache_setup(c, memcg_aware, in_use)) {
		kfree(c);
		return NULL;
	}
	return c;
}

static void rl_cache_delete(struct rl_cache *c, bool trace)
{
	if (!c)
		return;
	rl_cache_teardown(c, trace);
	kfree(c);
}

/* list_lru_count_one() of cache c for each memcg (the root only, if c is not memcg-aware). */
static void rl_counts_of(struct rl_cache *c)
{
	int m;

	for (m = 0; m < (c->memcg_aware ? rl_nr_memcgs : 1); m++)
		if (rl_memcgs[m])
			rl_trace("list_lru_count_one %s memcg=%s -> %lu", c->name, rl_memcg_names[m],
				 list_lru_count_one(&c->lru, 0, c->memcg_aware ? rl_memcgs[m] : NULL));
}

/* Cache c's deferred count for memcg m, as the next do_shrink_slab() will take it. */
static void rl_deferred(struct rl_cache *c, int m)
{
	rl_trace("nr_deferred %s memcg=%s -> %ld", c->name, rl_memcg_names[m],
		 rl_nr_deferred(rl_memcgs[m], c->shrinker));
}

#endif /* RECLAIM_LAB_KUNIT_COMMON_H */
