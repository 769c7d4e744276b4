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

struct obj_table {
	struct sim_obj *v;	/* sorted by start */
	size_t n, cap;
};

static struct obj_table objs, freed;
static int next_obj_id;
static uintptr_t heap_lo = UINTPTR_MAX, heap_hi;

void sim_slab_init(void)
{
	objs.n = 0;
	freed.n = 0;
	next_obj_id = 0;
	heap_lo = UINTPTR_MAX;
	heap_hi = 0;
}

static void table_fini(struct obj_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free((void *)t->v[i].start);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void sim_slab_fini(void)
{
	table_fini(&objs);
	table_fini(&freed);
}

unsigned long sim_live_objects(void)
{
	return objs.n;
}

/* Index of the first object whose start is > addr. */
static size_t upper(const struct obj_table *t, uintptr_t addr)
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

static struct sim_obj *find_in(const struct obj_table *t, uintptr_t addr)
{
	size_t i = upper(t, addr);

	if (!i)
		return NULL;
	if (addr < t->v[i - 1].start + (t->v[i - 1].size ? t->v[i - 1].size : 1))
		return &t->v[i - 1];
	return NULL;
}

static struct sim_obj *find(const volatile void *p)
{
	return find_in(&objs, (uintptr_t)p);
}

static void table_insert(struct obj_table *t, const struct sim_obj *o)
{
	size_t i;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = realloc(t->v, t->cap * sizeof(*t->v));
		if (!t->v)
			abort();
	}
	i = upper(t, o->start);
	memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(*t->v));
	t->v[i] = *o;
	t->n++;
}

/* The freed object an access of [addr, addr + size) touches, if any. */
const struct sim_obj *sim_slab_freed_at(uintptr_t addr, size_t size)
{
	if (addr + size <= heap_lo || addr >= heap_hi || !freed.n)
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

void sim_set_alloc_memcg(void *memcg)
{
	if (sim_current)
		sim_current->active_memcg = memcg;
}

void sim_slab_recharge(void *from, void *to)
{
	size_t i;

	for (i = 0; i < objs.n; i++)
		if (objs.v[i].memcg == from)
			objs.v[i].memcg = to;
}

static int cpu_node(int cpu)
{
	return cpu * sim_nr_nodes / sim_ncpus;
}

void *sim_kmalloc(unsigned long size, int zero, int node, const struct sim_site *site)
{
	struct sim_obj o;
	void *p;

	/* Cache-line aligned, as SLUB's kmalloc caches are for sizes >= 64. */
	p = aligned_alloc(64, size ? (size + 63) & ~(size_t)63 : 64);
	if (!p)
		return NULL;
	if (zero)
		memset(p, 0, size);
	else
		memset(p, 0xcc, size);	/* uninitialised, visibly */
	o.start = (uintptr_t)p;
	o.size = size;
	o.id = ++next_obj_id;
	o.node = node >= 0 && node < sim_nr_nodes ? node : cpu_node(sim_cpu_id());
	o.memcg = sim_current ? sim_current->active_memcg : NULL;
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
	struct sim_obj *o, gone;
	size_t i;

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
	i = (size_t)(o - objs.v);
	memmove(&objs.v[i], &objs.v[i + 1], (objs.n - i - 1) * sizeof(*objs.v));
	objs.n--;
	memset((void *)p, 0x6b, gone.size);
	gone.free_site = sim_site_id(site);
	gone.free_task = sim_task_id();
	table_insert(&freed, &gone);	/* quarantined until the run ends */
	sim_event(SIM_EV_KFREE, site, gone.id, (int)gone.size, 0, 0);
	sim_step(site, SIM_COST_KFREE);
}
