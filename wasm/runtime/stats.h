/* SPDX-License-Identifier: GPL-2.0-only */
/* A run's statistics from its event log (stats.c). */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include "runtime.h"

struct strbuf;

struct lab_stat_call {
	int name;		/* name id */
	int calls, returns;
	sim_u64 total_ns;	/* over the calls that returned */
	sim_u64 asleep_ns;	/* of which the task slept */
	sim_u64 off_cpu_ns;	/* of which it was off its CPU: asleep or switched out */
	sim_u64 first, last;	/* the first call's start, the last return */
	long long ret_sum;	/* of the values returned */
};

struct lab_stat_lock {
	int name;
	int acquired, contended, tryfail, let_go;
};

struct lab_stats {
	struct lab_stat_call *calls;
	int nr_calls;
	struct lab_stat_lock *locks;
	int nr_locks;
};

/* Over the log of the run just made; free with lab_stats_free(). */
void lab_stats_compute(struct lab_stats *st);
void lab_stats_free(struct lab_stats *st);
const struct lab_stat_call *lab_stats_call(const struct lab_stats *st, const char *name);
const struct lab_stat_lock *lab_stats_lock(const struct lab_stats *st, const char *name);
/* As a JSON object: {"calls":[...],"locks":[...]}. */
void lab_stats_json(struct strbuf *b);

#endif /* SIM_STATS_H */
