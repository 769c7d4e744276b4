/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Choice points: where the simulated machine could go more than one way,
 * and a searcher (the explorer, wasm/explore/) may decide which.
 *
 * The contract of sim_choose(kind, n, cost, key):
 *
 * - A part of the machine (a model the runtime simulates: the memory
 *   model's loads and store buffers, ...) calls it where it could go n
 *   ways, 0 to n - 1, n at most SIM_CHOICE_MAX, normally in a task: the
 *   CPU running the task makes the choice and goes on. It returns the
 *   alternative taken. With n < 2 it returns 0 and records nothing.
 * - Alternative 0 is the default: what the machine does when nobody
 *   decides (a run under a policy, a replay past the end of its
 *   schedule). It costs nothing.
 * - cost[i] is what alternative i costs against the bound of its kind in
 *   one execution (cost NULL: 1 for every alternative but 0, whose cost
 *   is always 0). The explorer takes an alternative only while the costs
 *   taken in the execution fit the kind's bound (choice.def's default, or
 *   labrun --choice-bound NAME=N), as the scheduler's preemptions count
 *   against the preemption bound; the alternatives past it are counted
 *   ("beyond" in a summary) and not run.
 * - Deterministic: whenever every decision before it was the same, the
 *   machine reaches the same choice point with the same kind, n and
 *   costs. Nothing but the run (seed, program, decisions) may decide
 *   whether or where a choice point comes.
 * - Recorded: each choice is a decision of the run (sim_decisions(): the
 *   kind, the alternative, the CPU that chose, the alternatives' mask),
 *   and its schedule's text writes it as the kind's letter and the
 *   alternative: "0x12.l1.1x3" is twelve decisions for CPU0, alternative
 *   1 of a litmus choice, three for CPU1. A schedule replays every choice;
 *   one whose next decision is of another kind, or an alternative that is
 *   not there, is followed no further (sim_schedule_diverged_at()). Text
 *   without letters is the scheduler's alone, as schedules always were.
 * - key: the address the choice is about (the variable a load reads, the
 *   buffer a store waits in). The explorer's sleep sets take the choice to
 *   depend on every step that touches key, of either CPU: it counts as a
 *   write of key in the step that ends at the choice. NULL: on every step.
 * - A choice ends a step, as a scheduling decision does; the same CPU
 *   goes on.
 *
 * The scheduler's own decisions are choice points of kind SIM_CHOICE_CPU
 * (sched.c calls sim_choice_cpu()): the alternatives are the CPUs that can
 * run, the default is the policy's pick, and the cost is the preemption
 * the explorer counts. The chooser a searcher sets sees both kinds.
 *
 * Built-in types only: kernel-side code includes it (<choice.h>) beside
 * sim.h, compiled -nostdinc.
 */
#ifndef SIM_CHOICE_H
#define SIM_CHOICE_H

enum sim_choice_kind {
#define SIM_CHOICE(id, letter, name, bound, what) SIM_CHOICE_##id,
#include "choice.def"
#undef SIM_CHOICE
	SIM_CHOICE_NR
};

#define SIM_CHOICE_MAX 64

int sim_choose(unsigned int kind, unsigned int n, const unsigned int *cost, const volatile void *key);
/*
 * The same, with dflt (below n) the alternative taken when nobody decides
 * instead of 0: the memory model's draw from its own seeded stream, so that
 * a run under a policy shows the reorderings its model allows. Recorded and
 * replayed as any choice; a searcher decides as always.
 */
int sim_choose_or(unsigned int kind, unsigned int n, const unsigned int *cost, const volatile void *key,
		  unsigned int dflt);

/*
 * Why a scheduling decision is taken: a step that ended normally, a
 * cond_resched() (the task offers its CPU), or a turn of a spin loop.
 */
enum { SIM_YIELD_NONE = 0, SIM_YIELD_RESCHED = 1, SIM_YIELD_SPIN = 2 };

/* A choice point as a chooser sees it. */
struct sim_choice_point {
	unsigned int kind;		/* enum sim_choice_kind */
	unsigned int n;			/* alternatives (SIM_CHOICE_CPU: the machine's CPUs) */
	unsigned long long mask;	/* those that can be taken: the CPUs that can run, or all n */
	int from;			/* SIM_CHOICE_CPU: the CPU that ran last (-1: none); else the one choosing */
	int yield;			/* SIM_CHOICE_CPU: why (SIM_YIELD_*) */
	const unsigned int *cost;	/* else: per alternative, as sim_choose() was given it */
	const volatile void *key;
};

/* The cost of alternative alt of a choice point that is not the scheduler's. */
static inline unsigned int sim_choice_cost(const struct sim_choice_point *cp, unsigned int alt)
{
	return !alt ? 0 : cp->cost ? cp->cost[alt] : 1;
}

/*
 * A searcher decides every choice point instead of the policy, past the
 * end of a given schedule: fn returns the alternative (a CPU in mask for
 * the scheduler's), or -1 to stop the run there. NULL: nobody.
 */
typedef int (*sim_chooser_fn)(void *ctx, const struct sim_choice_point *cp);
void sim_set_chooser(sim_chooser_fn fn, void *ctx);

/* The kinds: name, letter ('\0' for the scheduler's), default bound; -1 / NULL if none. */
const char *sim_choice_kind_name(unsigned int kind);
char sim_choice_kind_letter(unsigned int kind);
unsigned int sim_choice_kind_bound(unsigned int kind);
int sim_choice_kind_of_letter(char letter);
int sim_choice_kind_of_name(const char *name);

/*
 * The scheduler's decision (sched.c): the given schedule's next CPU, or
 * the chooser's; -1 if the policy is to decide (nothing given, or what
 * was given cannot be followed), -2 if the chooser stops the run. The
 * scheduler records what it took with sim_choice_record().
 */
int sim_choice_cpu(unsigned long long mask, int from, int yield);
void sim_choice_record(unsigned int kind, int choice, int from, unsigned long long mask);

#endif /* SIM_CHOICE_H */
