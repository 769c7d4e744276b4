// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explorer (wasm/explore/), on v6.12 and on break-no-wait:
 *
 *  - on explore-litmus, the reduction loses nothing: with sleep sets and
 *    without, the search runs to exhaustion and reaches the very same set
 *    of distinct end states, the reduced one in fewer executions;
 *  - a search stopped by its budget and resumed from its checkpoint
 *    reaches the same end states as one that ran through;
 *  - the search is deterministic: the same search twice gives the same
 *    counts and the same shortest failing schedule;
 *  - on v6.12's shrinker-lifetime (one round, one object), no execution
 *    with at most one preemption fails;
 *  - on break-no-wait, the explorer finds KASAN's use-after-free with one
 *    preemption, and the schedule text it gives, replayed by a fresh boot
 *    as the page replays a link, stops at the same report;
 *  - PCT runs on break-no-wait find it too, and say with what guarantee;
 *  - memcg-bitmap's race (program "c3.1": list_lru_add() against the
 *    clear_bit() of shrink_slab_memcg(), wasm/explore.json): on v6.12 no
 *    execution with at most one preemption loses the bit; on
 *    break-no-recheck none without preemptions, and with one the explorer
 *    finds the scenario's WARN for the lost bit, whose schedule replayed
 *    by a fresh boot warns again.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"
#include "../explore/explore.h"

static FILE *devnull;

static int search(const char *name, int bound, int por, struct explore_result *res, int rounds)
{
	const struct scenario *sc = sim_scenario_find(name);
	struct scenario_params p = sc->defaults;
	struct explore_options o = { .max_bound = bound, .por = por };

	if (rounds) {
		p.rounds = rounds;
		p.objects = 1;
	}
	return explore_run(sc, &p, &o, devnull, res);
}

static int has_kind(unsigned int kinds, const char *name)
{
	int i;

	for (i = 0; explore_fail_kind(i); i++)
		if (!strcmp(explore_fail_kind(i), name))
			return !!(kinds & (1u << i));
	return 0;
}

/* memcg-bitmap's race: RACE memcg 3 (ct1/1) against an add on its mount 1. */
static const unsigned char race_program[] = { 6, 3, 1 };

static int search_race(int bound, struct explore_result *res)
{
	const struct scenario *sc = sim_scenario_find("memcg-bitmap");
	struct scenario_params p = sc->defaults;
	struct explore_options o = { .max_bound = bound, .por = 1 };

	p.program = race_program;
	p.program_len = sizeof(race_program);
	return explore_run(sc, &p, &o, devnull, res);
}

TEST(reduction_keeps_every_end_state)
{
	struct explore_result plain, reduced;

	ASSERT_EQ(search("explore-litmus", 64, 0, &plain, 0), 0);
	ASSERT_EQ(search("explore-litmus", 64, 1, &reduced, 0), 0);
	ASSERT_TRUE(plain.exhausted);
	ASSERT_TRUE(reduced.exhausted);
	fprintf(stderr, "  explore-litmus: %lu executions plainly, %lu (and %lu blocked) with sleep sets; "
		"%zu end states\n", plain.executions, reduced.executions, reduced.blocked, plain.nr_states);
	/* Several outcomes exist: the lock order and the message seen. */
	ASSERT_TRUE(plain.nr_states >= 4);
	ASSERT_EQ(reduced.nr_states, plain.nr_states);
	ASSERT_TRUE(!memcmp(reduced.states, plain.states, plain.nr_states * sizeof(uint64_t)));
	ASSERT_TRUE(reduced.executions < plain.executions);
	ASSERT_EQ(plain.failing, 0);
	return 0;
}

/* Stopped by a budget, resumed from its checkpoint: the same end states as one search. */
TEST(checkpoint_resumes_to_the_same_end_states)
{
	const struct scenario *sc = sim_scenario_find("explore-litmus");
	char path[] = "/tmp/explore-ckpt-XXXXXX";
	struct explore_options o = { .max_bound = 64, .por = 1, .max_execs = 30, .checkpoint = path };
	struct explore_result whole, first, rest;
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	close(fd);
	unlink(path);
	ASSERT_EQ(search("explore-litmus", 64, 1, &whole, 0), 0);
	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &first), 0);
	ASSERT_FALSE(first.exhausted);
	ASSERT_EQ(access(path, F_OK), 0);
	o.max_execs = 0;
	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &rest), 0);
	ASSERT_TRUE(rest.exhausted);
	ASSERT_TRUE(access(path, F_OK) != 0);	/* finished: nothing left to resume */
	fprintf(stderr, "  explore-litmus stopped after %lu executions, resumed to %lu\n",
		first.executions + first.blocked, rest.executions + rest.blocked);
	ASSERT_TRUE(rest.executions > first.executions);
	ASSERT_EQ(rest.nr_states, whole.nr_states);
	ASSERT_TRUE(!memcmp(rest.states, whole.states, whole.nr_states * sizeof(uint64_t)));
	return 0;
}

TEST(search_is_deterministic)
{
	struct explore_result a, b;

	ASSERT_EQ(search("explore-litmus", 3, 1, &a, 0), 0);
	ASSERT_EQ(search("explore-litmus", 3, 1, &b, 0), 0);
	ASSERT_EQ(a.executions, b.executions);
	ASSERT_EQ(a.blocked, b.blocked);
	ASSERT_EQ(a.nr_states, b.nr_states);
	ASSERT_EQ(a.failing, b.failing);
	ASSERT_TRUE(!memcmp(a.states, b.states, a.nr_states * sizeof(uint64_t)));
	ASSERT_TRUE((a.shortest == NULL) == (b.shortest == NULL));
	if (a.shortest)
		ASSERT_TRUE(!strcmp(a.shortest, b.shortest));
	return 0;
}

TEST(intact_kernel_never_fails_within_one_preemption)
{
	struct explore_result r;

	ASSERT_EQ(search("shrinker-lifetime", 1, 1, &r, 1), 0);
	fprintf(stderr, "  shrinker-lifetime on v6.12, bound 1: %lu executions, %zu end states, none failing\n",
		r.executions, r.nr_states);
	ASSERT_TRUE(r.executions > 100);
	ASSERT_EQ(r.failing, 0);
	ASSERT_EQ(r.shortest_preemptions, -1);
	return 0;
}

/* A fresh boot follows the schedule text, as a link does in the page. */
static int replay_reports_kasan(const char *schedule, int *event)
{
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	struct scenario_params p = sc->defaults;
	int fd[2], st;
	pid_t pid;

	p.rounds = 1;
	p.objects = 1;
	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct lab_options o = { .policy = SIM_POLICY_TIMED, .schedule = schedule };
		struct lab_result res;
		char err[256];
		int type = 0, ev = -1, ok;
		const char *title = "", *text;

		ok = !lab_run(sc, &p, &o, &res, err, sizeof(err)) && sim_nr_reports() == 1 &&
		     !sim_report_info(0, &type, &ev, &title, &text) && res.status == SIM_PANIC &&
		     type == SIM_REPORT_KASAN && sim_schedule_diverged_at() < 0;
		if (write(fd[1], &ev, sizeof(ev)) != sizeof(ev))
			_exit(2);
		_exit(ok ? 0 : 1);
	}
	close(fd[1]);
	if (read(fd[0], event, sizeof(*event)) != sizeof(*event))
		*event = -1;
	close(fd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

TEST(break_found_with_one_preemption_and_replayed)
{
	struct explore_result r;
	int event;

	ASSERT_EQ(search("shrinker-lifetime", 1, 1, &r, 1), 1);
	fprintf(stderr, "  shrinker-lifetime on break-no-wait, bound 1: %lu executions, %lu failing; "
		"shortest %s (%d preemption)\n", r.executions, r.failing, r.shortest, r.shortest_preemptions);
	ASSERT_EQ(r.shortest_preemptions, 1);
	ASSERT_TRUE(has_kind(r.shortest_kinds, "kasan"));
	ASSERT_TRUE(has_kind(r.shortest_kinds, "panic"));
	ASSERT_EQ(replay_reports_kasan(r.shortest, &event), 0);
	ASSERT_TRUE(event > 0);
	/* Without preemptions it never fails: the bug needs the race. */
	ASSERT_EQ(search("shrinker-lifetime", 0, 1, &r, 1), 0);
	return 0;
}

TEST(pct_finds_the_break)
{
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	struct scenario_params p = sc->defaults;
	struct explore_options o = { .pct_depth = 2, .pct_runs = 300, .pct_seed = 1 };
	struct explore_result r;

	p.rounds = 1;
	p.objects = 1;
	ASSERT_EQ(explore_run(sc, &p, &o, devnull, &r), 1);
	fprintf(stderr, "  PCT depth 2, 300 runs on break-no-wait: %lu failing\n", r.failing);
	ASSERT_TRUE(has_kind(r.shortest_kinds, "kasan"));
	return 0;
}

TEST(recheck_keeps_the_bit_within_one_preemption)
{
	struct explore_result r;

	ASSERT_EQ(search_race(1, &r), 0);
	fprintf(stderr, "  memcg-bitmap race on v6.12, bound 1: %lu executions, %zu end states, none failing\n",
		r.executions, r.nr_states);
	ASSERT_TRUE(r.executions > 10);
	ASSERT_EQ(r.failing, 0);
	return 0;
}

/* A fresh boot of memcg-bitmap's race follows the schedule: one WARN, the lost bit. */
static int replay_warns(const char *schedule)
{
	const struct scenario *sc = sim_scenario_find("memcg-bitmap");
	struct scenario_params p = sc->defaults;
	int st;
	pid_t pid;

	p.program = race_program;
	p.program_len = sizeof(race_program);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct lab_options o = { .policy = SIM_POLICY_TIMED, .schedule = schedule, .quiet = 1 };
		struct lab_result res;
		char err[256];
		int type = 0, ev = -1, ok;
		const char *title = "", *text = "";

		ok = !lab_run(sc, &p, &o, &res, err, sizeof(err)) && sim_nr_reports() == 1 &&
		     !sim_report_info(0, &type, &ev, &title, &text) && res.status == SIM_DONE &&
		     type == SIM_REPORT_WARN && (strstr(title, "lost bit") || strstr(text, "lost bit")) && sim_schedule_diverged_at() < 0;
		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

TEST(lost_bit_found_with_one_preemption_and_replayed)
{
	struct explore_result r;

	ASSERT_EQ(search_race(0, &r), 0);
	ASSERT_EQ(search_race(1, &r), 1);
	fprintf(stderr, "  memcg-bitmap race on break-no-recheck, bound 1: %lu executions, %lu failing; "
		"shortest %s (%d preemption)\n", r.executions, r.failing, r.shortest, r.shortest_preemptions);
	ASSERT_EQ(r.shortest_preemptions, 1);
	ASSERT_TRUE(has_kind(r.shortest_kinds, "warn"));
	ASSERT_EQ(replay_warns(r.shortest), 0);
	return 0;
}

int main(void)
{
	static const struct test intact[] = {
		RUN(reduction_keeps_every_end_state),
		RUN(checkpoint_resumes_to_the_same_end_states),
		RUN(search_is_deterministic),
		RUN(intact_kernel_never_fails_within_one_preemption),
		RUN(recheck_keeps_the_bit_within_one_preemption),
	};
	static const struct test no_recheck[] = {
		RUN(lost_bit_found_with_one_preemption_and_replayed),
	};
	static const struct test broken[] = {
		RUN(break_found_with_one_preemption_and_replayed),
		RUN(pct_finds_the_break),
	};
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	char title[64];

	devnull = fopen("/dev/null", "w");
	snprintf(title, sizeof(title), "explorer on %s", sc->tree);
	if (!strcmp(sc->tree, "break-no-recheck"))
		return run_tests(title, no_recheck, sizeof(no_recheck) / sizeof(no_recheck[0]));
	if (!strcmp(sc->tree, "break-no-wait"))
		return run_tests(title, broken, sizeof(broken) / sizeof(broken[0]));
	return run_tests(title, intact, sizeof(intact) / sizeof(intact[0]));
}
