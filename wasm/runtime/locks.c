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
 *  - rw_semaphore: see below (Documentation/locking/locktypes.rst).
 */
#include <limits.h>
#include <stdlib.h>
#include "runtime.h"
#include "footprint.h"

static int next_lock_id = 1;

void sim_locks_init(void)
{
	next_lock_id = 1;
}

/*
 * Each lock's name in the names table, by lock id: looked up once, when
 * the lock is first used in a run, not by hashing its name again at every
 * event and every lockdep check.
 */
static int *lock_names;
static int lock_names_cap;

static void lock_name_id(struct sim_lock *l, const struct sim_site *site)
{
	if (l->boot != sim_boot) {
		int name;

		/* First use in this run: a static lock may remember an earlier one. */
		l->boot = sim_boot;
		l->id = next_lock_id++;
		l->owner = 0;
		l->waiters.head = l->waiters.tail = NULL;
		name = sim_name(l->name);
		if (l->id >= lock_names_cap) {
			int cap = lock_names_cap ? 2 * lock_names_cap : 256;

			while (cap <= l->id)
				cap *= 2;
			lock_names = realloc(lock_names, cap * sizeof(*lock_names));
			if (!lock_names)
				abort();
			lock_names_cap = cap;
		}
		lock_names[l->id] = name;
		sim_event(SIM_EV_LOCK_INIT, site, l->id, name, sim_obj_of(l), l->type);
	}
}

/* The lock's name (sim_name() of it), as its events and lockdep's classes give it. */
int sim_lock_name(const struct sim_lock *l)
{
	if (l->boot == sim_boot && l->id > 0 && l->id < lock_names_cap)
		return lock_names[l->id];
	return sim_name(l->name);
}

static void lock_event(int kind, struct sim_lock *l, int a2, const struct sim_site *site)
{
	sim_event(kind, site, l->id, sim_lock_name(l), a2, l->type);
}

/* An acquire or release: a2 is the object the lock is in (0: none), looked up only if logged. */
static void lock_event_obj(int kind, struct sim_lock *l, const struct sim_site *site)
{
	lock_event(kind, l, sim_obj_for(kind, l), site);
}

void sim_lock_init(struct sim_lock *l, const char *name, int type, const struct sim_site *site)
{
	/*
	 * The runtime writes the record from now on (owner, waiters), behind
	 * the memory model's back: the plain stores kernel code made to these
	 * bytes before (a memset() of the struct that holds the lock) must
	 * not be written back over them when the model settles or trims
	 * their history.
	 */
	mm_forget((uintptr_t)l, sizeof(*l), 0);
	l->boot = 0;
	l->name = name;
	l->owner = 0;
	l->type = type;
	l->waiters.head = l->waiters.tail = NULL;
	lock_name_id(l, site);
}

int sim_lock_held(const struct sim_lock *l)
{
	sim_fp_note(l, 0);
	if (!sim_current)
		return 0;
	if (l->type == SIM_LOCK_RWSEM)
		return sim_lockdep_holds(l);	/* readers have no owner field */
	return l->owner == sim_current->id + 1;
}

int sim_lock_is_locked(const struct sim_lock *l)
{
	sim_fp_note(l, 0);
	return l->owner != 0;
}

/* spin_is_locked(): a load of the lock word, which under the memory model may be stale. */
int sim_spin_is_locked(const struct sim_lock *l)
{
	sim_fp_note(l, 0);
	return mm_lock_word(l, l->owner != 0);
}

static int owner_cpu(const struct sim_lock *l)
{
	struct sim_task *o = sim_task_by_id(l->owner - 1);

	return o ? o->cpu : -1;
}

static void take(struct sim_lock *l, const struct sim_site *site)
{
	mm_acquire(l, MM_SYNC_RMW | MM_SYNC_LOCK);
	l->owner = sim_current->id + 1;
	if (l->type == SIM_LOCK_SPIN)
		sim_current->spinlocks_held++;
	lock_event_obj(SIM_EV_LOCK_ACQUIRE, l, site);
}

/*
 * The test and the wait of one turn of t's spin loop (t->spinning_on):
 * 0 once the lock is free and t first in line; else 1, and t's CPU has
 * waited for the owner's, whose clock it cannot overtake while spinning.
 * The rest of the turn is sim_spin_step().
 */
int sim_spin_turn(struct sim_task *t)
{
	struct sim_lock *l = t->spinning_on;
	struct sim_cpu *c = &sim_cpus[t->cpu];
	int oc;

	if (!l->owner && l->waiters.head == &t->waiter)
		return 0;
	oc = owner_cpu(l);
	if (oc >= 0 && sim_cpus[oc].clock > c->clock) {
		c->clock = sim_cpus[oc].clock;
		sim_cpu_changed(c);
	}
	return 1;
}

void sim_spin_lock(struct sim_lock *l, const struct sim_site *site)
{
	sim_fp_note(l, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	lock_name_id(l, site);
	sim_lockdep_acquire(l, site, 0);
	if (l->owner || l->waiters.head) {
		lock_event(SIM_EV_LOCK_CONTEND, l, owner_cpu(l), site);
		if (l->owner == t->id + 1)
			sim_bug("spinlock recursion", site);
		sim_waitq_add(&l->waiters, t);
		t->spinning_on = l;
		/*
		 * Spin: burn time until the lock is free and it is our turn.
		 * Only the first turn runs here: while t stays parked in
		 * sim_spin_step(), the scheduler takes its later turns itself
		 * (sim_spin_turn() in sim_run_one()) and switches back to t
		 * only once this test fails.
		 */
		while (sim_spin_turn(t))
			sim_spin_step(site);
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
	sim_fp_note(l, 1);
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
	lock_event_obj(SIM_EV_LOCK_RELEASE, l, site);
	sim_lockdep_release(l);
	/* spin_unlock() is a release store; mutex_unlock() an atomic RMW */
	mm_release(l, l->type == SIM_LOCK_SPIN ? 0 : MM_SYNC_RMW);
	if (l->type == SIM_LOCK_SPIN)
		t->spinlocks_held--;
	l->owner = 0;
}

void sim_spin_unlock(struct sim_lock *l, const struct sim_site *site)
{
	sim_fp_note(l, 1);
	if (!sim_current)
		return;
	release(l, site);
	sim_step(site, SIM_COST_SPIN_UNLOCK);
}

void sim_mutex_lock(struct sim_lock *l, const struct sim_site *site)
{
	sim_fp_note(l, 1);
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
			sim_block(SIM_BLOCK_MUTEX, sim_lock_name(l), site);
		mm_acquire(l, MM_SYNC_RMW | MM_SYNC_LOCK);
		lock_event_obj(SIM_EV_LOCK_ACQUIRE, l, site);
	} else {
		take(l, site);
	}
	sim_step(site, SIM_COST_MUTEX_LOCK);
}

int sim_mutex_trylock(struct sim_lock *l, const struct sim_site *site)
{
	sim_fp_note(l, 1);
	return trylock(l, site, SIM_COST_MUTEX_LOCK);
}

void sim_mutex_unlock(struct sim_lock *l, const struct sim_site *site)
{
	sim_fp_note(l, 1);
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
	sim_fp_note(done, 1);
	mm_forget((uintptr_t)done, sizeof(*done), 0);	/* the runtime writes the count */
	mm_forget((uintptr_t)wq, sizeof(*wq), 0);	/* and the queue (sim_lock_init()) */
	*done = 0;
	wq->head = wq->tail = NULL;
	if (sim_current) {
		sim_event(SIM_EV_COMPLETION, site, sim_obj_of(done), 0, SIM_COMPLETION_INIT, 0);
		sim_step(site, SIM_COST_COMPLETION);
	}
}

void sim_wait_for_completion(unsigned int *done, struct sim_waitq *wq, const struct sim_site *site)
{
	sim_fp_note(done, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	sim_event(SIM_EV_COMPLETION, site, sim_obj_of(done), (int)*done, SIM_COMPLETION_WAIT, 0);
	while (!*done) {
		sim_waitq_add(wq, t);
		sim_block(SIM_BLOCK_COMPLETION, sim_name(site && site->expr ? site->expr : "completion"), site);
	}
	mm_acquire(done, MM_SYNC_RMW);	/* sees what complete() published */
	mm_forget((uintptr_t)done, sizeof(*done), 0);
	if (*done != UINT_MAX)
		(*done)--;
	sim_step(site, SIM_COST_COMPLETION);
}

void sim_complete(unsigned int *done, struct sim_waitq *wq, int all, const struct sim_site *site)
{
	sim_fp_note(done, 1);
	struct sim_task *w;

	if (!sim_current)
		return;
	mm_release(done, MM_SYNC_RMW);
	mm_forget((uintptr_t)done, sizeof(*done), 0);
	if (all)
		*done = UINT_MAX;
	else if (*done != UINT_MAX)
		(*done)++;
	sim_event(SIM_EV_COMPLETION, site, sim_obj_of(done), (int)*done,
		  all ? SIM_COMPLETION_COMPLETE_ALL : SIM_COMPLETION_COMPLETE, 0);
	while ((w = sim_waitq_pop(wq))) {
		sim_wake(w, site);
		if (!all)
			break;
	}
	sim_step(site, SIM_COST_COMPLETION);
}

/*
 * rw_semaphore, following kernel/locking/rwsem.c: a reader gets in only
 * when no writer holds the lock and nobody waits (a waiting writer blocks
 * new readers); down_read_trylock() fails in those same cases. Waiters
 * queue in order; when the lock is released, a writer at the head gets it
 * alone, and a reader at the head lets every waiting reader in at once
 * (the phase-fair wake-up of rwsem_mark_wake()), writers keeping their
 * places. rwsem_is_contended() is true while anyone waits. Optimistic
 * spinning on the owner is not modelled.
 */
static void rwsem_id(struct sim_rwsem *s, const struct sim_site *site)
{
	if (s->l.boot != sim_boot)
		s->readers = 0;
	lock_name_id(&s->l, site);
}

static void rwsem_event(int kind, struct sim_rwsem *s, int a2, int write, const struct sim_site *site)
{
	sim_event(kind, site, s->l.id, sim_lock_name(&s->l), a2,
		  write ? SIM_LOCK_RWSEM : SIM_LOCK_RWSEM_READ);
}

void sim_rwsem_init(struct sim_rwsem *s, const char *name, const struct sim_site *site)
{
	mm_forget((uintptr_t)s, sizeof(*s), 0);	/* the runtime's record (sim_lock_init()) */
	s->readers = 0;
	sim_lock_init(&s->l, name, SIM_LOCK_RWSEM, site);
}

/* Hand the free lock to the head of the queue. */
static void rwsem_grant(struct sim_rwsem *s, const struct sim_site *site)
{
	struct sim_waitq writers = { NULL, NULL };
	struct sim_task *w;

	if (!s->l.waiters.head || s->l.owner || s->readers)
		return;
	w = s->l.waiters.head->task;
	if (w->rwsem_write) {
		sim_waitq_pop(&s->l.waiters);
		s->l.owner = w->id + 1;
		sim_wake(w, site);
		return;
	}
	while ((w = sim_waitq_pop(&s->l.waiters))) {
		if (w->rwsem_write) {
			sim_waitq_add(&writers, w);
			continue;
		}
		s->readers++;
		w->rwsem_granted = 1;
		sim_wake(w, site);
	}
	s->l.waiters = writers;
}

void sim_down_read(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	rwsem_id(s, site);
	sim_lockdep_acquire(&s->l, site, 0);
	if (s->l.owner || s->l.waiters.head) {
		rwsem_event(SIM_EV_LOCK_CONTEND, s, owner_cpu(&s->l), 0, site);
		t->rwsem_write = 0;
		t->rwsem_granted = 0;
		sim_waitq_add(&s->l.waiters, t);
		while (!t->rwsem_granted)
			sim_block(SIM_BLOCK_MUTEX, sim_lock_name(&s->l), site);
	} else {
		s->readers++;
	}
	mm_acquire(&s->l, MM_SYNC_RMW | MM_SYNC_LOCK);
	rwsem_event(SIM_EV_LOCK_ACQUIRE, s, sim_obj_of(&s->l), 0, site);
	sim_step(site, SIM_COST_MUTEX_LOCK);
}

int sim_down_read_trylock(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	if (!sim_current)
		return 1;
	rwsem_id(s, site);
	if (s->l.owner || s->l.waiters.head) {
		rwsem_event(SIM_EV_LOCK_TRYFAIL, s, owner_cpu(&s->l), 0, site);
		sim_step(site, SIM_COST_ATOMIC);
		return 0;
	}
	sim_lockdep_acquire(&s->l, site, 1);
	s->readers++;
	mm_acquire(&s->l, MM_SYNC_RMW | MM_SYNC_LOCK);
	rwsem_event(SIM_EV_LOCK_ACQUIRE, s, sim_obj_of(&s->l), 0, site);
	sim_step(site, SIM_COST_ATOMIC);
	return 1;
}

void sim_up_read(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	if (!sim_current)
		return;
	if (s->readers <= 0) {
		sim_warn("up_read() of an rwsem not held for reading", site);
		return;
	}
	s->readers--;
	mm_release(&s->l, MM_SYNC_RMW);
	rwsem_event(SIM_EV_LOCK_RELEASE, s, sim_obj_of(&s->l), 0, site);
	sim_lockdep_release(&s->l);
	rwsem_grant(s, site);
	sim_step(site, SIM_COST_ATOMIC);
}

void sim_down_write(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	rwsem_id(s, site);
	sim_lockdep_acquire(&s->l, site, 0);
	if (s->l.owner || s->readers || s->l.waiters.head) {
		rwsem_event(SIM_EV_LOCK_CONTEND, s, owner_cpu(&s->l), 1, site);
		t->rwsem_write = 1;
		sim_waitq_add(&s->l.waiters, t);
		while (s->l.owner != t->id + 1)
			sim_block(SIM_BLOCK_MUTEX, sim_lock_name(&s->l), site);
	} else {
		s->l.owner = t->id + 1;
	}
	mm_acquire(&s->l, MM_SYNC_RMW | MM_SYNC_LOCK);
	rwsem_event(SIM_EV_LOCK_ACQUIRE, s, sim_obj_of(&s->l), 1, site);
	sim_step(site, SIM_COST_MUTEX_LOCK);
}

int sim_down_write_trylock(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	if (!sim_current)
		return 1;
	rwsem_id(s, site);
	if (s->l.owner || s->readers || s->l.waiters.head) {
		rwsem_event(SIM_EV_LOCK_TRYFAIL, s, owner_cpu(&s->l), 1, site);
		sim_step(site, SIM_COST_ATOMIC);
		return 0;
	}
	sim_lockdep_acquire(&s->l, site, 1);
	s->l.owner = sim_current->id + 1;
	mm_acquire(&s->l, MM_SYNC_RMW | MM_SYNC_LOCK);
	rwsem_event(SIM_EV_LOCK_ACQUIRE, s, sim_obj_of(&s->l), 1, site);
	sim_step(site, SIM_COST_MUTEX_LOCK);
	return 1;
}

void sim_up_write(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	if (s->l.owner != t->id + 1) {
		sim_warn("up_write() of an rwsem not held for writing by this task", site);
		return;
	}
	s->l.owner = 0;
	mm_release(&s->l, MM_SYNC_RMW);
	rwsem_event(SIM_EV_LOCK_RELEASE, s, sim_obj_of(&s->l), 1, site);
	sim_lockdep_release(&s->l);
	rwsem_grant(s, site);
	sim_step(site, SIM_COST_MUTEX_UNLOCK);
}

int sim_rwsem_is_contended(struct sim_rwsem *s, const struct sim_site *site)
{
	sim_fp_note(s, 0);
	if (s->l.boot != sim_boot || !s->l.waiters.head)
		return 0;
	/* Seen: the caller (shrink_slab() in 6.1) is about to let go for a waiter. */
	if (sim_current)
		rwsem_event(SIM_EV_LOCK_CONTENDED, s, owner_cpu(&s->l), 0, site);
	return 1;
}

int sim_rwsem_is_locked(struct sim_rwsem *s)
{
	sim_fp_note(s, 0);
	return s->l.boot == sim_boot && (s->l.owner || s->readers);
}
