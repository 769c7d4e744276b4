// SPDX-License-Identifier: GPL-2.0-only
/*
 * The planted-bugs scenario must produce each report once, at the line
 * its "BUG:" marker is on in wasm/scenarios/planted_bugs.c, with the
 * lines of the other places involved (allocation and free; both lock
 * chains; the rcu_read_lock()). Lockdep turns itself off after its report,
 * and a KASAN report turns it off as well (the taint), as the kernel's do.
 * And the reduction of reports that kunit-planted's comparison with
 * User-Mode Linux rests on reads the real kernel's console as the kernel's
 * run did (a console UML printed, kept as a fixture).
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"

/* kunit_reports.h's reduction, printing into reduced[] */
static char reduced[4096];
static size_t reduced_len;
#define rl_trace(fmt, ...) \
	(reduced_len += (size_t)snprintf(reduced + reduced_len, sizeof(reduced) - reduced_len, \
					 "reclaim_lab: " fmt "\n", ##__VA_ARGS__))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#include "../scenarios/kunit_reports.h"

static const char *source = "wasm/scenarios/planted_bugs.c";

/* The first line of the source containing text, after the line containing after ("": from the top). */
static int line_after(const char *after, const char *text)
{
	FILE *f = fopen(source, "r");
	char buf[512];
	int n = 0, past = !*after;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (!past) {
			past = strstr(buf, after) != NULL;
			continue;
		}
		if (strstr(buf, text)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return -1;
}

static int line_of(const char *text)
{
	return line_after("", text);
}

static const char *report_of(int want, int *count)
{
	const char *found = NULL;

	*count = 0;
	for (int i = 0; i < sim_nr_reports(); i++) {
		int type, event;
		const char *title, *text;

		sim_report_info(i, &type, &event, &title, &text);
		if (type == want) {
			(*count)++;
			found = text;
		}
	}
	return found;
}

static int contains_line(const char *text, const char *fmt, int line)
{
	char want[160];

	snprintf(want, sizeof(want), fmt, source, line);
	if (strstr(text, want))
		return 1;
	fprintf(stderr, "expected \"%s\" in:\n%s\n", want, text);
	return 0;
}

/* Run a scenario with its defaults under the timed policy: 0 when it ends done, nothing leaked. */
static int run_to_end(const char *name)
{
	const struct scenario *sc = sim_scenario_find(name);
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .policy = SIM_POLICY_TIMED };
	struct lab_result res;
	char err[256];

	if (lab_run(sc, &p, &o, &res, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", name, err);
		return -1;
	}
	return res.status == SIM_DONE && res.live_objects == 0 ? 0 : 1;
}

TEST(each_planted_bug_is_reported_at_its_line)
{
	const char *text;
	int n;

	ASSERT_EQ(run_to_end("planted-bugs"), 0);

	text = report_of(SIM_REPORT_KASAN, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "BUG: KASAN: slab-use-after-free") != NULL);
	ASSERT_TRUE(contains_line(text, "in reader_task %s:%d", line_of("BUG: use-after-free")));
	ASSERT_TRUE(contains_line(text, "Allocated by task freer/3:\n freer_task()\n  %s:%d",
				  line_of("kzalloc(sizeof(*obj)")));
	ASSERT_TRUE(contains_line(text, "Freed by task freer/3:\n freer_task()\n  %s:%d",
				  line_of("kfree(obj);")));

	text = report_of(SIM_REPORT_LOCKDEP, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(contains_line(text, "(lock_a), at: %s:%d reader_task()", line_of("BUG: lock order")));
	ASSERT_TRUE(contains_line(text, "taken at %s:%d freer_task()", line_after("static void freer_task(", "mutex_lock(&lock_b);")));

	text = report_of(SIM_REPORT_SLEEP_IN_ATOMIC, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(contains_line(text, "invalid context at %s:%d", line_of("BUG: sleeping")));
	ASSERT_TRUE(contains_line(text, "rcu_read_lock() taken at %s:%d", line_of("rcu_read_lock();")));
	/* lockdep reported the inversion, and is off since */
	ASSERT_TRUE(strstr(text, "INFO: lockdep is turned off.") != NULL);
	ASSERT_EQ(sim_debug_locks(), 0);
	sim_fini();
	return 0;
}

/* planted-bugs with its "planted" parameter, a policy and a seed (0: the default); the run's result in *res. */
static int run_planted(int planted, int policy, unsigned long long seed, struct lab_result *res)
{
	const struct scenario *sc = sim_scenario_find("planted-bugs");
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .policy = policy };
	char err[256];

	p.planted = planted;
	if (seed)
		p.seed = seed;
	if (lab_run(sc, &p, &o, res, err, sizeof(err)) != 0) {
		fprintf(stderr, "planted %d: %s\n", planted, err);
		return -1;
	}
	return 0;
}

/* The inversion lockdep predicts, run into the deadlock: reported first, then the run ends in it. */
TEST(the_inversion_runs_into_its_deadlock)
{
	struct lab_result res;
	const char *text;
	int n;

	ASSERT_EQ(run_planted(1, SIM_POLICY_TIMED, 0, &res), 0);
	ASSERT_EQ(res.status, SIM_DEADLOCK);
	text = report_of(SIM_REPORT_LOCKDEP, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "possible circular locking dependency detected") != NULL);
	ASSERT_TRUE(contains_line(text, "(lock_a), at: %s:%d deadlock_reader()", line_of("BUG: deadlock, lock_a")));
	report_of(SIM_REPORT_HUNG_TASK, &n);
	ASSERT_EQ(n, 0);	/* nothing runs on: no time passes for a task to be hung */
	sim_fini();

	/* the same on every policy: each task holds its first lock before it asks for the other */
	for (int policy = SIM_POLICY_TIMED; policy <= SIM_POLICY_RANDOM; policy++)
		for (unsigned long long seed = 1; seed <= 5; seed++) {
			ASSERT_EQ(run_planted(1, policy, seed, &res), 0);
			ASSERT_EQ(res.status, SIM_DEADLOCK);
			sim_fini();
		}
	return 0;
}

/* A completion signalled past the timeout: its waiter is reported once, at its line, and the run ends done. */
TEST(a_late_completion_leaves_a_hung_task)
{
	struct lab_result res;
	const char *text;
	int n;

	ASSERT_EQ(run_planted(2, SIM_POLICY_TIMED, 0, &res), 0);
	ASSERT_EQ(res.status, SIM_DONE);
	ASSERT_EQ(res.live_objects, 0);
	text = report_of(SIM_REPORT_HUNG_TASK, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "INFO: task reader:") != NULL);
	ASSERT_TRUE(strstr(text, "blocked for more than 1000000 ns") != NULL);
	ASSERT_TRUE(contains_line(text, "%s:%d", line_of("BUG: hung task")));
	ASSERT_EQ(sim_nr_reports(), 1);
	sim_fini();
	return 0;
}

/* The use-after-free reported first: its taint leaves the inversion unreported. */
TEST(a_kasan_report_turns_lockdep_off)
{
	const char *text;
	int n;

	ASSERT_EQ(run_to_end("kunit-planted-taint"), 0);
	text = report_of(SIM_REPORT_KASAN, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "==\nDisabling lock debugging due to kernel taint\n") != NULL);
	report_of(SIM_REPORT_LOCKDEP, &n);
	ASSERT_EQ(n, 0);
	text = report_of(SIM_REPORT_SLEEP_IN_ATOMIC, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "INFO: lockdep is turned off.") != NULL);
	sim_fini();

	/* the other order: everything reported, lockdep off only after its own report */
	ASSERT_EQ(run_to_end("kunit-planted"), 0);
	report_of(SIM_REPORT_LOCKDEP, &n);
	ASSERT_EQ(n, 1);
	text = report_of(SIM_REPORT_KASAN, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "Disabling lock debugging") == NULL);
	sim_fini();
	return 0;
}

/*
 * What User-Mode Linux printed for kunit-planted and kunit-planted-taint
 * (v6.12 with KASAN, lockdep and DEBUG_ATOMIC_SLEEP; the console of the
 * two boots from KUnit's first line, as run.sh keeps it in
 * build/kunit/v6.12/test-reclaim_lab_planted*.log): the kernel's reports,
 * each step's trace lines after them. Copy it again when the body changes.
 */
static const char *uml_console = "wasm/tests/fixtures/uml-v6.12-planted.log";

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/*
 * Cut console into steps: the lines before a step's trace lines are what
 * it printed (the harness skips to the end of the ring buffer after each
 * step), the trace lines "reclaim_lab: STEP: ..." what the kernel's run
 * reduced them to. Reduce each again here; count the steps whose
 * reduction differs from the kernel's.
 */
static int steps_differing(const char *console, int *steps, int quiet)
{
	char *copy = strdup(console), *line, *save = NULL;
	char text[32768] = "", step[96] = "", want[4096] = "";
	size_t text_len = 0, want_len = 0;
	int differ = 0;

	*steps = 0;
	for (line = strtok_r(copy, "\n", &save); ; line = strtok_r(NULL, "\n", &save)) {
		const char *body = line && !strncmp(line, "reclaim_lab: ", 13) ? line + 13 : NULL;
		const char *colon = body ? strstr(body, ": ") : NULL;
		int is_step = body && colon && strncmp(body, "lockdep: ", 9) && strncmp(body, "scenario ", 9);

		/* the end of a step's trace lines: reduce what it printed */
		if (want_len && (!is_step || strncmp(body, step, strlen(step)) || colon - body != (long)strlen(step))) {
			reduced_len = 0;
			reduced[0] = '\0';
			rl_reports_reduce(step, text);
			if (strcmp(reduced, want) && !quiet)
				fprintf(stderr, "step \"%s\": the kernel printed\n%sthis reduces it to\n%s",
					step, want, reduced);
			differ += strcmp(reduced, want) != 0;
			(*steps)++;
			want_len = 0;
			want[0] = '\0';
			text_len = 0;
			text[0] = '\0';
		}
		if (!line)
			break;
		if (is_step) {
			snprintf(step, sizeof(step), "%.*s", (int)(colon - body), body);
			want_len += (size_t)snprintf(want + want_len, sizeof(want) - want_len, "%s\n", line);
		} else if (body) {
			text_len = 0;	/* the scenario's own lines: no step's text */
			text[0] = '\0';
		} else if (text_len + strlen(line) + 2 < sizeof(text)) {
			text_len += (size_t)snprintf(text + text_len, sizeof(text) - text_len, "%s\n", line);
		}
	}
	free(copy);
	return differ;
}

/* The reduction, run on the real kernel's console, gives the kernel's trace. */
TEST(the_real_kernels_reports_reduce_to_its_trace)
{
	char *console = read_file(uml_console), *p;
	int steps;

	ASSERT_TRUE(console != NULL);
	ASSERT_EQ(steps_differing(console, &steps, 0), 0);
	ASSERT_EQ(steps, 12);	/* six steps in each of the two scenarios */
	/* and it can tell: a lock lockdep names otherwise changes a line */
	p = strstr(console, "(rl_lock_a){");
	ASSERT_TRUE(p != NULL);
	p[9] = 'c';
	ASSERT_EQ(steps_differing(console, &steps, 1), 1);
	free(console);
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(each_planted_bug_is_reported_at_its_line),
		RUN(a_kasan_report_turns_lockdep_off),
		RUN(the_inversion_runs_into_its_deadlock),
		RUN(a_late_completion_leaves_a_hung_task),
		RUN(the_real_kernels_reports_reduce_to_its_trace),
	};

	return run_tests("planted-bugs", tests, sizeof(tests) / sizeof(tests[0]));
}
