// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own library tests on the simulated machine (the selftest
 * variant): one scenario per test module of 6.12, whose init task does
 * what loading the module does, calls its module_init() function, on a
 * machine of two CPUs. The test prints its own results (PRINTK events);
 * `labrun --console` prints them as the kernel's console would, and
 * wasm/selftest/run.sh reads each test's pass and fail counts from there.
 * A test module not built into this program is left out of the list.
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <sim.h>
#include "scenario.h"

/*
 * A test queues its RCU callbacks by the thousand (test_xarray frees every
 * node it makes through call_rcu()); the final rcu_barrier() waits for
 * them all, milliseconds of virtual time. The threshold stands for
 * hung_task_timeout_secs: a second here, as in the memcg-bitmap scale run.
 */
#define SELFTEST_HUNG_TASK_NS	1000000000ULL

/* initfn: the module's init function, as module_init() names it (linux/module.h) */
#define SELFTEST(ident, modname, initfn, scenario_title)				\
	SELFTEST_MODULE(ident, modname, sim_module_init_##initfn, scenario_title)
/* A KUnit module: kunit_test_suites() names its loader after the file (kunit/test.h). */
#define SELFTEST_KUNIT(ident, modname, scenario_title)					\
	SELFTEST_MODULE(ident, #modname, sim_kunit_init_##modname, scenario_title)

#define SELFTEST_MODULE(ident, modname, init_ptr, scenario_title)			\
extern int (*const init_ptr)(void) __attribute__((weak));				\
static void selftest_##ident##_init(void *arg)					\
{											\
	int ret;									\
											\
	SCENARIO_CALL(modname, 0, 0, 0);						\
	ret = init_ptr();								\
	SCENARIO_RETURN(modname, ret);							\
	printk("selftest: insmod %s: init returned %d\n", modname, ret);		\
	rcu_barrier();									\
}											\
const struct scenario scenario_selftest_##ident = {					\
	.name = "selftest-" #ident,							\
	.title = scenario_title,							\
	.tree = SIM_KERNEL_TREE,							\
	.nr_cpus = 2,									\
	.nr_nodes = 1,									\
	.hung_task_ns = SELFTEST_HUNG_TASK_NS,						\
	.defaults = { .seed = 1 },							\
	.init = selftest_##ident##_init,						\
}

SELFTEST(xarray, "test_xarray", xarray_checks, "lib/test_xarray.c: the XArray API test module");
SELFTEST(ida, "test_ida", ida_checks, "lib/test_ida.c: the IDA API test module");
SELFTEST(atomic64, "atomic64_test", test_atomics_init, "lib/atomic64_test.c: atomic_t and atomic64_t");
SELFTEST_KUNIT(list, list_test, "lib/list-test.c: KUnit tests of list.h, hlist and klist");
SELFTEST(bitmap, "test_bitmap", test_bitmap_init, "lib/test_bitmap.c: the bitmap API and the find-bit functions");

/*
 * The threaded test of the IDA in the kernel's radix-tree test harness
 * (tools/testing/radix-tree/idr-test.c, ida_thread_tests(), its second
 * half): 20 threads allocate and free id 128 of one IDA at once, each
 * for 2 seconds of the harness's time(), and the IDA must be empty
 * after; the IDA's xa_lock is all that keeps two of them from taking
 * the id together (ida_free() then WARNs that the id is not allocated).
 * ida_leak_fn() is the harness's, extracted with its lines
 * (wasm/extract/selftest-idr-test.txt); the harness around it is the
 * project's, as the simulated machine gives it: a thread is a task (the
 * 20 spread over the CPUs), time() counts seconds of
 * SELFTEST_HARNESS_SECOND_NS of the task's CPU clock, and the harness's
 * assert() prints what the C library's does. The first half
 * (ida_random_fn(): 20 threads each on an IDA of its own, at least
 * 2,000,000 operations, nothing shared) is left out.
 */
#include <linux/completion.h>
#include <linux/idr.h>

#define SELFTEST_HARNESS_SECOND_NS	1000000ULL	/* a virtual millisecond */
#define SELFTEST_IDA_THREADS		20		/* pthread_t threads[20] */

typedef long time_t;
static time_t selftest_harness_time(time_t *t)
{
	return (time_t)(sim_clock_ns() / SELFTEST_HARNESS_SECOND_NS);
}
#define time(t)			selftest_harness_time(t)
#define rcu_register_thread()	do { } while (0)
#define rcu_unregister_thread()	do { } while (0)

#include "tools/testing/radix-tree/idr-test-extract.c"

static DEFINE_IDA(selftest_ida);		/* ida_thread_tests()'s DEFINE_IDA(ida) */
static struct completion selftest_threads_done;

static void selftest_ida_leak_task(void *ida)
{
	ida_leak_fn(ida);
	complete(&selftest_threads_done);
}

static void ida_threads_init(void *arg)
{
	int i;

	init_completion(&selftest_threads_done);
	for (i = 0; i < SELFTEST_IDA_THREADS; i++)
		sim_spawn(i % sim_nr_cpus(), "ida_leak_fn", selftest_ida_leak_task, &selftest_ida);
	for (i = 0; i < SELFTEST_IDA_THREADS; i++)
		wait_for_completion(&selftest_threads_done);
	/* assert(ida_is_empty(&ida)), as the C library reports it */
	if (!ida_is_empty(&selftest_ida))
		printk("idr-test: tools/testing/radix-tree/idr-test.c:602: ida_thread_tests: Assertion `ida_is_empty(&ida)' failed.\n");
	else
		printk("ida_thread_tests: passed\n");
	ida_destroy(&selftest_ida);
	rcu_barrier();
}

const struct scenario scenario_selftest_ida_threads = {
	.name = "selftest-ida-threads",
	.title = "tools/testing/radix-tree/idr-test.c: 20 threads on one IDA",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 2,
	.nr_nodes = 1,
	.hung_task_ns = SELFTEST_HUNG_TASK_NS,
	.defaults = { .seed = 1 },
	.init = ida_threads_init,
};
