// SPDX-License-Identifier: GPL-2.0-only
/*
 * Litmus tests written against the kernel API, as kernel code uses it:
 * they go through the shim's macros (refcount_t, rcu_read_lock(),
 * kvfree_rcu(), per-CPU data, barriers, spinlocks) rather than the
 * runtime's functions. Built like project code; driven by
 * test_kernel_api.c.
 */
#include <linux/kernel.h>
#include <linux/refcount.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <sim.h>
#include "litmus_kernel.h"

struct litmus_results litmus;

/* ---- refcount_t: saturation and increment-on-zero -------------------- */

static void refcount_task(void *arg)
{
	refcount_t r = REFCOUNT_INIT(1);

	litmus.dec_and_test_hit_zero = refcount_dec_and_test(&r);
	refcount_inc(&r);				/* WARN: addition on 0 */
	litmus.after_inc_on_zero = refcount_read(&r);
	refcount_set(&r, INT_MAX);
	refcount_inc(&r);				/* WARN: saturated */
	litmus.after_overflow = refcount_read(&r);
	refcount_set(&r, 0);
	refcount_dec(&r);				/* WARN: underflow */
	litmus.after_underflow = refcount_read(&r);
	litmus.inc_not_zero_on_zero = refcount_inc_not_zero(&r) ? 1 : 0;
}

void litmus_refcount(void)
{
	sim_spawn(0, "refcount", refcount_task, NULL);
}

/* ---- RCU: nested read-side sections hold a grace period ------------- */

static void nested_reader(void *arg)
{
	rcu_read_lock();
	rcu_read_lock();
	WRITE_ONCE(litmus.reader_inside, 1);
	rcu_read_unlock();		/* still inside the outer section */
	for (int i = 0; i < 100; i++)
		smp_mb();
	WRITE_ONCE(litmus.reader_inside, 0);
	rcu_read_unlock();
	cond_resched();
}

static void synchronizer(void *arg)
{
	while (!READ_ONCE(litmus.reader_inside))
		smp_rmb();
	synchronize_rcu();
	litmus.reader_inside_after_sync = READ_ONCE(litmus.reader_inside);
}

void litmus_rcu_nesting(void)
{
	sim_spawn(0, "reader", nested_reader, NULL);
	sim_spawn(1, "sync", synchronizer, NULL);
}

/* ---- kvfree_rcu(): the object outlives the grace period's readers ---- */

struct rcu_object {
	int value;
	struct rcu_head rcu;
};

static struct rcu_object *published;

static void rcu_reader(void *arg)
{
	struct rcu_object *o;

	rcu_read_lock();
	o = rcu_dereference(published);
	WRITE_ONCE(litmus.reader_inside, 1);
	for (int i = 0; i < 60; i++) {
		litmus.read_value = READ_ONCE(o->value);	/* KASAN would report a free */
		smp_mb();	/* a preemption point: the updater runs meanwhile */
	}
	WRITE_ONCE(litmus.reader_inside, 0);
	rcu_read_unlock();
	cond_resched();
}

static void rcu_updater(void *arg)
{
	struct rcu_object *o = READ_ONCE(published);

	while (!READ_ONCE(litmus.reader_inside))
		smp_rmb();
	rcu_assign_pointer(published, NULL);
	kvfree_rcu(o, rcu);
}

void litmus_kvfree_rcu(void)
{
	struct rcu_object *o = kzalloc(sizeof(*o), GFP_KERNEL);

	o->value = 42;
	published = o;
	sim_spawn(0, "reader", rcu_reader, NULL);
	sim_spawn(1, "updater", rcu_updater, NULL);
}

/* ---- per-CPU data ----------------------------------------------------- */

static DEFINE_PER_CPU(int, hits);
static int *dyn_hits;

static void percpu_task(void *arg)
{
	for (int i = 0; i < 10; i++) {
		this_cpu_inc(hits);
		(*this_cpu_ptr(dyn_hits)) += 2;
		cond_resched();
	}
}

void litmus_percpu(int cpus)
{
	int cpu;

	dyn_hits = alloc_percpu(int);
	for_each_possible_cpu(cpu)
		per_cpu(hits, cpu) = 0;
	for (cpu = 0; cpu < cpus; cpu++)
		sim_spawn(cpu, "percpu", percpu_task, NULL);
}

void litmus_percpu_collect(int cpus)
{
	int cpu;

	litmus.percpu_ok = 1;
	for (cpu = 0; cpu < cpus; cpu++)
		if (per_cpu(hits, cpu) != 10 || *per_cpu_ptr(dyn_hits, cpu) != 20)
			litmus.percpu_ok = 0;
	free_percpu(dyn_hits);
}

/* ---- spinlock_irqsave and mutexes on many CPUs ------------------------- */

static DEFINE_SPINLOCK(counter_lock);
static DEFINE_MUTEX(counter_mutex);

static void counter_task(void *arg)
{
	unsigned long flags;

	for (int i = 0; i < 3; i++) {
		int c;

		spin_lock_irqsave(&counter_lock, flags);
		c = litmus.counter;
		smp_mb();
		litmus.counter = c + 1;
		spin_unlock_irqrestore(&counter_lock, flags);

		mutex_lock(&counter_mutex);
		c = litmus.mutex_counter;
		cond_resched();
		litmus.mutex_counter = c + 1;
		mutex_unlock(&counter_mutex);
	}
}

void litmus_many_cpus(int cpus)
{
	for (int cpu = 0; cpu < cpus; cpu++)
		sim_spawn(cpu, "counter", counter_task, NULL);
}

/* ---- sleep and wakeup: a wakeup before schedule() is not lost ------------ */

static struct task_struct *sleeper;
static int wake_flag;

static void waiter_task(void *arg)
{
	WRITE_ONCE(sleeper, current);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(wake_flag))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	litmus.woken++;
}

static void waker_task(void *arg)
{
	while (!READ_ONCE(sleeper))
		cond_resched();
	WRITE_ONCE(wake_flag, 1);
	smp_mb();
	litmus.wake_returned = wake_up_process(sleeper);
}

void litmus_wakeup(void)
{
	sleeper = NULL;
	wake_flag = 0;
	sim_spawn(0, "waiter", waiter_task, NULL);
	sim_spawn(1, "waker", waker_task, NULL);
}
