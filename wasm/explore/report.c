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
	if (xp_state_add(x, sh->hash) && x->o.nshards > 1) {
		/* A shard's record lists the end states new since its last one. */
		if (x->fresh.n == x->fresh.cap) {
			x->fresh.cap = x->fresh.cap ? 2 * x->fresh.cap : 256;
			x->fresh.v = realloc(x->fresh.v, x->fresh.cap * sizeof(*x->fresh.v));
			if (!x->fresh.v)
				xp_out_of_memory();
		}
		x->fresh.v[x->fresh.n++] = sh->hash ? sh->hash : 1;
	}
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
	x->best_order.plen = x->item_plen;
	if (x->item_plen)
		memcpy(x->best_order.path, x->item_path, x->item_plen * sizeof(uint32_t));
	x->best_order.seq = x->item_seq;
}

/*
 * A shard checks that its executions come in the order xp_order_cmp()
 * says the one search runs them: a shard runs a subset of them in that
 * order, and the merge picks the shortest failing one by it.
 */
int xp_order_next(struct xp *x, int bound)
{
	struct xp_order cur;

	cur.plen = x->item_plen;
	if (x->item_plen)
		memcpy(cur.path, x->item_path, x->item_plen * sizeof(uint32_t));
	cur.seq = x->item_seq;
	if (x->last_bound == bound && xp_order_cmp(&x->last_order, &cur) >= 0) {
		fprintf(stderr, "explore: shard %d ran an execution out of the one search's order\n", x->o.shard);
		return -1;
	}
	x->last_order = cur;
	x->last_bound = bound;
	return 0;
}

/*
 * Which of two executions of the same bound the one-process search runs
 * first (< 0: a). It runs a bound's work items last pushed first, and
 * each item's subtree pushes the next bound's items in a row: so two
 * items with the same parent run in the reverse of their push order, and
 * the order of two items' subtrees is the reverse of their parents'.
 * Below the first level where the paths part, the order flips once a level.
 */
int xp_order_cmp(const struct xp_order *a, const struct xp_order *b)
{
	uint32_t j, k = a->plen < b->plen ? a->plen : b->plen;
	int c;

	for (j = 0; j < k && a->path[j] == b->path[j]; j++)
		;
	if (j == k)
		return a->plen != b->plen ? (a->plen < b->plen ? -1 : 1) : (a->seq > b->seq) - (a->seq < b->seq);
	c = a->path[j] > b->path[j] ? -1 : 1;
	return (k - j - 1) % 2 ? -c : c;
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
	if (x->merged) {
		if (x->m_replayed) {
			sb_put(b, ",\"replayed\":{\"kinds\":[");
			put_fails(b, NULL, x->m_rfails);
			sb_put(b, "],\"step\":%d,\"report\":", x->m_rstep);
			sb_json(b, x->m_rtitle);
			sb_put(b, "}");
		}
	} else if (!xp_exec(x, 0, x->best, x->best_kinds, x->best_n)) {
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
	sb_json(&b, x->sc_name);
	sb_put(&b, ",\"tree\":");
	sb_json(&b, x->sc_tree);
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
		       x->merged ? x->m_deferred : bound + 1 <= XP_MAX_BOUND ? xp_waiting(x, bound + 1) : 0);
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

/*
 * A shard's record of one bound (explore_merge() reads it): the bound's
 * figures as a summary has them, the end states new since the last
 * record, and the shortest failing execution so far with its place in
 * the one search's order and its replay. Lines of words; the first
 * record starts with the search's own.
 */
void xp_shard_record(struct xp *x, int bound, int exhausted)
{
	FILE *f = x->out;
	size_t i;
	int k;

	if (!f)
		return;
	if (!x->recorded++) {
		fprintf(f, "shard 1 %d %d %d %d %llu", x->o.shard, x->o.nshards, x->o.por, x->ncpus, x->p.seed);
		for (k = 1; k < SIM_CHOICE_NR; k++)
			fprintf(f, " %u", x->kbound[k]);
		fprintf(f, " %s %s\n", x->sc_name, x->sc_tree);
	}
	/* Bound 0 is shard 0's alone: the others only ran it for its work items. */
	fprintf(f, "bound %d %lu %lu %zu %lu %lu %lu %u %d %d %.3f", bound, x->bound_execs, x->bound_blocked,
		x->o.shard && !bound ? 0 : bound + 1 <= XP_MAX_BOUND ? xp_waiting(x, bound + 1) : 0, x->execs, x->blocked,
		x->fail_execs, x->kinds_seen, exhausted, x->stopped, xp_now() - x->t0);
	for (k = 0; k < NR_FAILS; k++)
		fprintf(f, " %lu", x->fails[k]);
	for (k = 1; k < SIM_CHOICE_NR; k++)
		fprintf(f, " %lu", x->kbeyond[k]);
	fputc('\n', f);
	for (i = 0; i < x->fresh.n; i++)
		fprintf(f, "state %016llx\n", (unsigned long long)x->fresh.v[i]);
	x->fresh.n = 0;
	if (x->best) {
		char title[sizeof(x->sh->report_title)], *c;
		uint32_t j;

		fprintf(f, "best %d %u %u %lu %u", x->best_pc, x->best_n, x->best_fails, x->best_order.seq,
			x->best_order.plen);
		for (j = 0; j < x->best_order.plen; j++)
			fprintf(f, " %u", x->best_order.path[j]);
		fputc(' ', f);
		for (j = 0; j < x->best_n; j++)
			fprintf(f, "%02x", x->best[j]);
		fputc(' ', f);
		if (!x->best_kinds)
			fputc('-', f);
		for (j = 0; x->best_kinds && j < x->best_n; j++)
			fprintf(f, "%02x", x->best_kinds[j]);
		fputc('\n', f);
		if (!xp_exec(x, 0, x->best, x->best_kinds, x->best_n)) {
			snprintf(title, sizeof(title), "%s", x->sh->report_title);
			for (c = title; *c; c++)
				if (*c == '\n' || *c == '\r')
					*c = ' ';
			fprintf(f, "replayed %u %d %s\n", x->sh->fails, x->sh->report_event, title);
		}
	}
	fprintf(f, "end\n");
	fflush(f);
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

