// SPDX-License-Identifier: GPL-2.0-only
/*
 * Depth-first search (mode "dfs"): the search's side (its stack of
 * decisions, work items, backtracking) and the run's (xp_dfs_choose()).
 *
 * A stateless depth-first search over the scheduler's
 * recorded decisions (Godefroid, "Model checking for programming languages
 * using VeriSoft", POPL 1997): each execution is a fresh boot that follows
 * a prefix of choices, then takes the default choice at every new
 * decision. The default never preempts: the CPU that ran the last step goes
 * on, unless it yielded (cond_resched(), a turn of a spin loop), when the
 * next CPU in turn goes. A preemption is any other choice while the last
 * CPU could go on: switching away from a running CPU, or staying on one
 * that yielded (a spinning CPU is never picked again while another can go,
 * since it would only spin again). Preemptions are bounded and the bound
 * is raised one at a time, k = 0, 1, 2, ... (iterative context bounding,
 * Musuvathi and Qadeer, "Iterative context bounding for systematic testing
 * of multithreaded programs", PLDI 2007): a choice that would exceed the
 * bound is kept as a work item for the next bound, so that every
 * execution is run once, at the bound equal to its preemption count, and
 * cooperative yields give the fairness of CHESS (Musuvathi and Qadeer,
 * "Fair stateless model checking", PLDI 2008).
 *
 * Partial-order reduction: sleep sets (Godefroid, "Partial-Order Methods
 * for the Verification of Concurrent Systems", LNCS 1032, 1996, ch. 5).
 * Once the subtree of choice a at a decision is explored, a sleeps in the
 * sibling subtrees until a step dependent with a's step runs; a sleeping
 * CPU is not chosen. Executions that only reorder independent steps are
 * then run once, or cut short ("blocked") when every CPU sleeps (Abdulla
 * et al., "Optimal dynamic partial order reduction", POPL 2014, sec. 3,
 * on sleep sets alone). Steps are independent when their footprints
 * (wasm/runtime/footprint.h) share no address that either writes. Under a preemption
 * bound, a reordered execution may need more preemptions than the one it
 * stands for (Coons, Musuvathi and McKinley, "Bounded partial-order
 * reduction", OOPSLA 2013): here a choice is put to sleep only when its
 * subtree was explored completely, with nothing deferred to a higher
 * bound, so every end state reachable with at most k preemptions is
 * reached by the time bound k is finished.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"

/* ---- in the run: the decisions ------------------------------------------------------ */

/* The first candidate after "from" in turn whose choice costs want_cost preemptions. */
static int pick(uint64_t cands, int from, int yield, uint64_t mask, int want_cost)
{
	int i;

	if (!want_cost && !yield && from >= 0 && (cands & (1ULL << from)))
		return from;	/* the running CPU goes on */
	for (i = 1; i <= XP_MAX_CPUS; i++) {
		int c = ((from < 0 ? XP_MAX_CPUS - 1 : from) + i) % XP_MAX_CPUS;

		if ((cands & (1ULL << c)) && xp_cost_of(mask, from, yield, c) == want_cost)
			return c;
	}
	return -1;
}

/*
 * At decision i of a run: the replayed choice, or the default one within
 * the bound. A choice point of another kind than the scheduler's is a node
 * of its own whose alternatives are those within its kind's bound (the
 * others counted in beyond, once, where the node is new), with no cost in
 * preemptions (from -1) and no sleep set over them: the sleeping CPUs stay
 * asleep through it while its step is independent of theirs.
 */
int xp_dfs_choose(struct xp *x, uint32_t i, const struct sim_choice_point *cp)
{
	struct shared *sh = x->sh;
	struct snode *sn = &sh->nodes[i];
	int model = cp->kind != SIM_CHOICE_CPU;
	uint64_t mask = model ? xp_within(x, cp) : cp->mask, cands;
	int from = model ? -1 : cp->from, yield = model ? 0 : cp->yield;
	int c, t;

	sn->kind = (uint8_t)cp->kind;
	sn->mask = mask;
	sn->from = (int8_t)from;
	sn->yield = (int8_t)yield;
	sn->pc = xp_cx.pc;
	if (i < x->replay_len) {
		const struct rnode *n = &sh->req.nodes[i];

		if (n->kind != cp->kind || (n->known && (n->mask != mask || n->from != from || n->yield != yield)) ||
		    n->chosen < 0 || !(mask & (1ULL << n->chosen))) {
			sh->cut = CUT_DIVERGED;
			return -1;
		}
		sn->chosen = n->chosen;
		sn->sleep = n->sleep;
		if (model)
			xp_cx.spent[cp->kind] += sim_choice_cost(cp, (unsigned int)n->chosen);
		else
			xp_cx.pc += xp_cost_of(mask, from, yield, n->chosen);
		if (i == x->replay_len - 1) {
			xp_cx.sleep = sh->req.last_sleep;
			for (t = 0; t < XP_MAX_CPUS; t++) {
				xp_cx.sfp[t] = &sh->req.pool[sh->req.sfp_off[t]];
				xp_cx.sfp_n[t] = sh->req.sfp_len[t];
			}
		}
		return n->chosen;
	}
	if (model)
		sh->kbeyond[cp->kind] += (unsigned long)(__builtin_popcountll(cp->mask) - __builtin_popcountll(mask));
	/* A new node: who sleeps here, from the node before. */
	if (i > 0 && x->o.por) {
		const struct snode *prev = &sh->nodes[i - 1];
		const uint32_t *pf = &sh->pool[prev->fp_off];
		uint64_t s = 0;

		for (t = 0; t < x->ncpus; t++) {
			if (!(xp_cx.sleep & (1ULL << t)) || (!model && !(mask & (1ULL << t))))
				continue;
			if (!sim_fp_conflict(xp_cx.sfp[t], xp_cx.sfp_n[t], pf, prev->fp_len))
				s |= 1ULL << t;
		}
		xp_cx.sleep = s;
	} else {
		xp_cx.sleep = 0;
	}
	sn->sleep = xp_cx.sleep;
	if (model) {
		sn->chosen = 0;		/* the default, which costs nothing */
		return 0;
	}
	cands = xp_candidates(mask, xp_cx.sleep, from, yield);
	sn->chosen = -1;
	if (!cands) {
		sh->cut = CUT_SLEEP;
		return -1;
	}
	c = pick(cands, from, yield, mask, 0);
	if (c < 0) {
		if (xp_cx.pc + 1 > x->bound) {
			sh->cut = CUT_BOUND;
			return -1;
		}
		c = pick(cands, from, yield, mask, 1);
		xp_cx.pc++;
	}
	sn->chosen = (int8_t)c;
	return c;
}

/* ---- work items and the search ---------------------------------------------------- */
/* Take in what the child saw: nodes past the replayed prefix, and the footprints. */
static void take_nodes(struct xp *x, uint32_t *depth)
{
	struct shared *sh = x->sh;
	uint32_t i, n = sh->nnodes;
	int t;

	for (i = 0; i < n; i++) {
		const struct snode *s = &sh->nodes[i];
		struct node *nd = &x->stack[i];

		if (i < x->replay_len) {
			if (!nd->known) {
				nd->kind = s->kind;
				nd->mask = s->mask;
				nd->from = s->from;
				nd->yield = s->yield;
				nd->pc = s->pc;
				nd->known = 1;
			}
			if (i == x->replay_len - 1 && s->chosen >= 0 && (i + 1 < n || sh->cut == CUT_NONE)) {
				xp_fp_put(&nd->cur);
				nd->cur = xp_fp_new(&sh->pool[s->fp_off], s->fp_len);
			}
			continue;
		}
		xp_node_clear(nd);
		nd->kind = s->kind;
		nd->mask = s->mask;
		nd->from = s->from;
		nd->yield = s->yield;
		nd->pc = s->pc;
		nd->known = 1;
		nd->chosen = s->chosen;
		nd->sleep = s->sleep;
		nd->tried = s->chosen >= 0 ? 1ULL << s->chosen : 0;
		nd->defer_mark = x->deferrals;
		for (t = 0; t < x->ncpus; t++) {
			if (!(s->sleep & (1ULL << t)))
				continue;
			nd->sfp[t] = xp_fp_get(x->stack[i - 1].sfp[t]);
		}
		if (s->chosen >= 0 && (i + 1 < n || sh->cut == CUT_NONE))
			nd->cur = xp_fp_new(&sh->pool[s->fp_off], s->fp_len);
	}
	*depth = n;
	if (n > x->deepest)
		x->deepest = n;
}

/* Explore below one work item, at bound k. */
static int run_item(struct xp *x, struct item *it, int k)
{
	uint32_t depth, i;
	int t, r;

	/* In a shard: past bound 0, the items below another shard's bound-1 item are that shard's. */
	if (x->o.nshards > 1 && k > 0 && (!it->plen || it->path[0] % (uint32_t)x->o.nshards != (uint32_t)x->o.shard))
		return 0;
	x->item_path = it->path;
	x->item_plen = it->plen;
	x->item_pushes = 0;
	x->item_seq = 0;
	x->replica = x->o.nshards > 1 && x->o.shard != 0 && k == 0;
	if (it->n > x->deepest)
		x->deepest = it->n;
	for (i = 0; i < it->n; i++) {
		xp_node_clear(&x->stack[i]);
		x->stack[i].chosen = it->choices[i];
		x->stack[i].kind = it->kinds ? it->kinds[i] : SIM_CHOICE_CPU;
		x->stack[i].frozen = 1;
	}
	if (it->n) {
		struct node *last = &x->stack[it->n - 1];

		last->done = it->sleep;
		for (t = 0; t < XP_MAX_CPUS; t++)
			last->sfp[t] = xp_fp_get(it->sfp[t]);
	}
	x->replay_len = it->n;
	x->bound = k;
	for (;;) {
		int next = -1;

		x->snap_ok = 1;
		r = xp_exec(x, 1, NULL, NULL, 0);
		x->snap_ok = 0;
		if (r)
			return -1;
		if (x->sh->cut == CUT_DIVERGED || x->sh->cut == CUT_OVERFLOW) {
			fprintf(stderr, "explore: %s at decision %u\n", x->sh->cut == CUT_DIVERGED ?
				"a replayed run took another path (the runtime is not deterministic)" :
				"too many decisions in one run", x->sh->nnodes);
			return -1;
		}
		take_nodes(x, &depth);
		if (!x->replica)
			xp_account(x);
		if (x->o.nshards > 1 && !x->replica && xp_order_next(x, k))
			return -1;
		x->item_seq++;
		if (x->o.progress) {
			struct explore_progress pr = { .step = -1 };

			xp_tell(x, &pr);
		}
		/* Backtrack: the deepest node with a choice left. */
		while (depth > it->n) {
			struct node *nd = &x->stack[depth - 1];
			uint64_t cands;
			int c;

			if (nd->chosen >= 0) {
				if (x->o.por && nd->cur && !nd->kind && x->deferrals == nd->defer_mark) {
					nd->done |= 1ULL << nd->chosen;
					nd->sfp[nd->chosen] = xp_fp_get(nd->cur);
				}
				xp_fp_put(&nd->cur);
				nd->chosen = -1;
			}
			cands = xp_node_cands(nd->mask, nd->sleep, nd->from, nd->yield, nd->kind) & ~nd->tried;
			for (c = 0; c < (nd->kind ? 64 : x->ncpus) && next < 0; c++) {
				int cost;

				if (!(cands & (1ULL << c)))
					continue;
				nd->tried |= 1ULL << c;
				cost = xp_cost_of(nd->mask, nd->from, nd->yield, c);
				if (nd->pc + cost > k) {
					xp_item_push(x, nd->pc + cost, nd->pc + cost, x->stack, depth - 1, c,
						  nd->sleep | nd->done, nd->sfp);
					x->deferrals++;
					continue;
				}
				next = c;
			}
			if (next >= 0) {
				nd->chosen = next;
				nd->defer_mark = x->deferrals;
				break;
			}
			xp_node_clear(nd);
			depth--;
		}
		if (next < 0)
			return 0;
		x->replay_len = depth;
		if (xp_budget_out(x)) {
			/* What is left becomes work items: the choice about to run, and the untried ones. */
			for (i = it->n; i < depth; i++) {
				struct node *nd = &x->stack[i];
				uint64_t cands = xp_node_cands(nd->mask, nd->sleep, nd->from, nd->yield, nd->kind) &
						 ~nd->tried;
				int c;

				for (c = 0; c < (nd->kind ? 64 : x->ncpus); c++)
					if (cands & (1ULL << c))
						xp_item_push(x, nd->pc + xp_cost_of(nd->mask, nd->from, nd->yield, c) > k ? k + 1 : k,
							  nd->pc + xp_cost_of(nd->mask, nd->from, nd->yield, c), x->stack, i, c, 0, nd->sfp);
			}
			{
				struct node *nd = &x->stack[depth - 1];

				xp_item_push(x, k, nd->pc + xp_cost_of(nd->mask, nd->from, nd->yield, nd->chosen),
					  x->stack, depth - 1, nd->chosen, 0, nd->sfp);
			}
			return 1;
		}
	}
}

int xp_dfs(struct xp *x)
{
	int k = 0, r, exhausted = 0, resumed;

	resumed = x->o.checkpoint ? xp_ckpt_read(x, &k) : 0;
	if (resumed < 0)
		return -1;
	if (!resumed) {
		if (x->o.at_bound)
			k = x->o.max_bound;
		xp_item_push(x, k, 0, x->stack, 0, 0, 0, NULL);	/* the root: no choice made yet */
		x->items[k].v[0].n = 0;
		x->item_bytes = 0;
	}
	for (; k <= x->o.max_bound; k++) {
		struct itemlist *l = &x->items[k];

		x->bound_execs = x->bound_blocked = 0;
		while (l->n && !xp_budget_out(x)) {
			struct item it = l->v[--l->n];

			r = run_item(x, &it, k);
			xp_item_free(x, &it);
			if (r < 0)
				return -1;
		}
		/* Nothing left within the bound, nor past the other kinds' bounds. */
		exhausted = !x->stopped && !xp_waiting(x, k + 1);
		for (r = 1; r < SIM_CHOICE_NR; r++)
			if (x->kbeyond[r])
				exhausted = 0;
		x->exhausted = exhausted;
		if (x->o.nshards > 1)
			xp_shard_record(x, k, exhausted);
		else
			xp_summary(x, "dfs", k, exhausted);
		if (x->stopped) {
			if (x->o.checkpoint)
				xp_ckpt_write(x, k);
			break;
		}
		if (exhausted)
			break;
	}
	if (!x->stopped && x->o.checkpoint)
		remove(x->o.checkpoint);
	return 0;
}

