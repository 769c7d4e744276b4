// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/locking/locktorture.c on the simulated machine (the selftest
 * variant): the scenarios of locktorture.def, each of which has its init
 * task do what
 *
 *   insmod locktorture.ko torture_type=<type> shuffle_interval=0 <args>
 *   sleep <us> virtual microseconds; rmmod locktorture
 *
 * does, on 2 simulated CPUs or the run's --cpus (at most
 * LOCKTORTURE_MAX_CPUS): sets the module's parameters by name, calls its
 * module_init() function, sleeps for the test's duration in virtual time
 * while the writer (and reader) kthreads torture the lock, and calls its
 * module_exit() function, which stops them and prints the final
 * statistics and "End of test: SUCCESS" or "FAILURE". wasm/selftest/run.sh
 * reads those; a FAILURE, decided as the test decides it (its error
 * count), is also a report (sim_test_failed()), which the explorer counts
 * as a failing execution. The parameters left at their defaults are
 * upstream's (2 writers per CPU, for rwsem_lock one writer and one reader
 * per CPU; long_hold=100, stutter=5, verbose=1). shuffle_interval=0: the
 * simulated machine has no task shuffler (wasm/glue/torture.c).
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <sim.h>
#include "scenario.h"

#define LOCKTORTURE_CPUS	2	/* without --cpus */
#define LOCKTORTURE_MAX_CPUS	RUN_PARAM_MAX_CPUS	/* params.def: --cpus */
#define LOCKTORTURE_HUNG_TASK_NS (120ULL * 1000000000ULL)	/* hung_task_timeout_secs' default */

extern int (*const sim_module_init_lock_torture_init)(void);
extern void (*const sim_module_exit_lock_torture_cleanup)(void);
int sim_locktorture_errors(void);	/* wasm/glue/locktorture.c */
void sim_torture_sleep_us(unsigned int us);	/* wasm/glue/torture.c */

static void locktorture_run(const char *type, const char *args, unsigned int us)
{
	int ret;

	sim_module_param_set("locktorture", "torture_type", type);
	sim_module_params_set("locktorture", "shuffle_interval=0");
	sim_module_params_set("locktorture", args);
	SCENARIO_CALL("locktorture", 0, 0, 0);
	ret = sim_module_init_lock_torture_init();
	SCENARIO_RETURN("locktorture", ret);
	printk("selftest: insmod locktorture torture_type=%s %s: init returned %d\n", type, args, ret);
	if (ret)
		return;
	sim_torture_sleep_us(us);
	printk("selftest: rmmod locktorture\n");
	sim_module_exit_lock_torture_cleanup();
	if (sim_locktorture_errors())
		sim_test_failed(SIM_SITE(), "locktorture: End of test: FAILURE (torture_type=%s, %d errors)",
				type, sim_locktorture_errors());
	rcu_barrier();
}

static int locktorture_cpus(const struct scenario_params *p)
{
	return p->cpus ? p->cpus : LOCKTORTURE_CPUS;
}

#define LOCKTORTURE_SCENARIO(ident, scen_name, type, args, us)				\
static void locktorture_##ident##_init(void *arg)					\
{											\
	locktorture_run(#type, args, us);						\
}											\
const struct scenario scenario_locktorture_##ident = {					\
	.name = scen_name,								\
	.title = "kernel/locking/locktorture.c: torture_type=" #type " " args,		\
	.tree = SIM_KERNEL_TREE,							\
	.nr_cpus = LOCKTORTURE_MAX_CPUS,						\
	.cpus = locktorture_cpus,							\
	.nr_nodes = 1,									\
	.hung_task_ns = LOCKTORTURE_HUNG_TASK_NS,					\
	.defaults = { .seed = 1 },							\
	.init = locktorture_##ident##_init,						\
};
#include "locktorture.def"
#undef LOCKTORTURE_SCENARIO
