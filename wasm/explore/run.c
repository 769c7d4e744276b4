// SPDX-License-Identifier: GPL-2.0-only
/*
 * One execution, on the run's side: the request the search wrote (the
 * prefix to replay, who sleeps, the bound), the record of each decision
 * and of its step's footprint, and the end state. The back ends
 * (exec_*.c) call xp_run_body() in whatever holds the boot's memory: this
 * process with its memory put back, a forked child, a wasm module.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"

/* The footprint of the step that ended at this decision, into the pool. */
static void close_step(struct shared *sh, struct snode *prev)
{
	prev->fp_off = sh->fp_used;
	prev->fp_len = sim_fp_close(&sh->pool[sh->fp_used], XP_POOL - sh->fp_used);
	if (prev->fp_len != SIM_FP_ALL)
		sh->fp_used += prev->fp_len;
}

static int child_choose(void *ctx, const struct sim_choice_point *cp)
{
	struct xp *x = ctx;
	struct shared *sh = x->sh;
	uint32_t i = sh->nnodes;
	int c;

	if (i > 0)
		close_step(sh, &sh->nodes[i - 1]);
	else
		sim_fp_close(sh->pool, 0);	/* what came before the first decision */
	/* The back end's snapshot of the machine here (exec_inprocess.c): a later run may resume at it. */
	if (x->at_decision)
		x->at_decision(x, i, cp);
	if (i >= XP_MAX_NODES) {
		sh->cut = CUT_OVERFLOW;
		return -1;
	}
	sh->nnodes = i + 1;
	sh->kinds_seen |= 1u << cp->kind;
	c = x->choose[x->o.pct_depth ? 1 : 0](x, i, cp);
	if (cp->kind != SIM_CHOICE_CPU)
		sh->nmodel++;
	return c;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The end state: status, leftovers, reports, and what each task's calls returned. */
static void child_outcome(struct xp *x, const struct lab_result *res)
{
	struct shared *sh = x->sh;
	size_t n, i;
	const struct sim_event *log = sim_log(&n);
	uint64_t h = LAB_FNV_INIT, rh[64];
	int r, nr = sim_nr_reports(), tid;

	sh->status = res->status;
	sh->live = res->live_objects;
	sh->report_event = -1;
	h = lab_fnv1a(h, &res->status, sizeof(res->status));
	h = lab_fnv1a(h, &res->live_objects, sizeof(res->live_objects));
	for (r = 0; r < nr && r < 64; r++) {
		int type, event;
		const char *title, *text;
		uint64_t one = LAB_FNV_INIT;

		sim_report_info(r, &type, &event, &title, &text);
		if (r == 0) {
			sh->report_event = event;
			snprintf(sh->report_title, sizeof(sh->report_title), "%s", title);
		}
		one = lab_fnv1a(one, &type, sizeof(type));
		one = lab_fnv1a(one, title, strlen(title));
		if (event >= 0 && (size_t)event < n) {
			const struct sim_site *s = sim_site_at((int)log[event].site);

			if (s && s->file) {
				one = lab_fnv1a(one, s->file, strlen(s->file));
				one = lab_fnv1a(one, &s->line, sizeof(s->line));
			}
		}
		rh[r] = one;
		switch (type) {
		case SIM_REPORT_WARN: sh->fails |= 1u << FAIL_warn; break;
		case SIM_REPORT_BUG: sh->fails |= 1u << FAIL_bug; break;
		case SIM_REPORT_LOCKDEP: sh->fails |= 1u << FAIL_lockdep; break;
		case SIM_REPORT_SLEEP_IN_ATOMIC: sh->fails |= 1u << FAIL_sleep_in_atomic; break;
		case SIM_REPORT_KASAN: sh->fails |= 1u << FAIL_kasan; break;
		case SIM_REPORT_HUNG_TASK: sh->fails |= 1u << FAIL_hung_task; break;
		case SIM_REPORT_TEST: sh->fails |= 1u << FAIL_test; break;
		}
	}
	qsort(rh, (size_t)(nr < 64 ? nr : 64), sizeof(rh[0]), cmp_u64);
	h = lab_fnv1a(h, rh, (size_t)(nr < 64 ? nr : 64) * sizeof(rh[0]));
	for (tid = 0; sim_task_by_id(tid); tid++) {
		h = lab_fnv1a(h, &tid, sizeof(tid));
		for (i = 0; i < n; i++) {
			const struct sim_event *e = &log[i];
			const char *name;

			if (e->task != tid || (e->kind != SIM_EV_CALL && e->kind != SIM_EV_RETURN))
				continue;
			name = sim_name_at(e->arg[0]);
			h = lab_fnv1a(h, &e->kind, sizeof(e->kind));
			h = lab_fnv1a(h, name, strlen(name));
			h = lab_fnv1a(h, &e->arg[1], 3 * sizeof(int));
		}
	}
	sh->hash = h;
	if (res->status == SIM_PANIC)
		sh->fails |= 1u << FAIL_panic;
	else if (res->status == SIM_DEADLOCK)
		sh->fails |= 1u << FAIL_deadlock;
	else if (res->status == SIM_STUCK)
		sh->fails |= 1u << FAIL_stuck;
	if (res->status == SIM_DONE && res->live_objects)
		sh->fails |= 1u << FAIL_leak;
}

/* The search's state a run needs, from its request (natively x may be the fork server's copy). */
void xp_run_setup(struct xp *x)
{
	const struct request *rq = &x->sh->req;

	x->bound = rq->bound;
	x->branch = rq->branch;
	x->replay_len = rq->replay_len;
	x->o.pct_depth = rq->pct_depth;
	memcpy(x->prio, rq->prio, sizeof(x->prio));
	x->lowest = rq->lowest;
	memcpy(x->change, rq->change, sizeof(x->change));
	x->nchange = rq->nchange;
	memcpy(x->mchange, rq->mchange, sizeof(x->mchange));
	x->nmchange = rq->nmchange;
	x->mseed = rq->mseed;
	memcpy(x->kbound, rq->kbound, sizeof(x->kbound));
}

/*
 * A run resumed at decision d from a snapshot taken in another run with the
 * same choices before d: who sleeps after the last replayed decision is
 * this request's, if d is past it (xp_dfs_choose() reads it there).
 */
void xp_run_resumed(struct xp *x, uint32_t d)
{
	const struct request *rq = &x->sh->req;
	int t;

	x->sh->nnodes = d;
	memset(x->sh->kbeyond, 0, sizeof(x->sh->kbeyond));	/* counted at new nodes: here none yet */
	if (d && d == x->replay_len) {
		xp_cx.sleep = rq->last_sleep;
		for (t = 0; t < XP_MAX_CPUS; t++) {
			xp_cx.sfp[t] = &rq->pool[rq->sfp_off[t]];
			xp_cx.sfp_n[t] = rq->sfp_len[t];
		}
	}
}

/*
 * One boot following the search (or, with sched, a schedule), what it saw
 * written into x->sh. Returns 0, or 3 if the run could not start.
 */
__attribute__((noinline)) int xp_run_body(struct xp *x)
{
	struct shared *sh = x->sh;
	const struct request *rq = &sh->req;
	struct lab_options lo = { .max_events = 0, .policy = SIM_POLICY_TIMED, .quiet = rq->quiet,
				  .max_steps = 200000 };
	struct lab_result res;
	char err[256], *text = NULL;
	int sched = rq->sched_n >= 0;

	xp_run_setup(x);
	if (sched) {
		uint32_t sched_n = (uint32_t)rq->sched_n, i;
		struct sim_decision *d = calloc(sched_n + 1, sizeof(*d));

		for (i = 0; i < sched_n; i++) {
			d[i].cpu = rq->sched[i];
			d[i].kind = rq->sched_kinded ? rq->sched_kinds[i] : SIM_CHOICE_CPU;
		}
		text = lab_schedule_encode(d, sched_n);
		lo.schedule = text;
	} else {
		sim_fp_on = x->o.por && !x->o.pct_depth;
		sim_set_chooser(child_choose, x);
		lo.no_schedule = 1;	/* the search records the decisions itself (sh->nodes) */
	}
	memset(&xp_cx, 0, sizeof(xp_cx));
	if (lab_run(x->sc, &x->p, &lo, &res, err, sizeof(err))) {
		fprintf(stderr, "explore: %s\n", err);
		return 3;
	}
	if (!sched && sh->nnodes > 0)
		close_step(sh, &sh->nodes[sh->nnodes - 1]);
	if (sched) {
		size_t nd;
		const struct sim_decision *d = sim_decisions(&nd);

		sh->nnodes = (uint32_t)nd;
		if (x->branch >= 0 && (size_t)x->branch < nd)
			sh->branch_event = (int)d[x->branch].event;
	}
	child_outcome(x, &res);
	return 0;
}

/* The request for one run: the search's state it reads (struct request). */
void xp_request_fill(struct xp *x, int quiet, const unsigned char *sched, const unsigned char *kinds,
		     uint32_t sched_n)
{
	struct request *rq = &x->sh->req;
	uint32_t i, used = 0;
	int t;

	rq->quiet = quiet;
	rq->snap = x->snap_ok && !sched;
	rq->bound = x->bound;
	rq->branch = x->branch;
	rq->pct_depth = x->o.pct_depth;
	rq->replay_len = sched ? 0 : x->replay_len;
	rq->sched_n = sched ? (int32_t)sched_n : -1;
	if (sched)
		memcpy(rq->sched, sched, sched_n);
	rq->sched_kinded = sched && kinds;
	if (rq->sched_kinded)
		memcpy(rq->sched_kinds, kinds, sched_n);
	memcpy(rq->mchange, x->mchange, sizeof(rq->mchange));
	rq->nmchange = x->nmchange;
	rq->mseed = x->mseed;
	memcpy(rq->kbound, x->kbound, sizeof(rq->kbound));
	memcpy(rq->prio, x->prio, sizeof(rq->prio));
	rq->lowest = x->lowest;
	memcpy(rq->change, x->change, sizeof(rq->change));
	rq->nchange = x->nchange;
	rq->last_sleep = 0;
	memset(rq->sfp_len, 0, sizeof(rq->sfp_len));
	memset(rq->sfp_off, 0, sizeof(rq->sfp_off));
	for (i = 0; i < rq->replay_len; i++) {
		const struct node *n = &x->stack[i];
		struct rnode *r = &rq->nodes[i];

		r->mask = n->mask;
		r->sleep = n->sleep;
		r->from = (int8_t)n->from;
		r->yield = (int8_t)n->yield;
		r->chosen = (int8_t)n->chosen;
		r->known = (int8_t)n->known;
		r->kind = (uint8_t)n->kind;
	}
	if (rq->replay_len) {
		const struct node *n = &x->stack[rq->replay_len - 1];

		rq->last_sleep = n->sleep | n->done;
		for (t = 0; t < XP_MAX_CPUS; t++) {
			const struct fpblk *f = n->sfp[t];

			if (!(rq->last_sleep & (1ULL << t)))
				continue;
			rq->sfp_off[t] = used;
			rq->sfp_len[t] = f ? f->n : SIM_FP_ALL;
			if (f && f->n != SIM_FP_ALL) {
				memcpy(&rq->pool[used], f->k, f->n * sizeof(uint32_t));
				used += f->n;
			}
		}
	}
}

void xp_shared_reset(struct shared *sh)
{
	sh->nnodes = 0;
	sh->cut = CUT_NONE;
	sh->fails = 0;
	sh->fp_used = 0;
	sh->report_event = -1;
	sh->branch_event = -1;
	sh->report_title[0] = 0;
	sh->kinds_seen = 0;
	sh->nmodel = 0;
	memset(sh->kbeyond, 0, sizeof(sh->kbeyond));
}

/* A run that died (a signal, a child's bad exit): counted as a crash. */
void xp_mark_crashed(struct shared *sh)
{
	sh->cut = CUT_CRASH;
	sh->fails = 1u << FAIL_crash;
	sh->hash = 0x6372617368ULL;
}
