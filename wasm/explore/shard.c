// SPDX-License-Identifier: GPL-2.0-only
/*
 * A depth-first search split into shards, merged back (explore_merge()).
 *
 * The search's work items are the unit: every shard runs bound 0 (a few
 * executions; shard 0 alone counts them), and each work item of bound 1
 * that bound 0 pushed, with the whole subtree of later bounds' items
 * below it, belongs to the shard its push index names modulo the shards'
 * number (dfs.c). So a shard runs a subset of the one search's
 * executions, each exactly as that search runs it (an item's subtree
 * depends on nothing outside it), and in that search's relative order.
 *
 * Each shard writes a record per bound (report.c, xp_shard_record()): the
 * bound's counts, the end states it reached first, and its shortest
 * failing execution with its place in the one search's order
 * (struct xp_order). Merged: counts add up, end states are the union,
 * and the shortest is the one with the fewest preemptions, then
 * decisions, then the one the one search runs first, so the summaries
 * are that search's, all but their seconds and rate. A shard that
 * finished at a lower bound counts nothing at the later ones.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"

struct rec {
	int bound, exhausted, stopped;
	unsigned long bexecs, bblocked, execs, blocked, fail_execs;
	size_t deferred;
	uint32_t kinds_seen;
	double seconds;
	unsigned long fails[NR_FAILS], kbeyond[SIM_CHOICE_NR];
	uint64_t *states;
	size_t nstates, cap;
	int has_best, replayed, best_pc, rstep;
	uint32_t best_n, best_fails, rfails;
	struct xp_order order;
	unsigned char *best, *kinds;
	char rtitle[96];
};

struct shardin {
	int shard, nshards, por, cpus;
	unsigned long long seed;
	unsigned int kbound[SIM_CHOICE_NR];
	char name[64], tree[64];
	struct rec *r;
	int n;
};

static int bad(const char *what, int i)
{
	fprintf(stderr, "explore: shard record %d: %s\n", i, what);
	return -1;
}

static unsigned char *hex_bytes(const char *s, uint32_t n)
{
	unsigned char *v = malloc(n + 1);
	uint32_t i;
	unsigned int b;

	if (!v)
		xp_out_of_memory();
	for (i = 0; i < n; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1) {
			free(v);
			return NULL;
		}
		v[i] = (unsigned char)b;
	}
	return v;
}

/* One shard's records; -1 on anything it cannot read. */
static int read_shard(FILE *f, struct shardin *s, int idx)
{
	char *line = NULL, *p, *end;
	size_t cap = 0;
	struct rec *r = NULL;
	int k, off, have_header = 0;

	memset(s, 0, sizeof(*s));
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "shard ", 6)) {
			int version;

			if (sscanf(line, "shard %d %d %d %d %d %llu%n", &version, &s->shard, &s->nshards, &s->por,
				   &s->cpus, &s->seed, &off) != 6 || version != 1)
				goto fail;
			p = line + off;
			for (k = 1; k < SIM_CHOICE_NR; k++)
				s->kbound[k] = (unsigned int)strtoul(p, &p, 10);
			if (sscanf(p, " %63s %63s", s->name, s->tree) != 2)
				goto fail;
			have_header = 1;
		} else if (!strncmp(line, "bound ", 6) && have_header) {
			struct rec *v = realloc(s->r, (size_t)(s->n + 1) * sizeof(*v));

			if (!v)
				xp_out_of_memory();
			s->r = v;
			r = &s->r[s->n++];
			memset(r, 0, sizeof(*r));
			if (sscanf(line, "bound %d %lu %lu %zu %lu %lu %lu %u %d %d %lf%n", &r->bound, &r->bexecs,
				   &r->bblocked, &r->deferred, &r->execs, &r->blocked, &r->fail_execs, &r->kinds_seen,
				   &r->exhausted, &r->stopped, &r->seconds, &off) != 11)
				goto fail;
			p = line + off;
			for (k = 0; k < NR_FAILS; k++)
				r->fails[k] = strtoul(p, &p, 10);
			for (k = 1; k < SIM_CHOICE_NR; k++)
				r->kbeyond[k] = strtoul(p, &p, 10);
		} else if (!strncmp(line, "state ", 6) && r) {
			if (r->nstates == r->cap) {
				uint64_t *v = realloc(r->states, (r->cap = 2 * r->cap + 64) * sizeof(*v));

				if (!v)
					xp_out_of_memory();
				r->states = v;
			}
			r->states[r->nstates++] = strtoull(line + 6, NULL, 16);
		} else if (!strncmp(line, "best ", 5) && r) {
			uint32_t j;

			if (sscanf(line, "best %d %u %u %lu %u%n", &r->best_pc, &r->best_n, &r->best_fails,
				   &r->order.seq, &r->order.plen, &off) != 5 || r->order.plen > XP_MAX_BOUND ||
			    r->best_n > XP_MAX_NODES)
				goto fail;
			p = line + off;
			for (j = 0; j < r->order.plen; j++)
				r->order.path[j] = (uint32_t)strtoul(p, &p, 10);
			while (*p == ' ')
				p++;
			end = strchr(p, ' ');
			if (!end || (size_t)(end - p) != 2 * r->best_n || !(r->best = hex_bytes(p, r->best_n)))
				goto fail;
			p = end + 1;
			if (strcmp(p, "-") && (strlen(p) != 2 * r->best_n || !(r->kinds = hex_bytes(p, r->best_n))))
				goto fail;
			r->has_best = 1;
		} else if (!strncmp(line, "replayed ", 9) && r && r->has_best) {
			if (sscanf(line, "replayed %u %d %n", &r->rfails, &r->rstep, &off) != 2)
				goto fail;
			snprintf(r->rtitle, sizeof(r->rtitle), "%s", line + off);
			r->replayed = 1;
		} else if (!strcmp(line, "end") && r) {
			r = NULL;
		} else {
			goto fail;
		}
	}
	free(line);
	if (!have_header || !s->n || r)
		return bad(!have_header ? "no header" : !s->n ? "no bound" : "cut short", idx);
	return 0;
fail:
	fprintf(stderr, "explore: shard record %d: cannot read '%.60s'\n", idx, line);
	free(line);
	return -1;
}

static void free_shard(struct shardin *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		free(s->r[i].states);
		free(s->r[i].best);
		free(s->r[i].kinds);
	}
	free(s->r);
}

/* The one with the fewest preemptions, then decisions, then the one the one search runs first. */
static int better(const struct rec *a, const struct rec *b)
{
	if (!b)
		return 1;
	if (a->best_pc != b->best_pc)
		return a->best_pc < b->best_pc;
	if (a->best_n != b->best_n)
		return a->best_n < b->best_n;
	return xp_order_cmp(&a->order, &b->order) < 0;
}

int explore_merge(FILE *const *in, int n, FILE *out, struct explore_result *res)
{
	struct shardin *s = calloc((size_t)n, sizeof(*s));
	struct xp *m = calloc(1, sizeof(*m));
	int i, j, b, last = 0, r = -1, exhausted = 0;

	if (!s || !m)
		xp_out_of_memory();
	for (i = 0; i < n; i++)
		if (read_shard(in[i], &s[i], i))
			goto out;
	for (i = 0; i < n; i++) {
		if (s[i].nshards != n || s[i].shard < 0 || s[i].shard >= n) {
			bad("is not one of this many shards", i);
			goto out;
		}
		for (j = 0; j < i; j++)
			if (s[j].shard == s[i].shard) {
				bad("is another's shard again", i);
				goto out;
			}
		if (s[i].por != s[0].por || s[i].cpus != s[0].cpus || s[i].seed != s[0].seed ||
		    memcmp(s[i].kbound, s[0].kbound, sizeof(s[0].kbound)) || strcmp(s[i].name, s[0].name) ||
		    strcmp(s[i].tree, s[0].tree)) {
			bad("is of another search", i);
			goto out;
		}
		if (s[i].r[s[i].n - 1].bound > last)
			last = s[i].r[s[i].n - 1].bound;
	}
	xp_current = m;
	m->merged = 1;
	m->sc_name = s[0].name;
	m->sc_tree = s[0].tree;
	m->p.seed = s[0].seed;
	m->ncpus = s[0].cpus;
	m->o.por = s[0].por;
	memcpy(m->kbound, s[0].kbound, sizeof(m->kbound));
	m->out = out;
	for (b = 0; b <= last; b++) {
		const struct rec *best = NULL;
		double secs = 0;

		m->bound_execs = m->bound_blocked = m->execs = m->blocked = m->fail_execs = 0;
		m->m_deferred = 0;
		m->kinds_seen = 0;
		m->stopped = 0;
		memset(m->fails, 0, sizeof(m->fails));
		memset(m->kbeyond, 0, sizeof(m->kbeyond));
		exhausted = 1;
		for (i = 0; i < n; i++) {
			const struct rec *rc = NULL;
			size_t q;
			int k;

			/* Its record of this bound, or its last if it finished before. */
			for (j = 0; j < s[i].n && s[i].r[j].bound <= b; j++)
				rc = &s[i].r[j];
			if (!rc)
				continue;
			if (rc->bound == b) {
				m->bound_execs += rc->bexecs;
				m->bound_blocked += rc->bblocked;
				m->m_deferred += rc->deferred;
				exhausted &= rc->exhausted;
				for (q = 0; q < rc->nstates; q++)
					xp_state_add(m, rc->states[q]);
			}
			m->execs += rc->execs;
			m->blocked += rc->blocked;
			m->fail_execs += rc->fail_execs;
			m->kinds_seen |= rc->kinds_seen;
			m->stopped |= rc->stopped;
			for (k = 0; k < NR_FAILS; k++)
				m->fails[k] += rc->fails[k];
			for (k = 1; k < SIM_CHOICE_NR; k++)
				m->kbeyond[k] += rc->kbeyond[k];
			if (rc->seconds > secs)
				secs = rc->seconds;
			if (rc->has_best && better(rc, best))
				best = rc;
		}
		for (i = 1; i < SIM_CHOICE_NR; i++)
			if (m->kbeyond[i])
				exhausted = 0;
		m->best = best ? best->best : NULL;
		m->best_kinds = best ? best->kinds : NULL;
		m->best_n = best ? best->best_n : 0;
		m->best_pc = best ? best->best_pc : 0;
		m->best_fails = best ? best->best_fails : 0;
		m->m_replayed = best && best->replayed;
		m->m_rfails = best ? best->rfails : 0;
		m->m_rstep = best ? best->rstep : -1;
		snprintf(m->m_rtitle, sizeof(m->m_rtitle), "%s", best ? best->rtitle : "");
		m->t0 = xp_now() - secs;
		xp_summary(m, "dfs", b, exhausted);
	}
	if (res)
		xp_fill_result(m, res, exhausted);
	r = m->fail_execs ? 1 : 0;
out:
	for (i = 0; i < n; i++)
		free_shard(&s[i]);
	free(s);
	free(m->states.v);
	free(m);
	xp_current = NULL;
	return r;
}
