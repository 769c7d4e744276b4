// SPDX-License-Identifier: GPL-2.0-only
/*
 * RCU for the simulated machine, following Documentation/RCU/whatisRCU.rst
 * and Documentation/RCU/Design/Requirements/Requirements.rst for a
 * non-preemptible kernel (CONFIG_PREEMPT_NONE, Tree RCU):
 *
 *  - rcu_read_lock()/rcu_read_unlock() nest; the depth is per task.
 *  - A grace period that starts at time T ends only after every CPU that
 *    was not idle at T has passed a quiescent state after T. Quiescent
 *    states are: a context switch (the task sleeps), cond_resched(), and
 *    the idle loop, each only outside any read-side critical section and
 *    with no spinlock held. An idle CPU is in an extended quiescent state
 *    and is not waited for.
 *  - call_rcu()/kvfree_rcu() callbacks queued while grace period g is in
 *    progress wait for g + 1, a grace period that starts after they were
 *    queued; they run in order on the CPU that queued them, in its rcuc
 *    kthread (as with rcutree.use_softirq=0).
 *  - synchronize_rcu() sleeps until such a grace period has ended;
 *    rcu_barrier() until every callback queued before it has run.
 *  - With CONFIG_PREEMPTION (preempt_schedule(), sched.c), a reader can be
 *    preempted inside its read-side section, and its CPU's next context
 *    switch is then a quiescent state that does not cover it. As
 *    preemptible RCU's blocked-tasks lists (kernel/rcu/tree_plugin.h,
 *    rcu_preempt_ctxt_queue()), such a reader blocks every grace period
 *    until its outermost rcu_read_unlock(), the one in progress included.
 *
 * Callbacks are kept in side records, not threaded through the rcu_head:
 * on wasm a function pointer is a small table index, so the kernel's trick
 * of storing an offset in ->func for kvfree_rcu() cannot work there.
 */
#include <stdlib.h>
#include "runtime.h"
#include "footprint.h"

struct sim_rcu_cb {
	struct callback_head *head;
	void (*func)(struct callback_head *);
	void *ptr;			/* kvfree_rcu(): object to free */
	sim_u64 gp;			/* grace period it waits for */
	int obj;
	int name;
	const struct sim_site *site;
	struct sim_rcu_cb *next;
};

static sim_u64 gp_started, gp_completed;
/*
 * The race detector's grace-period clock: every quiescent state publishes
 * to it, a grace period's end is seen through it (what came before a
 * CPU's quiescent state happens before the end of the grace periods that
 * waited for it).
 */
#define RCU_KCSAN_KEY	(((uintptr_t)&gp_started) | 1)
static int gp_active;
static uint64_t qs_mask;
static sim_u64 gp_start_time;
static int gp_end_pending;	/* every CPU reported; waiting out the latency */
static sim_u64 gp_end_time;
static int gp_last_cpu;
static struct sim_waitq sync_waiters;
static struct sim_waitq barrier_waiters;
static unsigned long cbs_pending;
static int blocked_readers;	/* tasks preempted inside a read-side section */
static sim_u64 gp_polled;	/* start_poll: a grace period is wanted until this one ends */

void sim_rcu_init(void)
{
	gp_started = gp_completed = 0;
	gp_active = gp_end_pending = 0;
	qs_mask = 0;
	sync_waiters.head = sync_waiters.tail = NULL;
	barrier_waiters.head = barrier_waiters.tail = NULL;
	cbs_pending = 0;
	gp_polled = 0;
	blocked_readers = 0;
}

void sim_rcu_fini(void)
{
	int i;

	for (i = 0; i < sim_ncpus; i++) {
		struct sim_rcu_cb *cb = sim_cpus[i].cb_head, *next;

		for (; cb; cb = next) {
			next = cb->next;
			free(cb);
		}
		sim_cpus[i].cb_head = sim_cpus[i].cb_tail = NULL;
		free(sim_cpus[i].cb_running);	/* a run stopped inside a callback */
		sim_cpus[i].cb_running = NULL;
	}
	cbs_pending = 0;
}

int sim_rcu_pending(void)
{
	return cbs_pending || sync_waiters.head || gp_active;
}

static int gp_wanted(void)
{
	int i;

	if (sync_waiters.head || gp_polled > gp_completed)
		return 1;
	for (i = 0; i < sim_ncpus; i++) {
		struct sim_rcu_cb *cb;

		for (cb = sim_cpus[i].cb_head; cb; cb = cb->next)
			if (cb->gp > gp_completed)
				return 1;
	}
	return 0;
}

static void gp_maybe_end(int cpu);

static void gp_maybe_start(int cpu, sim_u64 now)
{
	sim_fp_note(&gp_active, 1);
	int i, n = 0;

	if (gp_active || !gp_wanted())
		return;
	gp_active = 1;
	gp_started++;
	gp_start_time = now;
	qs_mask = 0;
	for (i = 0; i < sim_ncpus; i++) {
		if (sim_cpus[i].curr && !sim_cpus[i].dead) {
			qs_mask |= 1ULL << i;
			n++;
		}
	}
	sim_event_at(SIM_EV_RCU_GP_START, cpu, now, NULL, (int)gp_started, n, 0, 0);
	gp_maybe_end(cpu);
}

static void gp_maybe_end(int cpu)
{
	sim_u64 t;

	if (!gp_active || qs_mask || gp_end_pending || blocked_readers)
		return;
	t = sim_cpus[cpu].clock;
	if (t < gp_start_time + sim_cost_of(SIM_COST_GP_LATENCY))
		t = gp_start_time + sim_cost_of(SIM_COST_GP_LATENCY);
	gp_end_pending = 1;
	gp_end_time = t;
	gp_last_cpu = cpu;
}

int sim_rcu_timer_due(sim_u64 next_cpu_clock)
{
	return gp_end_pending && gp_end_time <= next_cpu_clock;
}

/* The grace period ends: wake synchronize_rcu() callers and rcuc kthreads. */
void sim_rcu_timer_fire(void)
{
	sim_fp_note(&gp_active, 1);
	struct sim_waitq still = { NULL, NULL };
	struct sim_task *t;
	int i;

	gp_end_pending = 0;
	gp_active = 0;
	gp_completed = gp_started;
	sim_event_at(SIM_EV_RCU_GP_END, gp_last_cpu, gp_end_time, NULL, (int)gp_completed, 0, 0, 0);
	while ((t = sim_waitq_pop(&sync_waiters))) {
		if (t->gp_wait <= gp_completed)
			sim_wake_at(t, gp_end_time);
		else
			sim_waitq_add(&still, t);
	}
	sync_waiters = still;
	for (i = 0; i < sim_ncpus; i++) {
		struct sim_rcu_cb *cb = sim_cpus[i].cb_head;

		if (cb && cb->gp <= gp_completed)
			sim_wake_at(sim_cpus[i].rcuc, gp_end_time);
	}
	gp_maybe_start(gp_last_cpu, gp_end_time);
}

void sim_rcu_note_qs(struct sim_cpu *c)
{
	sim_fp_note(&gp_active, 0);
	if (!gp_active || !(qs_mask & (1ULL << c->id)))
		return;
	sim_fp_note(&gp_active, 1);
	qs_mask &= ~(1ULL << c->id);
	mm_fence_cpu(c->id);	/* reporting a quiescent state orders what came before it */
	kcsan_release(RCU_KCSAN_KEY, c->id, 1);
	sim_event_at(SIM_EV_RCU_QS, c->id, c->clock, NULL, (int)gp_started, 0, 0, 0);
	gp_maybe_end(c->id);
}

/* A reader preempted inside its read-side section: it blocks grace periods until it leaves. */
void sim_rcu_preempted_reader(struct sim_task *t)
{
	sim_fp_note(&gp_active, 1);
	if (t->rcu_blocked)
		return;
	t->rcu_blocked = 1;
	blocked_readers++;
}

void sim_rcu_cpu_idle(struct sim_cpu *c)
{
	sim_rcu_note_qs(c);
}

void sim_rcu_read_lock(const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	if (t->rcu_depth++ == 0)
		t->rcu_lock_site = sim_site_id(site);
	sim_event(SIM_EV_RCU_READ_LOCK, site, t->rcu_depth, 0, 0, 0);
	sim_step(site, SIM_COST_RCU_READ);
}

void sim_rcu_read_unlock(const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	if (t->rcu_depth <= 0) {
		sim_warn("rcu_read_unlock() without rcu_read_lock()", site);
		return;
	}
	t->rcu_depth--;
	if (!t->rcu_depth && t->rcu_blocked) {
		sim_fp_note(&gp_active, 1);
		t->rcu_blocked = 0;
		if (!--blocked_readers)
			gp_maybe_end(t->cpu);
	}
	sim_event(SIM_EV_RCU_READ_UNLOCK, site, t->rcu_depth, 0, 0, 0);
	sim_step(site, SIM_COST_RCU_READ);
}

int sim_rcu_read_lock_held(void)
{
	return sim_current && sim_current->rcu_depth > 0;
}

static void queue_cb(struct callback_head *head, void (*func)(struct callback_head *),
		     void *ptr, int obj, const char *name, const struct sim_site *site)
{
	sim_fp_note(&gp_active, 1);
	struct sim_cpu *c = &sim_cpus[sim_cpu_id()];
	struct sim_rcu_cb *cb = calloc(1, sizeof(*cb));

	if (!cb)
		abort();
	cb->head = head;
	cb->func = func;
	cb->ptr = ptr;
	cb->gp = gp_started + 1;
	cb->obj = obj;
	cb->name = sim_name(name);
	cb->site = site;
	if (c->cb_tail)
		c->cb_tail->next = cb;
	else
		c->cb_head = cb;
	c->cb_tail = cb;
	cbs_pending++;
	sim_event(SIM_EV_CALL_RCU, site, obj, (int)cb->gp, cb->name, 0);
	gp_maybe_start(c->id, c->clock);
	sim_step(site, SIM_COST_CALL_RCU);
}

void sim_call_rcu(struct callback_head *head, void (*func)(struct callback_head *),
		  const struct sim_site *site)
{
	queue_cb(head, func, NULL, sim_obj_of(head), site && site->expr ? site->expr : "?", site);
}

void sim_kvfree_rcu(void *ptr, const struct sim_site *site)
{
	if (!ptr)
		return;
	queue_cb(NULL, NULL, ptr, sim_obj_of(ptr), "kvfree", site);
}

void sim_synchronize_rcu(const struct sim_site *site)
{
	sim_fp_note(&gp_active, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	mm_fence_cpu(t->cpu);	/* synchronize_rcu() is a full barrier on both sides */
	t->gp_wait = gp_started + 1;
	sim_event(SIM_EV_RCU_SYNC, site, (int)t->gp_wait, 0, 0, 0);
	sim_waitq_add(&sync_waiters, t);
	gp_maybe_start(t->cpu, sim_cpus[t->cpu].clock);
	sim_block(SIM_BLOCK_GP, sim_name("synchronize_rcu"), site);
	kcsan_acquire(RCU_KCSAN_KEY, t->cpu);
}

/*
 * The grace-period sequence number in the kernel's rcu_seq format
 * (kernel/rcu/rcu.h): the count of ended grace periods shifted up by two,
 * with state 1 while one is in progress.
 */
unsigned long sim_rcu_gp_seq(void)
{
	return ((unsigned long)gp_completed << 2) | (gp_active ? 1 : 0);
}

/*
 * A polled grace period's cookie (get_state_synchronize_rcu(), and with
 * start, start_poll_synchronize_rcu(), which also makes sure one starts):
 * the sequence number once a grace period that starts after now has
 * ended, as rcu_seq_snap() computes it; the grace period in progress, if
 * any, does not count. Callbacks queued now wait for the same one.
 */
unsigned long sim_rcu_gp_snap(int start)
{
	sim_fp_note(&gp_active, 1);
	sim_u64 gp = gp_started + 1;

	if (start && sim_current) {
		if (gp_polled < gp)
			gp_polled = gp;
		gp_maybe_start(sim_current->cpu, sim_cpus[sim_current->cpu].clock);
	}
	return (unsigned long)gp << 2;
}

void sim_rcu_barrier(const struct sim_site *site)
{
	sim_fp_note(&gp_active, 1);
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_might_sleep(site);
	while (cbs_pending) {
		sim_waitq_add(&barrier_waiters, t);
		sim_block(SIM_BLOCK_GP, sim_name("rcu_barrier"), site);
	}
}

/* The rcuc/N kthread: runs this CPU's callbacks whose grace period ended. */
void sim_rcuc_fn(void *arg)
{
	struct sim_cpu *c = arg;

	for (;;) {
		struct sim_rcu_cb *cb = c->cb_head;
		struct sim_task *w;

		if (!cb || cb->gp > gp_completed) {
			if (!cbs_pending)
				while ((w = sim_waitq_pop(&barrier_waiters)))
					sim_wake(w, NULL);
			sim_block(SIM_BLOCK_IDLE, sim_name("rcu callbacks"), NULL);
			continue;
		}
		c->cb_head = cb->next;
		if (!c->cb_head)
			c->cb_tail = NULL;
		c->cb_running = cb;
		sim_event(SIM_EV_RCU_CALLBACK, cb->site, cb->obj, (int)cb->gp, cb->name, 0);
		kcsan_acquire(RCU_KCSAN_KEY, c->id);
		if (cb->func)
			cb->func(cb->head);
		else
			sim_kfree(cb->ptr, cb->site);
		cbs_pending--;
		c->cb_running = NULL;
		free(cb);
		sim_step(NULL, SIM_COST_CALL_RCU);
	}
}

/*
 * SRCU (Documentation/RCU/whatisRCU.rst, "SRCU"; kernel/rcu/srcutree.c):
 * srcu_read_lock() returns the index it counted itself under, readers may
 * sleep, and synchronize_srcu() flips the index new readers take, then
 * waits only for readers of the old index to leave. The kernel waits for
 * each index in turn to close a race between a reader loading the index
 * and counting itself; here those two steps are one, so one flip and one
 * wait give the same guarantee. Grace periods of one srcu_struct are
 * serialised, each synchronize_srcu() running its own, and none is shorter
 * than SIM_COST_SRCU_GP_LATENCY (costs.c).
 */
static void srcu_boot(struct sim_srcu *s)
{
	if (s->boot == sim_boot)
		return;
	s->idx = 0;
	s->readers[0] = s->readers[1] = 0;
	s->gp_running = 0;
	s->gp_seq = 0;
	s->drain.head = s->drain.tail = NULL;
	s->queue.head = s->queue.tail = NULL;
	s->boot = sim_boot;
}

void sim_srcu_init(struct sim_srcu *s, const char *name)
{
	mm_forget((uintptr_t)s, sizeof(*s), 0);	/* the runtime's record (sim_lock_init()) */
	s->name = name;
	s->boot = 0;
	srcu_boot(s);
}

int sim_srcu_read_lock(struct sim_srcu *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	struct sim_task *t = sim_current;
	int idx;

	srcu_boot(s);
	if (t)
		mm_fence_cpu(t->cpu);	/* __srcu_read_lock()'s smp_mb() */
	idx = s->idx;
	s->readers[idx]++;
	if (t)
		t->srcu_depth++;
	sim_event(SIM_EV_SRCU_READ_LOCK, site, sim_name(s->name), idx, s->readers[idx], 0);
	sim_step(site, SIM_COST_RCU_READ);
	return idx;
}

void sim_srcu_read_unlock(struct sim_srcu *s, int idx, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	struct sim_task *t = sim_current, *w;

	srcu_boot(s);
	if (idx < 0 || idx > 1 || s->readers[idx] <= 0) {
		sim_warn("srcu_read_unlock() without a matching srcu_read_lock()", site);
		return;
	}
	if (t) {
		mm_fence_cpu(t->cpu);	/* __srcu_read_unlock()'s smp_mb() */
		kcsan_release((uintptr_t)s | 1, t->cpu, 1);
	}
	s->readers[idx]--;
	if (t)
		t->srcu_depth--;
	sim_event(SIM_EV_SRCU_READ_UNLOCK, site, sim_name(s->name), idx, s->readers[idx], 0);
	if (!s->readers[idx] && idx != s->idx)
		while ((w = sim_waitq_pop(&s->drain)))
			sim_wake(w, site);
	sim_step(site, SIM_COST_RCU_READ);
}

int sim_srcu_read_lock_held(const struct sim_srcu *s)
{
	return sim_current && sim_current->srcu_depth > 0;
}

void sim_synchronize_srcu(struct sim_srcu *s, const struct sim_site *site)
{
	sim_fp_note(s, 1);
	struct sim_task *t = sim_current, *w;
	int old, name = sim_name(s->name);
	unsigned int gp;
	sim_u64 start;

	if (!t)
		return;
	srcu_boot(s);
	sim_might_sleep(site);
	while (s->gp_running) {
		sim_waitq_add(&s->queue, t);
		sim_block(SIM_BLOCK_GP, name, site);
	}
	s->gp_running = 1;
	mm_fence_cpu(t->cpu);	/* the grace period's full barriers, before the flip ... */
	old = s->idx;
	s->idx = !old;
	gp = ++s->gp_seq;
	start = sim_cpus[t->cpu].clock;
	sim_event(SIM_EV_SRCU_GP_START, site, name, old, s->readers[old], (int)gp);
	while (s->readers[old] > 0) {
		sim_waitq_add(&s->drain, t);
		sim_block(SIM_BLOCK_GP, name, site);
	}
	sim_sleep_until(start + sim_cost_of(SIM_COST_SRCU_GP_LATENCY), SIM_BLOCK_GP, name, site);
	sim_event(SIM_EV_SRCU_GP_END, site, name, (int)gp, 0, 0);
	mm_fence_cpu(t->cpu);	/* ... and after the readers of the old index left */
	kcsan_acquire((uintptr_t)s | 1, t->cpu);
	s->gp_running = 0;
	if ((w = sim_waitq_pop(&s->queue)))
		sim_wake(w, site);
	sim_step(site, SIM_COST_COMPLETION);
}
