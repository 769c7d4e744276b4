/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The explorer: systematic search over the scheduler's decisions (see
 * explore.c), and the footprints of the steps it reorders.
 *
 * A step is what one CPU does between two recorded decisions. Its footprint
 * is every address the kernel code touched in it (the KASAN callbacks see
 * every load and store) and every runtime object the primitives it called
 * read or wrote: the lock record, the completion, the SRCU structure, the
 * RCU grace-period state, the slab allocator, run queues and woken tasks.
 * Two steps of different CPUs are independent when their footprints share
 * no address that either writes.
 */
#ifndef SIM_EXPLORE_H
#define SIM_EXPLORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../scenarios/scenario.h"

/* Footprints: recorded only while an explored run is on (a flag test otherwise). */
extern int sim_fp_on;
void sim_fp_note_range(uintptr_t addr, size_t size, int write);
static inline void sim_fp_note(const volatile void *key, int write)
{
	if (sim_fp_on)
		sim_fp_note_range((uintptr_t)key, 1, write);
}

/*
 * Why a decision is taken: a step that ended normally, a cond_resched()
 * (the task offers its CPU), or a turn of a spin loop.
 */
enum { SIM_YIELD_NONE = 0, SIM_YIELD_RESCHED = 1, SIM_YIELD_SPIN = 2 };

/* Called at every recorded decision; returns the CPU, or -1 to stop the run. */
typedef int (*sim_chooser_fn)(void *ctx, uint64_t mask, int from, int yield);
void sim_set_chooser(sim_chooser_fn fn, void *ctx);

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
	unsigned long max_execs;	/* executions before stopping; 0: no limit */
	double max_seconds;		/* wall time before stopping; 0: no limit */
	int por;			/* sleep sets */
	int pct_depth;			/* > 0: PCT runs for bugs of this depth instead */
	unsigned long pct_runs;
	unsigned long long pct_seed;
	const char *checkpoint;		/* resumed from if it exists; written when a budget stops */
	explore_progress_fn progress;	/* NULL: none */
	void *progress_ctx;
	int progress_failing;		/* how many of the shortest failing schedules it is told */
};

/*
 * Called first by a program that will search (labrun --explore), before
 * the simulated machine allocates anything: natively without
 * AddressSanitizer its allocations then come from a heap of the
 * explorer's, which it puts back after each run instead of forking one
 * (explore.c); elsewhere nothing.
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

#endif /* SIM_EXPLORE_H */
