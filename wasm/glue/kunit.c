// SPDX-License-Identifier: GPL-2.0-only
/*
 * Project port of the core of lib/kunit/test.c (v6.12): what
 * kunit_run_tests() does for suites of non-parameterised cases, printing
 * the same KTAP lines (kunit_print_suite_start(), kunit_print_ok_not_ok(),
 * kunit_print_suite_stats()), and the failure text of lib/kunit/assert.c.
 * Not upstream code: the cases run in the loading task, without the
 * try-catch kthread (see include/kunit/test.h).
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#define KUNIT_SUBTEST_INDENT	"    "

static const char *ok_not_ok(enum kunit_status status)
{
	return status == KUNIT_FAILURE ? "not ok" : "ok";
}

void sim_kunit_fail(struct kunit *test, const char *file, int line, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	test->status = KUNIT_FAILURE;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	printk(KUNIT_SUBTEST_INDENT "# %s: EXPECTATION FAILED at %s:%d\n", test->name, file, line);
	printk(KUNIT_SUBTEST_INDENT "%s\n", text);
}

void sim_kunit_msg(const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	printk(KUNIT_SUBTEST_INDENT "%s\n", text);
}

struct stats {
	unsigned long passed, failed, skipped, total;
};

static void update(struct stats *s, enum kunit_status status)
{
	if (status == KUNIT_SUCCESS)
		s->passed++;
	else if (status == KUNIT_FAILURE)
		s->failed++;
	else
		s->skipped++;
	s->total++;
}

static void run_suite(struct kunit_suite *suite, int number, const char *module)
{
	struct kunit_case *c;
	struct stats stats = { 0 };
	enum kunit_status suite_status = KUNIT_SKIPPED;
	int n = 0, err = 0;

	if (suite->suite_init)
		err = suite->suite_init(suite);
	if (err) {
		printk(KUNIT_SUBTEST_INDENT "# failed to initialize (%d)\n", err);
		printk("not ok %d %s\n", number, suite->name);
		return;
	}
	for (c = suite->test_cases; c->run_case; c++)
		n++;
	printk(KUNIT_SUBTEST_INDENT "KTAP version 1\n");
	printk(KUNIT_SUBTEST_INDENT "# Subtest: %s\n", suite->name);
	printk(KUNIT_SUBTEST_INDENT "# module: %s\n", module);
	printk(KUNIT_SUBTEST_INDENT "1..%d\n", n);
	for (c = suite->test_cases, n = 1; c->run_case; c++, n++) {
		struct kunit test = { .name = c->name, .status = KUNIT_SUCCESS };

		if (suite->init)
			err = suite->init(&test);
		if (suite->init && err)
			test.status = KUNIT_FAILURE;
		else
			c->run_case(&test);
		if (suite->exit)
			suite->exit(&test);
		c->status = test.status;
		printk(KUNIT_SUBTEST_INDENT "%s %d %s\n", ok_not_ok(c->status), n, c->name);
		update(&stats, c->status);
		if (c->status == KUNIT_FAILURE)
			suite_status = KUNIT_FAILURE;
		else if (c->status == KUNIT_SUCCESS && suite_status == KUNIT_SKIPPED)
			suite_status = KUNIT_SUCCESS;
	}
	if (suite->suite_exit)
		suite->suite_exit(suite);
	if (stats.total > 1) {
		printk("# %s: pass:%lu fail:%lu skip:%lu total:%lu\n", suite->name,
		       stats.passed, stats.failed, stats.skipped, stats.total);
		printk("# Totals: pass:%lu fail:%lu skip:%lu total:%lu\n",
		       stats.passed, stats.failed, stats.skipped, stats.total);
	}
	printk("%s %d %s\n", ok_not_ok(suite_status), number, suite->name);
}

int sim_kunit_run_suites(struct kunit_suite *const *suites, int n, const char *module)
{
	int i;

	printk("KTAP version 1\n");
	printk("1..%d\n", n);
	for (i = 0; i < n; i++)
		run_suite(suites[i], i + 1, module);
	return 0;
}
