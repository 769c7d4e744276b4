/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-lru": 6.12's folio LRU, one step after another on one
 * CPU, for the kernel to referee. Compiled twice: by
 * wasm/scenarios/kunit_lru.c in the simulation, over the code of
 * mm/swap.c, mm/vmscan.c, mm/memcontrol.c and mm_inline.h extracted from
 * the branch (wasm/glue/lru/), and by kernel-tree/kunit/reclaim_lab_kunit.c
 * inside User-Mode Linux, over the kernel's own.
 *
 * Forty folios charged to a memcg of their own (its lruvec holds no one
 * else's), the first half swap-backed (the anon lists), the rest not (the
 * file lists): folio_add_lru() of each, through this CPU's lru_add batch
 * (PAGEVEC_SIZE folios, then folio_batch_move_lru() under lru_lock);
 * lru_add_drain(); folio_mark_accessed() (activation through the
 * lru_activate batch: at once in UML, which is not SMP, so the lists are
 * printed only after the next drain); folio_isolate_lru() and
 * folio_putback_lru(); folio_deactivate(); shrink_inactive_list() of
 * each inactive list, as a memcg's reclaim calls it (the folios are
 * mapped by nothing and have no mapping: each passes shrink_folio_list()'s
 * tests and is kept, then goes back through move_folios_to_lru()); then
 * release_pages() of part of them and of the rest. After each step each
 * list head first, by the folios' numbers, with its size as
 * mem_cgroup_update_lru_size() keeps it, and each folio's LRU flags and
 * reference count.
 *
 * The harness defines, before including this file:
 *   rl_trace(fmt, ...)                   print one trace line
 *   RL_ROOT                              the root memcg
 *   rl_memcg_create(parent, name)        a memcg, online
 *   rl_memcg_release(memcg)              drop it for good
 *   rl_folio_alloc()                     an order-0 folio (GFP_KERNEL)
 *   rl_lru_shrink_inactive_list(lruvec, lru, nr, scanned)
 *                                        mm/vmscan.c's shrink_inactive_list()
 *                                        (kunit_lru_vmscan.h); *scanned: sc->nr_scanned
 */
#ifndef RECLAIM_LAB_KUNIT_LRU_BODY_H
#define RECLAIM_LAB_KUNIT_LRU_BODY_H

#define RL_LRU_FOLIOS 40
#define RL_LRU_ANON 20		/* folios 0..19 swap-backed */
#define RL_LRU_LINE 480

/* kunit_lru_vmscan.h, compiled in mm/vmscan.c */
unsigned long rl_lru_shrink_inactive_list(struct lruvec *lruvec, enum lru_list lru,
					  unsigned long nr_to_scan, unsigned long *scanned);

/* The lists whole: lru_lock, and every batch lock in a kernel with the RFC's (lru_lock_all()) */
#ifdef NUM_LRU_BATCH_LOCKS
#define rl_lru_lock_lists(lruvec)	lru_lock_all_irq(lruvec)
#define rl_lru_unlock_lists(lruvec)	lru_unlock_all_irq(lruvec)
#else
#define rl_lru_lock_lists(lruvec)	spin_lock_irq(&(lruvec)->lru_lock)
#define rl_lru_unlock_lists(lruvec)	spin_unlock_irq(&(lruvec)->lru_lock)
#endif

static struct folio *rl_lru_folios[RL_LRU_FOLIOS];
static struct lruvec *rl_lru_lruvec;

static const char *const rl_lru_names[NR_LRU_LISTS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

static int rl_lru_index(struct folio *folio)
{
	int i;

	for (i = 0; i < RL_LRU_FOLIOS; i++)
		if (rl_lru_folios[i] == folio)
			return i;
	return -1;
}

/* The list's size in pages, summed over the zones, as reclaim reads it (lruvec_lru_size()). */
static unsigned long rl_lru_size(enum lru_list lru)
{
	unsigned long size = 0;
	int zid;

	for (zid = 0; zid < MAX_NR_ZONES; zid++)
		size += mem_cgroup_get_zone_lru_size(rl_lru_lruvec, lru, zid);
	return size;
}

/* Each evictable list head first, then each live folio's flags and references. */
static void rl_lru_print(const char *what)
{
	char line[RL_LRU_LINE];
	enum lru_list lru;
	int i;

	rl_trace("lru after %s:", what);
	for (lru = LRU_INACTIVE_ANON; lru <= LRU_ACTIVE_FILE; lru++) {
		struct folio *folio;
		int len = snprintf(line, sizeof(line), "%s (%lu):", rl_lru_names[lru], rl_lru_size(lru));

		rl_lru_lock_lists(rl_lru_lruvec);
		list_for_each_entry(folio, &rl_lru_lruvec->lists[lru], lru) {
			i = rl_lru_index(folio);
			if (len < (int)sizeof(line) - 8)
				len += i >= 0 ? snprintf(line + len, sizeof(line) - len, " %d", i) :
						snprintf(line + len, sizeof(line) - len, " ?");
		}
		rl_lru_unlock_lists(rl_lru_lruvec);
		rl_trace("%s", line);
	}
	/* L on an LRU list, A active, R referenced, S swap-backed, U unevictable; then the refcount */
	line[0] = '\0';
	for (i = 0, *line = 0; i < RL_LRU_FOLIOS; i++) {
		struct folio *folio = rl_lru_folios[i];
		int len = strlen(line);

		if (!folio)
			continue;
		snprintf(line + len, sizeof(line) - len, "%s%d:%s%s%s%s%s%d", len ? " " : "", i,
			 folio_test_lru(folio) ? "L" : "", folio_test_active(folio) ? "A" : "",
			 folio_test_referenced(folio) ? "R" : "", folio_test_swapbacked(folio) ? "S" : "",
			 folio_test_unevictable(folio) ? "U" : "", folio_ref_count(folio));
		if (i == RL_LRU_FOLIOS / 2 - 1 || i == RL_LRU_FOLIOS - 1) {
			rl_trace("folios %s", line);
			line[0] = '\0';
		}
	}
	if (line[0])
		rl_trace("folios %s", line);
}

/* release_pages() of folios first..last: the references the test holds, their last. */
static void rl_lru_release(int first, int last)
{
	struct folio *batch[RL_LRU_FOLIOS];
	int i, n = 0;

	for (i = first; i <= last; i++) {
		batch[n++] = rl_lru_folios[i];
		rl_lru_folios[i] = NULL;
	}
	release_pages(batch, n);
	rl_trace("release_pages %d-%d (%d folios)", first, last, n);
}

static int rl_lru_run(void)
{
	struct mem_cgroup *memcg, *old;
	unsigned long reclaimed, scanned;
	int i, err = -ENOMEM;

	rl_trace("scenario kunit-lru");
	memcg = rl_memcg_create(RL_ROOT, "lru");
	if (!memcg)
		goto out;
	rl_lru_lruvec = mem_cgroup_lruvec(memcg, NODE_DATA(0));
	/* this CPU's batches empty, so the drains below fall where the body says */
	lru_add_drain();

	old = set_active_memcg(memcg);
	for (i = 0; i < RL_LRU_FOLIOS; i++) {
		struct folio *folio = rl_folio_alloc();

		if (!folio)
			break;
		if (mem_cgroup_charge(folio, NULL, GFP_KERNEL)) {
			folio_put(folio);
			break;
		}
		if (i < RL_LRU_ANON)
			__folio_set_swapbacked(folio);
		rl_lru_folios[i] = folio;
	}
	set_active_memcg(old);
	if (i < RL_LRU_FOLIOS)
		goto release;
	rl_trace("alloc %d folios, charged to lru; 0-%d swap-backed", RL_LRU_FOLIOS, RL_LRU_ANON - 1);

	/* page_fault1's way in: each folio onto this CPU's lru_add batch */
	for (i = 0; i < RL_LRU_FOLIOS; i++)
		folio_add_lru(rl_lru_folios[i]);
	rl_trace("folio_add_lru 0-%d (a batch holds %d)", RL_LRU_FOLIOS - 1, PAGEVEC_SIZE);
	rl_lru_print("folio_add_lru");
	lru_add_drain();
	rl_trace("lru_add_drain");
	rl_lru_print("lru_add_drain");

	/* twice: referenced, then active (through the lru_activate batch) */
	folio_mark_accessed(rl_lru_folios[5]);
	folio_mark_accessed(rl_lru_folios[5]);
	folio_mark_accessed(rl_lru_folios[25]);
	folio_mark_accessed(rl_lru_folios[25]);
	folio_mark_accessed(rl_lru_folios[26]);
	lru_add_drain();
	rl_trace("folio_mark_accessed 5 and 25 twice, 26 once; lru_add_drain");
	rl_lru_print("folio_mark_accessed");

	rl_trace("folio_isolate_lru 10 -> %d, 22 -> %d", folio_isolate_lru(rl_lru_folios[10]),
		 folio_isolate_lru(rl_lru_folios[22]));
	rl_lru_print("folio_isolate_lru");
	folio_putback_lru(rl_lru_folios[22]);
	folio_putback_lru(rl_lru_folios[10]);
	lru_add_drain();
	rl_trace("folio_putback_lru 22, 10; lru_add_drain");
	rl_lru_print("folio_putback_lru");

	folio_deactivate(rl_lru_folios[5]);
	lru_add_drain();
	rl_trace("folio_deactivate 5; lru_add_drain");
	rl_lru_print("folio_deactivate");

	reclaimed = rl_lru_shrink_inactive_list(rl_lru_lruvec, LRU_INACTIVE_FILE, 8, &scanned);
	rl_trace("shrink_inactive_list inactive_file, nr_to_scan 8 -> %lu reclaimed, %lu scanned",
		 reclaimed, scanned);
	rl_lru_print("shrink_inactive_list");
	reclaimed = rl_lru_shrink_inactive_list(rl_lru_lruvec, LRU_INACTIVE_ANON, 4, &scanned);
	rl_trace("shrink_inactive_list inactive_anon, nr_to_scan 4 -> %lu reclaimed, %lu scanned",
		 reclaimed, scanned);
	rl_lru_print("shrink_inactive_list");
	err = 0;
release:
	/* the last references: off the LRU (__page_cache_release()), uncharged and freed */
	for (i = 0; i < RL_LRU_FOLIOS && !rl_lru_folios[i]; i++)
		;
	if (i < RL_LRU_FOLIOS && rl_lru_folios[0] && rl_lru_folios[RL_LRU_FOLIOS - 1]) {
		rl_lru_release(0, 11);
		rl_lru_print("release_pages");
		rl_lru_release(12, RL_LRU_FOLIOS - 1);
		rl_lru_print("release_pages");
	} else {
		for (i = 0; i < RL_LRU_FOLIOS; i++)
			if (rl_lru_folios[i])
				rl_lru_release(i, i);
	}
	rl_memcg_release(memcg);
out:
	rl_lru_lruvec = NULL;
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_LRU_BODY_H */
