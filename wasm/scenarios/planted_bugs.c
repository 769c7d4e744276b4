// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "planted-bugs": three bugs planted on purpose, in project code
 * that uses the kernel's own primitives through the shim, so that each of
 * the simulated kernel's reports can be seen and tested:
 *
 *  - a slab-use-after-free: CPU0 frees an object while CPU1 still reads it
 *    without holding a reference (KASAN);
 *  - a lock-order inversion: one task takes lock_a then lock_b, another
 *    later takes lock_b then lock_a (lockdep, before any deadlock happens);
 *  - sleeping in an RCU read-side critical section: mutex_lock() inside
 *    rcu_read_lock() (CONFIG_DEBUG_ATOMIC_SLEEP).
 *
 * The bugs come in that order, as a kernel can report them: lockdep
 * reports once and then turns itself off, and a KASAN report taints the
 * kernel and turns lockdep off too, so a use-after-free reported first
 * would leave the inversion unreported (scenario "kunit-planted-taint").
 *
 * Two more, each alone, chosen by the "planted" parameter, for the ends
 * of a run that the three above never reach:
 *
 *  - PLANTED_DEADLOCK: the same inversion, run into the deadlock lockdep
 *    predicts: each task holds its first lock when the other asks for it;
 *  - PLANTED_HUNG: a completion signalled only long after the
 *    hung-task timeout, so that the task waiting for it is reported
 *    (kernel/hung_task.c's "blocked for more than"), and then goes on.
 *
 * None of this is kernel code. The markers "BUG:" below name the lines the
 * reports must point at; the native tests look for them.
 *
 * Also here: "kunit-planted" and "kunit-planted-taint", the same bugs in
 * one task (kunit_planted_body.h), which User-Mode Linux referees with its
 * own KASAN, lockdep and might_sleep() checks.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/completion.h>
#include <linux/string.h>
#include <sim.h>
#include "scenario.h"

struct planted_object {
	int value;
	int pad[7];
};

static struct planted_object *shared;
static int seen;
static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);
static struct completion published, freed, tasks_done;

enum { PLANTED_REPORTS, PLANTED_DEADLOCK, PLANTED_HUNG };
static int planted;

/* PLANTED_HUNG: the freer's work after the free, in steps, before it remembers the complete(). */
#define PLANTED_HUNG_STEPS	8
#define PLANTED_HUNG_STEP_NS	(PLANTED_HUNG_TIMEOUT_NS / 2)
#define PLANTED_HUNG_TIMEOUT_NS	1000000ULL	/* the scenario's hung-task threshold: 1 ms virtual */
static struct completion a_held, b_held;

static void deadlock_freer(void)
{
	mutex_lock(&lock_a);
	complete(&a_held);
	wait_for_completion(&b_held);
	mutex_lock(&lock_b);	/* BUG: deadlock, lock_b is the reader's */
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);
	complete(&tasks_done);
}

static void deadlock_reader(void)
{
	mutex_lock(&lock_b);
	complete(&b_held);
	wait_for_completion(&a_held);
	mutex_lock(&lock_a);	/* BUG: deadlock, lock_a is the freer's */
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
	complete(&tasks_done);
}

static void hung_freer(void)
{
	int i;

	/* The work after the free goes on; the complete() is forgotten until it ends. */
	for (i = 0; i < PLANTED_HUNG_STEPS; i++)
		sim_sleep_ns(PLANTED_HUNG_STEP_NS, SIM_SITE());
	complete(&freed);
	complete(&tasks_done);
}

static void hung_reader(void)
{
	wait_for_completion(&freed);	/* BUG: hung task, signalled only after the timeout */
	complete(&tasks_done);
}

static void freer_task(void *arg)
{
	struct planted_object *obj;

	if (planted == PLANTED_DEADLOCK) {
		deadlock_freer();
		return;
	}
	if (planted == PLANTED_HUNG) {
		hung_freer();
		return;
	}
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return;
	WRITE_ONCE(shared, obj);
	complete(&published);

	/* lock_a, then lock_b: the order the reader will break later */
	mutex_lock(&lock_a);
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);

	kfree(obj);	/* no grace period, no reference: the reader still has it */
	complete(&freed);
	complete(&tasks_done);
}

static void reader_task(void *arg)
{
	struct planted_object *obj;
	int sum;

	if (planted == PLANTED_DEADLOCK) {
		deadlock_reader();
		return;
	}
	if (planted == PLANTED_HUNG) {
		hung_reader();
		return;
	}
	wait_for_completion(&published);
	obj = READ_ONCE(shared);
	wait_for_completion(&freed);	/* the freer took lock_a, then lock_b */

	mutex_lock(&lock_b);
	mutex_lock(&lock_a);	/* BUG: lock order inversion */
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);

	rcu_read_lock();
	mutex_lock(&lock_a);	/* BUG: sleeping in RCU read-side section */
	mutex_unlock(&lock_a);
	rcu_read_unlock();

	sum = READ_ONCE(obj->value);	/* BUG: use-after-free */
	WRITE_ONCE(seen, sum);
	WRITE_ONCE(shared, NULL);
	complete(&tasks_done);
}

static void init_task(void *arg)
{
	planted = ((const struct scenario_params *)arg)->planted;
	init_completion(&published);
	init_completion(&freed);
	init_completion(&tasks_done);
	if (planted == PLANTED_DEADLOCK) {
		init_completion(&a_held);
		init_completion(&b_held);
	}
	sim_spawn(0, "freer", freer_task, NULL);
	sim_spawn(1, "reader", reader_task, NULL);
	if (planted == PLANTED_HUNG) {
		/* Look in now and then, as a watchdog would, so that only the reader waits on and on. */
		while (!completion_done(&tasks_done))
			sim_sleep_ns(PLANTED_HUNG_STEP_NS, SIM_SITE());
	}
	wait_for_completion(&tasks_done);
	wait_for_completion(&tasks_done);
	rcu_barrier();
}

const struct scenario scenario_planted_bugs = {
	.name = "planted-bugs",
	.title = "Planted bugs: what KASAN and lockdep report",
	.tree = "project",
	.nr_cpus = 2,
	.nr_nodes = 1,
	.hung_task_ns = PLANTED_HUNG_TIMEOUT_NS,
	.defaults = { .seed = 1, .rounds = 1, .objects = 0 },
	.init = init_task,
};

/* ---- the same bugs in one task, for User-Mode Linux to referee ------------- */

#define rl_trace(fmt, ...)	printk("reclaim_lab: " fmt, ##__VA_ARGS__)
#define rl_debug_locks()	sim_debug_locks()

static int rl_reports_seen;	/* reports before this index were read or skipped */

static void rl_reports_skip(void)
{
	rl_reports_seen = sim_nr_reports();
}

/* The texts of the reports since, one after another, as the console shows them. */
static void rl_reports_take(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; rl_reports_seen < sim_nr_reports(); rl_reports_seen++) {
		const char *title, *text;
		int type, event;

		if (sim_report_info(rl_reports_seen, &type, &event, &title, &text) == 0 && n + 1 < size)
			n += min_t(size_t, snprintf(buf + n, size - n, "%s", text), size - n - 1);
	}
}

#include "kunit_planted_body.h"

static void planted_run(bool uaf_first)
{
	const char *name = uaf_first ? "reclaim_lab_planted_taint" : "reclaim_lab_planted";

	SCENARIO_CALL(name, 0, 0, 0);
	SCENARIO_RETURN(name, rl_planted_run(uaf_first));
}

static void kunit_planted_init(void *arg)
{
	planted_run(false);
}

static void kunit_planted_taint_init(void *arg)
{
	planted_run(true);
}

#define KUNIT_IF_ALL(...)
#define KUNIT_IF_WORD64(...)
#define KUNIT_IF_INODE(...)
#define KUNIT_IF_FOLIO_LRU(...)
#define KUNIT_IF_PLANTED(...)	__VA_ARGS__
#define KUNIT_TREE		"project"
#define KUNIT_SCENARIO		KUNIT_DEFINE
#include "kunit.def"
