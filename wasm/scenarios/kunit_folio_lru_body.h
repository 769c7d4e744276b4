/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The folio LRU, one step after another, over the kernel's own code
 * (mm/swap.c, mm/vmscan.c, include/linux/mm_inline.h): folios of a memcg
 * of their own (so that its lruvec holds nothing else) added through the
 * per-CPU batch, drained, isolated and put back, activated, rotated to the
 * tail, deactivated, scanned by memcg reclaim and released in a batch.
 * After each step every list of the lruvec is printed from head to tail,
 * by folio name, with its LRU size; on a kernel with the project's port of
 * the 2018 lru_lock RFC (NUM_LRU_BATCH_LOCKS), each folio's sentinel bit
 * and the batches open at either end too, and rl_fl_check() checks the
 * batch invariants (mm_inline.h) under lru_lock_all().
 *
 * Tags are random (get_random_u32_below()), so the trace never prints
 * them: it prints what the rules make of them, which the checks verify.
 *
 * The harness provides rl_trace(), rl_memcg_create(), rl_memcg_release(),
 * rl_fl_folio_alloc(memcg, anon) (an order-0 folio charged to memcg, with
 * a reference) and RL_ROOT.
 */
#ifndef RECLAIM_LAB_KUNIT_FOLIO_LRU_BODY_H
#define RECLAIM_LAB_KUNIT_FOLIO_LRU_BODY_H

#ifdef NUM_LRU_BATCH_LOCKS
#define RL_FL_PORT		1
#define rl_fl_lock(lruvec)	lru_lock_all_irq(lruvec)
#define rl_fl_unlock(lruvec)	lru_unlock_all_irq(lruvec)
#else
#define rl_fl_lock(lruvec)	spin_lock_irq(&(lruvec)->lru_lock)
#define rl_fl_unlock(lruvec)	spin_unlock_irq(&(lruvec)->lru_lock)
#endif

#define RL_FL_WALK_FOLIOS	40

static const char *const rl_fl_names[NR_LRU_LISTS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

struct rl_fl {
	struct mem_cgroup *memcg;
	struct lruvec *lruvec;
	struct folio **folios;	/* the scenario's own, by index: its name */
	int nr;
	int errors;
	unsigned long checks;
};

static int rl_fl_index(struct rl_fl *t, struct folio *folio)
{
	int i;

	for (i = 0; i < t->nr; i++)
		if (t->folios[i] == folio)
			return i;
	return -1;
}

static void rl_fl_fail(struct rl_fl *t, const char *what, struct folio *folio,
			enum lru_list lru)
{
	if (t->errors++ < 10)
		rl_trace("FAIL %s: f%d on %s", what, rl_fl_index(t, folio), rl_fl_names[lru]);
}

static unsigned long rl_fl_size(struct lruvec *lruvec, enum lru_list lru)
{
	unsigned long size = 0;
	int zid;

	for (zid = 0; zid < MAX_NR_ZONES; zid++)
		size += mem_cgroup_get_zone_lru_size(lruvec, lru, zid);
	return size;
}

#ifdef RL_FL_PORT
/* Neighbour of folio on list lru, or NULL for the list head */
static struct folio *rl_fl_neighbour(struct lruvec *lruvec, enum lru_list lru,
				      struct list_head *entry)
{
	return entry == &lruvec->lists[lru] ? NULL : list_entry(entry, struct folio, lru);
}

static bool rl_fl_edge(struct folio *folio)
{
	return !folio || folio_lru_sentinel(folio);
}

/*
 * The open batch at one end of a list: from that end to end->far every
 * folio is a sentinel of end->tag, and fewer than LRU_BATCH_MAX have joined.
 */
static void rl_fl_check_end(struct rl_fl *t, enum lru_list lru, struct lru_batch_end *end,
			     bool tail)
{
	struct list_head *head = &t->lruvec->lists[lru], *pos;
	int n = 0;

	if (end->nr >= LRU_BATCH_MAX)
		rl_fl_fail(t, "open batch over LRU_BATCH_MAX", NULL, lru);
	if (!end->far)
		return;
	for (pos = tail ? head->prev : head->next; pos != head;
	     pos = tail ? pos->prev : pos->next) {
		struct folio *folio = list_entry(pos, struct folio, lru);

		n++;
		if (!folio_lru_sentinel(folio) || folio_lru_batch(folio) != end->tag)
			rl_fl_fail(t, "open batch folio not a sentinel of its tag", folio, lru);
		if (folio == end->far)
			break;
	}
	if (pos == head || n > end->nr)
		rl_fl_fail(t, "open batch's far folio not within it", end->far, lru);
}
#endif

/* Under the lruvec's locks: each list's folios, flags, size and batches. */
static void rl_fl_check(struct rl_fl *t)
{
	enum lru_list lru;

	t->checks++;
	for_each_evictable_lru(lru) {
		struct list_head *head = &t->lruvec->lists[lru];
		unsigned long pages = 0;
		struct folio *folio;

		list_for_each_entry(folio, head, lru) {
			pages += folio_nr_pages(folio);
			if (!folio_test_lru(folio))
				rl_fl_fail(t, "no LRU flag", folio, lru);
			if (folio_lru_list(folio) != lru)
				rl_fl_fail(t, "on the wrong list", folio, lru);
#ifdef RL_FL_PORT
			{
				struct folio *prev = rl_fl_neighbour(t->lruvec, lru, folio->lru.prev);
				struct folio *next = rl_fl_neighbour(t->lruvec, lru, folio->lru.next);
				unsigned int tag = folio_lru_batch(folio);

				/* not a sentinel: both neighbours of its own batch */
				if (!folio_lru_sentinel(folio) &&
				    (!prev || !next || folio_lru_batch(prev) != tag ||
				     folio_lru_batch(next) != tag))
					rl_fl_fail(t, "inner folio beside another batch", folio, lru);
				/* a sentinel: a sentinel or the list head beside it */
				if (folio_lru_sentinel(folio) && !rl_fl_edge(prev) && !rl_fl_edge(next))
					rl_fl_fail(t, "sentinel between inner folios", folio, lru);
			}
#endif
		}
		if (pages != rl_fl_size(t->lruvec, lru))
			rl_fl_fail(t, "LRU size differs from the list", NULL, lru);
#ifdef RL_FL_PORT
		rl_fl_check_end(t, lru, &t->lruvec->batches[lru].head, false);
		rl_fl_check_end(t, lru, &t->lruvec->batches[lru].tail, true);
#endif
	}
}

#ifdef RL_FL_PORT
/* An open batch: how many have joined it, and its far folio ("-": none left) */
static int rl_fl_print_end(struct rl_fl *t, char *buf, size_t size, struct lru_batch_end *end)
{
	if (!end->far)
		return scnprintf(buf, size, " %u joined, -", end->nr);
	return scnprintf(buf, size, " %u joined, to f%d", end->nr, rl_fl_index(t, end->far));
}
#endif

/* Each non-empty list, head first: "fN" ("fN*" a sentinel), open batches, size. */
static void rl_fl_print(struct rl_fl *t, const char *step)
{
	static char buf[NR_LRU_LISTS][1024];
	unsigned long size[NR_LRU_LISTS];
	enum lru_list lru;
	bool empty = true;

	rl_fl_lock(t->lruvec);
	rl_fl_check(t);
	for_each_evictable_lru(lru) {
		struct folio *folio;
		int len = 0, n = 0, sentinels = 0;

		buf[lru][0] = '\0';
		list_for_each_entry(folio, &t->lruvec->lists[lru], lru) {
			int i = rl_fl_index(t, folio);

#ifdef RL_FL_PORT
			sentinels += folio_lru_sentinel(folio);
#endif
			/* long lists: their counts only */
			if (++n > RL_FL_WALK_FOLIOS)
				continue;

			len += scnprintf(buf[lru] + len, sizeof(buf[lru]) - len, " %s%d%s",
					 i < 0 ? "?" : "f", i,
#ifdef RL_FL_PORT
					 folio_lru_sentinel(folio) ? "*" : ""
#else
					 ""
#endif
					 );
		}
		if (n > RL_FL_WALK_FOLIOS)
			len = scnprintf(buf[lru], sizeof(buf[lru]), " %d folios, %d sentinels",
					n, sentinels);
#ifdef RL_FL_PORT
		if (n <= RL_FL_WALK_FOLIOS) {
			struct lru_batch_list *b = &t->lruvec->batches[lru];

			len += scnprintf(buf[lru] + len, sizeof(buf[lru]) - len, " | open: head");
			len += rl_fl_print_end(t, buf[lru] + len, sizeof(buf[lru]) - len, &b->head);
			len += scnprintf(buf[lru] + len, sizeof(buf[lru]) - len, ", tail");
			len += rl_fl_print_end(t, buf[lru] + len, sizeof(buf[lru]) - len, &b->tail);
		}
#endif
		size[lru] = rl_fl_size(t->lruvec, lru);
	}
	rl_fl_unlock(t->lruvec);

	rl_trace("%s", step);
	for_each_evictable_lru(lru) {
		if (!size[lru] && list_empty(&t->lruvec->lists[lru]))
			continue;
		rl_trace("  %s size %lu:%s", rl_fl_names[lru], size[lru], buf[lru]);
		empty = false;
	}
	if (empty)
		rl_trace("  every list empty");
}

static int rl_fl_setup(struct rl_fl *t, struct folio **folios, int nr, bool anon)
{
	int i;

	t->memcg = rl_memcg_create(RL_ROOT, "lru");
	if (!t->memcg)
		return -ENOMEM;
	t->folios = folios;
	for (i = 0; i < nr; i++) {
		folios[i] = rl_fl_folio_alloc(t->memcg, anon);
		if (!folios[i])
			return -ENOMEM;
		t->nr = i + 1;
	}
	t->lruvec = folio_lruvec(folios[0]);
	return 0;
}

/* ---- the steps, one after another ------------------------------------- */

static int rl_fl_walk_run(void)
{
	static struct folio *f[RL_FL_WALK_FOLIOS];
	struct rl_fl t = { };
	unsigned long reclaimed;
	int i, err;

	err = rl_fl_setup(&t, f, RL_FL_WALK_FOLIOS, false);
	if (err)
		goto out;

	for (i = 0; i < PAGEVEC_SIZE - 1; i++)
		folio_add_lru(f[i]);
	rl_fl_print(&t, "folio_add_lru() f0..f29: in this CPU's lru_add batch");
	folio_add_lru(f[PAGEVEC_SIZE - 1]);
	rl_fl_print(&t, "folio_add_lru() f30: the batch full, moved to the list");
#ifdef RL_FL_PORT
	rl_fl_lock(t.lruvec);
	/* the batch that opens takes another tag than the one just closed */
	if (t.lruvec->batches[LRU_INACTIVE_FILE].head.tag == folio_lru_batch(f[30]))
		rl_fl_fail(&t, "new batch took the closed batch's tag", f[30], LRU_INACTIVE_FILE);
	rl_fl_unlock(t.lruvec);
#endif
	for (i = PAGEVEC_SIZE; i < RL_FL_WALK_FOLIOS; i++)
		folio_add_lru(f[i]);
	lru_add_drain();
	rl_fl_print(&t, "folio_add_lru() f31..f39, lru_add_drain()");

	if (!folio_isolate_lru(f[15]))
		rl_trace("FAIL folio_isolate_lru(f15)");
	rl_fl_print(&t, "folio_isolate_lru() f15");
	if (!folio_isolate_lru(f[30]))
		rl_trace("FAIL folio_isolate_lru(f30)");
	rl_fl_print(&t, "folio_isolate_lru() f30");
	folio_putback_lru(f[15]);
	folio_putback_lru(f[30]);
	lru_add_drain();
	rl_fl_print(&t, "folio_putback_lru() f15, f30, lru_add_drain()");

	folio_activate(f[5]);
	folio_activate(f[6]);
	lru_add_drain();
	rl_fl_print(&t, "folio_activate() f5, f6, lru_add_drain()");

	for (i = 0; i < 4; i++)
		folio_rotate_reclaimable(f[i]);
	lru_add_drain();
	rl_fl_print(&t, "folio_rotate_reclaimable() f0..f3, lru_add_drain()");

	deactivate_file_folio(f[6]);
	lru_add_drain();
	rl_fl_print(&t, "deactivate_file_folio() f6, lru_add_drain()");

	reclaimed = try_to_free_mem_cgroup_pages(t.memcg, 8, GFP_KERNEL,
						 MEMCG_RECLAIM_MAY_SWAP, NULL);
	rl_trace("try_to_free_mem_cgroup_pages(8): %lu reclaimed (each folio has a reference)",
		 reclaimed);
	rl_fl_print(&t, "after memcg reclaim");

	release_pages(f, RL_FL_WALK_FOLIOS);
	t.nr = 0;
	rl_fl_print(&t, "release_pages() of all 40");
out:
	rl_memcg_release(t.memcg);
	if (t.errors)
		rl_trace("%d check(s) failed", t.errors);
	return err ? err : t.errors ? -EINVAL : 0;
}

/* ---- thousands of folios, at random, checked as they go -------------- */

#define RL_FL_POOL		512
#define RL_FL_OPS		50000

static u64 rl_fl_rand(u64 *state)
{
	/* splitmix64: the same sequence in every harness */
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

enum { RL_FL_OP_ADD, RL_FL_OP_ISOLATE, RL_FL_OP_ACTIVATE, RL_FL_OP_DEACTIVATE, RL_FL_OP_ROTATE,
       RL_FL_OP_PUT, RL_FL_OP_RELEASE, RL_FL_OP_DRAIN, RL_FL_OP_RECLAIM, RL_FL_NR_OPS };

static const char *const rl_fl_op_names[RL_FL_NR_OPS] = {
	"add", "isolate+putback", "activate", "deactivate", "rotate", "put",
	"release_pages", "drain", "reclaim",
};

static int rl_fl_stress_run(void)
{
	static struct folio *f[RL_FL_POOL], *batch[64];
	unsigned long count[RL_FL_NR_OPS] = { }, allocated = 0;
	struct rl_fl t = { };
	u64 seed = 1;
	int i, op, nr_batch, err = 0;

	t.memcg = rl_memcg_create(RL_ROOT, "lru");
	if (!t.memcg)
		return -ENOMEM;
	t.lruvec = mem_cgroup_lruvec(t.memcg, NODE_DATA(0));
	t.folios = f;
	t.nr = RL_FL_POOL;
	for (i = 0; i < RL_FL_OPS; i++) {
		u64 r = rl_fl_rand(&seed);
		int slot = r % RL_FL_POOL, k;
		struct folio *folio;

		if (i % 256 == 0) {
			lru_add_drain();
			rl_fl_lock(t.lruvec);
			rl_fl_check(&t);
			rl_fl_unlock(t.lruvec);
		}

		op = (r >> 16) % 100;
		/* mostly adds and releases, as a fault-and-unmap workload does */
		op = op < 40 ? RL_FL_OP_ADD : op < 50 ? RL_FL_OP_ISOLATE : op < 58 ? RL_FL_OP_ACTIVATE :
		     op < 63 ? RL_FL_OP_DEACTIVATE : op < 68 ? RL_FL_OP_ROTATE : op < 80 ? RL_FL_OP_PUT :
		     op < 96 ? RL_FL_OP_RELEASE : op < 99 ? RL_FL_OP_DRAIN : RL_FL_OP_RECLAIM;
		/* an add takes an empty slot; the rest the next live folio from here */
		for (k = 0; op != RL_FL_OP_ADD && !f[slot] && k < RL_FL_POOL; k++)
			slot = (slot + 1) % RL_FL_POOL;
		folio = f[slot];
		switch (op) {
		case RL_FL_OP_ADD:
			if (folio)
				continue;
			folio = rl_fl_folio_alloc(t.memcg, r & (1 << 8));
			if (!folio) {
				err = -ENOMEM;
				goto out;
			}
			f[slot] = folio;
			allocated++;
			folio_add_lru(folio);
			break;
		case RL_FL_OP_ISOLATE:
			if (!folio || !folio_isolate_lru(folio))
				continue;
			folio_putback_lru(folio);
			break;
		case RL_FL_OP_ACTIVATE:
			if (!folio)
				continue;
			folio_activate(folio);
			break;
		case RL_FL_OP_DEACTIVATE:
			if (!folio)
				continue;
			folio_deactivate(folio);
			break;
		case RL_FL_OP_ROTATE:
			if (!folio)
				continue;
			folio_rotate_reclaimable(folio);
			break;
		case RL_FL_OP_PUT:
			if (!folio)
				continue;
			f[slot] = NULL;
			folio_put(folio);
			break;
		case RL_FL_OP_RELEASE:
			/* up to 64 folios from here on, in pool order */
			for (nr_batch = 0; slot < RL_FL_POOL && nr_batch < 64; slot++) {
				if (f[slot]) {
					batch[nr_batch++] = f[slot];
					f[slot] = NULL;
				}
			}
			if (!nr_batch)
				continue;
			release_pages(batch, nr_batch);
			break;
		case RL_FL_OP_DRAIN:
			lru_add_drain();
			break;
		case RL_FL_OP_RECLAIM:
			try_to_free_mem_cgroup_pages(t.memcg, 32, GFP_KERNEL,
						     MEMCG_RECLAIM_MAY_SWAP, NULL);
			break;
		}
		count[op]++;
	}
	for (op = 0; op < RL_FL_NR_OPS; op++)
		rl_trace("stress: %s %lu", rl_fl_op_names[op], count[op]);
	rl_trace("stress: %lu folios allocated, %d ops, %lu checks of every list",
		 allocated, RL_FL_OPS, t.checks);
	rl_trace("stress: %d check(s) failed", t.errors);
	lru_add_drain();
	rl_fl_print(&t, "stress: before the last release");
out:
	for (nr_batch = 0, i = 0; i < RL_FL_POOL; i++) {
		if (f[i])
			batch[nr_batch++] = f[i];
		f[i] = NULL;
		if (nr_batch == ARRAY_SIZE(batch) || (i == RL_FL_POOL - 1 && nr_batch)) {
			release_pages(batch, nr_batch);
			nr_batch = 0;
		}
	}
	rl_fl_print(&t, "stress: after");
	rl_memcg_release(t.memcg);
	if (t.errors)
		rl_trace("%d check(s) failed", t.errors);
	return err ? err : t.errors ? -EINVAL : 0;
}

/* ---- the RFC's 537 pages ---------------------------------------------- */

#define RL_FL_RFC_PAGES	537

/*
 * release_pages() of 537 folios on the LRU, the count at which the RFC's
 * 512-bit bitmap overflowed (its VM_BUG_ON()): 6.12's release_pages()
 * hands folios_put_refs() a folio_batch at a time, PAGEVEC_SIZE at most.
 */
static int rl_fl_rfc537_run(void)
{
	static struct folio *f[RL_FL_RFC_PAGES];
	struct rl_fl t = { };
	int err, i;

	err = rl_fl_setup(&t, f, RL_FL_RFC_PAGES, true);
	if (err)
		goto out;
	for (i = 0; i < RL_FL_RFC_PAGES; i++)
		folio_add_lru(f[i]);
	lru_add_drain();
#ifdef RL_FL_PORT
	int sentinels = 0;

	for (i = 0; i < RL_FL_RFC_PAGES; i++)
		sentinels += folio_lru_sentinel(f[i]);
	rl_trace("rfc537: %d folios on inactive_anon, %d of them sentinels",
		 RL_FL_RFC_PAGES, sentinels);
#endif
	rl_trace("rfc537: inactive_anon size %lu", rl_fl_size(t.lruvec, LRU_INACTIVE_ANON));
	release_pages(f, RL_FL_RFC_PAGES);
	t.nr = 0;
	rl_trace("rfc537: release_pages(%d) in folio_batches of %d: inactive_anon size %lu",
		 RL_FL_RFC_PAGES, PAGEVEC_SIZE, rl_fl_size(t.lruvec, LRU_INACTIVE_ANON));
	rl_fl_print(&t, "rfc537: after");
out:
	rl_memcg_release(t.memcg);
	return err ? err : t.errors ? -EINVAL : 0;
}

#endif /* RECLAIM_LAB_KUNIT_FOLIO_LRU_BODY_H */
