// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checkpoints: a search stopped by a budget writes its counts, end states,
 * shortest failing schedule and work items to a file, and a later search
 * of the same scenario, seed and reduction resumes from it (explore_options
 * .checkpoint). Work items resume without their sleep sets.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"

#define CKPT_MAGIC "reclaim-lab explore checkpoint 1"

void xp_ckpt_write(struct xp *x, int bound)
{
	char tmp[4096];
	FILE *f;
	size_t i;
	int b, k;

	snprintf(tmp, sizeof(tmp), "%s.tmp", x->o.checkpoint);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		return;
	}
	fprintf(f, "%s\nscenario %s %s %llu %d %d\n", CKPT_MAGIC, x->sc->name, x->sc->tree,
		x->p.seed, x->o.por, x->o.max_bound);
	fprintf(f, "bound %d\ncounts %lu %lu %lu\nfails", bound, x->execs, x->blocked, x->fail_execs);
	for (k = 0; k < NR_FAILS; k++)
		fprintf(f, " %lu", x->fails[k]);
	fprintf(f, "\n");
	for (k = 1; k < SIM_CHOICE_NR; k++)	/* the other kinds' bounds, what was past them, whether met */
		fprintf(f, "choice %s %u %lu %d\n", sim_choice_kind_name(k), x->kbound[k], x->kbeyond[k],
			!!(x->kinds_seen & (1u << k)));
	if (x->best) {
		char *t = xp_choices_text(x->best, x->best_kinds, x->best_n);

		fprintf(f, "best %d %u %u %s\n", x->best_pc, x->best_n, x->best_fails, t);
		free(t);
	}
	for (i = 0; i < x->states.cap; i++)
		if (x->states.v[i])
			fprintf(f, "state %016llx\n", (unsigned long long)x->states.v[i]);
	for (b = 0; b <= XP_MAX_BOUND + 1; b++)
		for (i = 0; i < x->items[b].n; i++) {
			char *t = xp_choices_text(x->items[b].v[i].choices, x->items[b].v[i].kinds, x->items[b].v[i].n);

			fprintf(f, "item %d %d %s\n", b, x->items[b].v[i].pc, *t ? t : "-");
			free(t);
		}
	if (fclose(f) || rename(tmp, x->o.checkpoint))
		perror(x->o.checkpoint);
}

static int decode_choices(struct xp *x, const char *text, unsigned char **out, unsigned char **kinds,
			  uint32_t *n)
{
	size_t len;
	char err[128];

	*kinds = NULL;
	if (!strcmp(text, "-")) {
		*out = malloc(1);
		*n = 0;
		return *out ? 0 : -1;
	}
	if (lab_schedule_decode(text, x->ncpus, out, kinds, &len, err, sizeof(err)))
		return -1;
	*n = (uint32_t)len;
	return 0;
}

/* Resume: 1 loaded, 0 no checkpoint, -1 a bad one. Items resume without sleep sets. */
int xp_ckpt_read(struct xp *x, int *bound)
{
	FILE *f = fopen(x->o.checkpoint, "r");
	char line[1 << 16], name[128], tree[128], text[1 << 15];
	unsigned long long seed, h;
	unsigned long beyond;
	unsigned int kb;
	int por, maxb, k, b, pc, seen, bad = 0;

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f) || strncmp(line, CKPT_MAGIC, strlen(CKPT_MAGIC)))
		bad = 1;
	while (!bad && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "scenario %127s %127s %llu %d %d", name, tree, &seed, &por, &maxb) == 5) {
			if (strcmp(name, x->sc->name) || strcmp(tree, x->sc->tree) || seed != x->p.seed ||
			    por != x->o.por) {
				fprintf(stderr, "explore: %s is a checkpoint of another search\n", x->o.checkpoint);
				bad = 1;
			}
		} else if (sscanf(line, "bound %d", bound) == 1) {
		} else if (!strncmp(line, "counts ", 7)) {
			sscanf(line + 7, "%lu %lu %lu", &x->execs, &x->blocked, &x->fail_execs);
		} else if (!strncmp(line, "fails", 5)) {
			char *p = line + 5;

			for (k = 0; k < NR_FAILS; k++)
				x->fails[k] = strtoul(p, &p, 10);
		} else if (sscanf(line, "best %d %u %u %32767s", &x->best_pc, &x->best_n, &x->best_fails, text) == 4) {
			uint32_t n;

			bad = decode_choices(x, text, &x->best, &x->best_kinds, &n);
		} else if (sscanf(line, "choice %127s %u %lu %d", name, &kb, &beyond, &seen) == 4) {
			k = sim_choice_kind_of_name(name);
			if (k <= 0 || kb != x->kbound[k]) {
				fprintf(stderr, "explore: %s is a checkpoint of a search with other bounds\n",
					x->o.checkpoint);
				bad = 1;
			} else {
				x->kbeyond[k] = beyond;
				if (seen)
					x->kinds_seen |= 1u << k;
			}
		} else if (sscanf(line, "state %llx", &h) == 1) {
			xp_state_add(x, h);
		} else if (sscanf(line, "item %d %d %32767s", &b, &pc, text) == 3 && b >= 0 && b <= XP_MAX_BOUND + 1) {
			struct itemlist *l = &x->items[b];
			struct item *it;

			it = xp_item_new(l, pc);
			bad = decode_choices(x, text, &it->choices, &it->kinds, &it->n);
			x->item_bytes += it->n * (it->kinds ? 2 : 1);
		} else {
			bad = 1;
		}
	}
	fclose(f);
	if (bad) {
		fprintf(stderr, "explore: cannot resume from %s\n", x->o.checkpoint);
		return -1;
	}
	return 1;
}

