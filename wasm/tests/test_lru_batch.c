// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lru-batch scenario (page_fault1 over the project's port of the 2018
 * lru_lock RFC, mm/lru_batch.c on branch lru-batch-locks):
 *
 *  - every mode runs clean on every policy and many seeds: the list checked
 *    whole under lru_lock_all() once a round and at the end (linked both
 *    ways, as long as nr_pages, every edge page a sentinel), no report,
 *    nothing left;
 *  - the right locks for every change, read off the event log of runs on
 *    random schedules: a page linked in, or a sentinel flag changed, under
 *    lru_lock; an inner page taken off under its batch lock, a sentinel
 *    under its batch lock and lru_lock (lru_lock alone in the one-lock
 *    mode);
 *  - the figures' direction, measured (--stress: no checks): faults per
 *    virtual second at 1, 4, 16, 32 and 64 tasks for one lru_lock, batch
 *    locks, and batch locks with splicing; from 16 tasks on both batch
 *    modes beat lru_lock and splicing beats batch locks alone;
 *  - the thread's bug: release_pages() of 537 pages trips the VM_BUG_ON at
 *    the line of mm/lru_batch.c that holds it; sizing the bitmap by nr
 *    runs clean.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"
#include "../runtime/stats.h"

struct lru_run {
	unsigned long long seed;
	int policy, tasks, mode, pages, rounds, stress, fixed, release_all;
};

struct lru_facts {
	int status, reports;
	long changes;			/* LRU_ADD, LRU_DEL and LRU_SENTINEL events checked */
	char lock_problem[160];		/* the first change made without its locks */
	unsigned long live;
	long long faults;
	unsigned long long end_ns;
	char first_report[160];
};

#define NUM_BATCH_LOCKS 32	/* include/linux/lru_batch.h on branch lru-batch-locks */
#define MAX_LOCK_IDS 256
#define LABEL_LOCK 5	/* wasm/scenarios/scenario.h */
#define NO_TASK -1

/*
 * Whether every change to the list was made under the locks the scheme
 * asks for, from the log: the scenario names lru_lock (index -1) and the
 * batch locks (0..31) by lock id; acquire and release events say who holds
 * what. Returns the number of changes checked; *why names the first one
 * made without its locks.
 */
static long check_locking(int mode, char *why, size_t len)
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
	for (i = 0; i < n; i++) {
		const int *a = e[i].arg;
		int task = e[i].task, lru, batch;

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
		lru = owner[by_index[0]] == task;
		batch = a[1] >= 0 && a[1] < NUM_BATCH_LOCKS && by_index[a[1] + 1] >= 0 &&
			owner[by_index[a[1] + 1]] == task;
		if (e[i].kind != SIM_EV_LRU_DEL || mode == 0) {
			if (!lru)
				snprintf(why, len, "event %zu: %s of page %d without lru_lock", i,
					 e[i].kind == SIM_EV_LRU_ADD ? "link" :
					 e[i].kind == SIM_EV_LRU_DEL ? "unlink" : "sentinel change", a[0]);
		} else if (!batch || (a[2] && !lru)) {
			snprintf(why, len, "event %zu: %s page %d of batch %d taken off without %s", i,
				 a[2] ? "sentinel" : "inner", a[0], a[1], !batch ? "its batch lock" : "lru_lock");
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
	p.lru_mode = r->mode;
	p.objects = r->pages;
	p.rounds = r->rounds;
	p.stress = r->stress;
	p.lru_fixed = r->fixed;
	p.lru_release_all = r->release_all;
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
	lab_stats_free(&st);
	f->changes = check_locking(r->mode, f->lock_problem, sizeof(f->lock_problem));
	sim_fini();
	return 0;
}

TEST(every_mode_runs_clean)
{
	for (int mode = 0; mode < 3; mode++) {
		for (int policy = 0; policy < SIM_NR_POLICIES; policy++) {
			for (unsigned long long seed = 1; seed <= 8; seed++) {
				struct lru_run r = { seed, policy, seed % 2 ? 4 : 16, mode, 40, 2, 0, 0, 0 };
				struct lru_facts f;

				ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
				if (f.status != SIM_DONE || f.reports || f.live) {
					fprintf(stderr, "mode %d policy %d seed %llu: %s, %d reports (%s), %lu left\n",
						mode, policy, seed, sim_status_str(f.status), f.reports,
						f.first_report, f.live);
					return 1;
				}
				ASSERT_EQ(f.faults, (long long)r.tasks * 40 * 2);
			}
		}
	}
	return 0;
}

TEST(every_change_holds_its_locks_on_random_schedules)
{
	long changes = 0;
	int runs = 0;

	for (int mode = 0; mode < 3; mode++) {
		for (unsigned long long seed = 1; seed <= 60; seed++) {
			int tasks = 2 + (int)(seed % 5), pages = 7 + (int)(seed * 7 % 29);
			struct lru_run r = { seed, SIM_POLICY_RANDOM, tasks, mode, pages, 2, 0, 0, 0 };
			struct lru_facts f;

			ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
			if (f.status != SIM_DONE || f.reports || f.lock_problem[0]) {
				fprintf(stderr, "mode %d seed %llu (%d tasks, %d pages): %s, %d reports (%s) %s\n",
					mode, seed, tasks, pages, sim_status_str(f.status), f.reports,
					f.first_report, f.lock_problem);
				return 1;
			}
			/* Each page linked and taken off once a round; sentinel changes besides. */
			ASSERT_TRUE(f.changes >= 2L * 2 * tasks * pages);
			changes += f.changes;
			runs++;
		}
	}
	printf("  %d runs on random schedules, %ld list changes, each under its locks\n", runs, changes);
	return 0;
}

TEST(batch_locks_scale_past_lru_lock)
{
	static const int tasks[] = { 1, 4, 16, 32, 64 };
	static const char *const names[] = { "one lru_lock", "batch locks", "batch + splice" };
	double rate[3][5];

	printf("  page faults per virtual second (128 pages x 3 rounds per task, timed policy):\n");
	printf("  %-16s", "tasks");
	for (int k = 0; k < 5; k++)
		printf("%14d", tasks[k]);
	printf("\n");
	for (int mode = 0; mode < 3; mode++) {
		printf("  %-16s", names[mode]);
		for (int k = 0; k < 5; k++) {
			struct lru_run r = { 1, SIM_POLICY_TIMED, tasks[k], mode, 128, 3, 1, 0, 0 };
			struct lru_facts f;

			ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
			ASSERT_EQ(f.status, SIM_DONE);
			rate[mode][k] = (double)f.faults * 1e9 / (double)f.end_ns;
			printf("%14.0f", rate[mode][k]);
		}
		printf("\n");
	}
	for (int mode = 1; mode < 3; mode++) {
		printf("  %-16s", mode == 1 ? "batch vs lock" : "splice vs lock");
		for (int k = 0; k < 5; k++)
			printf("%+13.1f%%", 100.0 * (rate[mode][k] / rate[0][k] - 1));
		printf("\n");
	}
	printf("  the RFC (page_fault1, processes):  batch locks +2.6%% +2.3%% +18.3%% +16.1%% +15.0%%;"
	       " with splicing +2.3%% +4.7%% +28.2%% +26.2%% +21.9%%\n");
	for (int k = 2; k < 5; k++) {
		ASSERT_TRUE(rate[1][k] > rate[0][k]);
		ASSERT_TRUE(rate[2][k] > rate[0][k]);
		ASSERT_TRUE(rate[2][k] > rate[1][k]);
	}
	return 0;
}

TEST(release_pages_of_537_trips_the_bitmap_bug_and_the_fix_does_not)
{
	struct lru_run r = { 1, SIM_POLICY_TIMED, 2, 1, 537, 1, 0, 0, 1 };
	struct lru_facts f;

	ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
	printf("  537 pages at once: %s, first report \"%s\"\n", sim_status_str(f.status), f.first_report);
	ASSERT_TRUE(f.reports > 0);
	ASSERT_TRUE(strstr(f.first_report, "kernel BUG at mm/lru_batch.c:") != NULL);
	ASSERT_TRUE(strstr(f.first_report, "lru_batch_release_pages") != NULL);

	r.fixed = 1;
	ASSERT_EQ(run_in_child(one_run, &r, &f, sizeof(f)), 0);
	printf("  the same with the bitmap sized by nr: %s, %d reports\n", sim_status_str(f.status), f.reports);
	ASSERT_EQ(f.status, SIM_DONE);
	ASSERT_EQ(f.reports, 0);
	ASSERT_EQ(f.live, 0);
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(every_mode_runs_clean),
		RUN(every_change_holds_its_locks_on_random_schedules),
		RUN(batch_locks_scale_past_lru_lock),
		RUN(release_pages_of_537_trips_the_bitmap_bug_and_the_fix_does_not),
	};

	return run_tests("lru-batch", tests, sizeof(tests) / sizeof(tests[0]));
}
