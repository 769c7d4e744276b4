// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the depth-first search keeps between executions: footprints shared
 * by its nodes and work items (counted references), the work items (a
 * prefix of choices to explore below at a bound), and its nodes' cleanup.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"

/*
 * Footprints by size class (room for 8 << class entries), each class with
 * a free list in the search (not in static data, which every in-process
 * run puts back): a node keeps one per execution, a malloc() and a free()
 * each before.
 */
static uint32_t fp_class(uint32_t n)
{
	uint32_t c = 0;

	while (c < XP_FP_CLASSES - 1 && (8u << c) < n)
		c++;
	return c;
}

struct fpblk *xp_fp_new(const uint32_t *k, uint32_t n)
{
	uint32_t len = n == SIM_FP_ALL ? 0 : n, c = fp_class(len);
	struct fpblk *f = c < XP_FP_CLASSES - 1 ? xp_current->fpfree[c] : NULL;

	if (f) {
		xp_current->fpfree[c] = f->next;
	} else {
		f = malloc(sizeof(*f) + (c < XP_FP_CLASSES - 1 ? 8u << c : len) * sizeof(uint32_t));
		if (!f)
			xp_out_of_memory();
	}
	f->refs = 1;
	f->n = n;
	f->cls = c;
	if (len)
		memcpy(f->k, k, len * sizeof(uint32_t));
	return f;
}

struct fpblk *xp_fp_get(struct fpblk *f)
{
	if (f)
		f->refs++;
	return f;
}

void xp_fp_put(struct fpblk **f)
{
	if (*f && !--(*f)->refs) {
		if ((*f)->cls < XP_FP_CLASSES - 1) {
			(*f)->next = xp_current->fpfree[(*f)->cls];
			xp_current->fpfree[(*f)->cls] = *f;
		} else {
			free(*f);
		}
	}
	*f = NULL;
}

/* The free lists' blocks, at the search's end. */
void xp_fp_drain(struct xp *x)
{
	uint32_t c;

	for (c = 0; c < XP_FP_CLASSES; c++)
		while (x->fpfree[c]) {
			struct fpblk *f = x->fpfree[c];

			x->fpfree[c] = f->next;
			free(f);
		}
}

/* A new, zeroed item at the end of list l, for program counter pc. */
struct item *xp_item_new(struct itemlist *l, int pc)
{
	struct item *it;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			xp_out_of_memory();
	}
	it = &l->v[l->n++];
	memset(it, 0, sizeof(*it));
	it->pc = pc;
	return it;
}

void xp_item_push(struct xp *x, int bound, int pc, const struct node *stack, uint32_t depth,
		      int choice, uint64_t sleep, struct fpblk *const *sfp)
{
	struct itemlist *l = &x->items[bound];
	struct item *it;
	uint32_t i;
	int t;

	/*
	 * Past the last bound an item is never run: it only says the search
	 * is not exhausted, and how much is left (the summary's "deferred").
	 * Unless a checkpoint may resume the search at a higher bound, count
	 * it and keep nothing: at the last bound nearly every execution
	 * defers a choice at each of its decisions.
	 */
	if (bound > x->o.max_bound && !x->o.checkpoint) {
		x->beyond++;
		return;
	}
	/*
	 * A deep run defers a choice at nearly every decision, each item with
	 * its prefix: past XP_ITEM_BYTES they are more than a 32-bit process
	 * (wasm, the i386 builds) can be sure to hold.
	 */
	if (x->item_bytes + depth + 1 > XP_ITEM_BYTES)
		xp_out_of_memory();
	it = xp_item_new(l, pc);
	it->n = depth + 1;
	x->item_bytes += depth + 1;
	it->choices = malloc(depth + 1);
	if (!it->choices)
		xp_out_of_memory();
	for (i = 0; i < depth; i++)
		it->choices[i] = (unsigned char)stack[i].chosen;
	it->choices[depth] = (unsigned char)choice;
	/* The kinds, when a choice point of another kind than the scheduler's is among them. */
	for (i = 0; i <= depth && !stack[i].kind; i++)
		;
	if (i <= depth) {
		x->item_bytes += depth + 1;
		it->kinds = malloc(depth + 1);
		if (!it->kinds)
			xp_out_of_memory();
		for (i = 0; i <= depth; i++)
			it->kinds[i] = (unsigned char)stack[i].kind;
	}
	it->sleep = sleep;
	for (t = 0; t < XP_MAX_CPUS; t++)
		if (sleep & (1ULL << t))
			it->sfp[t] = xp_fp_get(sfp[t]);
	/* In a shard: its place, the item explored's path and this push's index below it (struct xp_order). */
	if (x->o.nshards > 1 && bound > 0) {
		it->plen = x->item_plen + 1;
		it->path = malloc(it->plen * sizeof(*it->path));
		if (!it->path)
			xp_out_of_memory();
		if (x->item_plen)
			memcpy(it->path, x->item_path, x->item_plen * sizeof(*it->path));
		it->path[x->item_plen] = x->item_pushes++;
	}
}

void xp_node_clear(struct node *n)
{
	uint64_t held = n->sleep | n->done;	/* a footprint is kept only for a CPU asleep or done */

	xp_fp_put(&n->cur);
	for (; held; held &= held - 1)
		xp_fp_put(&n->sfp[__builtin_ctzll(held)]);
	memset(n, 0, sizeof(*n));
}

void xp_item_free(struct xp *x, struct item *it)
{
	int t;

	x->item_bytes -= it->n * (it->kinds ? 2 : 1);
	free(it->choices);
	free(it->kinds);
	free(it->path);
	for (t = 0; t < XP_MAX_CPUS; t++)
		xp_fp_put(&it->sfp[t]);
}
