// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lru-batch scenario (page_fault1 over the kernel's folio LRU:
 * v6.12's own, and the project's port of the 2018 lru_lock RFC on it,
 * variants lru-batch and lru-splice), for the kernel this program is
 * built with:
 *
 *  - it runs clean on every policy and many seeds: the list checked under
 *    its locks once a round and at the end (its length against its LRU
 *    size), no report, every folio freed;
 *  - the right locks for every change, read off the event log of runs on
 *    random schedules: a folio linked on under lru_lock; in a kernel with
 *    batch locks, a folio taken off under its batch lock, and a sentinel
 *    under lru_lock too; in one without, under lru_lock;
 *  - release_pages() of 537 folios at once, the RFC's bug, runs clean:
 *    folios_put_refs() takes them off PAGEVEC_SIZE at a time;
 *  - the scenario's own run (its default tasks, pages and rounds) runs
 *    clean under relaxed too, on every policy.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"
#include "../runtime/stats.h"

struct lru_run {
	unsigned long long seed;
	int policy, tasks, pages, rounds, release_all;
	int memory;			/* enum sim_memory_model: 0 is sc */
	int isolate;			/* params.lru_isolate: the migrate scanner */
};

struct lru_facts {
	int status, reports;
	long changes;			/* LRU_ADD, LRU_DEL and LRU_SENTINEL events checked */
	int batches;			/* the kernel names batch locks */
	char lock_problem[160];		/* the first change made without its locks */
	unsigned long live;
	long long faults;
	long long isolated;		/* folios the migrate scanner isolated and put back */
	unsigned long long end_ns;
	char first_report[160];
};

#define NUM_BATCH_LOCKS 32	/* NUM_LRU_BATCH_LOCKS of the port (include/linux/mmzone.h) */
#define MAX_LOCK_IDS 4096
#define LABEL_LOCK 5	/* wasm/scenarios/scenario.h */
#define NO_TASK -1

/*
 * Whether every change to the list was made under the locks the kernel
 * asks for, from the log: the scenario names lru_lock (index -1) and a
 * batch-lock kernel's batch locks (0..31) by lock id; acquire and release
 * events say who holds what. Returns the number of changes checked; *why
 * names the first one made without its locks; *batches whether the kernel
 * has batch locks.
 */
static long check_locking(int *batches, char *why, size_t len)
{
	int owner[MAX_LOCK_IDS], by_index[NUM_BATCH_LOCKS + 1];	/* [0] is lru_lock */
	const struct sim_event *e;
	size_t n, i;
	long changes = 0;

	for (i = 0; i < MAX_LOCK_IDS; i++)
		owner[i] = NO_TASK;
	for (i = 0; i <= NUM_BATCH_LOCKS; i++)
		by_index[i] = -1;
	why[0] = 0;
	e = sim_log(&n);
	*batches = 0;
	for (i = 0; i < n; i++)
		if (e[i].kind == SIM_EV_LABEL && e[i].arg[1] == LABEL_LOCK && e[i].arg[3] >= 0)
			*batches = 1;
	for (i = 0; i < n; i++) {
		const int *a = e[i].arg;
		int task = e[i].task, lru, batch, bits, tag, sentinel;

		switch (e[i].kind) {
		case SIM_EV_LABEL:
			if (a[1] == LABEL_LOCK && a[3] >= -1 && a[3] < NUM_BATCH_LOCKS && a[0] < MAX_LOCK_IDS)
				by_index[a[3] + 1] = a[0];
			continue;
		case SIM_EV_LOCK_ACQUIRE:
		case SIM_EV_LOCK_RELEASE:
			if (a[0] >= 0 && a[0] < MAX_LOCK_IDS)
				owner[a[0]] = e[i].kind == SIM_EV_LOCK_ACQUIRE ? task : NO_TASK;
			continue;
		case SIM_EV_LRU_ADD:
		case SIM_EV_LRU_DEL:
		case SIM_EV_LRU_SENTINEL:
			break;
		default:
			continue;
		}
		changes++;
		if (why[0])
			continue;
		if (by_index[0] < 0) {
			snprintf(why, len, "event %zu: the locks were never named", i);
			continue;
		}
		/* the batch tag * 2 + the sentinel bit (runtime/events.def) */
		bits = e[i].kind == SIM_EV_LRU_ADD ? a[3] : a[2];
		tag = bits >> 1;
		sentinel = bits & 1;
		lru = owner[by_index[0]] == task;
		batch = tag >= 0 && tag < NUM_BATCH_LOCKS && by_index[tag + 1] >= 0 &&
			owner[by_index[tag + 1]] == task;
		if (e[i].kind != SIM_EV_LRU_DEL || !*batches) {
			if (!lru)
				snprintf(why, len, "event %zu: %s of page %d without lru_lock", i,
					 e[i].kind == SIM_EV_LRU_ADD ? "link" :
					 e[i].kind == SIM_EV_LRU_DEL ? "unlink" : "sentinel change", a[0]);
		} else if (!batch || (sentinel && !lru)) {
			snprintf(why, len, "event %zu: %s page %d of batch %d taken off without %s", i,
				 sentinel ? "sentinel" : "inner", a[0], tag, !batch ? "its batch lock" : "lru_lock");
		}
	}
	return changes;
}

static int one_run(void *arg, void *out)
{
	const struct lru_run *r = arg;
	struct lru_facts *f = out;
	const struct scenario *sc = sim_scenario_find("lru-batch");
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .policy = r->policy, .max_events = 4000000 };
	struct lab_result res;
	struct lab_stats st;
	const struct lab_stat_call *fault;
	const char *title, *text;
	int type, event;
	char err[256];

	p.seed = r->seed;
	p.tasks = r->tasks;
	p.objects = r->pages;
	p.rounds = r->rounds;
	p.lru_release_all = r->release_all;
	p.memory = r->memory;
	p.lru_isolate = r->isolate;
	if (lab_run(sc, &p, &o, &res, err, sizeof(err)))
		return fprintf(stderr, "%s\n", err), 1;
	f->status = res.status;
	f->live = res.live_objects;
	f->reports = sim_nr_reports();
	f->end_ns = res.end_time;
	f->first_report[0] = 0;
	if (f->reports && !sim_report_info(0, &type, &event, &title, &text))
		snprintf(f->first_report, sizeof(f->first_report), "%s", title);
	lab_stats_compute(&st);
	fault = lab_stats_call(&st, "fault");
	f->faults = fault ? fault->returns : 0;
	fault = lab_stats_call(&st, "isolate_migratepages");
	f->isolated = fault ? fault->ret_sum : 0;
	lab_stats_free(&st);
	f->changes = check_locking(&f->batches, f->lock_problem, sizeof(f->lock_problem));
	sim_fini();
	return 0;
}

/* One run in a child: 0 if it ended done, with no report and every folio freed; else says why. */
static int run_clean(const struct lru_run *r, struct lru_facts *f, const char *what)
{
	if (run_in_child(one_run, (void *)r, f, sizeof(*f)))
		return fprintf(stderr, "%s policy %d seed %llu: the run failed\n", what, r->policy, r->seed), 1;
	if (f->status != SIM_DONE || f->reports || f->live)
		return fprintf(stderr, "%s policy %d seed %llu: %s, %d reports (%s), %lu left\n", what, r->policy,
			       r->seed, sim_status_str(f->status), f->reports, f->first_report, f->live), 1;
	return 0;
}

TEST(every_policy_runs_clean)
{
	for (int policy = 0; policy < SIM_NR_POLICIES; policy++) {
		for (unsigned long long seed = 1; seed <= 8; seed++) {
			struct lru_run r = { seed, policy, seed % 2 ? 4 : 16, 40, 2, 0, SIM_MEMORY_SC };
			struct lru_facts f;

			ASSERT_EQ(run_clean(&r, &f, "sc,"), 0);
			ASSERT_EQ(f.faults, (long long)r.tasks * 40 * 2);
		}
	}
	return 0;
}

/*
 * Under relaxed, with the scenario's defaults. Seed 1 on the random policy
 * is the run that once ended in a list_del corruption on the port's
 * kernels: a WRITE_ONCE() the model placed before another CPU's store to
 * the other half of its doubleword never reached memory
 * (docs/memory-model.md, "The folio LRU under relaxed").
 */
TEST(the_default_run_is_clean_under_relaxed)
{
	const struct scenario *sc = sim_scenario_find("lru-batch");

	for (int policy = 0; policy < SIM_NR_POLICIES; policy++) {
		for (unsigned long long seed = 1; seed <= 3; seed++) {
			struct lru_run r = { seed, policy, sc->defaults.tasks, sc->defaults.objects,
					     sc->defaults.rounds, 0, SIM_MEMORY_RELAXED };
			struct lru_facts f;

			ASSERT_EQ(run_clean(&r, &f, "relaxed,"), 0);
		}
	}
	return 0;
}

TEST(every_change_holds_its_locks_on_random_schedules)
{
	long changes = 0;
	int runs = 0, batches = 0;

	for (unsigned long long seed = 1; seed <= 60; seed++) {
		int tasks = 2 + (int)(seed % 5), pages = 7 + (int)(seed * 7 % 29);
		struct lru_run r = { seed, SIM_POLICY_RANDOM, tasks, pages, 2, 0, SIM_MEMORY_SC };
		struct lru_facts f;

		ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
		if (f.status != SIM_DONE || f.reports || f.lock_problem[0]) {
			fprintf(stderr, "seed %llu (%d tasks, %d pages): %s, %d reports (%s) %s\n",
				seed, tasks, pages, sim_status_str(f.status), f.reports,
				f.first_report, f.lock_problem);
			return 1;
		}
		/* Each folio linked and taken off once a round; tag and sentinel changes besides. */
		ASSERT_TRUE(f.changes >= 2L * 2 * tasks * pages);
		changes += f.changes;
		batches = f.batches;
		runs++;
	}
	printf("  %d runs on random schedules, %ld list changes, each under its locks (%s)\n", runs, changes,
	       batches ? "batch locks, and lru_lock for sentinels" : "lru_lock");
	return 0;
}

TEST(release_pages_of_537_at_once_runs_clean)
{
	struct lru_run r = { 1, SIM_POLICY_TIMED, 2, 537, 1, 1, SIM_MEMORY_SC };
	struct lru_facts f;

	ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
	printf("  537 folios in one release_pages(): %s, %d reports\n", sim_status_str(f.status), f.reports);
	ASSERT_EQ(f.status, SIM_DONE);
	ASSERT_EQ(f.reports, 0);
	ASSERT_EQ(f.live, 0);
	return 0;
}

/*
 * Compaction's migrate scanner on one more CPU, reaching folios by pfn:
 * isolated and put back while the tasks fault, splice and release them,
 * under each memory model, and every list still whole at each check.
 */
TEST(the_migrate_scanner_isolates_and_puts_back_clean)
{
	static const char *const what[] = { "sc,", "tso,", "relaxed," };
	long long isolated = 0;

	for (int memory = SIM_MEMORY_SC; memory <= SIM_MEMORY_RELAXED; memory++) {
		for (unsigned long long seed = 1; seed <= 3; seed++) {
			struct lru_run r = { seed, seed == 1 ? SIM_POLICY_TIMED : SIM_POLICY_RANDOM, 3, 20, 2, 0, memory, 1 };
			struct lru_facts f;

			ASSERT_EQ(run_clean(&r, &f, what[memory]), 0);
			ASSERT_EQ(f.faults, 3 * 20 * 2);
			isolated += f.isolated;
		}
	}
	printf("  %lld folios isolated and put back in 9 runs\n", isolated);
	ASSERT_TRUE(isolated > 0);
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(every_policy_runs_clean),
		RUN(the_default_run_is_clean_under_relaxed),
		RUN(every_change_holds_its_locks_on_random_schedules),
		RUN(release_pages_of_537_at_once_runs_clean),
		RUN(the_migrate_scanner_isolates_and_puts_back_clean),
	};

	return run_tests("lru-batch", tests, sizeof(tests) / sizeof(tests[0]));
}
