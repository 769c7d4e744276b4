// SPDX-License-Identifier: GPL-2.0-only
/*
 * Spinlocks, mutexes and completions, following
 * Documentation/locking/spinlocks.rst, Documentation/locking/mutex-design.rst
 * and Documentation/scheduler/completion.rst:
 *
 *  - spinlock_t: a CPU that finds the lock held spins, burning its own
 *    virtual time, and waiters get the lock in arrival order (as qspinlock's
 *    MCS queue gives it). Holding one disables preemption, so it is never a
 *    quiescent state.
 *  - mutex: a task that finds it held sleeps and is woken in FIFO order;
 *    the unlocker hands the lock to the first waiter. (The kernel's
 *    optimistic spinning on a running owner is not modelled: the waiter
 *    always sleeps.)
 *  - completion: complete() lets one waiter through, complete_all() all of
 *    them, now and later; wait_for_completion() sleeps until done > 0.
 */
#include <limits.h>
#include "runtime.h"

static int next_lock_id = 1;

void sim_locks_init(void)
{
	next_lock_id = 1;
}

static void lock_name_id(struct sim_lock *l, const struct sim_site *site)
{
	if (l->boot != sim_boot) {
		/* First use in this run: a static lock may remember an earlier one. */
		l->boot = sim_boot;
		l->id = next_lock_id++;
		l->owner = 0;
		l->waiters.head = l->waiters.tail = NULL;
		sim_event(SIM_EV_LOCK_INIT, site, l->id, sim_name(l->name), sim_obj_of(l), l->type);
	}
}

static void lock_event(int kind, struct sim_lock *l, int a2, const struct sim_site *site)
{
	sim_event(kind, site, l->id, sim_name(l->name), a2, l->type);
}

void sim_lock_init(struct sim_lock *l, const char *name, int type, const struct sim_site *site)
{
	l->boot = 0;
	l->name = name;
	l->owner = 0;
	l->type = type;
	l->waiters.head = l->waiters.tail = NULL;
	lock_name_id(l, site);
}

int sim_lock_held(const struct sim_lock *l)
{
	return sim_current && l->owner == sim_current->id + 1;
}

int sim_lock_is_locked(const struct sim_lock *l)
{
	return l->owner != 0;
}

static int owner_cpu(const struct sim_lock *l)
{
	struct sim_task *o = sim_task_by_id(l->owner - 1);

	return o ? o->cpu : -1;
}

static void take(struct sim_lock *l, const struct sim_site *site)
{
	l->owner = sim_current->id + 1;
	if (l->type == SIM_LOCK_SPIN)
		sim_current->spinlocks_held++;
	lock_event(SIM_EV_LOCK_ACQUIRE, l, sim_obj_of(l), site);
}

void sim_spin_lock(struct sim_lock *l, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	lock_name_id(l, site);
	sim_lockdep_acquire(l, site, 0);
	if (l->owner || l->waiters.head) {
		struct sim_cpu *c = &sim_cpus[t->cpu];

		lock_event(SIM_EV_LOCK_CONTEND, l, owner_cpu(l), site);
		if (l->owner == t->id + 1)
			sim_bug("spinlock recursion", site);
		sim_waitq_add(&l->waiters, t);
		t->spinning_on = l;
		/* Spin: burn time until the lock is free and it is our turn. */
		while (l->owner || l->waiters.head != &t->waiter) {
			int oc = owner_cpu(l);

			if (oc >= 0 && sim_cpus[oc].clock > c->clock)
				c->clock = sim_cpus[oc].clock;
			sim_spin_step(site);
		}
		sim_waitq_pop(&l->waiters);
		t->spinning_on = NULL;
	}
	take(l, site);
	sim_step(site, SIM_COST_SPIN_LOCK);
}

/* Either kind of trylock: take the lock only if nobody holds or awaits it. */
static int trylock(struct sim_lock *l, const struct sim_site *site, int cost)
{
	if (!sim_current)
		return 1;
	lock_name_id(l, site);
	if (l->owner || l->waiters.head) {
		lock_event(SIM_EV_LOCK_TRYFAIL, l, owner_cpu(l), site);
		sim_step(site, SIM_COST_ATOMIC);
		return 0;
	}
	sim_lockdep_acquire(l, site, 1);
	take(l, site);
	sim_step(site, cost);
	return 1;
}

int sim_spin_trylock(struct sim_lock *l, const struct sim_site *site)
{
	return trylock(l, site, SIM_COST_SPIN_LOCK);
}

static void release(struct sim_lock *l, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (l->owner != t->id + 1) {
		sim_warn(l->owner ? "unlock of a lock held by another task"
				  : "unlock of a lock that is not held", site);
		return;
	}
	lock_event(SIM_EV_LOCK_RELEASE, l, sim_obj_of(l), site);
	sim_lockdep_release(l);
	if (l->type == SIM_LOCK_SPIN)
		t->spinlocks_held--;
	l->owner = 0;
}

void sim_spin_unlock(struct sim_lock *l, const struct sim_site *site)
{
	if (!sim_current)
		return;
	release(l, site);
	sim_step(site, SIM_COST_SPIN_UNLOCK);
}

void sim_mutex_lock(struct sim_lock *l, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	lock_name_id(l, site);
	sim_lockdep_acquire(l, site, 0);
	if (l->owner || l->waiters.head) {
		lock_event(SIM_EV_LOCK_CONTEND, l, owner_cpu(l), site);
		sim_waitq_add(&l->waiters, t);
		/* mutex_unlock() hands the lock over before waking us. */
		while (l->owner != t->id + 1)
			sim_block(SIM_BLOCK_MUTEX, sim_name(l->name), site);
		lock_event(SIM_EV_LOCK_ACQUIRE, l, sim_obj_of(l), site);
	} else {
		take(l, site);
	}
	sim_step(site, SIM_COST_MUTEX_LOCK);
}

int sim_mutex_trylock(struct sim_lock *l, const struct sim_site *site)
{
	return trylock(l, site, SIM_COST_MUTEX_LOCK);
}

void sim_mutex_unlock(struct sim_lock *l, const struct sim_site *site)
{
	struct sim_task *next;

	if (!sim_current)
		return;
	release(l, site);
	next = sim_waitq_pop(&l->waiters);
	if (next) {
		l->owner = next->id + 1;
		sim_wake(next, site);
	}
	sim_step(site, SIM_COST_MUTEX_UNLOCK);
}

void sim_completion_init(unsigned int *done, struct sim_waitq *wq, const struct sim_site *site)
{
	*done = 0;
	wq->head = wq->tail = NULL;
	if (sim_current) {
		sim_event(SIM_EV_COMPLETION, site, sim_obj_of(done), 0, 1, 0);
		sim_step(site, SIM_COST_COMPLETION);
	}
}

void sim_wait_for_completion(unsigned int *done, struct sim_waitq *wq, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	sim_event(SIM_EV_COMPLETION, site, sim_obj_of(done), (int)*done, 2, 0);
	while (!*done) {
		sim_waitq_add(wq, t);
		sim_block(SIM_BLOCK_COMPLETION, sim_name(site && site->expr ? site->expr : "completion"), site);
	}
	if (*done != UINT_MAX)
		(*done)--;
	sim_step(site, SIM_COST_COMPLETION);
}

void sim_complete(unsigned int *done, struct sim_waitq *wq, int all, const struct sim_site *site)
{
	struct sim_task *w;

	if (!sim_current)
		return;
	if (all)
		*done = UINT_MAX;
	else if (*done != UINT_MAX)
		(*done)++;
	sim_event(SIM_EV_COMPLETION, site, sim_obj_of(done), (int)*done, all ? 5 : 3, 0);
	while ((w = sim_waitq_pop(wq))) {
		sim_wake(w, site);
		if (!all)
			break;
	}
	sim_step(site, SIM_COST_COMPLETION);
}
