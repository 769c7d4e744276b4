// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports that read like the kernel's, each naming the kernel lines
 * involved:
 *
 *  - WARNING / BUG splats (include/asm-generic/bug.h): after a WARN the
 *    scenario goes on; after a BUG the CPU stops (sched.c).
 *  - lockdep: lockdep.c.
 *  - "BUG: sleeping function called from invalid context"
 *    (CONFIG_DEBUG_ATOMIC_SLEEP): a might-sleep primitive (mutex_lock,
 *    wait_for_completion, synchronize_rcu, down_read/down_write) called
 *    inside an RCU read-side section or with a spinlock held.
 *  - "INFO: task ... blocked for more than ... " (kernel/hung_task.c): a
 *    task asleep longer than the threshold, in virtual time.
 *  - KASAN slab-use-after-free: kasan.c.
 *  - a test's own verdict, when it failed (sim_test_failed()).
 *
 * Each report is an event (REPORT, WARN or BUG) whose "report" argument
 * indexes the table of report texts (lab_meta_json() writes it out).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "footprint.h"
#include "reports.h"

#define HUNG_TASK_DEFAULT_NS 1000000ULL	/* 1 ms of virtual time */

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
static sim_u64 next_hung_check;	/* no task can be hung before this time */

/* "mm/shrinker.c:795 shrinker_free()" */
void sim_put_site(struct strbuf *b, const struct sim_site *s)
{
	if (s && s->file && *s->file)
		sb_put(b, "%s:%d %s()", s->file, s->line, s->func);
	else
		sb_put(b, "(no kernel line)");
}

const char *sim_task_name(const struct sim_task *t)
{
	return t ? sim_name_at(t->name) : "?";
}


/* A report whose text the caller wrote (KASAN); takes the text. */
int sim_report_text(int type, const struct sim_site *site, const char *title, char *text, int obj)
{
	sim_fp_note(&reports, 1);
	struct strbuf b = { text, text ? strlen(text) : 0, text ? strlen(text) + 1 : 0 };

	(void)obj;
	return sim_report_add(type, site, title, &b);
}

int sim_report_add(int type, const struct sim_site *site, const char *title, struct strbuf *b)
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
		sim_lockdep_taint(b);
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
	sb_put(&b, "CPU: %d PID: %d Comm: %s\n", sim_cpu_id(), t ? t->id : -1, sim_task_name(t));
	sb_put(&b, "---[ end trace ]---\n");
	return sim_report_add(type, site, title, &b);
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
	sim_kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sim_warn(msg, site);
}

int sim_bug_report(const char *cond, const struct sim_site *site)
{
	return splat(SIM_REPORT_BUG, cond, site);
}

void sim_test_failed(const struct sim_site *site, const char *fmt, ...)
{
	struct strbuf b = { 0 };
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sb_put(&b, "%s\n", msg);
	sim_report_add(SIM_REPORT_TEST, site, msg, &b);
}

/* ---- hung tasks -------------------------------------------------------------- */

/* A task went to sleep at "since": it could be hung from since + threshold. */
void sim_hung_task_watch(sim_u64 since)
{
	if (since + hung_ns < next_hung_check)
		next_hung_check = since + hung_ns;
}

/* The look itself, out of line: its report's buffers cost every call a stack frame. */
static __attribute__((noinline)) void check_hung_tasks(sim_u64 now)
{
	int i;

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
			 sim_task_name(t), t->id, (unsigned long long)hung_ns);
		sb_put(&b, "INFO: %s.\n", title);
		sb_put(&b, "      asleep since %llu ns (virtual), on CPU%d, in:\n",
		    (unsigned long long)t->blocked_since, t->cpu);
		sb_put(&b, "  ");
		sim_put_site(&b, sim_site_at(t->block_site));
		sb_put(&b, "\n(The threshold stands for hung_task_timeout_secs, scaled to virtual time.)\n");
		sim_report_add(SIM_REPORT_HUNG_TASK, sim_site_at(t->block_site), title, &b);
	}
}

/* Like khungtaskd: called at every step, looks only when a task could be overdue. */
void sim_check_hung_tasks(sim_u64 now)
{
	if (now == (sim_u64)-1 || now < next_hung_check)
		return;
	check_hung_tasks(now);
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
	    t->spinlocks_held > 0, t->id, sim_task_name(t));
	sb_put(&b, "preempt_count: %d, expected: 0\n", t->spinlocks_held);
	sb_put(&b, "RCU nest depth: %d, expected: 0\n", t->rcu_depth);
	if (t->rcu_depth) {
		sb_put(&b, "rcu_read_lock() taken at ");
		sim_put_site(&b, sim_site_at(t->rcu_lock_site));
		sb_put(&b, "\n");
	}
	sim_lockdep_print_held(&b, t);
	sb_put(&b, "called from ");
	sim_put_site(&b, site);
	sb_put(&b, "\n");
	sim_report_add(SIM_REPORT_SLEEP_IN_ATOMIC, site, "sleeping function called from invalid context", &b);
}
