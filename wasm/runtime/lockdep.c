// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated kernel's lockdep, "possible circular locking dependency detected"
 * (Documentation/locking/lockdep-design.rst): lock classes are keyed by
 * the lock's name, as written where it is defined or initialised; taking
 * lock B while holding A records A -> B with the lines of both
 * acquisitions, and a new dependency that closes a cycle is reported
 * with both chains. As in the kernel, lockdep reports once and then
 * turns itself off (debug_locks_off()), and a report that taints the
 * kernel as kernel/panic.c's add_taint(..., LOCKDEP_NOW_UNRELIABLE)
 * does (a KASAN report, a BUG) turns it off too, with "Disabling lock
 * debugging due to kernel taint". Later reports that list held locks
 * say "INFO: lockdep is turned off." instead.
 * The reports it writes go into reports.c's table, as KASAN's (kasan.c) do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "footprint.h"
#include "reports.h"

#define MAX_CLASSES 512
#define MAX_HELD 32

static int debug_locks;	/* lockdep on: until its first report or a taint */

int sim_debug_locks(void)
{
	return debug_locks;
}

/*
 * add_taint(flag, LOCKDEP_NOW_UNRELIABLE) (kernel/panic.c): lockdep's
 * answers cannot be trusted after this report, so it stops; the line goes
 * at the end of the report that tainted, if lockdep was still on.
 */
void sim_lockdep_taint(struct strbuf *b)
{
	if (!debug_locks)
		return;
	debug_locks = 0;
	sb_put(b, "Disabling lock debugging due to kernel taint\n");
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
static int reported_any;	/* a bit of reported_pair is set */

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
	reported_any = 0;
	memset(nheld, 0, sizeof(nheld));
}

/* A snapshot keeps each task's held locks, and the reported pairs if any is set. */
static size_t lockdep_save(void *buf, size_t room)
{
	char *p = buf;
	size_t need = 1 + (reported_any ? sizeof(reported_pair) : 0);
	int t;

	for (t = 0; t < SIM_MAX_TASKS; t++)
		need += (size_t)nheld[t] * sizeof(held[0][0]);
	if (need > room)
		return need;
	*p++ = (char)reported_any;
	if (reported_any)
		memcpy(p, reported_pair, sizeof(reported_pair)), p += sizeof(reported_pair);
	for (t = 0; t < SIM_MAX_TASKS; t++)
		if (nheld[t])
			memcpy(p, held[t], (size_t)nheld[t] * sizeof(held[0][0])), p += (size_t)nheld[t] * sizeof(held[0][0]);
	return need;
}

/* Over a boot's state, nheld[] already put back with the static data. */
static void lockdep_restore(const void *buf, size_t len)
{
	const char *p = buf;
	int t;

	if (*p++)
		memcpy(reported_pair, p, sizeof(reported_pair)), p += sizeof(reported_pair);
	for (t = 0; t < SIM_MAX_TASKS; t++)
		if (nheld[t])
			memcpy(held[t], p, (size_t)nheld[t] * sizeof(held[0][0])), p += (size_t)nheld[t] * sizeof(held[0][0]);
}

int sim_lockdep_regions(struct sim_region *r, int max)
{
	int n = 0;

	/* A boot clears it (sim_lockdep_init()). */
	if (n < max)
		r[n++] = (struct sim_region){ (char *)reported_pair, (char *)reported_pair + sizeof(reported_pair), 0,
					      "lockdep's reported pairs", lockdep_save, lockdep_restore };
	/* A task's held locks are read only below nheld[], which a boot clears. */
	if (n < max)
		r[n++] = (struct sim_region){ (char *)held, (char *)held + sizeof(held), 0, "lockdep's held locks",
					      NULL, NULL };
	return n;
}

static int class_of(const struct sim_lock *l)
{
	int name = sim_lock_name(l), i;

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
		sb_put(b, "no locks held by %s/%d.\n", sim_task_name(t), t->id);
		return;
	}
	sb_put(b, "%d lock%s held by %s/%d:\n", n, n == 1 ? "" : "s", sim_task_name(t), t->id);
	for (i = 0; i < n; i++) {
		sb_put(b, " #%d: (%s), at: ", i, cls_name(held[t->id][i].cls));
		sim_put_site(b, sim_site_at(held[t->id][i].site));
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
	sb_put(&b, "%s/%d is trying to acquire lock:\n  (%s), at: ", sim_task_name(t), t->id, cls_name(cls));
	sim_put_site(&b, site);
	sb_put(&b, "\n\nbut task is already holding lock:\n  (%s), at: ", cls_name(h->cls));
	sim_put_site(&b, sim_site_at(h->site));
	sb_put(&b, "\n\nwhich lock already depends on the new lock.\n\n");
	sb_put(&b, "the existing dependency chain (in reverse order) is:\n");
	/* path: cls -> ... -> h->cls; print it from its end, as lockdep does */
	for (i = plen - 1; i > 0; i--) {
		struct dep *d = find_dep(path[i - 1], path[i]);

		sb_put(&b, "\n-> #%d (%s):\n       taken at ", i, cls_name(path[i]));
		sim_put_site(&b, sim_site_at(d->to_site));
		sb_put(&b, "\n       by %s/%d while holding (%s), taken at ",
		    sim_task_name(sim_task_by_id(d->task)), d->task, cls_name(path[i - 1]));
		sim_put_site(&b, sim_site_at(d->from_site));
		sb_put(&b, "\n");
	}
	sb_put(&b, "\n-> #0 (%s):\n       being taken at ", cls_name(cls));
	sim_put_site(&b, site);
	sb_put(&b, "\n       by %s/%d while holding (%s)\n", sim_task_name(t), t->id, cls_name(h->cls));
	sb_put(&b, "\n Possible unsafe locking scenario:\n\n");
	sb_put(&b, "       CPU0                    CPU1\n       ----                    ----\n");
	sb_put(&b, "  lock(%s);\n", cls_name(cls));
	sb_put(&b, "                               lock(%s);\n", cls_name(h->cls));
	sb_put(&b, "                               lock(%s);\n", cls_name(cls));
	sb_put(&b, "  lock(%s);\n\n *** DEADLOCK ***\n\n", cls_name(h->cls));
	sim_lockdep_print_held(&b, t);
	sim_report_add(SIM_REPORT_LOCKDEP, site, "possible circular locking dependency detected", &b);
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
			reported_any = 1;
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
