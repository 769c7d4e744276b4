// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a search found: each execution counted (its end state, its kinds of
 * failure, the shortest failing schedule), told to a watching caller, and
 * each bound's summary line.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"
#include "../runtime/strbuf.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int xp_state_add(struct xp *x, uint64_t h)
{
	size_t i, mask;

	if (x->states.n * 2 >= x->states.cap) {
		size_t cap = x->states.cap ? x->states.cap * 2 : 1024, j;
		uint64_t *v = calloc(cap, sizeof(*v)), *old = x->states.v;

		if (!v)
			xp_out_of_memory();
		for (j = 0; j < x->states.cap; j++)
			if (old[j]) {
				for (i = old[j] & (cap - 1); v[i]; i = (i + 1) & (cap - 1))
					;
				v[i] = old[j];
			}
		free(old);
		x->states.v = v;
		x->states.cap = cap;
	}
	if (!h)
		h = 1;
	mask = x->states.cap - 1;
	for (i = h & mask; x->states.v[i]; i = (i + 1) & mask)
		if (x->states.v[i] == h)
			return 0;
	x->states.v[i] = h;
	x->states.n++;
	return 1;
}


void xp_tell(struct xp *x, struct explore_progress *pr)
{
	pr->bound = x->bound;
	pr->executions = x->execs;
	pr->blocked = x->blocked;
	pr->failing = x->fail_execs;
	pr->end_states = x->states.n;
	pr->seconds = xp_now() - x->t0;
	x->o.progress(x->o.progress_ctx, pr);
}

/*
 * A failing execution among the shortest so far (fewest preemptions, then
 * fewest decisions) is told to a watching caller, replayed once more with
 * the full log for the step of its first report. The execution's findings
 * in x->sh are read before the replay overwrites them.
 */
static void tell_failing(struct xp *x, int pc)
{
	struct shared *sh = x->sh;
	struct explore_progress pr = { 0 };
	uint32_t n = sh->nnodes, i;
	uint64_t key = (uint64_t)pc << 32 | n;
	int want = x->o.progress_failing < 64 ? x->o.progress_failing : 64, j;
	unsigned char *c, *kinds;
	char *text;

	if (!x->o.progress || want <= 0 || (x->ntold == want && key >= x->told[want - 1]))
		return;
	for (j = x->ntold < want ? x->ntold++ : want - 1; j > 0 && x->told[j - 1] > key; j--)
		x->told[j] = x->told[j - 1];
	x->told[j] = key;
	c = malloc(n + 1);
	if (!c)
		xp_out_of_memory();
	for (i = 0; i < n; i++)
		c[i] = (unsigned char)sh->nodes[i].chosen;
	kinds = xp_kinds_of(sh->nodes, n);
	text = xp_choices_text(c, kinds, n);
	pr.schedule = text;
	pr.preemptions = pc;
	pr.decisions = n;
	pr.kinds = sh->fails;
	pr.step = -1;
	pr.report = "";
	/*
	 * Where it leaves the run without preemptions: its first decision
	 * that costs one (every choice before it is the default one).
	 */
	pr.branch = -1;
	pr.branch_step = -1;
	for (i = 0; i < n; i++)
		if (xp_cost_of(sh->nodes[i].mask, sh->nodes[i].from, sh->nodes[i].yield, sh->nodes[i].chosen)) {
			pr.branch = (int)i;
			pr.branch_cpu = sh->nodes[i].chosen;
			pr.branch_from = sh->nodes[i].from;
			break;
		}
	x->branch = pr.branch;
	if (!xp_exec(x, 0, c, kinds, n)) {
		pr.step = sh->report_event;
		pr.report = sh->report_title;
		pr.branch_step = sh->branch_event;
	}
	x->branch = -1;
	xp_tell(x, &pr);
	free(text);
	free(c);
	free(kinds);
}

/* Count a finished execution: its end state, and whether it failed. */
void xp_account(struct xp *x)
{
	struct shared *sh = x->sh;
	int k, pc;
	uint32_t n = sh->nnodes, i;

	x->kinds_seen |= sh->kinds_seen;
	for (k = 1; k < SIM_CHOICE_NR; k++)
		x->kbeyond[k] += sh->kbeyond[k];
	if (sh->cut == CUT_SLEEP || sh->cut == CUT_BOUND) {
		x->blocked++;
		x->bound_blocked++;
		return;
	}
	x->execs++;
	x->bound_execs++;
	xp_state_add(x, sh->hash);
	if (!sh->fails)
		return;
	x->fail_execs++;
	for (k = 0; k < NR_FAILS; k++)
		if (sh->fails & (1u << k))
			x->fails[k]++;
	pc = n ? sh->nodes[n - 1].pc + xp_cost_of(sh->nodes[n - 1].mask, sh->nodes[n - 1].from,
						 sh->nodes[n - 1].yield, sh->nodes[n - 1].chosen) : 0;
	tell_failing(x, pc);
	if (x->best && (pc > x->best_pc || (pc == x->best_pc && n >= x->best_n)))
		return;
	free(x->best);
	free(x->best_kinds);
	x->best = malloc(n + 1);
	if (!x->best)
		xp_out_of_memory();
	for (i = 0; i < n; i++)
		x->best[i] = (unsigned char)sh->nodes[i].chosen;
	x->best_kinds = xp_kinds_of(sh->nodes, n);
	x->best_n = n;
	x->best_pc = pc;
	x->best_fails = sh->fails;
}

unsigned char *xp_kinds_of(const struct snode *nodes, uint32_t n)
{
	unsigned char *k;
	uint32_t i;

	for (i = 0; i < n && !nodes[i].kind; i++)
		;
	if (i == n)
		return NULL;
	k = malloc(n);
	if (!k)
		xp_out_of_memory();
	for (i = 0; i < n; i++)
		k[i] = nodes[i].kind;
	return k;
}

char *xp_choices_text(const unsigned char *c, const unsigned char *kinds, uint32_t n)
{
	struct sim_decision *d = calloc(n + 1, sizeof(*d));
	char *s;
	uint32_t i;

	if (!d)
		xp_out_of_memory();
	for (i = 0; i < n; i++) {
		d[i].cpu = c[i];
		d[i].kind = kinds ? kinds[i] : SIM_CHOICE_CPU;
	}
	s = lab_schedule_encode(d, n);
	free(d);
	return s;
}

static void put_fails(struct strbuf *b, const unsigned long *counts, uint32_t mask)
{
	int k, first = 1;

	for (k = 0; k < NR_FAILS; k++) {
		if (counts ? !counts[k] : !(mask & (1u << k)))
			continue;
		if (counts)
			sb_put(b, "%s\"%s\":%lu", first ? "" : ",", xp_fail_names[k], counts[k]);
		else
			sb_put(b, "%s\"%s\"", first ? "" : ",", xp_fail_names[k]);
		first = 0;
	}
}

/* The shortest failing schedule, replayed with the full log for its step. */
static void put_best(struct xp *x, struct strbuf *b)
{
	char *text;

	if (!x->best) {
		sb_put(b, ",\"shortest\":null");
		return;
	}
	text = xp_choices_text(x->best, x->best_kinds, x->best_n);
	sb_put(b, ",\"shortest\":{\"preemptions\":%d,\"decisions\":%u,\"kinds\":[", x->best_pc, x->best_n);
	put_fails(b, NULL, x->best_fails);
	sb_put(b, "],\"schedule\":");
	sb_json(b, text);
	free(text);
	if (!xp_exec(x, 0, x->best, x->best_kinds, x->best_n)) {
		sb_put(b, ",\"replayed\":{\"kinds\":[");
		put_fails(b, NULL, x->sh->fails);
		sb_put(b, "],\"step\":%d,\"report\":", x->sh->report_event);
		sb_json(b, x->sh->report_title);
		sb_put(b, "}");
	}
	sb_put(b, "}");
}

/* The work items waiting at bound b, kept or only counted. */
size_t xp_waiting(const struct xp *x, int b)
{
	return b > x->o.max_bound && !x->o.checkpoint ? x->beyond : x->items[b].n;
}

void xp_summary(struct xp *x, const char *mode, int bound, int exhausted)
{
	struct strbuf b = { 0 };
	double dt = xp_now() - x->t0;

	sb_put(&b, "{\"mode\":\"%s\",\"scenario\":", mode);
	sb_json(&b, x->sc->name);
	sb_put(&b, ",\"tree\":");
	sb_json(&b, x->sc->tree);
	sb_put(&b, ",\"seed\":%llu,\"cpus\":%d", x->p.seed, x->ncpus);
	if (x->o.pct_depth) {
		double k = (double)x->pct_k, p = 1.0, all;
		int j;

		for (j = 1; j < x->o.pct_depth; j++)
			p *= k;
		p = 1.0 / ((double)x->ncpus * p);
		all = 1.0;
		for (j = 0; (unsigned long)j < x->execs && j < 100000000; j++)
			all *= 1.0 - p;
		sb_put(&b, ",\"depth\":%d,\"k\":%.0f,\"runs\":%lu,\"p_per_run\":%.3g,\"p_found\":%.3g",
		       x->o.pct_depth, k, x->execs, p, 1.0 - all);
	} else {
		sb_put(&b, ",\"bound\":%d,\"por\":%s,\"executions\":%lu,\"blocked\":%lu,\"deferred\":%zu",
		       bound, x->o.por ? "true" : "false", x->bound_execs, x->bound_blocked,
		       bound + 1 <= XP_MAX_BOUND ? xp_waiting(x, bound + 1) : 0);
	}
	/* Choice points of other kinds than the scheduler's, where the runs met any: bounds, and what is past them. */
	if (x->kinds_seen & ~(1u << SIM_CHOICE_CPU)) {
		int k, first = 1;

		sb_put(&b, ",\"choices\":{");
		for (k = 1; k < SIM_CHOICE_NR; k++)
			if (x->kinds_seen & (1u << k)) {
				sb_put(&b, "%s\"%s\":{\"bound\":%u", first ? "" : ",", sim_choice_kind_name(k),
				       x->kbound[k]);
				if (!x->o.pct_depth)
					sb_put(&b, ",\"beyond\":%lu", x->kbeyond[k]);
				sb_put(&b, "}");
				first = 0;
			}
		sb_put(&b, "}");
	}
	sb_put(&b, ",\"executions_total\":%lu,\"blocked_total\":%lu,\"end_states\":%zu,"
		   "\"failing_executions\":%lu,\"failing\":{",
	       x->execs, x->blocked, x->states.n, x->fail_execs);
	put_fails(&b, x->fails, 0);
	sb_put(&b, "}");
	put_best(x, &b);
	sb_put(&b, ",\"exhausted\":%s,\"stopped\":%s,\"seconds\":%.3f,\"rate\":%.1f}",
	       exhausted ? "true" : "false", x->stopped ? "true" : "false", dt,
	       dt > 0 ? (double)(x->execs + x->blocked) / dt : 0.0);
	if (x->out) {
		fprintf(x->out, "%s\n", b.s);
		fflush(x->out);
	}
	if (x->o.progress) {
		struct explore_progress pr = { .step = -1, .summary = b.s };

		xp_tell(x, &pr);
	}
	free(b.s);
}

void xp_fill_result(struct xp *x, struct explore_result *res, int exhausted)
{
	size_t i, n = 0;

	memset(res, 0, sizeof(*res));
	res->executions = x->execs;
	res->blocked = x->blocked;
	res->failing = x->fail_execs;
	res->states = malloc((x->states.n + 1) * sizeof(uint64_t));
	if (!res->states)
		xp_out_of_memory();
	for (i = 0; i < x->states.cap; i++)
		if (x->states.v[i])
			res->states[n++] = x->states.v[i];
	qsort(res->states, n, sizeof(uint64_t), cmp_u64);
	res->nr_states = n;
	res->exhausted = exhausted;
	res->shortest_preemptions = x->best ? x->best_pc : -1;
	res->shortest = x->best ? xp_choices_text(x->best, x->best_kinds, x->best_n) : NULL;
	res->shortest_kinds = x->best ? x->best_fails : 0;
}

