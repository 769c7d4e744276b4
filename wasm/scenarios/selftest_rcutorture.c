// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/rcu/rcutorture.c on the simulated machine (the selftest
 * variant): a scenario per line of rcutorture.def, whose init task does
 * what
 *
 *   insmod rcutorture.ko torture_type=<type> stat_interval=1 \
 *          shuffle_interval=0 stutter=0 irqreader=0 fwd_progress=0 \
 *          read_exit_burst=0 <args>
 *   sleep <us> virtual microseconds; rmmod rcutorture
 *
 * does, on the line's number of simulated CPUs (for an SRCU flavour after
 * the boot steps SRCU needs, sim_rcutorture_boot(): the system workqueue's
 * worker and srcu_init(); sim_rcutorture_halt() stops the worker at the
 * end): sets the module's parameters by name, calls its module_init()
 * function, sleeps for the test's duration in virtual time while the
 * reader, writer and fake-writer kthreads run, and calls its module_exit() function, which stops them
 * and prints the final statistics (the "Reader Pipe" and "Reader Batch"
 * histograms) and "End of test: SUCCESS" or "FAILURE";
 * wasm/selftest/run.sh reads those. A FAILURE, decided as the test
 * decides it (its error count), is also a report (sim_test_failed()),
 * which the explorer counts as a failing execution. The other parameters are upstream's
 * defaults (four fake writers). Turned off, for what the simulated machine has not
 * (docs/kernel-tests.md): the task shuffler, the timer-handler
 * readers, the forward-progress and read-exit tests; stutter=0, because
 * upstream's five-second pauses (stutter=5) would halt a run of a few
 * virtual seconds most of the time.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <sim.h>
#include "scenario.h"

#define RCUTORTURE_HUNG_TASK_NS (120ULL * 1000000000ULL)	/* hung_task_timeout_secs' default */

extern int (*const sim_module_init_rcu_torture_init)(void);
extern void (*const sim_module_exit_rcu_torture_cleanup)(void);
void sim_rcutorture_boot(void);
void sim_rcutorture_halt(void);
int sim_rcutorture_errors(void);			/* wasm/glue/rcutorture.c */
void sim_torture_sleep_us(unsigned int us);	/* wasm/glue/torture.c */

/* every run's parameters, before its own (rcutorture.def) */
#define RCUTORTURE_PARAMS \
	"stat_interval=1 shuffle_interval=0 stutter=0 irqreader=0 fwd_progress=0 read_exit_burst=0"

static void rcutorture_run(const char *type, const char *args, unsigned int us)
{
	int ret;

	ret = sim_module_param_set("rcutorture", "torture_type", type);
	if (!ret)
		ret = sim_module_params_set("rcutorture", RCUTORTURE_PARAMS);
	if (!ret)
		ret = sim_module_params_set("rcutorture", args);
	if (ret) {
		printk("rcutorture: a parameter was refused (%d)\n", ret);
		return;
	}
	if (strstr(type, "srcu"))	/* the flavours over SRCU */
		sim_rcutorture_boot();
	SCENARIO_CALL("rcutorture", 0, 0, 0);
	ret = sim_module_init_rcu_torture_init();
	SCENARIO_RETURN("rcutorture", ret);
	printk("selftest: insmod rcutorture torture_type=%s: init returned %d\n", type, ret);
	if (ret)
		return;
	sim_torture_sleep_us(us);
	printk("selftest: rmmod rcutorture\n");
	sim_module_exit_rcu_torture_cleanup();
	if (sim_rcutorture_errors())
		sim_test_failed(SIM_SITE(), "rcutorture: End of test: FAILURE (torture_type=%s, %d errors)",
				type, sim_rcutorture_errors());
	rcu_barrier();
	if (strstr(type, "srcu"))
		sim_rcutorture_halt();
}

#define RCUTORTURE_SCENARIO(id, scen_name, type, cpus, args, us)			\
static void rcutorture_##id##_init(void *arg)						\
{											\
	rcutorture_run(type, args, us);							\
}											\
const struct scenario scenario_rcutorture_##id = {					\
	.name = scen_name,								\
	.title = "kernel/rcu/rcutorture.c: torture_type=" type ", " #cpus " CPUs, " args, \
	.tree = SIM_KERNEL_TREE,							\
	.nr_cpus = cpus,								\
	.nr_nodes = 1,									\
	.hung_task_ns = RCUTORTURE_HUNG_TASK_NS,					\
	.defaults = { .seed = 1 },							\
	.init = rcutorture_##id##_init,						\
};
#include "rcutorture.def"
#undef RCUTORTURE_SCENARIO
