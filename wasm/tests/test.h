/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny test framework in the style of tools/testing/vma: TEST() defines
 * a test, ASSERT_*() fail it with file:line, and the runner prints
 * "N passed, N failed".
 */
#ifndef SIM_TEST_H
#define SIM_TEST_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct test {
	const char *name;
	int (*fn)(void);
};

#define TEST(name) static int test_##name(void)

#define ASSERT_TRUE(cond) do {							\
	if (!(cond)) {								\
		fprintf(stderr, "%s:%d: assertion failed: %s\n",		\
			__FILE__, __LINE__, #cond);				\
		return 1;							\
	}									\
} while (0)
#define ASSERT_FALSE(cond) ASSERT_TRUE(!(cond))
#define ASSERT_EQ(a, b) do {							\
	long long __a = (long long)(a), __b = (long long)(b);			\
	if (__a != __b) {							\
		fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",	\
			__FILE__, __LINE__, #a, #b, __a, __b);			\
		return 1;							\
	}									\
} while (0)

#define RUN(name) { #name, test_##name }

static inline int run_tests(const char *suite, const struct test *tests, int n)
{
	int i, failed = 0;

	for (i = 0; i < n; i++) {
		int r = tests[i].fn();

		printf("%s %s.%s\n", r ? "FAIL" : "ok  ", suite, tests[i].name);
		failed += r != 0;
	}
	printf("%s: %d passed, %d failed\n", suite, n - failed, failed);
	return failed ? 1 : 0;
}

/*
 * Run fn(arg, out) in a child process (a simulation run is one boot: one
 * per process) and copy its out[size] back. Returns fn's result, or -1 if
 * the child could not run or died (a sanitizer's report, a crash).
 */
static inline int run_in_child(int (*fn)(void *arg, void *out), void *arg, void *out, size_t size)
{
	int fds[2], status;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int r;

		close(fds[0]);
		memset(out, 0, size);
		r = fn(arg, out);
		if (write(fds[1], out, size) != (ssize_t)size)
			_exit(2);
		_exit(r);
	}
	close(fds[1]);
	if (read(fds[0], out, size) != (ssize_t)size)
		memset(out, 0, size);
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif /* SIM_TEST_H */
