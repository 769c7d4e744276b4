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
 * None of this is kernel code. The markers "BUG:" below name the lines the
 * reports must point at; the native tests look for them.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/completion.h>
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

static void freer_task(void *arg)
{
	struct planted_object *obj = kzalloc(sizeof(*obj), GFP_KERNEL);

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

	wait_for_completion(&published);
	obj = READ_ONCE(shared);
	wait_for_completion(&freed);
	sum = READ_ONCE(obj->value);	/* BUG: use-after-free */
	WRITE_ONCE(seen, sum);
	WRITE_ONCE(shared, NULL);

	mutex_lock(&lock_b);
	mutex_lock(&lock_a);	/* BUG: lock order inversion */
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);

	rcu_read_lock();
	mutex_lock(&lock_a);	/* BUG: sleeping in RCU read-side section */
	mutex_unlock(&lock_a);
	rcu_read_unlock();
	complete(&tasks_done);
}

static void init_task(void *arg)
{
	init_completion(&published);
	init_completion(&freed);
	init_completion(&tasks_done);
	sim_spawn(0, "freer", freer_task, NULL);
	sim_spawn(1, "reader", reader_task, NULL);
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
	.defaults = { .seed = 1, .rounds = 1, .objects = 0 },
	.init = init_task,
};
