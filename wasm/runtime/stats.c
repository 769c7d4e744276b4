// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's statistics, read off its event log after the run, for the
 * figures a scene shows and the tests check:
 *
 *  - per call the scenario made (CALL/RETURN pairs, matched per task, so
 *    nested calls count in both): how many returned, their total virtual
 *    time, the part of it the task spent asleep (from its TASK_BLOCK to
 *    its next event), the part it spent off its CPU (asleep, or switched
 *    out by a CPU_SWITCH, until its next event: what is left is the
 *    call's own CPU time), the first call's start and the last return, and the
 *    sum of the values returned;
 *  - per lock, by name: acquisitions, sleeps or spins on it (LOCK_CONTEND),
 *    failed trylocks and rwsem_is_contended() hits.
 *
 * Nothing here feeds back into the run: the statistics are a function of
 * the log, so the same seed gives the same figures on every build.
 */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "stats.h"
#include "strbuf.h"

#define MAX_DEPTH 16

struct open_call {
	int stat;		/* index in calls */
	sim_u64 start;
	sim_u64 asleep;
	sim_u64 off;		/* asleep or switched out */
};

struct task_track {
	struct open_call stack[MAX_DEPTH];
	int depth;
	int asleep;		/* blocked since block_time */
	sim_u64 block_time;
	int off;		/* asleep or switched out since off_time */
	sim_u64 off_time;
};

static int find_or_add(struct lab_stat_call **v, int *n, int name)
{
	int i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].name == name)
			return i;
	*v = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
	if (!*v)
		abort();
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].name = name;
	return (*n)++;
}

static int find_or_add_lock(struct lab_stat_lock **v, int *n, int name)
{
	int i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].name == name)
			return i;
	*v = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
	if (!*v)
		abort();
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].name = name;
	return (*n)++;
}

/* The task leaves its CPU (blocks, or is switched out) at time. */
static void mark_off(struct task_track *t, sim_u64 time)
{
	if (!t->off) {
		t->off = 1;
		t->off_time = time;
	}
}

void lab_stats_compute(struct lab_stats *st)
{
	size_t n, i;
	const struct sim_event *e = sim_log(&n);
	struct task_track *tasks = calloc(SIM_MAX_TASKS, sizeof(*tasks));
	int d;

	memset(st, 0, sizeof(*st));
	if (!tasks)
		abort();
	for (i = 0; i < n; i++) {
		const struct sim_event *ev = &e[i];
		struct task_track *t = &tasks[ev->task];

		if (t->asleep) {
			for (d = 0; d < t->depth; d++)
				t->stack[d].asleep += ev->time - t->block_time;
			t->asleep = 0;
		}
		if (t->off && ev->kind != SIM_EV_CPU_SWITCH) {
			for (d = 0; d < t->depth && d < MAX_DEPTH; d++)
				t->stack[d].off += ev->time - t->off_time;
			t->off = 0;
		}
		switch (ev->kind) {
		case SIM_EV_CALL: {
			int k = find_or_add(&st->calls, &st->nr_calls, ev->arg[0]);

			if (!st->calls[k].calls || ev->time < st->calls[k].first)
				st->calls[k].first = ev->time;
			st->calls[k].calls++;
			if (t->depth < MAX_DEPTH)
				t->stack[t->depth] = (struct open_call){ k, ev->time, 0, 0 };
			t->depth++;
			break;
		}
		case SIM_EV_RETURN:
			if (t->depth > 0 && --t->depth < MAX_DEPTH) {
				struct open_call *c = &t->stack[t->depth];
				struct lab_stat_call *s = &st->calls[c->stat];

				s->returns++;
				s->ret_sum += ev->arg[1];
				s->total_ns += ev->time - c->start;
				s->asleep_ns += c->asleep;
				s->off_cpu_ns += c->off;
				if (ev->time > s->last)
					s->last = ev->time;
			}
			break;
		case SIM_EV_TASK_BLOCK:
			tasks[ev->arg[0]].asleep = 1;
			tasks[ev->arg[0]].block_time = ev->time;
			mark_off(&tasks[ev->arg[0]], ev->time);
			break;
		case SIM_EV_CPU_SWITCH:
			if (ev->arg[0] != ev->arg[1])
				mark_off(&tasks[ev->arg[0]], ev->time);
			break;
		case SIM_EV_LOCK_ACQUIRE:
		case SIM_EV_LOCK_CONTEND:
		case SIM_EV_LOCK_TRYFAIL:
		case SIM_EV_LOCK_CONTENDED: {
			int k = find_or_add_lock(&st->locks, &st->nr_locks, ev->arg[1]);
			struct lab_stat_lock *l = &st->locks[k];

			l->acquired += ev->kind == SIM_EV_LOCK_ACQUIRE;
			l->contended += ev->kind == SIM_EV_LOCK_CONTEND;
			l->tryfail += ev->kind == SIM_EV_LOCK_TRYFAIL;
			l->let_go += ev->kind == SIM_EV_LOCK_CONTENDED;
			break;
		}
		}
	}
	free(tasks);
}

void lab_stats_free(struct lab_stats *st)
{
	free(st->calls);
	free(st->locks);
	memset(st, 0, sizeof(*st));
}

const struct lab_stat_call *lab_stats_call(const struct lab_stats *st, const char *name)
{
	int i;

	for (i = 0; i < st->nr_calls; i++)
		if (!strcmp(sim_name_at(st->calls[i].name), name))
			return &st->calls[i];
	return NULL;
}

const struct lab_stat_lock *lab_stats_lock(const struct lab_stats *st, const char *name)
{
	int i;

	for (i = 0; i < st->nr_locks; i++)
		if (!strcmp(sim_name_at(st->locks[i].name), name))
			return &st->locks[i];
	return NULL;
}

void lab_stats_json(struct strbuf *b)
{
	struct lab_stats st;
	int i;

	lab_stats_compute(&st);
	sb_put(b, "{\"calls\":[");
	for (i = 0; i < st.nr_calls; i++) {
		const struct lab_stat_call *c = &st.calls[i];

		sb_put(b, "%s{\"name\":", i ? "," : "");
		sb_json(b, sim_name_at(c->name));
		sb_put(b, ",\"calls\":%d,\"returns\":%d,\"total_ns\":%llu,\"asleep_ns\":%llu,\"off_cpu_ns\":%llu,"
		       "\"first\":%llu,\"last\":%llu,\"ret_sum\":%lld}", c->calls, c->returns,
		       (unsigned long long)c->total_ns, (unsigned long long)c->asleep_ns,
		       (unsigned long long)c->off_cpu_ns,
		       (unsigned long long)c->first, (unsigned long long)c->last, c->ret_sum);
	}
	sb_put(b, "],\"locks\":[");
	for (i = 0; i < st.nr_locks; i++) {
		const struct lab_stat_lock *l = &st.locks[i];

		sb_put(b, "%s{\"name\":", i ? "," : "");
		sb_json(b, sim_name_at(l->name));
		sb_put(b, ",\"acquired\":%d,\"contended\":%d,\"tryfail\":%d,\"let_go\":%d}",
		       l->acquired, l->contended, l->tryfail, l->let_go);
	}
	sb_put(b, "]}");
	lab_stats_free(&st);
}
