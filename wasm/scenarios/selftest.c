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
static void ident##_init(void *arg)							\
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
	.init = ident##_init,								\
}

SELFTEST(xarray, "test_xarray", xarray_checks, "lib/test_xarray.c: the XArray API test module");
SELFTEST(ida, "test_ida", ida_checks, "lib/test_ida.c: the IDA API test module");
SELFTEST(atomic64, "atomic64_test", test_atomics_init, "lib/atomic64_test.c: atomic_t and atomic64_t");
SELFTEST_KUNIT(list, list_test, "lib/list-test.c: KUnit tests of list.h, hlist and klist");
