// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/locking/locktorture.c on the simulated machine (the selftest
 * variant): a scenario per torture_type (locktorture.def),
 * selftest-locktorture-<ident>, whose init task does what
 *
 *   insmod locktorture.ko torture_type=<type> stat_interval=1 shuffle_interval=0 [param=value]
 *   sleep LOCKTORTURE_SECONDS; rmmod locktorture
 *
 * does, on LOCKTORTURE_CPUS simulated CPUs: sets the module's parameters
 * by name, calls its module_init() function, sleeps for the test's
 * duration in virtual time while the writer (and reader) kthreads
 * torture the lock, and calls its module_exit() function, which stops
 * them and prints the final statistics and "End of test: SUCCESS" or
 * "FAILURE". wasm/selftest/run.sh reads those. The parameters left at
 * their defaults are upstream's (2 writers per CPU, for rwsem_lock one
 * writer and one reader per CPU; long_hold=100, stutter=5, verbose=1).
 * shuffle_interval=0: the simulated machine has no task shuffler
 * (wasm/glue/torture.c).
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/jiffies.h>
#include <sim.h>
#include "scenario.h"

#define LOCKTORTURE_CPUS	2
#define LOCKTORTURE_SECONDS	3	/* virtual */
#define LOCKTORTURE_HUNG_TASK_NS (120ULL * 1000000000ULL)	/* hung_task_timeout_secs' default */

extern int (*const sim_module_init_lock_torture_init)(void);
extern void (*const sim_module_exit_lock_torture_cleanup)(void);

static void locktorture_param(const char *name, const char *val)
{
	int ret = sim_module_param_set("locktorture", name, val);

	if (ret)
		printk("locktorture: unknown parameter '%s' ignored (%d)\n", name, ret);
}

static void locktorture_run(const char *type, const char *param, const char *value)
{
	int ret;

	locktorture_param("torture_type", type);
	locktorture_param("stat_interval", "1");
	locktorture_param("shuffle_interval", "0");
	if (param)
		locktorture_param(param, value);
	SCENARIO_CALL("locktorture", 0, 0, 0);
	ret = sim_module_init_lock_torture_init();
	SCENARIO_RETURN("locktorture", ret);
	printk("selftest: insmod locktorture torture_type=%s: init returned %d\n", type, ret);
	if (ret)
		return;
	schedule_timeout_interruptible(LOCKTORTURE_SECONDS * HZ);
	printk("selftest: rmmod locktorture\n");
	sim_module_exit_lock_torture_cleanup();
	rcu_barrier();
}

#define LOCKTORTURE_SCENARIO(ident, type, param, value)				\
static void locktorture_##ident##_init(void *arg)					\
{											\
	locktorture_run(#type, param, value);						\
}											\
const struct scenario scenario_locktorture_##ident = {					\
	.name = "selftest-locktorture-" #ident,						\
	.title = "kernel/locking/locktorture.c: torture_type=" #type,			\
	.tree = SIM_KERNEL_TREE,							\
	.nr_cpus = LOCKTORTURE_CPUS,							\
	.nr_nodes = 1,									\
	.hung_task_ns = LOCKTORTURE_HUNG_TASK_NS,					\
	.defaults = { .seed = 1 },							\
	.init = locktorture_##ident##_init,						\
};
#include "locktorture.def"
#undef LOCKTORTURE_SCENARIO
