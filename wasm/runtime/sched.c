// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated SMP machine: tasks on CPUs and one deterministic scheduler.
 *
 * Tasks. Each CPU has a virtual clock, a current task and a run queue. The
 * kernel is non-preemptible (CONFIG_PREEMPT_NONE): a CPU switches tasks only
 * when its task sleeps, exits or calls cond_resched().
 *
 * Decisions. Every shim primitive is a preemption point of the simulation:
 * the CPU's clock advances by the operation's cost (costs.c), and then the
 * scheduler decides which CPU performs the next operation. A decision is
 * recorded whenever more than one CPU could go; the list of recorded
 * choices is the run's schedule. A schedule given in the configuration is
 * followed first; the policy decides the rest:
 *
 *   timed   the CPU with the earliest clock (ties: stay, else the lower
 *           CPU). CPUs run in parallel in virtual time and the log is in
 *           time order; the seed's cost jitter sets the interleaving.
 *   rr      round-robin: the next runnable CPU after the current one.
 *   random  a runnable CPU drawn from the seeded generator.
 *
 * Manual play, where a person picks the CPU that takes the next step, is a
 * schedule that grows by one choice at a time and is replayed from the
 * start: one run is one boot, and replay is exact.
 *
 * A spinning CPU takes a decision per spin; under timed it first catches up
 * with the holder's clock, so it cannot get the lock before the holder
 * could have released it.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "choice.h"
#include "footprint.h"


/*
 * Where the scheduler runs: natively and in wasm, at both widths, in the
 * context of whoever called sim_run() (host_fiber). A task's switch to the
 * scheduler is then, in wasm, one unwind of the task's frames back to the
 * host loop and no rewind at all (run_loop() is not on a fiber), and its
 * switch to the next task one rewind.
 */
static struct sim_fiber host_fiber;
static int run_status;
static struct sim_task *tasks[SIM_MAX_TASKS];
static int ntasks;
static unsigned long steps;
static unsigned long max_steps;		/* decisions: a livelock guard */
static int last_cpu = -1;		/* the CPU that ran last */
/*
 * The CPUs that can run (a current task, not stopped by BUG()), and among
 * them the one with the earliest clock, kept up to date as a CPU's task,
 * dead flag or clock change (cpu_changed()) instead of found by a scan at
 * every step: with 64 CPUs, the scans were three quarters of lru-batch's
 * run at 64 tasks. earliest[] is a tournament tree over the CPUs: node k
 * holds the CPU that wins among its leaves (the earlier clock, on a tie
 * the lower CPU; -1 none), leaf tree_width + i is CPU i, node 1 the root;
 * tree_width is the machine's CPU count rounded up to a power of two.
 * A change only marks its CPU's leaf (changed_mask); the paths to the root
 * are brought up to date when the tree is read (earliest_cpu()). Most
 * steps change a clock and are followed by a decision that needs no tree
 * (one CPU can run), so most steps cost two bit operations here.
 */
static uint64_t live_mask, changed_mask;
static signed char earliest[2 * SIM_MAX_CPUS];
static int tree_width;

static int policy;
static int pending_next;		/* decided by a task before it yielded */
static int panicked;			/* sim_panic(): no task runs again */
static int yielding;			/* the decision follows a cond_resched() or a spin */

/* Tasks asleep until a virtual time (sim_sleep_until). */
static struct {
	struct sim_task *task[SIM_MAX_TASKS];
	int n;
} sleepers;

/* ---- run queues -------------------------------------------------------- */

static struct sim_task *rq_pop(struct sim_cpu *c)
{
	struct sim_task *t = c->rq_head;

	if (t) {
		c->rq_head = t->rq_next;
		if (!c->rq_head)
			c->rq_tail = NULL;
		t->rq_next = NULL;
	}
	return t;
}

static void rq_push(struct sim_cpu *c, struct sim_task *t)
{
	t->rq_next = NULL;
	if (c->rq_tail)
		c->rq_tail->rq_next = t;
	else
		c->rq_head = t;
	c->rq_tail = t;
}

/* ---- decisions ---------------------------------------------------------- */

static uint64_t runnable_mask(void)
{
	return live_mask;
}

/* The earlier of two CPUs (-1: none); a is the lower one. */
static int earlier(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0 || sim_cpus[a].clock <= sim_cpus[b].clock)
		return a;
	return b;
}

void sim_cpu_changed(struct sim_cpu *c)
{
	uint64_t bit = 1ULL << c->id;

	if (c->curr && !c->dead)
		live_mask |= bit;
	else
		live_mask &= ~bit;
	changed_mask |= bit;
}

/* The CPU that can run with the earliest clock, the lower on a tie; -1 if none. */
static int earliest_cpu(void)
{
	while (changed_mask) {
		int id = __builtin_ctzll(changed_mask), k = tree_width + id;

		changed_mask &= changed_mask - 1;
		earliest[k] = (signed char)(live_mask & (1ULL << id) ? id : -1);
		for (k >>= 1; k; k >>= 1)
			earliest[k] = (signed char)earlier(earliest[2 * k], earliest[2 * k + 1]);
	}
	return earliest[1];
}

static int policy_pick(uint64_t mask, int current)
{
	int i, n, best = -1;

	switch (policy) {
	case SIM_POLICY_RR:
		for (i = 1; i <= sim_ncpus; i++) {
			int c = ((current < 0 ? -1 : current) + i + sim_ncpus) % sim_ncpus;

			if (mask & (1ULL << c))
				return c;
		}
		return -1;
	case SIM_POLICY_RANDOM:
		n = __builtin_popcountll(mask);
		n = (int)(sim_random_sched() % (uint64_t)n);
		for (i = 0; i < sim_ncpus; i++)
			if ((mask & (1ULL << i)) && n-- == 0)
				return i;
		return -1;
	default:
		/* The earliest clock; on a tie the current CPU, else the lower. mask is runnable_mask(). */
		best = earliest_cpu();
		if (best >= 0 && current >= 0 && (mask & (1ULL << current)) &&
		    sim_cpus[current].clock == sim_cpus[best].clock)
			best = current;
		return best;
	}
}

/* Which CPU performs the next operation; -1 if none can. */
static int decide(int current)
{
	uint64_t mask = runnable_mask();
	int cpu;

	if (!mask)
		return -1;
	if (++steps > max_steps) {
		sim_request_stop();
		return current;
	}
	if (!(mask & (mask - 1)))
		return __builtin_ctzll(mask);
	/* A choice point of the scheduler's kind (choice.h): given, a searcher's, or the policy's. */
	cpu = sim_choice_cpu(mask, current, yielding);
	if (cpu == -2) {
		sim_request_stop();	/* the explorer cuts this run here */
		return current;
	}
	if (cpu < 0)
		cpu = policy_pick(mask, current);
	sim_choice_record(SIM_CHOICE_CPU, cpu, current, mask);
	return cpu;
}

int sim_policy(void)
{
	return policy;
}

/* ---- tasks ----------------------------------------------------------------- */

static void cpu_next(struct sim_cpu *c, const struct sim_site *site);
static int sleeper_due(sim_u64 now);

static void task_entry(void *arg)
{
	struct sim_task *t = arg;

	t->fn(t->arg);

	/* The task returned: leave its CPU for good. */
	sim_event(SIM_EV_TASK_EXIT, NULL, t->id, 0, 0, 0);
	t->state = SIM_TASK_DONE;
	cpu_next(&sim_cpus[t->cpu], NULL);
	sim_current = NULL;
	sim_fiber_switch(&t->fiber, &host_fiber, 1);
}

struct sim_task *sim_task_create(int cpu, const char *name, void (*fn)(void *), void *arg,
				 int is_rcuc)
{
	struct sim_task *t;

	if (ntasks >= SIM_MAX_TASKS || cpu < 0 || cpu >= sim_ncpus)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->id = ntasks;
	t->cpu = cpu;
	t->name = sim_name(name);
	t->is_rcuc = is_rcuc;
	t->fn = fn;
	t->arg = arg;
	t->waiter.task = t;
	if (sim_fiber_create(&t->fiber, task_entry, t, SIM_STACK_SIZE)) {
		free(t);
		return NULL;
	}
	tasks[ntasks++] = t;
	return t;
}

struct sim_task *sim_task_by_id(int id)
{
	return id >= 0 && id < ntasks ? tasks[id] : NULL;
}

/* Make t the CPU's current task if it is idle, else queue it. */
static void make_runnable(struct sim_task *t, sim_u64 when)
{
	struct sim_cpu *c = &sim_cpus[t->cpu];

	sim_fp_note(t, 1);
	sim_fp_note(c, 1);
	t->state = SIM_TASK_RUNNABLE;
	t->wake_time = when;
	if (!c->curr) {
		c->curr = t;
		if (c->clock < when)
			c->clock = when;
		sim_cpu_changed(c);
	} else {
		rq_push(c, t);
	}
}

int sim_spawn(int cpu, const char *name, void (*fn)(void *), void *arg)
{
	struct sim_task *t = sim_task_create(cpu, name, fn, arg, 0);
	sim_u64 now = sim_current ? sim_cpus[sim_current->cpu].clock : 0;

	if (!t)
		return -1;
	mm_task_spawn(t->id);	/* the child sees what its parent had seen */
	make_runnable(t, now);
	return t->id;
}

/* The current task leaves its CPU: run the next queued task, or idle. */
static void cpu_next(struct sim_cpu *c, const struct sim_site *site)
{
	struct sim_task *prev = c->curr, *next = rq_pop(c);

	sim_fp_note(c, 1);
	if (next)
		mm_fence_cpu(c->id);	/* a context switch is a full barrier (__schedule()) */
	c->curr = next;
	if (next) {
		sim_event_at(SIM_EV_CPU_SWITCH, c->id, c->clock, site,
			     prev ? prev->id : -1, next->id, 0, 0);
		if (c->clock < next->wake_time)
			c->clock = next->wake_time;
		c->clock += sim_cost_of(SIM_COST_WAKEUP);
		sim_cpu_changed(c);
	} else {
		sim_cpu_changed(c);
		sim_rcu_cpu_idle(c);
	}
}

static void to_scheduler(struct sim_task *t)
{
	sim_current = NULL;
	sim_fiber_switch(&t->fiber, &host_fiber, 0);
	/* The scheduler set sim_current back to t before switching here. */
}

/*
 * A preemption point of a running task: its CPU spends ns and the cost of
 * an operation (the cost model's jitter drawn here), then who goes next is
 * decided. Returns whether t leaves its CPU for the scheduler: a stop, a
 * timer due, or another CPU's turn (then pending_next says which).
 *
 * In wasm this is a function of its own (noinline, and called from three
 * places, so Binaryen's inliner leaves it too): Asyncify instruments every
 * function a switch can pass through (wasm/tools/asyncify.py), guarding
 * the stretches of its code by the unwind state, so this work inlined
 * into sim_step() was paid for at every step, though few steps switch
 * (193 of the memcg scale run's 49 million). A function that cannot
 * switch is left as it is; its caller only switches.
 */
#ifdef __EMSCRIPTEN__
__attribute__((noinline))
#endif
static int advance(struct sim_task *t, unsigned int ns, int cost)
{
	int next;

	sim_cpus[t->cpu].clock += ns + sim_cost_of(cost);
	sim_cpu_changed(&sim_cpus[t->cpu]);
	if (sim_stop_requested() || sim_rcu_timer_due(sim_cpus[t->cpu].clock - 1) ||
	    sleeper_due(sim_cpus[t->cpu].clock - 1) >= 0)
		return 1;
	sim_check_hung_tasks(sim_cpus[t->cpu].clock);
	next = decide(t->cpu);
	if (next != t->cpu) {
		pending_next = next;
		return 1;
	}
	return 0;
}

/* A preemption point where the clock has already moved. */
static void preempt_point(struct sim_task *t)
{
	if (advance(t, 0, SIM_COST_NONE))
		to_scheduler(t);
}

void sim_step(const struct sim_site *site, int cost)
{
	struct sim_task *t = sim_current;

	(void)site;
	if (t && advance(t, 0, cost))
		to_scheduler(t);
}

void sim_busy_ns(unsigned int ns, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	(void)site;
	if (t && advance(t, ns, SIM_COST_NONE))
		to_scheduler(t);
}

/* The time of a spin loop's turn, and who goes next. */
static void spin_retry(struct sim_task *t)
{
	sim_cpus[t->cpu].clock += sim_cost_of(SIM_COST_SPIN_RETRY);
	sim_cpu_changed(&sim_cpus[t->cpu]);
	yielding = SIM_YIELD_SPIN;
	pending_next = decide(t->cpu);
	yielding = SIM_YIELD_NONE;
}

/*
 * The end of a turn of a spin loop: always back to the scheduler, which
 * notices when nobody can unlock, and runs t's next turns itself until
 * the lock is t's (sim_run_one()).
 */
void sim_spin_step(const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	(void)site;
	spin_retry(t);
	to_scheduler(t);
}

void sim_block(int reason, int name, const struct sim_site *site)
{
	struct sim_task *t = sim_current;
	struct sim_cpu *c = &sim_cpus[t->cpu];

	sim_fp_note(t, 1);
	t->state = SIM_TASK_BLOCKED;
	t->blocked_since = c->clock;
	t->hung_reported = 0;
	t->block_site = sim_site_id(site);
	sim_hung_task_watch(c->clock);
	sim_event(SIM_EV_TASK_BLOCK, site, t->id, reason, name, 0);
	/* A context switch is a quiescent state, unless RCU says otherwise. */
	if (!t->rcu_depth && !t->spinlocks_held)
		sim_rcu_note_qs(c);
	cpu_next(c, site);
	to_scheduler(t);
	mm_fence_cpu(t->cpu);	/* woken: the wakeup's barrier (try_to_wake_up()) */
}

/* Sleep until virtual time "when" (a timer wakes the task). */
void sim_sleep_until(sim_u64 when, int reason, int name, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t || sim_cpus[t->cpu].clock >= when)
		return;
	t->timer = when;
	sim_fp_note(&sleepers, 1);
	sleepers.task[sleepers.n++] = t;
	sim_block(reason, name, site);
}

void sim_sleep_ns(unsigned int ns, const struct sim_site *site)
{
	if (sim_current)
		sim_sleep_until(sim_cpus[sim_current->cpu].clock + ns, SIM_BLOCK_TIMER,
				sim_name("a timer"), site);
}

static int sleeper_due(sim_u64 now)
{
	int i, best = -1;

	for (i = 0; i < sleepers.n; i++)
		if (sleepers.task[i]->timer <= now &&
		    (best < 0 || sleepers.task[i]->timer < sleepers.task[best]->timer))
			best = i;
	return best;
}

static void fire_sleeper(int i)
{
	struct sim_task *t = sleepers.task[i];

	sim_fp_note(&sleepers, 1);
	sleepers.task[i] = sleepers.task[--sleepers.n];
	make_runnable(t, t->timer);
}

void sim_wake(struct sim_task *t, const struct sim_site *site)
{
	sim_u64 now = sim_cpus[sim_event_cpu].clock;

	if (t->state != SIM_TASK_BLOCKED)
		return;
	sim_event(SIM_EV_TASK_WAKE, site, t->id, sim_event_cpu, 0, 0);
	make_runnable(t, now + sim_cost_of(SIM_COST_WAKEUP));
}

void sim_wake_at(struct sim_task *t, sim_u64 when)
{
	if (t->state != SIM_TASK_BLOCKED)
		return;
	make_runnable(t, when + sim_cost_of(SIM_COST_WAKEUP));
}

void sim_cond_resched(const struct sim_site *site)
{
	struct sim_task *t = sim_current;
	struct sim_cpu *c;

	if (!t)
		return;
	c = &sim_cpus[t->cpu];
	if (!t->rcu_depth && !t->spinlocks_held)
		sim_rcu_note_qs(c);
	if (c->rq_head) {
		rq_push(c, t);
		t->wake_time = c->clock;
		cpu_next(c, site);
		to_scheduler(t);
		return;
	}
	c->clock += sim_cost_of(SIM_COST_COND_RESCHED);
	sim_cpu_changed(c);
	yielding = SIM_YIELD_RESCHED;
	preempt_point(t);
	yielding = SIM_YIELD_NONE;
}

/*
 * preempt_schedule() (kernel/sched/core.c, CONFIG_PREEMPTION): a task
 * that can be preempted yields its CPU as at cond_resched(); one that
 * holds a spinlock (preemption off) goes on, and the point is only one
 * where the other CPUs run.
 */
void sim_preempt_schedule(const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	if (t->spinlocks_held) {
		sim_step(site, SIM_COST_COND_RESCHED);
		return;
	}
	if (t->rcu_depth && sim_cpus[t->cpu].rq_head)
		sim_rcu_preempted_reader(t);
	sim_cond_resched(site);
}

void sim_set_current_state(int state, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	sim_fp_note(&t->kstate, 1);
	t->kstate = state;
	sim_step(site, SIM_COST_BARRIER);	/* smp_store_mb(): a full barrier */
}

void sim_schedule(const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	if (!t)
		return;
	/*
	 * A preemption point on the way in: another CPU may run between the
	 * caller's last check of its condition and schedule()'s look at the
	 * state, as on a real SMP machine (the window wake_up_process()
	 * covers by setting the state back to TASK_RUNNING).
	 */
	sim_step(site, SIM_COST_BARRIER);
	sim_fp_note(&t->kstate, 0);
	if (!t->kstate) {
		sim_cond_resched(site);
		return;
	}
	t->in_schedule = 1;
	sim_block(SIM_BLOCK_IDLE, sim_name("schedule()"), site);
	t->in_schedule = 0;
}

/*
 * schedule_timeout() (kernel/time/sleep_timeout.c): schedule(), with a
 * timer that sets the task back to TASK_RUNNING and wakes it ns of virtual
 * time later if nothing woke it before. Returns the time left.
 */
sim_u64 sim_schedule_timeout(sim_u64 ns, const struct sim_site *site)
{
	struct sim_task *t = sim_current;
	sim_u64 when, now;

	if (!t)
		return 0;
	sim_step(site, SIM_COST_BARRIER);
	sim_fp_note(&t->kstate, 0);
	if (!t->kstate) {
		sim_cond_resched(site);
		return ns;
	}
	when = sim_cpus[t->cpu].clock + ns;
	t->timer = when;
	sim_fp_note(&sleepers, 1);
	sleepers.task[sleepers.n++] = t;
	t->in_schedule = 1;
	sim_block(SIM_BLOCK_TIMER, sim_name("schedule_timeout()"), site);
	t->in_schedule = 0;
	t->kstate = 0;
	now = sim_cpus[t->cpu].clock;
	return now < when ? when - now : 0;
}

/* A sleeper woken before its timer: the timer is cancelled. */
static void sleeper_cancel(struct sim_task *t)
{
	int i;

	for (i = 0; i < sleepers.n; i++)
		if (sleepers.task[i] == t) {
			sim_fp_note(&sleepers, 1);
			sleepers.task[i] = sleepers.task[--sleepers.n];
			return;
		}
}

int sim_wake_up_process(int task, const struct sim_site *site)
{
	struct sim_task *t = sim_task_by_id(task);
	int woke = 0;

	if (t)
		sim_fp_note(&t->kstate, 1);
	if (t && t->kstate) {
		t->kstate = 0;
		if (t->in_schedule && t->state == SIM_TASK_BLOCKED)
			sleeper_cancel(t);
		if (t->in_schedule)
			sim_wake(t, site);
		woke = 1;
	}
	sim_step(site, SIM_COST_WAKEUP);
	return woke;
}

const char *sim_task_comm(int task)
{
	struct sim_task *t = sim_task_by_id(task);

	return t ? sim_name_at(t->name) : "";
}

/* The CPU a task runs on (task_cpu()), or -1. */
int sim_task_cpu(int task)
{
	struct sim_task *t = sim_task_by_id(task);

	return t ? t->cpu : -1;
}

void sim_waitq_add(struct sim_waitq *wq, struct sim_task *t)
{
	t->waiter.next = NULL;
	if (wq->tail)
		wq->tail->next = &t->waiter;
	else
		wq->head = &t->waiter;
	wq->tail = &t->waiter;
}

struct sim_task *sim_waitq_pop(struct sim_waitq *wq)
{
	struct sim_waiter *w = wq->head;

	if (!w)
		return NULL;
	wq->head = w->next;
	if (!wq->head)
		wq->tail = NULL;
	w->next = NULL;
	return w->task;
}

/* ---- the machine ----------------------------------------------------------- */

int sim_init(const struct sim_config *cfg)
{
	int i;

	if (cfg->nr_cpus < 1 || cfg->nr_cpus > SIM_MAX_CPUS || cfg->nr_nodes < 1 ||
	    cfg->nr_nodes > cfg->nr_cpus || cfg->policy < 0 || cfg->policy >= SIM_NR_POLICIES ||
	    cfg->memory < 0 || cfg->memory >= SIM_NR_MEMORY_MODELS)
		return -1;
	memset(sim_cpus, 0, sizeof(sim_cpus));
	live_mask = changed_mask = 0;
	memset(earliest, -1, sizeof(earliest));
	sim_ncpus = cfg->nr_cpus;
	for (tree_width = 1; tree_width < sim_ncpus; tree_width *= 2)
		;
	sim_nr_nodes = cfg->nr_nodes;
	sim_core_init(cfg->seed, cfg->max_events, cfg->quiet);
	sim_ftrace_reset();
	sim_wall_reset();
	policy = cfg->policy;
	sim_choice_init(cfg);
	pending_next = -1;
	yielding = SIM_YIELD_NONE;
	last_cpu = -1;
	sleepers.n = 0;
	steps = 0;
	max_steps = cfg->max_steps ? cfg->max_steps : 20000000UL;
	panicked = 0;
	ntasks = 0;
	sim_current = NULL;
	sim_event_cpu = 0;
	sim_fiber_init_main(&host_fiber);
	for (i = 0; i < sim_ncpus; i++) {
		sim_cpus[i].id = i;
		/* CPUs do not start in lock-step: a seeded offset. */
		sim_cpus[i].clock = sim_random() % 100;
	}
	sim_boot++;
	sim_slab_init();
	sim_percpu_init();
	sim_rcu_init();
	sim_locks_init();
	sim_costs_real_gp(cfg->real_gp);
	sim_reports_init(cfg->hung_task_ns);
	sim_kasan_init(cfg->kasan_panic);
	kcsan_init(cfg->kcsan, sim_ncpus);
	mm_init(cfg->memory, sim_ncpus, cfg->seed, cfg->marked_steps || cfg->kcsan);
	for (i = 0; i < sim_ncpus; i++) {
		char name[24];

		snprintf(name, sizeof(name), "rcuc/%d", i);
		sim_cpus[i].rcuc = sim_task_create(i, name, sim_rcuc_fn, &sim_cpus[i], 1);
		if (!sim_cpus[i].rcuc)
			return -1;
		sim_cpus[i].rcuc->state = SIM_TASK_BLOCKED;
	}
	return 0;
}

int sim_heap_spare(struct sim_region *r, int max, const void *sp)
{
	/* Below a stack pointer, room for a signal frame nothing of the run's is in. */
	enum { MARGIN = 1024 };
	int i, n = 0;
	void *stack;
	size_t size;

	for (i = 0; i < ntasks && n < max; i++) {
		struct sim_fiber *f = &tasks[i]->fiber;
		const char *low;

		if (!f->stack)
			continue;
#if SIM_FIBER_ASM
		low = tasks[i] == sim_current ? (const char *)sp : (const char *)f->sp;
#else
		(void)sp;
		continue;
#endif
		if (low - MARGIN > (char *)f->stack)
			r[n++] = (struct sim_region){ f->stack, (char *)low - MARGIN, 0, "a task's unused stack", NULL, NULL };
		/* The allocator's block is larger than the stack (a power of two: twice as large). */
		if (n < max && malloc_usable_size(f->stack) > f->stack_size)
			r[n++] = (struct sim_region){ (char *)f->stack + f->stack_size,
						      (char *)f->stack + malloc_usable_size(f->stack), 0,
						      "past a task's stack", NULL, NULL };
	}
	for (i = 0; n < max && sim_fiber_pooled(i, &stack, &size); i++) {
		size_t usable = malloc_usable_size(stack);

		r[n++] = (struct sim_region){ stack, (char *)stack + (usable > size ? usable : size), 0,
					      "a stack kept for reuse", NULL, NULL };
	}
	if (n < max) {
		char *a, *b;

		sim_log_spare(&a, &b);
		if (b > a)
			r[n++] = (struct sim_region){ a, b, 0, "the event log's room", NULL, NULL };
	}
	return n;
}

void *sim_host_sp(void)
{
#if SIM_FIBER_ASM
	return host_fiber.sp;
#else
	return NULL;
#endif
}

int sim_boot_regions(struct sim_region *r, int max)
{
	int n = sim_slab_regions(r, max);

	return n + sim_lockdep_regions(r + n, max - n);
}

static sim_u64 min_runnable_clock(void)
{
	int i = earliest_cpu();

	return i < 0 ? (sim_u64)-1 : sim_cpus[i].clock;
}

/* Every CPU that could run spins on a held lock: nobody can release one. */
static int all_runnable_spin(void)
{
	uint64_t rest;
	int any = 0;

	for (rest = live_mask; rest; rest &= rest - 1) {
		struct sim_cpu *c = &sim_cpus[__builtin_ctzll(rest)];

		/* A spinner whose lock is free takes it at its next turn. */
		if (!c->curr->spinning_on || !c->curr->spinning_on->owner)
			return 0;
		any = 1;
	}
	return any;
}

/*
 * One decision of the run loop: run a task until it switches back, or
 * fire a timer; -1, or how the run ended. A function of its own, called
 * for each: in wasm a function runs in the code it was entered with, and
 * V8 tiers a hot function up for its next call, not the current one (a
 * loop around everything would run its first run in the baseline code).
 * Exported in wasm, which keeps Binaryen from inlining it into its caller.
 */
#ifdef __EMSCRIPTEN__
__attribute__((used))	/* EMSCRIPTEN_KEEPALIVE */
#endif
__attribute__((noinline)) int sim_run_one(void)
{
	struct sim_cpu *c;
	struct sim_task *t;
	sim_u64 now;
	int i, next;

	if (panicked)
		return SIM_PANIC;
	if (sim_stop_requested())
		return steps > max_steps ? SIM_STUCK : SIM_EVENT_LIMIT;
	/*
	 * A grace period's end, or a sleeper's timer, is due before
	 * anyone's next step: the earlier fires first (the grace period
	 * on a tie), so that time never runs backwards.
	 */
	now = min_runnable_clock();
	i = sleeper_due(now);
	if (sim_rcu_timer_due(i >= 0 ? sleepers.task[i]->timer : now)) {
		sim_rcu_timer_fire();
		return -1;
	}
	if (i >= 0) {
		fire_sleeper(i);
		return -1;
	}
	sim_check_hung_tasks(now);	/* nothing ran since now was read */
	if (all_runnable_spin() && !sim_rcu_timer_due((sim_u64)-1) && !sleepers.n)
		return SIM_DEADLOCK;	/* nobody who could unlock can run */
	next = pending_next >= 0 ? pending_next : decide(last_cpu);
	pending_next = -1;
	if (next < 0 || !sim_cpus[next].curr || sim_cpus[next].dead) {
		if (runnable_mask())
			return -1;	/* the pending choice went stale: decide again */
		for (i = 0; i < ntasks; i++)
			if (tasks[i]->state == SIM_TASK_BLOCKED && !tasks[i]->is_rcuc)
				return SIM_DEADLOCK;
		if (sim_rcu_pending())
			return SIM_DEADLOCK;
		return SIM_DONE;
	}
	c = &sim_cpus[next];
	last_cpu = next;
	t = c->curr;
	if (!t->started) {
		t->started = 1;
		sim_event_at(SIM_EV_TASK_START, c->id, c->clock, NULL, t->id, t->name, 0, 0);
		mm_task_start(t->id, c->id);
	}
	sim_current = t;
	sim_event_cpu = c->id;
	/*
	 * A task that spins (parked in sim_spin_step()) and must go on
	 * spinning: its turn is taken here, the same work in the same order
	 * as in the task, with no switch to its fiber and back.
	 */
	if (t->spinning_on && sim_spin_turn(t))
		spin_retry(t);
	else
		sim_fiber_run(&host_fiber, &t->fiber);
	sim_current = NULL;
	if (t->state == SIM_TASK_DONE && t->fiber.stack)
		sim_fiber_destroy(&t->fiber);
	return -1;
}

static int run_loop(void)
{
	int status;

	while ((status = sim_run_one()) < 0)
		;
	return status;
}

int sim_run(void)
{
	sim_running = 1;
	run_status = run_loop();
	sim_running = 0;
	mm_run_end();
	kcsan_run_end();
	return run_status;
}

void sim_fini(void)
{
	int i;

	mm_fini();
	sim_rcu_fini();
	sim_slab_fini();
	sim_reports_fini();
	for (i = 0; i < ntasks; i++) {
		sim_fiber_destroy(&tasks[i]->fiber);
		free(tasks[i]);
		tasks[i] = NULL;
	}
	ntasks = 0;
	sim_choice_fini();
	sim_core_fini();
}

unsigned long sim_total_steps(void)
{
	return steps;
}

const char *sim_status_str(int status)
{
	switch (status) {
	case SIM_DONE: return "done";
	case SIM_EVENT_LIMIT: return "event-limit";
	case SIM_DEADLOCK: return "deadlock";
	case SIM_STUCK: return "stuck";
	case SIM_PANIC: return "panic";
	}
	return "?";
}

const char *sim_policy_name(int p)
{
	return p >= 0 && p < SIM_NR_POLICIES ? sim_policy_names[p] : "?";
}

int sim_policy_from_name(const char *name)
{
	int p;

	for (p = 0; p < SIM_NR_POLICIES; p++)
		if (!strcmp(name, sim_policy_name(p)))
			return p;
	return -1;
}

/*
 * The machine stops where it is: no task runs again (KASAN's report with
 * kasan.fault=panic). Called from KASAN's callbacks, which in wasm32 are
 * not instrumented for a switch (build.mk): the task's fiber is left, not
 * switched from.
 */
void sim_panic(void)
{
	struct sim_task *t = sim_current;

	if (!t)
		abort();
	panicked = 1;
	sim_current = NULL;
	sim_fiber_leave(&t->fiber, &host_fiber);
	abort();
}

void sim_bug(const char *cond, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	sim_event(SIM_EV_BUG, site, sim_name(cond), sim_bug_report(cond, site), 0, 0);
	if (!t) {
		fprintf(stderr, "sim: BUG outside a task: %s\n", cond);
		abort();
	}
	/* As in the kernel, the CPU that hit BUG() stops for good. */
	t->state = SIM_TASK_DONE;
	sim_cpus[t->cpu].dead = 1;
	sim_cpu_changed(&sim_cpus[t->cpu]);
	sim_current = NULL;
	sim_fiber_switch(&t->fiber, &host_fiber, 1);
	abort();
}
