// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explorer (wasm/explore/), on the kernels the registry runs it on
 * (kernel-tree/manifest.json: "tests"), each checked against what the
 * registry's "explore" expects of it (wasm/tests/lab_kernels.h):
 *
 *  - on explore-litmus, the reduction loses nothing: with sleep sets and
 *    without, the search runs to exhaustion and reaches the very same set
 *    of distinct end states, the reduced one in fewer executions;
 *  - a search stopped by its budget and resumed from its checkpoint
 *    reaches the same end states as one that ran through;
 *  - the search is deterministic: the same search twice gives the same
 *    counts and the same shortest failing schedule;
 *  - shrinker-lifetime's race (one round, one object, wasm/explore.json
 *    "shrinker-free"): where none may fail, no execution with at most one
 *    preemption fails; where KASAN is expected, the explorer finds its
 *    use-after-free with the expected preemptions, the schedule text it
 *    gives, replayed by a fresh boot as the page replays a link, stops at
 *    the same report, and PCT runs find it too;
 *  - memcg-bitmap's race (program "c3.1": list_lru_add() against the
 *    clear_bit() of shrink_slab_memcg(), "clear-bit-recheck"): where none
 *    may fail, no execution with at most one preemption loses the bit;
 *    where the WARN is expected, none without preemptions, and with the
 *    expected ones the explorer finds the scenario's WARN for the lost
 *    bit, whose schedule replayed by a fresh boot warns again;
 *  - choice points of another kind than the scheduler's (explore-choice,
 *    wasm/runtime/choice.h): within a litmus bound of 0 nothing fails, with
 *    1 the explorer finds the WARN that takes the choice and two preemptions,
 *    and its schedule (with the choice's letter) replays to it; the sleep
 *    sets lose no end state; a checkpoint resumes to the same end states;
 *    PCT finds it; the schedule text of the scheduler's decisions alone
 *    reads as it always did.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"
#include "../explore/explore.h"
#include "lab_kernels.h"

static FILE *devnull;
/* The kernel under test, and what the explorer must find on each race there. */
static const struct lab_kernel *kernel;
static const struct lab_kernel_expect *lifetime_race, *bitmap_race;

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
	fprintf(stderr, "  shrinker-lifetime on %s, bound 1: %lu executions, %zu end states, none failing\n",
		kernel->name, r.executions, r.nr_states);
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

	ASSERT_EQ(search("shrinker-lifetime", lifetime_race->preemptions, 1, &r, 1), 1);
	fprintf(stderr, "  shrinker-lifetime on %s, bound %d: %lu executions, %lu failing; "
		"shortest %s (%d preemption)\n", kernel->name, lifetime_race->preemptions, r.executions, r.failing,
		r.shortest, r.shortest_preemptions);
	ASSERT_EQ(r.shortest_preemptions, lifetime_race->preemptions);
	ASSERT_TRUE(has_kind(r.shortest_kinds, lifetime_race->kind));
	ASSERT_TRUE(has_kind(r.shortest_kinds, "panic"));
	ASSERT_EQ(replay_reports_kasan(r.shortest, &event), 0);
	ASSERT_TRUE(event > 0);
	/* With fewer preemptions it never fails: the bug needs the race. */
	ASSERT_EQ(search("shrinker-lifetime", lifetime_race->preemptions - 1, 1, &r, 1), 0);
	return 0;
}

TEST(pct_finds_the_break)
{
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	struct scenario_params p = sc->defaults;
	struct explore_options o = { .pct_depth = lifetime_race->preemptions + 1, .pct_runs = 300, .pct_seed = 1 };
	struct explore_result r;

	p.rounds = 1;
	p.objects = 1;
	ASSERT_EQ(explore_run(sc, &p, &o, devnull, &r), 1);
	fprintf(stderr, "  PCT depth %d, 300 runs on %s: %lu failing\n", o.pct_depth, kernel->name, r.failing);
	ASSERT_TRUE(has_kind(r.shortest_kinds, lifetime_race->kind));
	return 0;
}

TEST(recheck_keeps_the_bit_within_one_preemption)
{
	struct explore_result r;

	ASSERT_EQ(search_race(1, &r), 0);
	fprintf(stderr, "  memcg-bitmap race on %s, bound 1: %lu executions, %zu end states, none failing\n",
		kernel->name, r.executions, r.nr_states);
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

	ASSERT_EQ(search_race(bitmap_race->preemptions - 1, &r), 0);
	ASSERT_EQ(search_race(bitmap_race->preemptions, &r), 1);
	fprintf(stderr, "  memcg-bitmap race on %s, bound %d: %lu executions, %lu failing; "
		"shortest %s (%d preemption)\n", kernel->name, bitmap_race->preemptions, r.executions, r.failing,
		r.shortest, r.shortest_preemptions);
	ASSERT_EQ(r.shortest_preemptions, bitmap_race->preemptions);
	ASSERT_TRUE(has_kind(r.shortest_kinds, bitmap_race->kind));
	ASSERT_EQ(replay_warns(r.shortest), 0);
	return 0;
}

/* explore-choice, to a preemption bound, with its litmus choices bounded by "litmus=N". */
static int search_choice(int bound, int por, const char *bounds, struct explore_result *res)
{
	const struct scenario *sc = sim_scenario_find("explore-choice");
	struct explore_options o = { .max_bound = bound, .por = por, .choice_bounds = bounds };

	return explore_run(sc, &sc->defaults, &o, devnull, res);
}

/* A fresh boot of explore-choice follows the schedule: the reader's WARN, every decision followed. */
static int replay_choice_warns(const char *schedule)
{
	const struct scenario *sc = sim_scenario_find("explore-choice");
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct lab_options o = { .policy = SIM_POLICY_TIMED, .schedule = schedule };
		struct lab_result res;
		char err[256];
		int type = 0, ev = -1, ok;
		const char *title = "", *text = "";
		size_t nd;
		const struct sim_decision *d;

		ok = !lab_run(sc, &sc->defaults, &o, &res, err, sizeof(err)) && sim_nr_reports() == 1 &&
		     !sim_report_info(0, &type, &ev, &title, &text) && type == SIM_REPORT_WARN &&
		     sim_schedule_diverged_at() < 0;
		d = sim_decisions(&nd);
		while (nd && d->kind != SIM_CHOICE_LITMUS)
			d++, nd--;
		ok = ok && nd > 0 && d->cpu == 2;
		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

TEST(choice_points_bounded_found_and_replayed)
{
	struct explore_result r;

	/* The default alternative alone: the window is reached, but not with the value 2. */
	ASSERT_EQ(search_choice(2, 1, "litmus=0", &r), 0);
	ASSERT_EQ(r.failing, 0);
	ASSERT_FALSE(r.exhausted);	/* alternatives past the litmus bound were left */
	ASSERT_EQ(search_choice(1, 1, "litmus=1", &r), 0);
	ASSERT_EQ(search_choice(2, 1, "litmus=1", &r), 1);
	fprintf(stderr, "  explore-choice, bound 2, litmus=1: %lu executions, %lu failing; shortest %s\n",
		r.executions, r.failing, r.shortest);
	ASSERT_EQ(r.shortest_preemptions, 2);
	ASSERT_TRUE(has_kind(r.shortest_kinds, "warn"));
	ASSERT_TRUE(strstr(r.shortest, "l2") != NULL);
	ASSERT_EQ(replay_choice_warns(r.shortest), 0);
	/* Its default alternative in place of 2: the same schedule no longer warns. */
	{
		char *text = strdup(r.shortest), *l = strstr(text, "l2");

		l[1] = '0';
		ASSERT_TRUE(replay_choice_warns(text) != 0);
		free(text);
	}
	return 0;
}

TEST(choice_points_reduction_keeps_every_end_state)
{
	struct explore_result plain, reduced;

	ASSERT_EQ(search_choice(64, 0, "litmus=1", &plain), 1);
	ASSERT_EQ(search_choice(64, 1, "litmus=1", &reduced), 1);
	ASSERT_TRUE(plain.exhausted);
	ASSERT_TRUE(reduced.exhausted);
	fprintf(stderr, "  explore-choice, litmus=1: %lu executions plainly, %lu with sleep sets; %zu end states\n",
		plain.executions, reduced.executions, plain.nr_states);
	ASSERT_TRUE(plain.nr_states >= 6);	/* the writer's value, and what the reader saw */
	ASSERT_EQ(reduced.nr_states, plain.nr_states);
	ASSERT_TRUE(!memcmp(reduced.states, plain.states, plain.nr_states * sizeof(uint64_t)));
	ASSERT_TRUE(reduced.executions < plain.executions);
	return 0;
}

TEST(choice_points_checkpoint_resumes_to_the_same_end_states)
{
	const struct scenario *sc = sim_scenario_find("explore-choice");
	char path[] = "/tmp/explore-ckpt-XXXXXX";
	struct explore_options o = { .max_bound = 64, .por = 1, .max_execs = 20, .checkpoint = path,
				     .choice_bounds = "litmus=1" };
	struct explore_result whole, first, rest;
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	close(fd);
	unlink(path);
	ASSERT_EQ(search_choice(64, 1, "litmus=1", &whole), 1);
	ASSERT_TRUE(explore_run(sc, &sc->defaults, &o, devnull, &first) >= 0);
	ASSERT_FALSE(first.exhausted);
	o.max_execs = 0;
	o.choice_bounds = "litmus=2";	/* another search: refused */
	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &rest), -1);
	o.choice_bounds = "litmus=1";
	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &rest), 1);
	ASSERT_TRUE(rest.exhausted);
	ASSERT_EQ(rest.nr_states, whole.nr_states);
	ASSERT_TRUE(!memcmp(rest.states, whole.states, whole.nr_states * sizeof(uint64_t)));
	ASSERT_TRUE(!strcmp(rest.shortest, whole.shortest));
	return 0;
}

TEST(choice_points_pct_finds_the_window)
{
	const struct scenario *sc = sim_scenario_find("explore-choice");
	struct explore_options o = { .pct_depth = 3, .pct_runs = 200, .pct_seed = 1, .choice_bounds = "litmus=1" };
	struct explore_result a, b;

	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &a), 1);
	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &b), 1);
	fprintf(stderr, "  PCT depth 3, 200 runs on explore-choice, litmus=1: %lu failing\n", a.failing);
	ASSERT_EQ(a.failing, b.failing);	/* deterministic from its seed */
	ASSERT_TRUE(strstr(a.shortest, "l2") != NULL);
	ASSERT_EQ(replay_choice_warns(a.shortest), 0);
	o.choice_bounds = "litmus=0";
	ASSERT_EQ(explore_run(sc, &sc->defaults, &o, devnull, &a), 0);
	return 0;
}

TEST(schedule_text_reads_as_before_and_with_choices)
{
	unsigned char *c, *k;
	size_t n;
	char err[128], *text;
	struct sim_decision d[4] = { { .cpu = 0 }, { .cpu = 0 }, { .cpu = 2, .kind = SIM_CHOICE_LITMUS },
				     { .cpu = 1 } };

	/* A permalink's schedule of the scheduler's decisions alone: no kinds. */
	ASSERT_EQ(lab_schedule_decode("0x12.1", 2, &c, &k, &n, err, sizeof(err)), 0);
	ASSERT_EQ(n, 13);
	ASSERT_TRUE(k == NULL);
	ASSERT_EQ(c[11], 0);
	ASSERT_EQ(c[12], 1);
	free(c);
	ASSERT_EQ(lab_schedule_decode("0x2.l2.1", 2, &c, &k, &n, err, sizeof(err)), 0);
	ASSERT_EQ(n, 4);
	ASSERT_TRUE(k != NULL);
	ASSERT_EQ(k[0], SIM_CHOICE_CPU);
	ASSERT_EQ(k[2], SIM_CHOICE_LITMUS);
	ASSERT_EQ(c[2], 2);
	free(c);
	free(k);
	text = lab_schedule_encode(d, 4);
	ASSERT_TRUE(!strcmp(text, "0x2.l2.1"));
	free(text);
	/* A letter that names no kind, a CPU past the machine's, letters where none are read. */
	ASSERT_EQ(lab_schedule_decode("0.q1", 2, &c, &k, &n, err, sizeof(err)), -1);
	ASSERT_EQ(lab_schedule_decode("0.2", 2, &c, &k, &n, err, sizeof(err)), -1);
	ASSERT_EQ(lab_schedule_decode("0.l1", 2, &c, NULL, &n, err, sizeof(err)), -1);
	return 0;
}

int main(void)
{
	static const struct test explorer[] = {
		RUN(reduction_keeps_every_end_state),
		RUN(checkpoint_resumes_to_the_same_end_states),
		RUN(search_is_deterministic),
		RUN(choice_points_bounded_found_and_replayed),
		RUN(choice_points_reduction_keeps_every_end_state),
		RUN(choice_points_checkpoint_resumes_to_the_same_end_states),
		RUN(choice_points_pct_finds_the_window),
		RUN(schedule_text_reads_as_before_and_with_choices),
	};
	struct test tests[16];
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	char title[64];
	int n = 0;

	devnull = fopen("/dev/null", "w");
	kernel = lab_kernel_of(sc->tree, "test_explore");
	lifetime_race = lab_kernel_explore(kernel, "shrinker-free");
	bitmap_race = lab_kernel_explore(kernel, "clear-bit-recheck");
	/* The explorer's own checks once, on a kernel where neither race fails. */
	if ((!lifetime_race || !lifetime_race->kind) && (!bitmap_race || !bitmap_race->kind))
		for (; n < (int)(sizeof(explorer) / sizeof(explorer[0])); n++)
			tests[n] = explorer[n];
	if (lifetime_race && !lifetime_race->kind)
		tests[n++] = (struct test)RUN(intact_kernel_never_fails_within_one_preemption);
	if (lifetime_race && lifetime_race->kind) {
		tests[n++] = (struct test)RUN(break_found_with_one_preemption_and_replayed);
		tests[n++] = (struct test)RUN(pct_finds_the_break);
	}
	if (bitmap_race && !bitmap_race->kind)
		tests[n++] = (struct test)RUN(recheck_keeps_the_bit_within_one_preemption);
	if (bitmap_race && bitmap_race->kind)
		tests[n++] = (struct test)RUN(lost_bit_found_with_one_preemption_and_replayed);
	snprintf(title, sizeof(title), "explorer on %s", kernel->name);
	if (!n) {
		fprintf(stderr, "%s: the registry expects nothing of shrinker-free or clear-bit-recheck there\n", title);
		return 1;
	}
	return run_tests(title, tests, n);
}
