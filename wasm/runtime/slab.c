// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory for the simulated kernel: kmalloc and friends.
 *
 * Every allocation becomes an object with a sequential id, its size, its
 * node and the memcg it is charged to. Events name objects by id, never by
 * address, so logs are the same natively and in wasm. sim_obj_of() maps
 * any address inside a live object to its id (a refcount, a lock or an
 * rcu_head embedded in a shrinker is reported as the shrinker). Freed
 * memory is poisoned with 0x6b, as SLUB does, and kept in a quarantine
 * until the run ends, as KASAN keeps it, so that a later access can be
 * told apart and reported with where the object was allocated and freed
 * (kasan.c).
 */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "explore.h"

/*
 * Objects by address, for the lookups every instrumented access makes: a
 * large sorted array and a small sorted one that takes the inserts and is
 * merged into the large one when full, so that an insert costs the small
 * one's length, not the whole table's (runs allocate hundreds of
 * thousands of objects). A freed object is marked dead where it is and
 * dropped at the next merge; objects never overlap, so the nearest start
 * below an address decides alone.
 */
#define RECENT_MAX 1024

struct obj_level {
	struct sim_obj *v;	/* sorted by start */
	size_t n, cap;
};

struct obj_table {
	struct obj_level big, recent;
	size_t live;
};

static struct obj_table objs, freed;
static int next_obj_id;
static uintptr_t heap_lo = UINTPTR_MAX, heap_hi;

static void table_reset(struct obj_table *t)
{
	t->big.n = 0;
	t->recent.n = 0;
	t->live = 0;
}

void sim_slab_init(void)
{
	table_reset(&objs);
	table_reset(&freed);
	next_obj_id = 0;
	heap_lo = UINTPTR_MAX;
	heap_hi = 0;
}

/* Frees the memory of the objects it holds alive (a freed object's is in the quarantine). */
static void table_fini(struct obj_table *t)
{
	struct obj_level *levels[] = { &t->big, &t->recent };
	size_t i, l;

	for (l = 0; l < 2; l++) {
		for (i = 0; i < levels[l]->n; i++)
			if (!levels[l]->v[i].dead)
				free((void *)levels[l]->v[i].start);
		free(levels[l]->v);
	}
	memset(t, 0, sizeof(*t));
}

void sim_slab_fini(void)
{
	table_fini(&objs);
	table_fini(&freed);
}

unsigned long sim_live_objects(void)
{
	return objs.live;
}

/* Index of the first object whose start is > addr. */
static size_t upper(const struct obj_level *t, uintptr_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entry with the greatest start at or below addr in a level, or NULL. */
static struct sim_obj *below(const struct obj_level *l, uintptr_t addr)
{
	size_t i = upper(l, addr);

	return i ? &l->v[i - 1] : NULL;
}

static struct sim_obj *find_in(const struct obj_table *t, uintptr_t addr)
{
	struct sim_obj *a = below(&t->big, addr), *b = below(&t->recent, addr);
	struct sim_obj *o = !a ? b : !b ? a : a->start > b->start ? a : b;

	if (!o || o->dead)
		return NULL;
	if (addr < o->start + (o->size ? o->size : 1))
		return o;
	return NULL;
}

static struct sim_obj *find(const volatile void *p)
{
	return find_in(&objs, (uintptr_t)p);
}

static void level_reserve(struct obj_level *l, size_t n)
{
	if (n <= l->cap)
		return;
	l->cap = l->cap ? l->cap * 2 : 256;
	if (l->cap < n)
		l->cap = n;
	l->v = realloc(l->v, l->cap * sizeof(*l->v));
	if (!l->v)
		abort();
}

/* The small level into the big one, dropping the dead: one pass over both. */
static void table_merge(struct obj_table *t)
{
	struct obj_level out = { NULL, 0, 0 };
	size_t i = 0, j = 0;

	level_reserve(&out, t->big.n + t->recent.n);
	while (i < t->big.n || j < t->recent.n) {
		struct sim_obj *o = j == t->recent.n ||
			(i < t->big.n && t->big.v[i].start < t->recent.v[j].start) ?
			&t->big.v[i++] : &t->recent.v[j++];

		if (!o->dead)
			out.v[out.n++] = *o;
	}
	free(t->big.v);
	t->big = out;
	t->recent.n = 0;
}

static void table_insert(struct obj_table *t, const struct sim_obj *o)
{
	struct obj_level *r = &t->recent;
	size_t i;

	if (r->n == RECENT_MAX)
		table_merge(t);
	level_reserve(r, r->n + 1);
	i = upper(r, o->start);
	memmove(&r->v[i + 1], &r->v[i], (r->n - i) * sizeof(*r->v));
	r->v[i] = *o;
	r->v[i].dead = 0;
	r->n++;
	t->live++;
}

/* The freed object an access of [addr, addr + size) touches, if any. */
const struct sim_obj *sim_slab_freed_at(uintptr_t addr, size_t size)
{
	if (addr + size <= heap_lo || addr >= heap_hi || !freed.live)
		return NULL;
	return find_in(&freed, addr + size - 1) ? find_in(&freed, addr + size - 1) : find_in(&freed, addr);
}

int sim_obj_of(const volatile void *addr)
{
	struct sim_obj *o = find(addr);

	return o ? o->id : 0;
}

int sim_obj_node(const void *p)
{
	struct sim_obj *o = find(p);

	return o ? o->node : 0;
}

void *sim_obj_memcg(const void *p)
{
	struct sim_obj *o = find(p);

	return o ? o->memcg : NULL;
}

unsigned long sim_ksize(const void *p)
{
	struct sim_obj *o = find(p);

	return o ? o->size : 0;
}

void *(*sim_charge_target)(void *memcg);

void sim_set_alloc_memcg(void *memcg)
{
	if (sim_current)
		sim_current->active_memcg = memcg;
}

void sim_slab_recharge(void *from, void *to)
{
	struct obj_level *levels[] = { &objs.big, &objs.recent };
	size_t i, l;

	for (l = 0; l < 2; l++)
		for (i = 0; i < levels[l]->n; i++)
			if (levels[l]->v[i].memcg == from)
				levels[l]->v[i].memcg = to;
}

static int cpu_node(int cpu)
{
	return cpu * sim_nr_nodes / sim_ncpus;
}

void *sim_kmalloc(unsigned long size, int zero, int node, const struct sim_site *site)
{
	sim_fp_note(&objs, 1);
	struct sim_obj o;
	void *p;

	/* Cache-line aligned, as SLUB's kmalloc caches are for sizes >= 64. */
	p = aligned_alloc(64, size ? (size + 63) & ~(size_t)63 : 64);
	if (!p)
		return NULL;
	sim_fp_note_range((uintptr_t)p, size, 1);
	if (zero)
		memset(p, 0, size);
	else
		memset(p, 0xcc, size);	/* uninitialised, visibly */
	o.start = (uintptr_t)p;
	o.size = size;
	o.id = ++next_obj_id;
	o.node = node >= 0 && node < sim_nr_nodes ? node : cpu_node(sim_cpu_id());
	o.memcg = sim_current ? sim_current->active_memcg : NULL;
	if (o.memcg && sim_charge_target)
		o.memcg = sim_charge_target(o.memcg);
	o.alloc_site = sim_site_id(site);
	o.alloc_task = sim_task_id();
	o.free_site = 0;
	o.free_task = -1;
	table_insert(&objs, &o);
	if (o.start < heap_lo)
		heap_lo = o.start;
	if (o.start + o.size > heap_hi)
		heap_hi = o.start + o.size;
	sim_event(SIM_EV_KMALLOC, site, o.id, (int)size, o.node, o.memcg ? sim_obj_of(o.memcg) : 0);
	sim_step(site, SIM_COST_KMALLOC);
	return p;
}

void sim_kfree(const void *p, const struct sim_site *site)
{
	sim_fp_note(&objs, 1);
	struct sim_obj *o, gone;

	if (!p)
		return;
	o = find(p);
	if (!o || o->start != (uintptr_t)p) {
		sim_bug(o ? "kfree() of a pointer inside an object" :
			find_in(&freed, (uintptr_t)p) ? "double free: kfree() of a freed object" :
			"kfree() of memory that is not allocated", site);
		return;
	}
	gone = *o;
	o->dead = 1;
	objs.live--;
	sim_fp_note_range((uintptr_t)p, gone.size, 1);
	memset((void *)p, 0x6b, gone.size);
	gone.free_site = sim_site_id(site);
	gone.free_task = sim_task_id();
	table_insert(&freed, &gone);	/* quarantined until the run ends */
	sim_event(SIM_EV_KFREE, site, gone.id, (int)gone.size, 0, 0);
	sim_step(site, SIM_COST_KFREE);
}
