// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event log and the tables events refer to (sites, names), the seeded
 * random generator, and reports. The machine itself is in sched.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "runtime.h"
#include "kinds.h"

/* The machine's CPUs and who runs where: written by the scheduler (sched.c), read by all. */
struct sim_cpu sim_cpus[SIM_MAX_CPUS];
int sim_ncpus;
int sim_nr_nodes = 1;
struct sim_task *sim_current;
int sim_event_cpu;
int sim_boot;

static uint64_t rng_state, sched_rng_state;
static int stop_requested;
static unsigned long max_events;
static int quiet;			/* record only the scenario's calls, the reports and the console */
static unsigned long long events_seen;
int sim_running;		/* inside sim_run(): set-up events happen at time 0 */

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
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The stream the cost model's jitter draws from. */
uint64_t sim_random(void)
{
	return splitmix64(&rng_state);
}

/*
 * A second stream for the random policy's choices, so that a recorded
 * schedule replays to the same costs whichever policy follows it.
 */
uint64_t sim_random_sched(void)
{
	return splitmix64(&sched_rng_state);
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
		/* A line of the project's own code, even when built into a variant. */
		if (!strncmp(s->file, "wasm/", 5))
			s->tree = "project";
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

/*
 * Whether an event of this kind goes into the log: every kind, or in a
 * quiet run only the scenario's calls, the reports and the console. A
 * caller whose argument costs a lookup (an object's id) asks first.
 */
#define QUIET_KINDS (1ULL << SIM_EV_CALL | 1ULL << SIM_EV_RETURN | 1ULL << SIM_EV_REPORT |		\
		     1ULL << SIM_EV_WARN | 1ULL << SIM_EV_BUG | 1ULL << SIM_EV_TASK_START |		\
		     1ULL << SIM_EV_TASK_EXIT | 1ULL << SIM_EV_LABEL | 1ULL << SIM_EV_PRINTK)
_Static_assert(SIM_EV_NR_KINDS <= 64, "the quiet run's kinds are a 64-bit mask");

int sim_event_wanted(int kind)
{
	return !quiet || (QUIET_KINDS >> kind & 1);
}

void sim_event_at(int kind, int cpu, sim_u64 time, const struct sim_site *site,
		  int a0, int a1, int a2, int a3)
{
	struct sim_event *e;
	struct sim_task *t = sim_current ? sim_current : sim_cpus[cpu].curr;

	events_seen++;
	if (!sim_event_wanted(kind))
		return;
	if (sim_mm_unseen_on)
		mm_unseen_flush((uint32_t)log_.n);	/* what each CPU had not seen as this event happens */
	if (log_.n == log_.cap) {
		log_.cap = log_.cap ? log_.cap * 2 : 4096;
		log_.v = xrealloc(log_.v, log_.cap * sizeof(*log_.v));
	}
	e = &log_.v[log_.n++];
	e->time = time;
	e->site = sim_site_id(site);
	if (t && e->site)
		t->last_site = (int)e->site;
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
	sim_u64 t = sim_current || sim_running ? sim_cpus[sim_event_cpu].clock : 0;

	sim_event_at(kind, sim_event_cpu, t, site, a0, a1, a2, a3);
}

void sim_core_init(uint64_t seed, unsigned long limit, int quiet_run)
{
	rng_state = seed;
	sched_rng_state = seed ^ 0x5ced5ced5ced5cedULL;
	max_events = limit;
	quiet = quiet_run;
	events_seen = 0;
	stop_requested = 0;
	log_.n = 0;
#ifdef __EMSCRIPTEN__
	/*
	 * In wasm, room for the whole run at once when its limit is known (up
	 * to SIM_RESERVE_MAX events): growing a log of millions of events by
	 * realloc() copies it each time it doubles (there is no mremap()),
	 * and writes twice as many fresh pages: a sixth of a run's time in
	 * shrinker-lifetime. Pages not yet written cost nothing.
	 */
	if (limit && log_.cap < (limit < SIM_RESERVE_MAX ? limit : SIM_RESERVE_MAX)) {
		log_.cap = limit < SIM_RESERVE_MAX ? limit : SIM_RESERVE_MAX;
		free(log_.v);
		log_.v = xrealloc(NULL, log_.cap * sizeof(*log_.v));
	}
#endif
}

void sim_log_spare(char **start, char **end)
{
	*start = (char *)(log_.v + log_.n);
	*end = (char *)(log_.v + log_.cap);
}

unsigned long long sim_events_seen(void)
{
	return events_seen;
}

void sim_core_fini(void)
{
	int i;

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

void sim_request_stop(void)
{
	stop_requested = 1;
}

int sim_stop_requested(void)
{
	return stop_requested;
}

size_t sim_log_length(void)
{
	return log_.n;
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

/* The virtual clock of the CPU the caller runs on, as events are stamped with it. */
sim_u64 sim_clock_ns(void)
{
	return sim_current || sim_running ? sim_cpus[sim_event_cpu].clock : 0;
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

/* ---- reports ----------------------------------------------------------- */

void sim_printk(const struct sim_site *site, const char *fmt, ...)
{
	char buf[1024];		/* kernel/printk: PRINTKRB_RECORD_MAX */
	va_list ap;

	va_start(ap, fmt);
	sim_kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sim_event(SIM_EV_PRINTK, site, sim_name(buf), 0, 0, 0);
}

/* dump_stack(): the kernel prints the task and its backtrace; here the task and the caller's line. */
void sim_dump_stack(const struct sim_site *site)
{
	sim_printk(site, "CPU: %d PID: %d Comm: %s", sim_cpu_id(), sim_task_id(),
		   sim_current ? sim_name_at(sim_current->name) : "-");
	sim_printk(site, "Call Trace: %s+ (%s:%d)", site->func, site->file, site->line);
}

/* ---- wall time and progress, outside the log ---------------------------- */

#define MAX_MARKS 16

static struct {
	int name;
	double ms;
} marks[MAX_MARKS];
static int nr_marks;
static double wall_start;

void (*sim_progress_hook)(int done, int total);

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void sim_wall_reset(void)
{
	nr_marks = 0;
	wall_start = wall_ms();
}

void sim_wall_mark(const char *name)
{
	if (nr_marks == MAX_MARKS)
		return;
	marks[nr_marks].name = sim_name(name);
	marks[nr_marks].ms = wall_ms() - wall_start;
	nr_marks++;
}

int sim_wall_marks(int i, const char **name, double *ms)
{
	if (i < 0 || i >= nr_marks)
		return 0;
	*name = sim_name_at(marks[i].name);
	*ms = marks[i].ms;
	return 1;
}

void sim_progress(int done, int total)
{
	if (sim_progress_hook)
		sim_progress_hook(done, total);
}
