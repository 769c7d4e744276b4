// SPDX-License-Identifier: GPL-2.0-only
/*
 * The planted-bugs scenario must produce each report once, at the line
 * its "BUG:" marker is on in wasm/scenarios/planted_bugs.c, with the
 * lines of the other places involved (allocation and free; both lock
 * chains; the rcu_read_lock()). Lockdep turns itself off after its report,
 * and a KASAN report turns it off as well (the taint), as the kernel's do.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../runtime/lab.h"

static const char *source = "wasm/scenarios/planted_bugs.c";

/* The line of the first line of the source containing text. */
static int line_of(const char *text)
{
	FILE *f = fopen(source, "r");
	char buf[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, text)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return -1;
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

TEST(each_planted_bug_is_reported_at_its_line)
{
	const struct scenario *sc = sim_scenario_find("planted-bugs");
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .policy = SIM_POLICY_TIMED };
	struct lab_result res;
	const char *text;
	char err[256];
	int n;

	ASSERT_TRUE(lab_run(sc, &p, &o, &res, err, sizeof(err)) == 0);
	ASSERT_EQ(res.status, SIM_DONE);
	ASSERT_EQ(res.live_objects, 0);

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
	ASSERT_TRUE(contains_line(text, "taken at %s:%d freer_task()", line_of("mutex_lock(&lock_b);")));

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

/* The use-after-free reported first: its taint leaves the inversion unreported. */
TEST(a_kasan_report_turns_lockdep_off)
{
	const struct scenario *sc = sim_scenario_find("kunit-planted-taint");
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .policy = SIM_POLICY_TIMED };
	struct lab_result res;
	const char *text;
	char err[256];
	int n;

	ASSERT_TRUE(lab_run(sc, &p, &o, &res, err, sizeof(err)) == 0);
	ASSERT_EQ(res.status, SIM_DONE);
	ASSERT_EQ(res.live_objects, 0);
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
	sc = sim_scenario_find("kunit-planted");
	p = sc->defaults;
	ASSERT_TRUE(lab_run(sc, &p, &o, &res, err, sizeof(err)) == 0);
	report_of(SIM_REPORT_LOCKDEP, &n);
	ASSERT_EQ(n, 1);
	text = report_of(SIM_REPORT_KASAN, &n);
	ASSERT_EQ(n, 1);
	ASSERT_TRUE(strstr(text, "Disabling lock debugging") == NULL);
	sim_fini();
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(each_planted_bug_is_reported_at_its_line),
		RUN(a_kasan_report_turns_lockdep_off),
	};

	return run_tests("planted-bugs", tests, sizeof(tests) / sizeof(tests[0]));
}
