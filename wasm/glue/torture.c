// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/torture.c of 6.12 on the simulated machine: its functions that
 * locktorture uses, extracted with their lines
 * (wasm/extract/selftest-torture.txt), and, before them, the project's
 * port of what the simulated machine cannot have.
 *
 * Project port, the task shuffler (torture_shuffle_*(), kernel/torture.c
 * lines 467-604): upstream's shuffler kthread moves every torture task
 * off one CPU in turn with set_cpus_allowed_ptr(), to make CPUs go idle;
 * a simulated task stays on the CPU it started on, so here
 * torture_shuffle_init() refuses (the scenarios set shuffle_interval=0),
 * and registering a task or cleaning up has nothing to do.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/sched.h>
/* what the kernel's headers bring into kernel/torture.c on the way */
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/cpumask_types.h>
#include <linux/jiffies.h>
#include <linux/hrtimer.h>

void torture_shuffle_task_register(struct task_struct *tp)
{
}

int torture_shuffle_init(long shuffint)
{
	pr_alert("torture_shuffle_init: no task shuffler on the simulated machine (shuffle_interval=%ld)\n",
		 shuffint);
	return -ENOSYS;
}

static void torture_shuffle_cleanup(void)
{
}

/*
 * Project port of torture_sched_setaffinity() (kernel/sched/syscalls.c):
 * locktorture's bind_readers and bind_writers pin its kthreads to CPUs,
 * and a simulated task cannot move. It refuses; the parameters are unset.
 */
long torture_sched_setaffinity(pid_t pid, const struct cpumask *in_mask)
{
	return -EINVAL;
}

/* rcu_ftrace_dump() (kernel/rcu/rcu.h): no ftrace buffer to dump here. */
#define rcu_ftrace_dump(oops_dump_mode)	do { } while (0)

#include "kernel/torture-extract.c"

/*
 * The "sleep" between insmod and rmmod of a torture scenario
 * (wasm/scenarios/selftest_locktorture.c, selftest_rcutorture.c): us
 * virtual microseconds, in jiffies when whole (schedule_timeout), else on
 * an hrtimer (schedule_hrtimeout()), as a shell's sleep of a fraction of a
 * second sleeps.
 */
void sim_torture_sleep_us(unsigned int us)
{
	ktime_t t = (ktime_t)us * NSEC_PER_USEC;

	if (us % (1000000 / HZ) == 0) {
		schedule_timeout_interruptible(us / (1000000 / HZ));
		return;
	}
	set_current_state(TASK_INTERRUPTIBLE);
	schedule_hrtimeout(&t, HRTIMER_MODE_REL);
}
