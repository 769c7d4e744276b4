// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory for the simulated kernel: kmalloc and friends.
 *
 * Every allocation becomes an object with a sequential id, its size, its
 * node and the memcg it is charged to. Events name objects by id, never by
 * address, so logs are the same natively and in wasm. sim_obj_of() maps
 * any address inside a live object to its id (a refcount, a lock or an
 * rcu_head embedded in a shrinker is reported as the shrinker). Freed
 * memory is poisoned with 0x6b, as SLUB does, before it goes back.
 */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

struct sim_obj {
	uintptr_t start;
	size_t size;
	int id;
	int node;
	void *memcg;
};

static struct {
	struct sim_obj *v;	/* sorted by start */
	size_t n, cap;
} objs;
static int next_obj_id;

void sim_slab_init(void)
{
	objs.n = 0;
	next_obj_id = 0;
}

void sim_slab_fini(void)
{
	size_t i;

	for (i = 0; i < objs.n; i++)
		free((void *)objs.v[i].start);
	free(objs.v);
	memset(&objs, 0, sizeof(objs));
}

unsigned long sim_live_objects(void)
{
	return objs.n;
}

/* Index of the first object whose start is > addr. */
static size_t upper(uintptr_t addr)
{
	size_t lo = 0, hi = objs.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (objs.v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct sim_obj *find(const volatile void *p)
{
	uintptr_t addr = (uintptr_t)p;
	size_t i = upper(addr);

	if (!i)
		return NULL;
	if (addr < objs.v[i - 1].start + (objs.v[i - 1].size ? objs.v[i - 1].size : 1))
		return &objs.v[i - 1];
	return NULL;
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

static int cpu_node(int cpu)
{
	return cpu * sim_nr_nodes / sim_ncpus;
}

void *sim_kmalloc(unsigned long size, int zero, int node, const struct sim_site *site)
{
	struct sim_obj o;
	size_t i;
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
	if (objs.n == objs.cap) {
		objs.cap = objs.cap ? objs.cap * 2 : 256;
		objs.v = realloc(objs.v, objs.cap * sizeof(*objs.v));
		if (!objs.v)
			abort();
	}
	i = upper(o.start);
	memmove(&objs.v[i + 1], &objs.v[i], (objs.n - i) * sizeof(*objs.v));
	objs.v[i] = o;
	objs.n++;
	sim_event(SIM_EV_KMALLOC, site, o.id, (int)size, o.node, o.memcg ? sim_obj_of(o.memcg) : 0);
	sim_step(site, SIM_COST_KMALLOC);
	return p;
}

void sim_kfree(const void *p, const struct sim_site *site)
{
	struct sim_obj *o;
	size_t i;
	int id;
	size_t size;

	if (!p)
		return;
	o = find(p);
	if (!o || o->start != (uintptr_t)p) {
		sim_bug(o ? "kfree() of a pointer inside an object"
			  : "kfree() of memory that is not allocated (double free?)", site);
		return;
	}
	id = o->id;
	size = o->size;
	i = (size_t)(o - objs.v);
	memmove(&objs.v[i], &objs.v[i + 1], (objs.n - i - 1) * sizeof(*objs.v));
	objs.n--;
	memset((void *)p, 0x6b, size);
	free((void *)p);
	sim_event(SIM_EV_KFREE, site, id, (int)size, 0, 0);
	sim_step(site, SIM_COST_KFREE);
}
