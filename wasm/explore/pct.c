// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random mode (mode "pct"): probabilistic concurrency testing (Burckhardt,
 * Kothari, Musuvathi and Nagarakatte, "A randomized scheduler with
 * probabilistic guarantees of finding bugs", ASPLOS 2010). The CPUs get
 * random distinct priorities d..d+n-1, d-1 change points are drawn among
 * the first k decisions, the highest-priority CPU that can go takes each
 * step, and at the j-th change point the CPU that ran last drops to
 * priority d-1-j, below every other. A bug of depth d is then found by one
 * run with probability at least 1/(n k^(d-1)), n CPUs, k decisions. A CPU
 * that yields drops below every other too (a spinning CPU would otherwise
 * spin for ever); so a change point drops the CPU below the lowest
 * priority yet given, not to d-1-j, which a yield may already have passed.
 * The guarantee is stated for k, the decisions of the run without
 * preemptions.
 *
 */
#include <string.h>
#include "xp.h"

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * At a choice point of another kind than the scheduler's: the default,
 * but at the run's change points for such choices (x->mchange, among the
 * choice points of the run without preemptions), an alternative drawn from
 * those within the kind's bound but the default, from the run's own stream.
 */
static int pct_other(struct xp *x, struct snode *sn, const struct sim_choice_point *cp)
{
	uint64_t w = xp_within(x, cp), alts = w & ~1ULL, rng;
	uint32_t at = x->sh->nmodel;
	int j, c = 0, pick;

	sn->mask = w;
	sn->from = -1;
	sn->yield = 0;
	for (j = 0; j < x->nmchange && alts; j++)
		if (x->mchange[j] == at) {
			rng = x->mseed ^ ((uint64_t)at * 0xd1b54a32d192ed03ULL);
			pick = (int)(rng_next(&rng) % (uint64_t)__builtin_popcountll(alts));
			for (c = 0; pick || !(alts & (1ULL << c)); c++)
				if (alts & (1ULL << c))
					pick--;
			break;
		}
	xp_cx.spent[cp->kind] += sim_choice_cost(cp, (unsigned int)c);
	sn->chosen = (int8_t)c;
	return c;
}

/* At decision i of a run: the highest-priority CPU that can go. */
int xp_pct_choose(struct xp *x, uint32_t i, const struct sim_choice_point *cp)
{
	struct snode *sn = &x->sh->nodes[i];
	uint64_t mask = cp->mask, cands;
	int from = cp->from, yield = cp->yield;
	int j, c, best = -1;

	sn->kind = (uint8_t)cp->kind;
	sn->pc = xp_cx.pc;
	sn->sleep = 0;
	if (cp->kind != SIM_CHOICE_CPU)
		return pct_other(x, sn, cp);
	sn->mask = mask;
	sn->from = (int8_t)from;
	sn->yield = (int8_t)yield;
	/*
	 * A change point, and a yield, put the CPU below every other: PCT's
	 * d-1-j is below the initial priorities, but a yield may already
	 * have put others lower still, which would make the change point
	 * (taken later) a raise instead of a drop.
	 */
	for (j = 0; j < x->nchange; j++)
		if (x->change[j] == i && from >= 0)
			x->prio[from] = --x->lowest;
	if (yield && from >= 0)
		x->prio[from] = --x->lowest;
	cands = xp_candidates(mask, 0, from, yield);
	for (c = 0; c < x->ncpus; c++)
		if ((cands & (1ULL << c)) && (best < 0 || x->prio[c] > x->prio[best]))
			best = c;
	xp_cx.pc += xp_cost_of(mask, from, yield, best);
	sn->chosen = (int8_t)best;
	return best;
}

int xp_pct(struct xp *x)
{
	int depth = x->o.pct_depth, j, c, mchanges;
	unsigned long r;

	/* k: the decisions of the run without preemptions. */
	x->o.pct_depth = 0;
	x->bound = 0;
	x->replay_len = 0;
	if (xp_exec(x, 1, NULL, NULL, 0))
		return -1;
	x->pct_k = x->sh->nnodes ? x->sh->nnodes : 1;
	x->pct_km = x->sh->nmodel;
	x->kinds_seen |= x->sh->kinds_seen;
	/* As many change points for the other kinds' choices as their bounds allow. */
	for (c = 1, mchanges = 0; c < SIM_CHOICE_NR; c++)
		if (x->sh->kinds_seen & (1u << c))
			mchanges += (int)x->kbound[c];
	if (mchanges > XP_MAX_BOUND)
		mchanges = XP_MAX_BOUND;
	x->o.pct_depth = depth;
	for (r = 0; r < x->o.pct_runs && !xp_budget_out(x); r++) {
		uint64_t rng = x->o.pct_seed * 0x9e3779b97f4a7c15ULL + r + 1;
		int perm[XP_MAX_CPUS];

		for (c = 0; c < x->ncpus; c++)
			perm[c] = depth + c;
		for (c = x->ncpus - 1; c > 0; c--) {
			int o = (int)(rng_next(&rng) % (uint64_t)(c + 1)), t = perm[c];

			perm[c] = perm[o];
			perm[o] = t;
		}
		memcpy(x->prio, perm, sizeof(perm));
		x->lowest = 0;
		x->nchange = depth - 1 < XP_MAX_BOUND ? depth - 1 : XP_MAX_BOUND;
		for (j = 0; j < x->nchange; j++)
			x->change[j] = 1 + (uint32_t)(rng_next(&rng) % x->pct_k);
		/* The other kinds' change points, from a stream of their own (the CPUs' draws stay as they were). */
		x->nmchange = x->pct_km ? mchanges : 0;
		if (x->nmchange) {
			uint64_t mrng = ~(x->o.pct_seed * 0x9e3779b97f4a7c15ULL + r + 1);

			for (j = 0; j < x->nmchange; j++)
				x->mchange[j] = (uint32_t)(rng_next(&mrng) % x->pct_km);
			x->mseed = rng_next(&mrng);
		}
		if (xp_exec(x, 1, NULL, NULL, 0))
			return -1;
		xp_account(x);
		if (x->o.progress) {
			struct explore_progress pr = { .step = -1 };

			xp_tell(x, &pr);
		}
	}
	xp_summary(x, "pct", 0, 0);
	return 0;
}

