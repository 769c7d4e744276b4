/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler's recorded decisions, as a searcher (the explorer) takes
 * them instead of the policy.
 */
#ifndef SIM_CHOICE_H
#define SIM_CHOICE_H

#include <stdint.h>

/*
 * Why a decision is taken: a step that ended normally, a cond_resched()
 * (the task offers its CPU), or a turn of a spin loop.
 */
enum { SIM_YIELD_NONE = 0, SIM_YIELD_RESCHED = 1, SIM_YIELD_SPIN = 2 };

/* Called at every recorded decision; returns the CPU, or -1 to stop the run. */
typedef int (*sim_chooser_fn)(void *ctx, uint64_t mask, int from, int yield);
void sim_set_chooser(sim_chooser_fn fn, void *ctx);

#endif /* SIM_CHOICE_H */
