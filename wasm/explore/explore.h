/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The explorer: systematic search over a scenario's recorded decisions
 * (wasm/explore/, xp.h lists its files), each execution checked by what
 * checks any run.
 */
#ifndef SIM_EXPLORE_H
#define SIM_EXPLORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../scenarios/scenario.h"

/*
 * What a search tells a caller that watches it (the page's Explore panel):
 * after every execution the counts; for a failing execution that is among
 * the shortest found so far, its schedule, replayed for the step of its
 * first report; at the end of each bound its summary line.
 */
struct explore_progress {
	int bound;
	unsigned long executions, blocked, failing;
	size_t end_states;
	double seconds;
	const char *schedule;		/* a failing execution's schedule text, or NULL */
	int preemptions;		/* its preemptions, decisions, kinds (1 << index) */
	unsigned int decisions, kinds;
	int step;			/* its first report's event in a full replay, -1 */
	const char *report;		/* that report's title */
	int branch;			/* its first preemption: the decision where it leaves the */
	int branch_step;		/*   run without preemptions, that decision's event, -1 */
	int branch_cpu, branch_from;	/*   the CPU chosen there, and the one that could go on */
	const char *summary;		/* a bound's JSON line, or NULL */
};
typedef void (*explore_progress_fn)(void *ctx, const struct explore_progress *p);

struct explore_options {
	int max_bound;			/* the highest preemption bound searched */
	int at_bound;			/* search at max_bound at once, not bound by bound from 0:
					 * nothing is deferred, so sleep sets prune all they can
					 * (an exhaustive search: the litmus tests) */
	unsigned long max_execs;	/* executions before stopping; 0: no limit */
	double max_seconds;		/* wall time before stopping; 0: no limit */
	int por;			/* sleep sets */
	int pct_depth;			/* > 0: PCT runs for bugs of this depth instead */
	const char *choice_bounds;	/* the bounds of choice points of other kinds than the
					 * scheduler's: "name=N,..." (choice.def; NULL: its defaults) */
	unsigned long pct_runs;
	unsigned long long pct_seed;
	const char *checkpoint;		/* resumed from if it exists; written when a budget stops */
	explore_progress_fn progress;	/* NULL: none */
	void *progress_ctx;
	int progress_failing;		/* how many of the shortest failing schedules it is told */
	/*
	 * A depth-first search split by its work items (explore_merge()):
	 * nshards > 1 runs shard number shard (0 to nshards - 1) and writes its
	 * record on out instead of summaries; jobs > 1 runs that many shards
	 * in child processes and prints their merged summaries. Not with a
	 * budget, a checkpoint or PCT.
	 */
	int shard, nshards;
	int jobs;
};

/*
 * Called first by a program that will search (labrun --explore), before
 * the simulated machine allocates anything: natively without
 * AddressSanitizer its allocations then come from a heap of their own
 * (wasm/runtime/heap.c), which the explorer puts back after each run
 * instead of forking one (exec_inprocess.c); elsewhere nothing.
 */
void explore_heap(void);

/* What a search found, for callers that check it (the tests). */
struct explore_result {
	unsigned long executions, blocked, failing;
	size_t nr_states;
	uint64_t *states;		/* the distinct end states, sorted (malloc'd) */
	int exhausted;			/* nothing left at any bound */
	int shortest_preemptions;	/* -1: nothing failed */
	char *shortest;			/* its schedule text (malloc'd), or NULL */
	unsigned int shortest_kinds;	/* 1 << explore_fail_kind() index */
};
const char *explore_fail_kind(int i);	/* NULL past the last */

/*
 * Explore a scenario: JSON lines on out, one summary per bound (or one for
 * PCT), and what it found in res if res is not NULL. Returns 0 when the
 * search ran, 1 if a failing execution was found, -1 on an error (printed
 * on stderr).
 */
int explore_run(const struct scenario *sc, const struct scenario_params *p,
		const struct explore_options *o, FILE *out, struct explore_result *res);

/*
 * The records of the n shards of one search (in any order), merged: the
 * summaries the one-process search prints, on out (all but their seconds
 * and rate, the slowest shard's). Returns as explore_run() does.
 */
int explore_merge(FILE *const *in, int n, FILE *out, struct explore_result *res);

#endif /* SIM_EXPLORE_H */
