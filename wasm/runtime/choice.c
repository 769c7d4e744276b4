// SPDX-License-Identifier: GPL-2.0-only
/*
 * Choice points (choice.h): the given schedule followed first, then the
 * chooser a searcher set, then the default; and the record of every
 * decision the run took, the scheduler's and the others'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "choice.h"
#include "footprint.h"

static const struct {
	const char *name;
	char letter;
	unsigned int bound;
} kinds[SIM_CHOICE_NR] = {
#define SIM_CHOICE(id, letter, name, bound, what) [SIM_CHOICE_##id] = { name, letter, bound },
#include "choice.def"
#undef SIM_CHOICE
};

static const unsigned char *given, *given_kinds;	/* the schedule to follow first */
static size_t given_len, given_pos;
static long diverged_at;		/* first given decision that could not be followed */
static sim_chooser_fn chooser;		/* a searcher's, deciding instead of the policy */
static void *chooser_ctx;
static int no_schedule;			/* sim_config.no_schedule: record no decisions */
static unsigned int nr_cpus;

static struct {
	struct sim_decision *v;
	size_t n, cap;
} decisions;

const char *sim_choice_kind_name(unsigned int kind)
{
	return kind < SIM_CHOICE_NR ? kinds[kind].name : NULL;
}

char sim_choice_kind_letter(unsigned int kind)
{
	return kind < SIM_CHOICE_NR ? kinds[kind].letter : 0;
}

unsigned int sim_choice_kind_bound(unsigned int kind)
{
	return kind < SIM_CHOICE_NR ? kinds[kind].bound : 0;
}

int sim_choice_kind_of_letter(char letter)
{
	int k;

	for (k = 0; k < SIM_CHOICE_NR; k++)
		if (kinds[k].letter == letter)
			return k;
	return -1;
}

int sim_choice_kind_of_name(const char *name)
{
	int k;

	for (k = 0; k < SIM_CHOICE_NR; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	return -1;
}

void sim_set_chooser(sim_chooser_fn fn, void *ctx)
{
	chooser = fn;
	chooser_ctx = ctx;
}

void sim_choice_init(const struct sim_config *cfg)
{
	given = cfg->schedule;
	given_kinds = cfg->schedule_kinds;
	given_len = cfg->schedule_len;
	given_pos = 0;
	diverged_at = -1;
	no_schedule = cfg->no_schedule;
	nr_cpus = (unsigned int)cfg->nr_cpus;
	decisions.n = 0;
#ifdef __EMSCRIPTEN__
	/* Room for as many decisions as the run may have events (core.c says why); more grow as before. */
	{
		size_t want = cfg->max_events < SIM_RESERVE_MAX ? cfg->max_events : SIM_RESERVE_MAX;

		if (decisions.cap < want) {
			free(decisions.v);
			decisions.cap = want;
			decisions.v = malloc(want * sizeof(*decisions.v));
			if (!decisions.v)
				abort();
		}
	}
#endif
}

void sim_choice_fini(void)
{
	free(decisions.v);
	memset(&decisions, 0, sizeof(decisions));
}

/*
 * The given schedule's next decision, if it is of this kind and can be
 * taken (in mask); -1 if there is none, or it cannot be followed (then
 * none after it either).
 */
static int follow(unsigned int kind, unsigned long long mask)
{
	unsigned int c, k;

	if (given_pos >= given_len)
		return -1;
	c = given[given_pos];
	k = given_kinds ? given_kinds[given_pos] : SIM_CHOICE_CPU;
	if (k != kind || c >= 64 || !(mask & (1ULL << c))) {
		if (diverged_at < 0)
			diverged_at = (long)given_pos;
		given_len = given_pos;	/* follow the policy from here */
		return -1;
	}
	given_pos++;
	return (int)c;
}

int sim_choice_cpu(unsigned long long mask, int from, int yield)
{
	struct sim_choice_point cp;
	int c;

	if (given_pos < given_len)
		return follow(SIM_CHOICE_CPU, mask);
	if (!chooser)
		return -1;
	cp.kind = SIM_CHOICE_CPU;
	cp.n = nr_cpus;
	cp.mask = mask;
	cp.from = from;
	cp.yield = yield;
	cp.cost = NULL;
	cp.key = NULL;
	c = chooser(chooser_ctx, &cp);
	return c < 0 || c >= 64 || !(mask & (1ULL << c)) ? -2 : c;
}

void sim_choice_record(unsigned int kind, int choice, int from, unsigned long long mask)
{
	struct sim_decision *d;

	if (no_schedule)
		return;
	if (decisions.n == decisions.cap) {
		decisions.cap = decisions.cap ? decisions.cap * 2 : 1024;
		decisions.v = realloc(decisions.v, decisions.cap * sizeof(*decisions.v));
		if (!decisions.v)
			abort();
	}
	d = &decisions.v[decisions.n++];
	d->event = (uint32_t)sim_log_length();
	d->cpu = (uint8_t)choice;
	d->from = (int8_t)from;
	d->kind = (uint8_t)kind;
	d->pad = 0;
	d->runnable = mask;
}

int sim_choose(unsigned int kind, unsigned int n, const unsigned int *cost, const volatile void *key)
{
	return sim_choose_or(kind, n, cost, key, 0);
}

int sim_choose_or(unsigned int kind, unsigned int n, const unsigned int *cost, const volatile void *key,
		  unsigned int dflt)
{
	struct sim_choice_point cp;
	unsigned long long mask;
	int c;

	if (n < 2)
		return 0;
	if (kind == SIM_CHOICE_CPU || kind >= SIM_CHOICE_NR || n > SIM_CHOICE_MAX) {
		fprintf(stderr, "sim: sim_choose() of kind %u with %u alternatives\n", kind, n);
		abort();
	}
	mask = n == 64 ? ~0ULL : (1ULL << n) - 1;
	/* The choice depends on every step that touches key: a write of it, in the step it ends. */
	if (key)
		sim_fp_note(key, 1);
	else
		sim_fp_note_all();
	c = follow(kind, mask);
	if (c < 0 && chooser) {
		cp.kind = kind;
		cp.n = n;
		cp.mask = mask;
		cp.from = sim_cpu_id();
		cp.yield = SIM_YIELD_NONE;
		cp.cost = cost;
		cp.key = key;
		c = chooser(chooser_ctx, &cp);
		if (c < 0 || (unsigned int)c >= n) {
			sim_request_stop();	/* the searcher cuts the run here */
			return 0;
		}
	}
	if (c < 0)
		c = dflt < n ? (int)dflt : 0;
	sim_choice_record(kind, c, sim_cpu_id(), mask);
	return c;
}

const struct sim_decision *sim_decisions(size_t *n)
{
	*n = decisions.n;
	return decisions.v;
}

long sim_schedule_diverged_at(void)
{
	return diverged_at;
}
