// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated SMP machine: tasks on CPUs, one deterministic scheduler,
 * the event log, and the site and name tables events refer to.
 *
 * Scheduling model. Each CPU has a virtual clock and a run queue. The
 * kernel is non-preemptible (CONFIG_PREEMPT_NONE): a CPU switches tasks
 * only when its task sleeps, exits or calls cond_resched(). Every shim
 * primitive is a preemption point of the *simulation*: the CPU's clock
 * advances by the operation's cost, and control passes to whichever CPU
 * with a runnable task has the earliest clock (ties go to the lower CPU).
 * The result is a discrete-event simulation in which CPUs run in parallel
 * in virtual time. Costs carry a jitter drawn from one seeded generator, so
 * a seed fixes the interleaving and the same seed gives the same log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "kinds.h"

struct sim_cpu sim_cpus[SIM_MAX_CPUS];
int sim_ncpus;
int sim_nr_nodes = 1;
struct sim_task *sim_current;
int sim_event_cpu;
int sim_boot;

static struct sim_fiber sched_fiber;
static struct sim_task *tasks[SIM_MAX_TASKS];
static int ntasks;
static uint64_t rng_state;
static int stop_requested;
static int running;		/* inside sim_run() */
static unsigned long max_events;
static unsigned long steps;
static const unsigned long max_steps = 200000000UL;

static struct {
	struct sim_event *v;
	size_t n, cap;
} log_;

static struct {
	const struct sim_site **v;
	int n, cap;
} sites;

static struct {
	char **str;
	int n, cap;
	int *hash;	/* open addressing, -1 empty */
	int hcap;
} names;

/* splitmix64: small, good enough, identical on every platform. */
uint64_t sim_random(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fprintf(stderr, "sim: out of memory\n");
		abort();
	}
	return p;
}

/* ---- sites and names ---------------------------------------------------- */

/* Site 0 is "no kernel line": events of the scheduler and of RCU's machinery. */
static struct sim_site no_site = { "", "", "", 0, 0, -1 };

int sim_site_id(const struct sim_site *site)
{
	struct sim_site *s = (struct sim_site *)site;

	if (!sites.n && s != &no_site)
		sim_site_id(&no_site);
	if (!s)
		return 0;
	if (s->id < 0) {
		if (sites.n == sites.cap) {
			sites.cap = sites.cap ? sites.cap * 2 : 256;
			sites.v = xrealloc(sites.v, sites.cap * sizeof(*sites.v));
		}
		s->id = sites.n;
		sites.v[sites.n++] = s;
	}
	return s->id;
}

int sim_nr_sites(void)
{
	return sites.n;
}

const struct sim_site *sim_site_at(int id)
{
	return id >= 0 && id < sites.n ? sites.v[id] : NULL;
}

static unsigned str_hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void names_rehash(void)
{
	int i;

	free(names.hash);
	names.hcap = names.hcap ? names.hcap * 2 : 512;
	names.hash = xrealloc(NULL, names.hcap * sizeof(int));
	for (i = 0; i < names.hcap; i++)
		names.hash[i] = -1;
	for (i = 0; i < names.n; i++) {
		unsigned h = str_hash(names.str[i]) & (names.hcap - 1);

		while (names.hash[h] >= 0)
			h = (h + 1) & (names.hcap - 1);
		names.hash[h] = i;
	}
}

int sim_name(const char *str)
{
	unsigned h;

	if (!str)
		str = "";
	if (names.n * 2 >= names.hcap)
		names_rehash();
	h = str_hash(str) & (names.hcap - 1);
	while (names.hash[h] >= 0) {
		if (!strcmp(names.str[names.hash[h]], str))
			return names.hash[h];
		h = (h + 1) & (names.hcap - 1);
	}
	if (names.n == names.cap) {
		names.cap = names.cap ? names.cap * 2 : 256;
		names.str = xrealloc(names.str, names.cap * sizeof(char *));
	}
	names.str[names.n] = strdup(str);
	if (!names.str[names.n])
		abort();
	names.hash[h] = names.n;
	return names.n++;
}

int sim_nr_names(void)
{
	return names.n;
}

const char *sim_name_at(int id)
{
	return id >= 0 && id < names.n ? names.str[id] : "";
}

/* ---- the event log ------------------------------------------------------ */

void sim_event_at(int kind, int cpu, sim_u64 time, const struct sim_site *site,
		  int a0, int a1, int a2, int a3)
{
	struct sim_event *e;
	struct sim_task *t = sim_current ? sim_current : sim_cpus[cpu].curr;

	if (log_.n == log_.cap) {
		log_.cap = log_.cap ? log_.cap * 2 : 4096;
		log_.v = xrealloc(log_.v, log_.cap * sizeof(*log_.v));
	}
	e = &log_.v[log_.n++];
	e->time = time;
	e->site = sim_site_id(site);
	e->kind = (unsigned short)kind;
	e->cpu = (unsigned char)cpu;
	e->task = t ? (unsigned char)t->id : 255;
	e->arg[0] = a0;
	e->arg[1] = a1;
	e->arg[2] = a2;
	e->arg[3] = a3;
	if (max_events && log_.n >= max_events)
		stop_requested = 1;
}

void sim_event(int kind, const struct sim_site *site, int a0, int a1, int a2, int a3)
{
	/* Set-up before the run (no task yet) happens at time 0. */
	sim_u64 t = sim_current || running ? sim_cpus[sim_event_cpu].clock : 0;

	sim_event_at(kind, sim_event_cpu, t, site, a0, a1, a2, a3);
}

const struct sim_event *sim_log(size_t *n)
{
	*n = log_.n;
	return log_.v;
}

const char *sim_event_kind_name(int kind)
{
	return kind >= 0 && kind < SIM_EV_NR_KINDS ? sim_kinds[kind].name : "?";
}

/* ---- context -------------------------------------------------------------- */

int sim_cpu_id(void)
{
	return sim_current ? sim_current->cpu : sim_event_cpu;
}

int sim_task_id(void)
{
	return sim_current ? sim_current->id : -1;
}

int sim_nr_cpus(void)
{
	return sim_ncpus;
}

int sim_in_task(void)
{
	return sim_current != NULL;
}

/* ---- tasks and the scheduler ------------------------------------------- */

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

static void cpu_next(struct sim_cpu *c, const struct sim_site *site);

static void task_entry(void *arg)
{
	struct sim_task *t = arg;
	struct sim_cpu *c;

	t->fn(t->arg);

	/* The task returned: leave its CPU for good. */
	c = &sim_cpus[t->cpu];
	sim_event(SIM_EV_TASK_EXIT, NULL, t->id, 0, 0, 0);
	t->state = SIM_TASK_DONE;
	cpu_next(c, NULL);
	sim_current = NULL;
	sim_fiber_switch(&t->fiber, &sched_fiber, 1);
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

/* Make t the CPU's current task if it is idle, else queue it. */
static void make_runnable(struct sim_task *t, sim_u64 when)
{
	struct sim_cpu *c = &sim_cpus[t->cpu];

	t->state = SIM_TASK_RUNNABLE;
	if (!c->curr) {
		c->curr = t;
		if (c->clock < when)
			c->clock = when;
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
	make_runnable(t, now);
	return t->id;
}

/* The current task leaves its CPU: run the next queued task, or idle. */
static void cpu_next(struct sim_cpu *c, const struct sim_site *site)
{
	struct sim_task *prev = c->curr, *next = rq_pop(c);

	c->curr = next;
	if (next) {
		sim_event_at(SIM_EV_CPU_SWITCH, c->id, c->clock, site,
			     prev ? prev->id : -1, next->id, 0, 0);
		c->clock += sim_cost_of(SIM_COST_WAKEUP);
	} else {
		sim_rcu_cpu_idle(c);
	}
}

static void to_scheduler(struct sim_task *t)
{
	sim_current = NULL;
	sim_fiber_switch(&t->fiber, &sched_fiber, 0);
	/* The scheduler set sim_current back to t before switching here. */
}

static int must_yield(const struct sim_task *t)
{
	sim_u64 mine = sim_cpus[t->cpu].clock;
	int i;

	if (stop_requested || sim_rcu_timer_due(mine - 1))
		return 1;
	for (i = 0; i < sim_ncpus; i++) {
		const struct sim_cpu *o = &sim_cpus[i];

		if (i == t->cpu || !o->curr)
			continue;
		if (o->clock < mine)
			return 1;
	}
	return 0;
}

void sim_step(const struct sim_site *site, int cost)
{
	struct sim_task *t = sim_current;

	(void)site;
	if (!t)
		return;
	sim_cpus[t->cpu].clock += sim_cost_of(cost);
	if (must_yield(t))
		to_scheduler(t);
}

/* One turn of a spin loop: always give the other CPUs a chance. */
void sim_spin_step(const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	(void)site;
	sim_cpus[t->cpu].clock += sim_cost_of(SIM_COST_SPIN_RETRY);
	to_scheduler(t);
}

struct sim_task *sim_task_by_id(int id)
{
	return id >= 0 && id < ntasks ? tasks[id] : NULL;
}

void sim_block(int reason, int name, const struct sim_site *site)
{
	struct sim_task *t = sim_current;
	struct sim_cpu *c = &sim_cpus[t->cpu];

	t->state = SIM_TASK_BLOCKED;
	sim_event(SIM_EV_TASK_BLOCK, site, t->id, reason, name, 0);
	/* A context switch is a quiescent state, unless RCU says otherwise. */
	if (!t->rcu_depth && !t->spinlocks_held)
		sim_rcu_note_qs(c);
	cpu_next(c, site);
	to_scheduler(t);
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
		cpu_next(c, site);
		to_scheduler(t);
		return;
	}
	c->clock += sim_cost_of(SIM_COST_COND_RESCHED);
	if (must_yield(t))
		to_scheduler(t);
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

int sim_init(const struct sim_config *cfg)
{
	int i;

	if (cfg->nr_cpus < 1 || cfg->nr_cpus > SIM_MAX_CPUS || cfg->nr_nodes < 1 ||
	    cfg->nr_nodes > cfg->nr_cpus)
		return -1;
	memset(sim_cpus, 0, sizeof(sim_cpus));
	sim_ncpus = cfg->nr_cpus;
	sim_nr_nodes = cfg->nr_nodes;
	rng_state = cfg->seed;
	max_events = cfg->max_events;
	stop_requested = 0;
	steps = 0;
	ntasks = 0;
	sim_current = NULL;
	sim_event_cpu = 0;
	log_.n = 0;
	sim_fiber_init_main(&sched_fiber);
	for (i = 0; i < sim_ncpus; i++) {
		sim_cpus[i].id = i;
		/* CPUs do not start in lock-step: a seeded offset. */
		sim_cpus[i].clock = sim_random() % 100;
	}
	sim_boot++;
	sim_slab_init();
	sim_rcu_init();
	sim_locks_init();
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

static struct sim_cpu *pick_cpu(void)
{
	struct sim_cpu *best = NULL;
	int i;

	for (i = 0; i < sim_ncpus; i++) {
		struct sim_cpu *c = &sim_cpus[i];

		if (c->curr && !c->dead && (!best || c->clock < best->clock))
			best = c;
	}
	return best;
}

static int run_loop(void);

int sim_run(void)
{
	int status;

	running = 1;
	status = run_loop();
	running = 0;
	return status;
}

static int run_loop(void)
{
	for (;;) {
		struct sim_cpu *c;
		struct sim_task *t;
		int i;

		if (stop_requested)
			return SIM_EVENT_LIMIT;
		if (++steps > max_steps)
			return SIM_DEADLOCK;
		c = pick_cpu();
		if (sim_rcu_timer_due(c ? c->clock : (sim_u64)-1)) {
			sim_rcu_timer_fire();
			continue;
		}
		if (!c) {
			for (i = 0; i < ntasks; i++)
				if (tasks[i]->state == SIM_TASK_BLOCKED && !tasks[i]->is_rcuc)
					return SIM_DEADLOCK;
			if (sim_rcu_pending())
				return SIM_DEADLOCK;
			return SIM_DONE;
		}
		t = c->curr;
		if (!t->started) {
			t->started = 1;
			sim_event_at(SIM_EV_TASK_START, c->id, c->clock, NULL, t->id, t->name, 0, 0);
		}
		sim_current = t;
		sim_event_cpu = c->id;
		sim_fiber_switch(&sched_fiber, &t->fiber, 0);
		sim_current = NULL;
		if (t->state == SIM_TASK_DONE && t->fiber.stack)
			sim_fiber_destroy(&t->fiber);
	}
}

void sim_fini(void)
{
	int i;

	sim_rcu_fini();
	sim_slab_fini();
	for (i = 0; i < ntasks; i++) {
		sim_fiber_destroy(&tasks[i]->fiber);
		free(tasks[i]);
		tasks[i] = NULL;
	}
	ntasks = 0;
	free(log_.v);
	memset(&log_, 0, sizeof(log_));
	/* Sites are static records in the code: forget their ids. */
	for (i = 0; i < sites.n; i++)
		((struct sim_site *)sites.v[i])->id = -1;
	free(sites.v);
	memset(&sites, 0, sizeof(sites));
	for (i = 0; i < names.n; i++)
		free(names.str[i]);
	free(names.str);
	free(names.hash);
	memset(&names, 0, sizeof(names));
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
	}
	return "?";
}

/* ---- reports ----------------------------------------------------------- */

void sim_warn(const char *cond, const struct sim_site *site)
{
	sim_event(SIM_EV_WARN, site, sim_name(cond), 0, 0, 0);
}

void sim_bug(const char *cond, const struct sim_site *site)
{
	struct sim_task *t = sim_current;

	sim_event(SIM_EV_BUG, site, sim_name(cond), 0, 0, 0);
	if (!t) {
		fprintf(stderr, "sim: BUG outside a task: %s\n", cond);
		abort();
	}
	/* As in the kernel, the CPU that hit BUG() stops for good. */
	t->state = SIM_TASK_DONE;
	sim_cpus[t->cpu].dead = 1;
	sim_current = NULL;
	sim_fiber_switch(&t->fiber, &sched_fiber, 1);
	abort();
}

void sim_printk(const struct sim_site *site, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sim_event(SIM_EV_PRINTK, site, sim_name(buf), 0, 0, 0);
}
