/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: KUnit (Documentation/dev-tools/kunit/) for the kernel's
 * KUnit tests on the simulated machine. The structures and the
 * KUNIT_EXPECT_*() macros the tests use; wasm/glue/kunit.c, a project
 * port of the core of lib/kunit/test.c's kunit_run_tests(), runs the
 * suites and prints KTAP as it does ("# suite: pass:N fail:N skip:N
 * total:N"). Cases run in the loading task, one after the other: there
 * is no try-catch kthread, so KUNIT_ASSERT_*() (which abort a case) and
 * parameterised cases are not provided, and a test that uses them does
 * not compile. A failed expectation prints integers as KUnit does and
 * pointers only as NULL or non-NULL (their values differ between the
 * native and the wasm build).
 */
#ifndef _KUNIT_TEST_H
#define _KUNIT_TEST_H

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/string.h>

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit {
	const char *name;
	enum kunit_status status;
	void *priv;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	enum kunit_status status;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }

int sim_kunit_run_suites(struct kunit_suite *const *suites, int n, const char *module);

#define __SIM_KUNIT_CAT(a, b)	a##b
#define SIM_KUNIT_CAT(a, b)	__SIM_KUNIT_CAT(a, b)
/* What loading the module does: run its suites. SIM_MODULE: the file's name as a token. */
#define kunit_test_suites(...)								\
	static struct kunit_suite *const __sim_kunit_suites[] = { __VA_ARGS__ };	\
	static int __sim_kunit_init(void)						\
	{										\
		return sim_kunit_run_suites(__sim_kunit_suites,				\
					    ARRAY_SIZE(__sim_kunit_suites), KBUILD_MODNAME); \
	}										\
	int (*const SIM_KUNIT_CAT(sim_kunit_init_, SIM_MODULE))(void) = __sim_kunit_init
#define kunit_test_suite(suite)	kunit_test_suites(&suite)

/* The failure's text, at the expectation's line: lib/kunit/assert.c's forms. */
void sim_kunit_fail(struct kunit *test, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A _MSG expectation's message, after its failure. */
void sim_kunit_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define SIM_KUNIT_NO_MSG	do { } while (0)

#define KUNIT_EXPECT_BINARY(test, left, op, right, msg) do {				\
	long long __left = (long long)(left), __right = (long long)(right);		\
	if (!(__left op __right)) {							\
		sim_kunit_fail(test, __FILE__, __LINE__,				\
			       "Expected %s " #op " %s, but\n        %s == %lld (0x%llx)\n" \
			       "        %s == %lld (0x%llx)", #left, #right,		\
			       #left, __left, (unsigned long long)__left,		\
			       #right, __right, (unsigned long long)__right);		\
		msg;									\
	}										\
} while (0)
#define KUNIT_EXPECT_PTR_BINARY(test, left, op, right, msg) do {			\
	const void *__left = (left), *__right = (right);				\
	if (!(__left op __right)) {							\
		sim_kunit_fail(test, __FILE__, __LINE__,				\
			       "Expected %s " #op " %s, but\n        %s is %s\n"		\
			       "        %s is %s", #left, #right,				\
			       #left, __left ? "a pointer" : "NULL",			\
			       #right, __right ? "a pointer" : "NULL");			\
		msg;									\
	}										\
} while (0)
#define KUNIT_EXPECT_BOOL(test, cond, expect, msg) do {				\
	if (!!(cond) != (expect)) {							\
		sim_kunit_fail(test, __FILE__, __LINE__,				\
			       "Expected %s to be %s, but is %s", #cond,		\
			       (expect) ? "true" : "false", (expect) ? "false" : "true"); \
		msg;									\
	}										\
} while (0)

#define KUNIT_EXPECT_EQ(test, l, r)	KUNIT_EXPECT_BINARY(test, l, ==, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_NE(test, l, r)	KUNIT_EXPECT_BINARY(test, l, !=, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_LT(test, l, r)	KUNIT_EXPECT_BINARY(test, l, <, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_LE(test, l, r)	KUNIT_EXPECT_BINARY(test, l, <=, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_GT(test, l, r)	KUNIT_EXPECT_BINARY(test, l, >, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_GE(test, l, r)	KUNIT_EXPECT_BINARY(test, l, >=, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_PTR_EQ(test, l, r)	KUNIT_EXPECT_PTR_BINARY(test, l, ==, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_PTR_NE(test, l, r)	KUNIT_EXPECT_PTR_BINARY(test, l, !=, r, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_NULL(test, p)	KUNIT_EXPECT_PTR_BINARY(test, p, ==, NULL, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_NOT_NULL(test, p)	KUNIT_EXPECT_PTR_BINARY(test, p, !=, NULL, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_TRUE(test, c)	KUNIT_EXPECT_BOOL(test, c, 1, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_FALSE(test, c)	KUNIT_EXPECT_BOOL(test, c, 0, SIM_KUNIT_NO_MSG)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt, ...) \
	KUNIT_EXPECT_BINARY(test, l, ==, r, sim_kunit_msg(fmt, ##__VA_ARGS__))
#define KUNIT_EXPECT_TRUE_MSG(test, c, fmt, ...) \
	KUNIT_EXPECT_BOOL(test, c, 1, sim_kunit_msg(fmt, ##__VA_ARGS__))
#define KUNIT_EXPECT_FALSE_MSG(test, c, fmt, ...) \
	KUNIT_EXPECT_BOOL(test, c, 0, sim_kunit_msg(fmt, ##__VA_ARGS__))

#endif /* _KUNIT_TEST_H */
