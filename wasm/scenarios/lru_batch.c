// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "lru-batch": will-it-scale's page_fault1 on N simulated CPUs
 * over one LRU list, with the project's port of the 2018 lru_lock RFC
 * (mm/lru_batch.c on branch lru-batch-locks: not upstream code). Each
 * task maps pages, faults them in one by one (each fault's page goes
 * into the task's pagevec; a full pagevec goes onto the LRU), then
 * unmaps them all, as release_pages() does, again and again.
 *
 * Modes (params.lru_mode): 0 one lru_lock for everything, as before the
 * RFC; 1 batch locks; 2 batch locks, and pagevecs spliced on as whole
 * batches. Tags of new batches come from the run's seeded generator.
 *
 * Cost model, besides the runtime's (wasm/runtime/costs.c: a spin_lock
 * 20 ns, a list link 6 ns...): a fault's own work (zeroing the page,
 * the page table) FAULT_NS, and an unmapped page's MUNMAP_NS, both
 * stand-ins. params.slow_ns and params.munmap_ns, when given, replace them.
 *
 * Each fault is a CALL/RETURN "fault", each release a "release_pages",
 * so the run's statistics count faults and their virtual time; faults
 * per virtual second, measured with params.stress (no checks), is the
 * figure. Watching, the first task checks the whole list once a round
 * under lru_lock_all(), and the init task at the end.
 *
 * The thread's bug: with 64K pages one munmap could hand release_pages()
 * 537 pages, more than its 512-bit bitmap: params.objects 537 with
 * release in one go (params.lru_release_all) trips the VM_BUG_ON; the
 * fixed kernel (params.lru_fixed) sizes the bitmap by nr.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <linux/lru_batch.h>
#include <sim.h>
#include "scenario.h"

#define FAULT_NS 400
#define MUNMAP_NS 100
#define RELEASE_CHUNK 256	/* pages per release_pages() call, below LRU_BITMAP_SIZE */
#define DEFAULT_PAGES 64
#define DEFAULT_ROUNDS 3
#define MAX_TASKS RUN_PARAM_MAX_TASKS	/* a CPU each: at most SIM_MAX_CPUS */
#define DEFAULT_TASKS 4

unsigned long long sim_random(void);

static struct scenario_params params;
static struct lb_lruvec *lruvec;
static struct completion done;
static int nr_pages, nr_rounds, fault_ns, munmap_ns;

/* A CPU per task: the init task shares CPU 0 with the first, asleep. */
static int lru_batch_cpus(const struct scenario_params *p)
{
	return p->tasks > 0 ? min(p->tasks, MAX_TASKS) : DEFAULT_TASKS;
}

static unsigned int next_tag(void)
{
	return (unsigned int)sim_random();
}

/*
 * FNV-1a over each page's id, tag and sentinel flag, head first: what a
 * reader of the tracepoints must arrive at too (the scene's model is
 * checked against it).
 */
static unsigned int list_hash(long *nr)
{
	struct lb_page *p;
	unsigned int h = 2166136261u;

	*nr = 0;
	list_for_each_entry(p, lru_head(lruvec), lru) {
		unsigned int v[3] = { (unsigned int)p->id, p->lru_batch, p->lru_sentinel };
		int k;

		for (k = 0; k < 3; k++)
			h = (h ^ v[k]) * 16777619u;
		++*nr;
	}
	return h;
}

static void check_list(void)
{
	const char *why = "";
	long nr;
	unsigned int h;

	SCENARIO_CALL("lru_lock_all", 0, 0, 0);
	lru_lock_all(lruvec);
	if (lru_batch_check(lruvec, &why))
		WARN(1, "lru-batch: %s", why);
	h = list_hash(&nr);
	pr_info("lru-batch: %ld pages on the list, order hash %08x\n", nr, h);
	lru_unlock_all(lruvec);
	SCENARIO_RETURN("lru_lock_all", 0);
}

static void page_fault1(void *arg)
{
	long t = (long)arg;
	struct lb_page **pages = kcalloc(nr_pages, sizeof(*pages), GFP_KERNEL);
	struct lb_page *pagevec[LRU_BATCH_MAX];
	int r, i, n, chunk;

	if (!pages)
		goto out;
	for (i = 0; i < nr_pages; i++) {
		pages[i] = kzalloc(sizeof(**pages), GFP_KERNEL);
		if (!pages[i])
			goto free;
		pages[i]->id = (unsigned long)(t * nr_pages + i);
	}
	for (r = 0; r < nr_rounds; r++) {
		/* Touch every page of the mapping: a fault each, the page to the LRU via the pagevec. */
		for (i = 0, n = 0; i < nr_pages; i++) {
			SCENARIO_CALL("fault", (int)t, i, 0);
			sim_busy_ns(fault_ns, SIM_SITE());
			pagevec[n++] = pages[i];
			if (n == LRU_BATCH_MAX) {
				lru_batch_add_pagevec(lruvec, pagevec, n);
				n = 0;
			}
			SCENARIO_RETURN("fault", 0);
		}
		lru_batch_add_pagevec(lruvec, pagevec, n);
		/*
		 * Watching (not measuring), the first task checks the whole list
		 * once a round, under every lock: a whole-list operation.
		 */
		if (!params.stress && t == 0)
			check_list();
		/* munmap(): the pages off the LRU, in release_pages() batches. */
		chunk = params.lru_release_all ? nr_pages : RELEASE_CHUNK;
		for (i = 0; i < nr_pages; i += chunk) {
			int nr = min(chunk, nr_pages - i), ret;

			SCENARIO_CALL("release_pages", (int)t, nr, 0);
			sim_busy_ns(munmap_ns * nr, SIM_SITE());
			ret = lru_batch_release_pages(lruvec, pages + i, nr);
			SCENARIO_RETURN("release_pages", ret);
		}
	}
free:
	for (i = 0; i < nr_pages; i++)
		kfree(pages[i]);
	kfree(pages);
out:
	complete(&done);
}

static void init_task(void *arg)
{
	char name[16];
	int t, tasks;

	params = *(const struct scenario_params *)arg;
	tasks = lru_batch_cpus(&params);
	nr_pages = params.objects > 0 ? params.objects : DEFAULT_PAGES;
	nr_rounds = params.rounds > 0 ? params.rounds : DEFAULT_ROUNDS;
	fault_ns = params.slow_ns > 0 ? params.slow_ns : FAULT_NS;
	munmap_ns = params.munmap_ns > 0 ? params.munmap_ns : MUNMAP_NS;

	lruvec = kzalloc(sizeof(*lruvec), GFP_KERNEL);
	if (!lruvec)
		return;
	lru_batch_init(lruvec, params.lru_mode % 3, next_tag);
	/* Name the locks for the view: every batch lock has the same expression. */
	SCENARIO_LABEL_LOCK(&lruvec->lru_lock, "lru_lock", -1);
	for (t = 0; t < NUM_LRU_BATCH_LOCKS; t++) {
		snprintf(name, sizeof(name), "batch lock %d", t);
		SCENARIO_LABEL_LOCK(&lruvec->batch_locks[t].lock, name, t);
	}
	lruvec->size_bitmap_by_nr = params.lru_fixed;
	init_completion(&done);
	SCENARIO_CALL("page_fault1", tasks, nr_pages, nr_rounds);
	for (t = 0; t < tasks; t++) {
		snprintf(name, sizeof(name), "pf1-%d", t);
		sim_spawn(t, name, page_fault1, (void *)(long)t);
	}
	for (t = 0; t < tasks; t++)
		wait_for_completion(&done);
	SCENARIO_RETURN("page_fault1", 0);

	check_list();
	WARN_ON(atomic_long_read(&lruvec->nr_pages));
	kfree(lruvec);
}

const struct scenario scenario_lru_batch = {
	.name = "lru-batch",
	.title = "LRU batch locks: page_fault1 on many CPUs (project port of the 2018 RFC)",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = MAX_TASKS,
	.cpus = lru_batch_cpus,
	.nr_nodes = 1,
	.defaults = { .seed = 1 },
	.init = init_task,
};
