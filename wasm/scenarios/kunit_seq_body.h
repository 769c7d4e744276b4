/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sequential scenario the real kernel referees: one body, compiled
 * twice. wasm/scenarios/kunit_seq.c runs it on the simulated machine (the
 * shim, natively and in wasm); kernel-tree/kunit/reclaim_lab_kunit.c runs
 * it as a KUnit test inside User-Mode Linux, against the kernel's own
 * memcgs, slab and RCU. Both print the same normalised trace, one
 * "reclaim_lab: " line per step: count_objects() and scan_objects() calls
 * with their arguments and results, the objects each scan freed, each
 * memcg's shrinker bits after its reclaim; names, never pointers.
 * kernel-tree/kunit/compare.sh diffs the traces.
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
 *   rl_shrink_slab(memcg, priority)      the kernel's shrink_slab(), node 0
 *   rl_list_lru_add(lru, item)           list_lru_add_obj() (6.1: list_lru_add())
 *   rl_list_lru_del(lru, item)           list_lru_del_obj() (6.1: list_lru_del())
 *   rl_shrinker_bit(memcg, s)            s's bit in memcg's shrinker_info
 *   rl_alloc_charged(size, memcg)        kzalloc() charged to memcg (kmemcg)
 *   RL_ROOT                              the root memcg
 */
#ifndef RECLAIM_LAB_KUNIT_SEQ_BODY_H
#define RECLAIM_LAB_KUNIT_SEQ_BODY_H

#define RL_NR_MEMCGS 3		/* root, A, A/B */
#define RL_NR_CACHES 3
#define RL_RANGES 160
#define RL_MAX_OBJS 512		/* per cache and memcg */

struct rl_cache {
	const char *name;
	bool memcg_aware;
	struct shrinker *shrinker;
	struct list_lru lru;
	int next_id[RL_NR_MEMCGS];	/* objects are named memcg:index */
	struct rl_obj *objs[RL_NR_MEMCGS][RL_MAX_OBJS];	/* not freed yet */
};

struct rl_obj {
	struct list_head lru;
	int memcg;			/* where it was charged first */
	int id;
};

static struct mem_cgroup *rl_memcgs[RL_NR_MEMCGS];
static const char *const rl_memcg_names[RL_NR_MEMCGS] = { "root", "A", "A/B" };
static struct rl_cache rl_caches[RL_NR_CACHES] = {
	{ .name = "icache", .memcg_aware = true },
	{ .name = "dcache", .memcg_aware = true },
	{ .name = "global", .memcg_aware = false },
};
static unsigned long rl_freed;		/* by our scan_objects(), this shrink_slab() */

static const char *rl_memcg_name(struct mem_cgroup *memcg)
{
	int i;

	for (i = 0; i < RL_NR_MEMCGS; i++)
		if (rl_memcgs[i] == memcg)
			return rl_memcg_names[i];
	return memcg ? "other" : "none";
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

static void rl_dispose(struct rl_cache *c, struct list_head *dispose)
{
	struct rl_obj *obj, *next;

	list_for_each_entry_safe(obj, next, dispose, lru) {
		c->objs[obj->memcg][obj->id] = NULL;
		list_del(&obj->lru);
		kfree(obj);
	}
}

static unsigned long rl_count(struct shrinker *s, struct shrink_control *sc)
{
	struct rl_cache *c = rl_shrinker_private(s);
	unsigned long n = list_lru_shrink_count(&c->lru, sc);

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

static unsigned long rl_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct rl_cache *c = rl_shrinker_private(s);
	unsigned long nr = sc->nr_to_scan, freed;
	char ranges[RL_RANGES];
	LIST_HEAD(dispose);

	freed = list_lru_shrink_walk(&c->lru, sc, rl_isolate, &dispose);
	rl_ranges(&dispose, ranges, sizeof(ranges));
	rl_trace("scan %s memcg=%s nid=%d nr_to_scan=%lu -> %lu freed: %s", c->name,
		 rl_memcg_name(sc->memcg), sc->nid, nr, freed, ranges);
	rl_dispose(c, &dispose);
	rl_freed += freed;
	return freed;
}

static void rl_bits(int m)
{
	int i;

	if (!m)
		return;		/* the root has no shrinker bits: its walk is the global list */
	for (i = 0; i < RL_NR_CACHES; i++)
		if (rl_caches[i].memcg_aware)
			rl_trace("bit %s %s=%d", rl_memcg_names[m], rl_caches[i].name,
				 rl_shrinker_bit(rl_memcgs[m], rl_caches[i].shrinker));
}

static void rl_reclaim(int m, int priority)
{
	rl_freed = 0;
	rl_trace("shrink_slab memcg=%s priority=%d", rl_memcg_names[m], priority);
	rl_shrink_slab(rl_memcgs[m], priority);
	rl_trace("shrink_slab memcg=%s priority=%d: ours freed %lu", rl_memcg_names[m], priority,
		 rl_freed);
	rl_bits(m);
}

/* n objects charged to memcg m on cache c, as kmem_cache_alloc_lru() + list_lru_add_obj() */
static int rl_add(struct rl_cache *c, int m, int n)
{
	int i, added = 0, first = c->next_id[m];

	if (first + n > RL_MAX_OBJS)
		return -EINVAL;

	if (c->memcg_aware && m && memcg_list_lru_alloc(rl_memcgs[m], &c->lru, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct rl_obj *obj = rl_alloc_charged(sizeof(*obj), c->memcg_aware && m ? rl_memcgs[m] : NULL);

		if (!obj)
			return -ENOMEM;
		INIT_LIST_HEAD(&obj->lru);
		obj->memcg = m;
		obj->id = c->next_id[m]++;
		c->objs[m][obj->id] = obj;
		added += rl_list_lru_add(&c->lru, &obj->lru);
	}
	rl_trace("add %s memcg=%s %s:%d-%d -> %d added, count %lu", c->name, rl_memcg_names[m],
		 rl_memcg_names[m], first, c->next_id[m] - 1, added,
		 list_lru_count_one(&c->lru, 0, c->memcg_aware ? rl_memcgs[m] : NULL));
	return 0;
}

/* Delete objects first..first+n-1 of memcg m from cache c, as an inode evicted. */
static void rl_del(struct rl_cache *c, int m, int first, int n)
{
	char ranges[RL_RANGES];
	LIST_HEAD(gone);
	int i, deleted = 0;

	for (i = first; i < first + n && i < RL_MAX_OBJS; i++) {
		struct rl_obj *obj = c->objs[m][i];

		if (!obj || !rl_list_lru_del(&c->lru, &obj->lru))
			continue;
		c->objs[m][i] = NULL;
		list_add_tail(&obj->lru, &gone);
		deleted++;
	}
	rl_ranges(&gone, ranges, sizeof(ranges));
	rl_trace("del %s memcg=%s -> %d deleted: %s, count %lu", c->name, rl_memcg_names[m],
		 deleted, ranges,
		 list_lru_count_one(&c->lru, 0, c->memcg_aware ? rl_memcgs[m] : NULL));
	rl_dispose(c, &gone);
}

/* What is left on cache c's lists, deleted and freed, at unmount. */
static void rl_drain(struct rl_cache *c)
{
	char ranges[RL_RANGES];
	LIST_HEAD(gone);
	int m, i, deleted = 0;

	for (m = 0; m < RL_NR_MEMCGS; m++)
		for (i = 0; i < RL_MAX_OBJS; i++) {
			struct rl_obj *obj = c->objs[m][i];

			if (!obj)
				continue;
			if (rl_list_lru_del(&c->lru, &obj->lru))
				deleted++;
			c->objs[m][i] = NULL;
			list_add_tail(&obj->lru, &gone);
		}
	rl_ranges(&gone, ranges, sizeof(ranges));
	rl_trace("drain %s -> %d deleted: %s", c->name, deleted, ranges);
	rl_dispose(c, &gone);
}

static void rl_counts(void)
{
	int i, m;

	for (i = 0; i < RL_NR_CACHES; i++)
		for (m = 0; m < (rl_caches[i].memcg_aware ? RL_NR_MEMCGS : 1); m++)
			if (rl_memcgs[m])
				rl_trace("list_lru_count_one %s memcg=%s -> %lu", rl_caches[i].name,
					 rl_memcg_names[m],
					 list_lru_count_one(&rl_caches[i].lru, 0,
							    rl_caches[i].memcg_aware ? rl_memcgs[m] : NULL));
}

/*
 * The scenario: memcgs root -> A -> A/B; two memcg-aware caches (a
 * super_block's inode and dentry LRUs) and a global one; objects in each
 * memcg; an eviction; reclaim of each memcg at priorities 12, 8, 4; A/B
 * taken offline (its lists and bits move to A); reclaim at priority 0
 * until the lists are empty and SHRINK_EMPTY clears the bits; then once
 * more, when shrink_slab_memcg() must skip A; a new object in A sets its
 * bit again; unmount. Returns 0 or -errno.
 */
static int rl_run(void)
{
	static const int priorities[] = { 12, 8, 4 };
	int i, m, p, err = -ENOMEM;

	rl_memcgs[0] = RL_ROOT;
	rl_memcgs[1] = rl_memcg_create(rl_memcgs[0], "A");
	if (!rl_memcgs[1])
		return -ENOMEM;
	rl_memcgs[2] = rl_memcg_create(rl_memcgs[1], "A/B");
	if (!rl_memcgs[2])
		goto out_memcgs;
	rl_trace("memcgs root A A/B online");

	for (i = 0; i < RL_NR_CACHES; i++) {
		struct rl_cache *c = &rl_caches[i];

		memset(c->objs, 0, sizeof(c->objs));
		memset(c->next_id, 0, sizeof(c->next_id));
		c->shrinker = rl_shrinker_alloc(c->memcg_aware ? SHRINKER_MEMCG_AWARE | SHRINKER_NUMA_AWARE : 0,
						c->name);
		if (!c->shrinker)
			goto out_caches;
		if (c->memcg_aware ? list_lru_init_memcg(&c->lru, c->shrinker) : list_lru_init(&c->lru)) {
			rl_shrinker_free(c->shrinker);
			c->shrinker = NULL;
			goto out_caches;
		}
		rl_shrinker_register(c->shrinker, rl_count, rl_scan, c);
		rl_trace("shrinker_register %s memcg_aware=%d", c->name, c->memcg_aware);
	}

	if (rl_add(&rl_caches[0], 0, 150) || rl_add(&rl_caches[0], 1, 300) ||
	    rl_add(&rl_caches[0], 2, 100) || rl_add(&rl_caches[1], 1, 20) ||
	    rl_add(&rl_caches[1], 2, 50) || rl_add(&rl_caches[2], 0, 200))
		goto out_caches;
	rl_del(&rl_caches[0], 1, 0, 10);
	rl_del(&rl_caches[1], 1, 5, 3);
	rl_bits(1);
	rl_bits(2);

	for (p = 0; p < ARRAY_SIZE(priorities); p++)
		for (m = 0; m < RL_NR_MEMCGS; m++)
			rl_reclaim(m, priorities[p]);
	rl_counts();

	rl_memcg_offline(rl_memcgs[2]);
	rl_trace("offline A/B");
	rl_bits(1);
	rl_counts();

	for (p = 0; p < 3; p++)
		for (m = 0; m < 2; m++)
			rl_reclaim(m, 0);
	rl_counts();

	/* An object on an empty list sets the cleared bit again; unmount frees it. */
	if (rl_add(&rl_caches[0], 1, 5))
		goto out_caches;
	rl_bits(1);
	err = 0;

out_caches:
	for (i = 0; i < RL_NR_CACHES; i++) {
		struct rl_cache *c = &rl_caches[i];

		if (!c->shrinker)
			continue;
		rl_shrinker_free(c->shrinker);
		c->shrinker = NULL;
		rl_drain(c);
		list_lru_destroy(&c->lru);
		rl_trace("shrinker_free %s", c->name);
	}
	rl_memcg_release(rl_memcgs[2]);
out_memcgs:
	rl_memcg_release(rl_memcgs[1]);
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_SEQ_BODY_H */
