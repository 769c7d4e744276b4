// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports that read like the kernel's, each naming the kernel lines
 * involved:
 *
 *  - WARNING / BUG splats (include/asm-generic/bug.h): after a WARN the
 *    scenario goes on; after a BUG the CPU stops (sched.c).
 *  - lockdep, "possible circular locking dependency detected"
 *    (Documentation/locking/lockdep-design.rst): lock classes are keyed by
 *    the lock's name, as written where it is defined or initialised; taking
 *    lock B while holding A records A -> B with the lines of both
 *    acquisitions, and a new dependency that closes a cycle is reported
 *    with both chains. As in the kernel, lockdep reports once and then
 *    turns itself off (debug_locks_off()), and a report that taints the
 *    kernel as kernel/panic.c's add_taint(..., LOCKDEP_NOW_UNRELIABLE)
 *    does (a KASAN report, a BUG) turns it off too, with "Disabling lock
 *    debugging due to kernel taint". Later reports that list held locks
 *    say "INFO: lockdep is turned off." instead.
 *  - "BUG: sleeping function called from invalid context"
 *    (CONFIG_DEBUG_ATOMIC_SLEEP): a might-sleep primitive (mutex_lock,
 *    wait_for_completion, synchronize_rcu, down_read/down_write) called
 *    inside an RCU read-side section or with a spinlock held.
 *  - "INFO: task ... blocked for more than ... " (kernel/hung_task.c): a
 *    task asleep longer than the threshold, in virtual time.
 *  - KASAN slab-use-after-free: kasan.c.
 *
 * Each report is an event (REPORT, WARN or BUG) whose "report" argument
 * indexes the table of report texts (lab_meta_json() writes it out).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "explore.h"
#include "strbuf.h"

#define HUNG_TASK_DEFAULT_NS 1000000ULL	/* 1 ms of virtual time */
#define MAX_CLASSES 512
#define MAX_HELD 32

struct report {
	int type;
	int event;
	char *title;
	char *text;
};

static struct {
	struct report *v;
	int n, cap;
} reports;
static sim_u64 hung_ns;
static int debug_locks;	/* lockdep on: until its first report or a taint */
static sim_u64 next_hung_check;	/* no task can be hung before this time */

/* "mm/shrinker.c:795 shrinker_free()" */
static void put_site(struct strbuf *b, const struct sim_site *s)
{
	if (s && s->file && *s->file)
		sb_put(b, "%s:%d %s()", s->file, s->line, s->func);
	else
		sb_put(b, "(no kernel line)");
}

static const char *task_name(const struct sim_task *t)
{
	return t ? sim_name_at(t->name) : "?";
}

static int add_report(int type, const struct sim_site *site, const char *title, struct strbuf *b);
static void taint_lockdep(struct strbuf *b);

/* A report whose text the caller wrote (KASAN); takes the text. */
int sim_report_text(int type, const struct sim_site *site, const char *title, char *text, int obj)
{
	sim_fp_note(&reports, 1);
	struct strbuf b = { text, text ? strlen(text) : 0, text ? strlen(text) + 1 : 0 };

	(void)obj;
	return add_report(type, site, title, &b);
}

static int add_report(int type, const struct sim_site *site, const char *title, struct strbuf *b)
{
	struct report *r;
	int id;

	if (reports.n == reports.cap) {
		reports.cap = reports.cap ? reports.cap * 2 : 16;
		reports.v = realloc(reports.v, reports.cap * sizeof(*reports.v));
		if (!reports.v)
			abort();
	}
	/* KASAN's end_report() and die() taint the kernel: LOCKDEP_NOW_UNRELIABLE */
	if (type == SIM_REPORT_KASAN || type == SIM_REPORT_BUG)
		taint_lockdep(b);
	id = reports.n++;
	r = &reports.v[id];
	r->type = type;
	r->event = (int)sim_log_length();
	r->title = strdup(title);
	r->text = b->s ? b->s : strdup("");
	if (!r->title || !r->text)
		abort();
	if (type != SIM_REPORT_WARN && type != SIM_REPORT_BUG)
		sim_event(SIM_EV_REPORT, site, type, sim_name(title), id, 0);
	return id;
}

int sim_nr_reports(void)
{
	return reports.n;
}

int sim_report_info(int id, int *type, int *event, const char **title, const char **text)
{
	if (id < 0 || id >= reports.n)
		return -1;
	*type = reports.v[id].type;
	*event = reports.v[id].event;
	*title = reports.v[id].title;
	*text = reports.v[id].text;
	return 0;
}

void sim_reports_init(sim_u64 hung_task_ns)
{
	/* On the real time scale (costs.c), a thousand times as long, as grace periods are. */
	hung_ns = hung_task_ns ? hung_task_ns :
		  sim_costs_are_real_gp() ? 1000 * HUNG_TASK_DEFAULT_NS : HUNG_TASK_DEFAULT_NS;
	next_hung_check = 0;
	reports.n = 0;
	sim_lockdep_init();
}

int sim_debug_locks(void)
{
	return debug_locks;
}

/*
 * add_taint(flag, LOCKDEP_NOW_UNRELIABLE) (kernel/panic.c): lockdep's
 * answers cannot be trusted after this report, so it stops; the line goes
 * at the end of the report that tainted, if lockdep was still on.
 */
static void taint_lockdep(struct strbuf *b)
{
	if (!debug_locks)
		return;
	debug_locks = 0;
	sb_put(b, "Disabling lock debugging due to kernel taint\n");
}

void sim_reports_fini(void)
{
	int i;

	for (i = 0; i < reports.n; i++) {
		free(reports.v[i].title);
		free(reports.v[i].text);
	}
	free(reports.v);
	memset(&reports, 0, sizeof(reports));
}

/* ---- WARN and BUG ------------------------------------------------------------ */

static int splat(int type, const char *cond, const struct sim_site *site)
{
	struct strbuf b = { 0 };
	struct sim_task *t = sim_current;
	char title[160];

	snprintf(title, sizeof(title), "%s at %s:%d %s()", type == SIM_REPORT_BUG ? "kernel BUG" : "WARNING",
		 site ? site->file : "?", site ? site->line : 0, site ? site->func : "?");
	if (type == SIM_REPORT_BUG)
		sb_put(&b, "------------[ cut here ]------------\nkernel BUG at %s:%d!\n",
		    site ? site->file : "?", site ? site->line : 0);
	else
		sb_put(&b, "------------[ cut here ]------------\nWARNING: CPU: %d PID: %d at %s:%d %s\n",
		    sim_cpu_id(), t ? t->id : -1, site ? site->file : "?", site ? site->line : 0,
		    site ? site->func : "?");
	sb_put(&b, "condition: %s\n", cond);
	sb_put(&b, "CPU: %d PID: %d Comm: %s\n", sim_cpu_id(), t ? t->id : -1, task_name(t));
	sb_put(&b, "---[ end trace ]---\n");
	return add_report(type, site, title, &b);
}

void sim_warn(const char *cond, const struct sim_site *site)
{
	int id = splat(SIM_REPORT_WARN, cond, site);

	sim_event(SIM_EV_WARN, site, sim_name(cond), id, 0, 0);
}

/* WARN(cond, fmt, ...): the message is the report's condition line. */
void sim_warnf(const struct sim_site *site, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sim_warn(msg, site);
}

int sim_bug_report(const char *cond, const struct sim_site *site)
{
	return splat(SIM_REPORT_BUG, cond, site);
}

/* ---- hung tasks -------------------------------------------------------------- */

/* A task went to sleep at "since": it could be hung from since + threshold. */
void sim_hung_task_watch(sim_u64 since)
{
	if (since + hung_ns < next_hung_check)
		next_hung_check = since + hung_ns;
}

/* Like khungtaskd: called often, looks only when a task could be overdue. */
void sim_check_hung_tasks(sim_u64 now)
{
	int i;

	if (now == (sim_u64)-1 || now < next_hung_check)
		return;
	next_hung_check = (sim_u64)-1;
	for (i = 0; sim_task_by_id(i); i++) {
		struct sim_task *t = sim_task_by_id(i);
		struct strbuf b = { 0 };
		char title[128];

		if (t->state != SIM_TASK_BLOCKED || t->is_rcuc || t->hung_reported)
			continue;
		if (now < t->blocked_since + hung_ns) {
			if (t->blocked_since + hung_ns < next_hung_check)
				next_hung_check = t->blocked_since + hung_ns;
			continue;
		}
		t->hung_reported = 1;
		snprintf(title, sizeof(title), "task %s:%d blocked for more than %llu ns",
			 task_name(t), t->id, (unsigned long long)hung_ns);
		sb_put(&b, "INFO: %s.\n", title);
		sb_put(&b, "      asleep since %llu ns (virtual), on CPU%d, in:\n",
		    (unsigned long long)t->blocked_since, t->cpu);
		sb_put(&b, "  ");
		put_site(&b, sim_site_at(t->block_site));
		sb_put(&b, "\n(The threshold stands for hung_task_timeout_secs, scaled to virtual time.)\n");
		add_report(SIM_REPORT_HUNG_TASK, sim_site_at(t->block_site), title, &b);
	}
}

/* ---- might_sleep ------------------------------------------------------------- */

void sim_might_sleep(const struct sim_site *site)
{
	struct sim_task *t = sim_current;
	struct strbuf b = { 0 };

	if (!t || (!t->rcu_depth && !t->spinlocks_held) || t->atomic_sleep_reported)
		return;
	t->atomic_sleep_reported = 1;	/* once per task, as the kernel rate-limits it */
	sb_put(&b, "BUG: sleeping function called from invalid context at %s:%d\n",
	    site ? site->file : "?", site ? site->line : 0);
	sb_put(&b, "in_atomic(): %d, irqs_disabled(): 0, non_block: 0, pid: %d, name: %s\n",
	    t->spinlocks_held > 0, t->id, task_name(t));
	sb_put(&b, "preempt_count: %d, expected: 0\n", t->spinlocks_held);
	sb_put(&b, "RCU nest depth: %d, expected: 0\n", t->rcu_depth);
	if (t->rcu_depth) {
		sb_put(&b, "rcu_read_lock() taken at ");
		put_site(&b, sim_site_at(t->rcu_lock_site));
		sb_put(&b, "\n");
	}
	sim_lockdep_print_held(&b, t);
	sb_put(&b, "called from ");
	put_site(&b, site);
	sb_put(&b, "\n");
	add_report(SIM_REPORT_SLEEP_IN_ATOMIC, site, "sleeping function called from invalid context", &b);
}

/* ---- lockdep ----------------------------------------------------------------- */

struct dep {
	int to;
	int task;		/* who first took "to" while holding "from" */
	int from_site, to_site;
	struct dep *next;
};

static struct {
	int name;		/* name table id */
	struct dep *deps;
} classes[MAX_CLASSES];
static int nclasses;
static char reported_pair[MAX_CLASSES][MAX_CLASSES / 8];

struct held {
	int cls;
	int site;
	const struct sim_lock *lock;
};
static struct held held[SIM_MAX_TASKS][MAX_HELD];
static int nheld[SIM_MAX_TASKS];

void sim_lockdep_init(void)
{
	int i;

	for (i = 0; i < nclasses; i++) {
		struct dep *d = classes[i].deps, *next;

		for (; d; d = next) {
			next = d->next;
			free(d);
		}
	}
	nclasses = 0;
	debug_locks = 1;
	memset(reported_pair, 0, sizeof(reported_pair));
	memset(nheld, 0, sizeof(nheld));
}

static int class_of(const struct sim_lock *l)
{
	int name = sim_name(l->name), i;

	for (i = 0; i < nclasses; i++)
		if (classes[i].name == name)
			return i;
	if (nclasses == MAX_CLASSES)
		return -1;
	classes[nclasses].name = name;
	classes[nclasses].deps = NULL;
	return nclasses++;
}

static struct dep *find_dep(int from, int to)
{
	struct dep *d;

	for (d = classes[from].deps; d; d = d->next)
		if (d->to == to)
			return d;
	return NULL;
}

/* Depth-first search for a path from -> ... -> to; fills path[] (classes). */
static int find_path(int from, int to, int *path, int depth, char *seen)
{
	struct dep *d;

	path[depth] = from;
	if (from == to)
		return depth + 1;
	if (depth >= 16 || seen[from])
		return 0;
	seen[from] = 1;
	for (d = classes[from].deps; d; d = d->next) {
		int n = find_path(d->to, to, path, depth + 1, seen);

		if (n)
			return n;
	}
	return 0;
}

static const char *cls_name(int c)
{
	return sim_name_at(classes[c].name);
}

void sim_lockdep_print_held(void *buf, const struct sim_task *t)
{
	struct strbuf *b = buf;
	int i, n = nheld[t->id];

	if (!debug_locks) {	/* debug_show_held_locks() */
		sb_put(b, "INFO: lockdep is turned off.\n");
		return;
	}
	if (!n) {
		sb_put(b, "no locks held by %s/%d.\n", task_name(t), t->id);
		return;
	}
	sb_put(b, "%d lock%s held by %s/%d:\n", n, n == 1 ? "" : "s", task_name(t), t->id);
	for (i = 0; i < n; i++) {
		sb_put(b, " #%d: (%s), at: ", i, cls_name(held[t->id][i].cls));
		put_site(b, sim_site_at(held[t->id][i].site));
		sb_put(b, "\n");
	}
}

static void report_cycle(struct sim_task *t, const struct held *h, int cls, const struct sim_site *site,
			 const int *path, int plen)
{
	struct strbuf b = { 0 };
	int i;

	sb_put(&b, "======================================================\n");
	sb_put(&b, "WARNING: possible circular locking dependency detected\n");
	sb_put(&b, "------------------------------------------------------\n");
	sb_put(&b, "%s/%d is trying to acquire lock:\n  (%s), at: ", task_name(t), t->id, cls_name(cls));
	put_site(&b, site);
	sb_put(&b, "\n\nbut task is already holding lock:\n  (%s), at: ", cls_name(h->cls));
	put_site(&b, sim_site_at(h->site));
	sb_put(&b, "\n\nwhich lock already depends on the new lock.\n\n");
	sb_put(&b, "the existing dependency chain (in reverse order) is:\n");
	/* path: cls -> ... -> h->cls; print it from its end, as lockdep does */
	for (i = plen - 1; i > 0; i--) {
		struct dep *d = find_dep(path[i - 1], path[i]);

		sb_put(&b, "\n-> #%d (%s):\n       taken at ", i, cls_name(path[i]));
		put_site(&b, sim_site_at(d->to_site));
		sb_put(&b, "\n       by %s/%d while holding (%s), taken at ",
		    task_name(sim_task_by_id(d->task)), d->task, cls_name(path[i - 1]));
		put_site(&b, sim_site_at(d->from_site));
		sb_put(&b, "\n");
	}
	sb_put(&b, "\n-> #0 (%s):\n       being taken at ", cls_name(cls));
	put_site(&b, site);
	sb_put(&b, "\n       by %s/%d while holding (%s)\n", task_name(t), t->id, cls_name(h->cls));
	sb_put(&b, "\n Possible unsafe locking scenario:\n\n");
	sb_put(&b, "       CPU0                    CPU1\n       ----                    ----\n");
	sb_put(&b, "  lock(%s);\n", cls_name(cls));
	sb_put(&b, "                               lock(%s);\n", cls_name(h->cls));
	sb_put(&b, "                               lock(%s);\n", cls_name(cls));
	sb_put(&b, "  lock(%s);\n\n *** DEADLOCK ***\n\n", cls_name(h->cls));
	sim_lockdep_print_held(&b, t);
	add_report(SIM_REPORT_LOCKDEP, site, "possible circular locking dependency detected", &b);
}

/* Called before a blocking acquisition of l (not for trylocks). */
void sim_lockdep_acquire(const struct sim_lock *l, const struct sim_site *site, int trylock)
{
	struct sim_task *t = sim_current;
	int cls, i, sid;

	if (!t || (cls = class_of(l)) < 0)
		return;
	sim_fp_note(&debug_locks, nheld[t->id] > 0);	/* the dependency graph */
	sid = sim_site_id(site);
	/* once off, lockdep only keeps the held-lock list locks.c asks about */
	for (i = 0; i < nheld[t->id] && !trylock && debug_locks; i++) {
		const struct held *h = &held[t->id][i];
		struct dep *d;
		int path[18], plen;
		char seen[MAX_CLASSES] = { 0 };

		if (h->cls == cls || find_dep(h->cls, cls))
			continue;
		plen = find_path(cls, h->cls, path, 0, seen);
		if (plen && !(reported_pair[h->cls][cls / 8] & (1 << (cls % 8)))) {
			reported_pair[h->cls][cls / 8] |= (char)(1 << (cls % 8));
			report_cycle(t, h, cls, site, path, plen);
			debug_locks = 0;	/* print_circular_bug(): debug_locks_off() */
			break;
		}
		d = calloc(1, sizeof(*d));
		if (!d)
			abort();
		d->to = cls;
		d->task = t->id;
		d->from_site = h->site;
		d->to_site = sid;
		d->next = classes[h->cls].deps;
		classes[h->cls].deps = d;
	}
	if (nheld[t->id] < MAX_HELD) {
		held[t->id][nheld[t->id]].cls = cls;
		held[t->id][nheld[t->id]].site = sid;
		held[t->id][nheld[t->id]].lock = l;
		nheld[t->id]++;
	}
}

/* Does the current task hold l (as lockdep records it, readers included)? */
int sim_lockdep_holds(const struct sim_lock *l)
{
	struct sim_task *t = sim_current;
	int i;

	if (!t)
		return 0;
	for (i = 0; i < nheld[t->id]; i++)
		if (held[t->id][i].lock == l)
			return 1;
	return 0;
}

void sim_lockdep_release(const struct sim_lock *l)
{
	struct sim_task *t = sim_current;
	int i;

	if (!t)
		return;
	for (i = nheld[t->id] - 1; i >= 0; i--) {
		if (held[t->id][i].lock == l) {
			memmove(&held[t->id][i], &held[t->id][i + 1],
				(size_t)(nheld[t->id] - i - 1) * sizeof(held[0][0]));
			nheld[t->id]--;
			return;
		}
	}
}
