// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "lru-batch": will-it-scale's page_fault1 on N simulated CPUs,
 * over the kernel's own folio LRU (wasm/glue/lru/: mm/swap.c,
 * mm/vmscan.c, mm/memcontrol.c of the branch). Each task maps a region,
 * touches every page of it, a fault each, and unmaps it, again and again,
 * in a memcg of the test's own, so every folio is on one lruvec and its
 * one lru_lock.
 *
 * A fault is do_anonymous_page()'s part that the LRU sees: a folio from
 * the page allocator, charged to the memcg (mem_cgroup_charge()), made
 * anonymous and mapped once (folio_add_new_anon_rmap(): swap-backed,
 * mapcount 0), then folio_add_lru_vma() -> folio_add_lru(), the real one,
 * onto this CPU's lru_add batch; a full batch goes onto the LRU under
 * lru_lock (folio_batch_move_lru()). munmap() is zap_pte_range()'s rmap
 * removal of each page, then the mmu_gather's frees:
 * free_pages_and_swap_cache() (mm/swap_state.c, the real one: this CPU's
 * batches drained, then folios_put_refs() of PAGEVEC_SIZE folios at a
 * time, each batch off the LRU under lru_lock) for at most
 * MAX_NR_FOLIOS_PER_FREE (512, mm/mmu_gather.c) pages at once, or for all
 * of them at once (params.lru_release_all).
 *
 * Cost model, besides the runtime's (wasm/runtime/costs.c: a spin_lock
 * 20 ns, a list link 6 ns...): a fault's own work (zeroing the page,
 * the page table) FAULT_NS, an unmapped page's MUNMAP_NS, both stand-ins.
 * params.slow_ns and params.munmap_ns, when given, replace them.
 *
 * Each fault is a CALL/RETURN "fault", each mmu_gather free a
 * "release_pages", so the run's statistics count faults and their virtual
 * time; faults per virtual second, measured with params.stress (no
 * checks), is the figure. Watching, the first task checks its lruvec's
 * lists once a round under lru_lock (every lock of the lruvec,
 * lru_lock_all(), in a kernel with the RFC's batch locks), and the init
 * task at the end.
 *
 * With params.lru_isolate, one more CPU runs compaction's migrate
 * scanner (migrate_scanner() below): folio_isolate_lru() and
 * folio_putback_lru() of folios it reaches by pfn, as the RFC's splicing
 * had to allow for.
 *
 * The kernel is the variant's: v6.12 itself (one lru_lock per lruvec),
 * or the project's port of the RFC on it (batch locks; batch locks and
 * splicing). A kernel with batch locks names them for the view.
 */
#include "../glue/lru/lru.h"
#include <linux/completion.h>
#include "scenario.h"
#include "../glue/glue.h"

#define FAULT_NS 400
#define MUNMAP_NS 100
#define MAX_NR_FOLIOS_PER_FREE 512	/* mm/mmu_gather.c: release_pages() of at most this many */
#define DEFAULT_PAGES 64
#define DEFAULT_ROUNDS 3
#define MAX_TASKS RUN_PARAM_MAX_TASKS	/* a CPU each: at most SIM_MAX_CPUS */
#define DEFAULT_TASKS 4

static struct scenario_params params;
static struct mem_cgroup *memcg;
static struct lruvec *lruvec;
static struct completion done, faulted;
static int nr_pages, nr_rounds, fault_ns, munmap_ns;

static int nr_tasks(const struct scenario_params *p)
{
	return p->tasks > 0 ? min(p->tasks, MAX_TASKS) : DEFAULT_TASKS;
}

/*
 * A CPU per task: the init task shares CPU 0 with the first, asleep; with
 * lru_isolate, the migrate scanner has the last CPU.
 */
static int lru_batch_cpus(const struct scenario_params *p)
{
	return nr_tasks(p) + !!p->lru_isolate;
}

static const char *refuse(const struct scenario_params *p)
{
	if (p->lru_isolate && nr_tasks(p) == MAX_TASKS)
		return "lru-batch: the migrate scanner takes a CPU of its own: at most 63 tasks with lru-isolate";
	return NULL;
}

/* The whole lruvec, for a walk of its lists: lru_lock, and every batch lock where there are some. */
#ifdef NUM_LRU_BATCH_LOCKS
#define lock_lists(lruvec)	lru_lock_all_irq(lruvec)
#define unlock_lists(lruvec)	lru_unlock_all_irq(lruvec)
#else
#define lock_lists(lruvec)	spin_lock_irq(&(lruvec)->lru_lock)
#define unlock_lists(lruvec)	spin_unlock_irq(&(lruvec)->lru_lock)
#endif

/*
 * FNV-1a over the pfns of the lruvec's inactive anon list, head first
 * (and, where folios have batch tags, over each one's tag and sentinel
 * bit): what a reader of the LRU_ADD, LRU_DEL and LRU_SENTINEL events
 * must arrive at too (the scene's model is checked against it). And the
 * list's length against its size as mem_cgroup_update_lru_size() kept it.
 */
static void check_list(void)
{
	struct list_head *head = &lruvec->lists[LRU_INACTIVE_ANON];
	unsigned int h = 2166136261u;
	unsigned long size;
	struct folio *folio;
	long nr = 0;

	SCENARIO_CALL("check_list", 0, 0, 0);
	lock_lists(lruvec);
	list_for_each_entry(folio, head, lru) {
		h = (h ^ (unsigned int)folio_pfn(folio)) * 16777619u;
#ifdef NUM_LRU_BATCH_LOCKS
		h = (h ^ folio_lru_batch(folio)) * 16777619u;
		h = (h ^ folio_lru_sentinel(folio)) * 16777619u;
#endif
		nr++;
	}
	size = mem_cgroup_get_zone_lru_size(lruvec, LRU_INACTIVE_ANON, ZONE_NORMAL);
	unlock_lists(lruvec);
	/*
	 * The size counts every folio on the list; with the RFC's splicing,
	 * also those a CPU has counted and marked LRU on a list of its own,
	 * not yet spliced on (folio_batch_add_lru() takes lru_lock only to
	 * splice): never fewer.
	 */
#ifdef NUM_LRU_BATCH_LOCKS
	WARN(nr > (long)size, "lru-batch: %ld folios on the inactive anon list, its size says %lu", nr, size);
#else
	WARN(nr != (long)size, "lru-batch: %ld folios on the inactive anon list, its size says %lu", nr, size);
#endif
	pr_info("lru-batch: %ld folios on the list, order hash %08x\n", nr, h);
	SCENARIO_RETURN("check_list", (int)nr);
}

/* do_anonymous_page(), what of it the LRU sees: NULL when memory is all in use. */
static struct folio *fault(void)
{
	struct folio *folio = lab_folio_alloc(GFP_KERNEL, 0);

	if (!folio)
		return NULL;
	if (mem_cgroup_charge(folio, NULL, GFP_KERNEL)) {
		folio_put(folio);
		return NULL;
	}
	/* folio_add_new_anon_rmap(): swap-backed, anonymous, mapped by one pte */
	__folio_set_swapbacked(folio);
	folio->mapping = (struct address_space *)PAGE_MAPPING_ANON;
	atomic_set(&folio->_mapcount, 0);
	__mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
	folio_add_lru(folio);
	return folio;
}

/*
 * munmap() of the region: zap_pte_range() takes each page out of the
 * page table (folio_remove_rmap_ptes(): the mapcount back to -1; set
 * here, no other CPU maps the folio) and gathers it; the mmu_gather then frees what it gathered,
 * MAX_NR_FOLIOS_PER_FREE pages at a time (or, with lru_release_all, all
 * at once) through free_pages_and_swap_cache().
 */
static void munmap(long t, struct folio **folios, struct encoded_page **gather)
{
	int i, nr, chunk = params.lru_release_all ? nr_pages : MAX_NR_FOLIOS_PER_FREE;

	for (i = 0; i < nr_pages; i++) {
		struct folio *folio = folios[i];

		if (!folio)
			continue;
		atomic_set(&folio->_mapcount, -1);
		__mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, -1);
	}
	for (i = 0; i < nr_pages; i += chunk) {
		int j, n = 0;

		nr = min(chunk, nr_pages - i);
		for (j = 0; j < nr; j++)
			if (folios[i + j])
				gather[n++] = encode_page(&folios[i + j]->page, 0);
		SCENARIO_CALL("release_pages", (int)t, n, 0);
		sim_busy_ns(munmap_ns * n, SIM_SITE());
		free_pages_and_swap_cache(gather, n);
		SCENARIO_RETURN("release_pages", n);
	}
	memset(folios, 0, nr_pages * sizeof(*folios));
}

/*
 * With lru_isolate, compaction's migrate scanner, as far as the LRU sees
 * it (isolate_migratepages_block(), mm/compaction.c): once a round, when
 * the first task has faulted its region in, a pass over every pfn of the
 * machine's memory; a folio on an LRU (the unlocked folio_test_lru()
 * test first, as compaction makes it) is pinned with folio_try_get(),
 * isolated with the real folio_isolate_lru() (folio_test_clear_lru(),
 * then lru_lock and lruvec_del_folio()) and, since nothing here migrates
 * it, put back with the real folio_putback_lru(), onto this CPU's lru_add
 * batch; the batch is drained at the end. It reaches folios by pfn, not
 * through the lists, so it meets a folio that another CPU has marked LRU
 * but not yet put on an lruvec's list: with the port's splicing, one on a
 * local list of folio_batch_add_lru() (the smp_wmb() there is for it).
 * Each pfn costs SCAN_NS, a stand-in.
 */
#define SCAN_NS 20

static void migrate_scanner(void *arg)
{
	unsigned long pfn;
	int r, isolated;

	for (r = 0; r < nr_rounds; r++) {
		wait_for_completion(&faulted);
		isolated = 0;
		SCENARIO_CALL("isolate_migratepages", r, (int)lab_nr_pages, 0);
		for (pfn = 0; pfn < lab_nr_pages; pfn++) {
			struct folio *folio = page_folio(pfn_to_page(pfn));

			sim_busy_ns(SCAN_NS, SIM_SITE());
			if (!folio_test_lru(folio) || !folio_try_get(folio))
				continue;
			if (folio_isolate_lru(folio)) {
				isolated++;
				folio_putback_lru(folio);
			}
			folio_put(folio);
		}
		lru_add_drain();
		SCENARIO_RETURN("isolate_migratepages", isolated);
	}
	complete(&done);
}

static void page_fault1(void *arg)
{
	long t = (long)arg;
	struct folio **folios = kcalloc(nr_pages, sizeof(*folios), GFP_KERNEL);
	struct encoded_page **gather = kcalloc(nr_pages, sizeof(*gather), GFP_KERNEL);
	struct mem_cgroup *old;
	int r, i;

	if (!folios || !gather)
		goto out;
	old = set_active_memcg(memcg);
	for (r = 0; r < nr_rounds; r++) {
		/* Touch every page of the mapping: a fault each, its folio to the LRU via this CPU's batch. */
		for (i = 0; i < nr_pages; i++) {
			SCENARIO_CALL("fault", (int)t, i, 0);
			sim_busy_ns(fault_ns, SIM_SITE());
			folios[i] = fault();
			SCENARIO_RETURN("fault", folios[i] ? 0 : -ENOMEM);
		}
		if (params.lru_isolate && t == 0)
			complete(&faulted);
		/* Watching (not measuring), the first task checks the list once a round. */
		if (!params.stress && t == 0)
			check_list();
		munmap(t, folios, gather);
	}
	set_active_memcg(old);
out:
	kfree(gather);
	kfree(folios);
	complete(&done);
}

static void init_task(void *arg)
{
	char name[16];
	int t, tasks;

	params = *(const struct scenario_params *)arg;
	tasks = nr_tasks(&params);
	nr_pages = params.objects > 0 ? params.objects : DEFAULT_PAGES;
	nr_rounds = params.rounds > 0 ? params.rounds : DEFAULT_ROUNDS;
	fault_ns = params.slow_ns > 0 ? params.slow_ns : FAULT_NS;
	munmap_ns = params.munmap_ns > 0 ? params.munmap_ns : MUNMAP_NS;

	if (!sim_memcg_create(NULL, "/"))
		return;
	/* The machine's memory: every task's region at once, and what the per-CPU batches hold. */
	if (lab_mem_map_init((unsigned long)tasks * nr_pages + tasks * PAGEVEC_SIZE, 0))
		goto free_root;
	memcg = sim_memcg_create(root_mem_cgroup, "will-it-scale");
	if (!memcg)
		goto free_mem;
	lruvec = mem_cgroup_lruvec(memcg, NODE_DATA(0));
	SCENARIO_LABEL_LOCK(&lruvec->lru_lock, "lru_lock", -1);
#ifdef NUM_LRU_BATCH_LOCKS
	for (t = 0; t < NUM_LRU_BATCH_LOCKS; t++) {
		snprintf(name, sizeof(name), "batch lock %d", t);
		SCENARIO_LABEL_LOCK(&lruvec->batch_locks[t].lock, name, t);
	}
#endif
	init_completion(&done);
	if (params.lru_isolate)		/* a run without the scanner is the run it always was */
		init_completion(&faulted);
	SCENARIO_CALL("page_fault1", tasks, nr_pages, nr_rounds);
	for (t = 0; t < tasks; t++) {
		snprintf(name, sizeof(name), "pf1-%d", t);
		sim_spawn(t, name, page_fault1, (void *)(long)t);
	}
	if (params.lru_isolate)
		sim_spawn(tasks, "kcompactd0", migrate_scanner, NULL);
	for (t = 0; t < tasks + !!params.lru_isolate; t++)
		wait_for_completion(&done);
	SCENARIO_RETURN("page_fault1", 0);

	check_list();
	WARN(lab_nr_free_pages() != lab_nr_pages, "lru-batch: %lu pages not freed",
	     lab_nr_pages - lab_nr_free_pages());
	sim_memcg_offline(memcg);
	sim_memcg_free(memcg);
	memcg = NULL;
	lruvec = NULL;
free_mem:
	lab_mem_map_free();
free_root:
	sim_memcg_free(root_mem_cgroup);
}

const struct scenario scenario_lru_batch = {
	.name = "lru-batch",
	.title = "page_fault1 on many CPUs over the kernel's folio LRU",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = MAX_TASKS,
	.cpus = lru_batch_cpus,
	.nr_nodes = 1,
	/* the init task waits for the whole run: not a hang (the kernel's threshold is 120 s) */
	.hung_task_ns = 120000000000ULL,
	.defaults = { .seed = 1 },
	.refuse = refuse,
	.init = init_task,
};
