// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every part of the explorer shares (xp.h): the kinds of failure,
 * the clock and the budgets, the search's memory running out, and what a
 * choice costs.
 */
#include <stdlib.h>
#include <time.h>
#include "xp.h"

struct xp_cx xp_cx;

const char *const xp_fail_names[NR_FAILS] = {
#define X(n) #n,
	XP_FAILS(X)
#undef X
};

const char *explore_fail_kind(int i)
{
	return i >= 0 && i < NR_FAILS ? xp_fail_names[i] : NULL;
}

struct xp *xp_current;

/*
 * The search's own memory ran out, most likely in the work items a deep
 * run defers (each keeps its prefix of choices: a byte a decision): say
 * so, and what to change, rather than abort without a word.
 */
void xp_out_of_memory(void)
{
	size_t items = 0, bytes = 0;
	uint32_t deepest = 0;
	int b;

	if (xp_current) {
		deepest = xp_current->deepest;
		bytes = xp_current->item_bytes;
		for (b = 0; b < XP_MAX_BOUND + 2; b++)
			items += xp_current->items[b].n;
	}
	fprintf(stderr, "explore: out of memory: %zu work items kept, %zu MiB of choices (at most "
		"%zu), from runs of up to %u decisions. Explore a smaller set-up of the scenario "
		"(--rounds, --objects, --tasks), to a lower --bound, or with --pct.\n",
		items, bytes >> 20, XP_ITEM_BYTES >> 20, deepest);
	exit(2);
}

double xp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int xp_budget_out(struct xp *x)
{
	if (x->o.max_execs && x->execs + x->blocked >= x->o.max_execs)
		x->stopped = 1;
	if (x->o.max_seconds > 0 && xp_now() - x->t0 >= x->o.max_seconds)
		x->stopped = 1;
	return x->stopped;
}


int xp_cost_of(uint64_t mask, int from, int yield, int c)
{
	if (from < 0 || !(mask & (1ULL << from)))
		return 0;
	return yield ? c == from : c != from;
}

/* The candidates at a node: awake, and never a spinning CPU again while another can go. */
uint64_t xp_candidates(uint64_t mask, uint64_t sleep, int from, int yield)
{
	uint64_t c = mask & ~sleep;

	if (yield == SIM_YIELD_SPIN && from >= 0 && (mask & ~(1ULL << from)))
		c &= ~(1ULL << from);
	return c;
}

uint64_t xp_within(const struct xp *x, const struct sim_choice_point *cp)
{
	uint64_t w = 0;
	unsigned int a, spent = xp_cx.spent[cp->kind], bound = x->kbound[cp->kind];

	for (a = 0; a < cp->n && a < 64; a++)
		if ((cp->mask & (1ULL << a)) && spent + sim_choice_cost(cp, a) <= bound)
			w |= 1ULL << a;
	return w;
}

int xp_parse_bounds(struct xp *x, const char *text)
{
	const char *p = text;
	int k;

	for (k = 0; k < SIM_CHOICE_NR; k++)
		x->kbound[k] = sim_choice_kind_bound(k);
	while (p && *p) {
		char name[32];
		unsigned int v;
		int len = 0;

		if (sscanf(p, "%31[a-z0-9_-]=%u%n", name, &v, &len) != 2 || (k = sim_choice_kind_of_name(name)) <= 0) {
			fprintf(stderr, "explore: bad choice bound at \"%s\": NAME=N, NAME a kind of choice "
				"point other than the scheduler's (", p);
			for (k = 1; k < SIM_CHOICE_NR; k++)
				fprintf(stderr, "%s%s", k > 1 ? ", " : "", sim_choice_kind_name(k));
			fprintf(stderr, ")\n");
			return -1;
		}
		x->kbound[k] = v;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}
