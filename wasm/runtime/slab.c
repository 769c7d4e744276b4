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
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "footprint.h"

/*
 * Objects by address, for the lookups every instrumented access makes: a
 * shadow table, as KASAN keeps shadow memory for the kernel's. Every
 * allocation starts on a 64-byte boundary and spans whole 64-byte granules
 * (sim_kmalloc() rounds it up), and its memory stays allocated until the
 * run ends (a freed object's in the quarantine), so a granule belongs to
 * one object at most for the whole run: the shadow holds that object's id,
 * written at allocation and negated when the object is freed, and a lookup
 * is two loads and a range check (the check for freed memory every access
 * makes reads the object only when its granule is a freed one's).
 * The shadow covers the address space the simulation runs in, in pages of
 * SHADOW_SHIFT granules made as the heap reaches them: on a 32-bit machine
 * (wasm32, clang -m32) a table of every page; on a 64-bit one (clang -m64)
 * the 47 bits of x86-64 user space, whose table of pages is itself made in
 * parts of DIR_SHIFT pages as the heap reaches them (one more load). Objects
 * are kept by id in blocks, so a pointer to one stays valid as more are
 * made; the live ones charged to a memcg also on their memcg's list, for
 * reparenting (below).
 */
#define GRANULE_SHIFT	6			/* 64 bytes: sim_kmalloc()'s alignment */
#define SHADOW_SHIFT	10			/* granules per shadow page: 1024 (64 KiB) */
#define SHADOW_PAGE_SHIFT	(GRANULE_SHIFT + SHADOW_SHIFT)	/* address space per shadow page: 64 KiB */
#define OBJ_BLOCK	1024			/* objects per block */

/*
 * The tables' blocks allocated in this run, so that sim_slab_fini() frees
 * those alone: scanning the directories instead called free() on 128 Ki
 * empty slots a run, each of which AddressSanitizer's free() unwinds the
 * stack for (the fuzzer's runs, which end in sim_fini(), took twenty
 * times as long).
 */
static struct {
	void **v;			/* a slot whose block is allocated */
	size_t n, cap;
} made;

static void made_note(void *slot)
{
	if (made.n == made.cap) {
		made.cap = made.cap ? made.cap * 2 : 64;
		made.v = realloc(made.v, made.cap * sizeof(*made.v));
		if (!made.v)
			abort();
	}
	made.v[made.n++] = slot;
}

/* The slots a run filled, emptied without freeing their blocks (the machine's heap is put back whole). */
void sim_slab_forget(void)
{
	while (made.n)
		*(void **)made.v[--made.n] = NULL;
}

/* Frees every block noted and empties its slot (the directories' parts last: they were noted first). */
static void made_free(void)
{
	while (made.n) {
		void **slot = made.v[--made.n];

		free(*slot);
		*slot = NULL;
	}
	free(made.v);
	made.v = NULL;
	made.cap = 0;
}

#if UINTPTR_MAX == 0xffffffffu
#define SHADOW_PAGES	(1u << (32 - SHADOW_PAGE_SHIFT))
static int *shadow[SHADOW_PAGES];		/* granule -> object id, 0: none */

/* The slot of addr's shadow page; make: whether one may be added (always here). */
static inline int **shadow_slot(uintptr_t addr, bool make)
{
	return &shadow[addr >> SHADOW_PAGE_SHIFT];
}

#else
#define ADDR_BITS	47			/* x86-64 user space */
#define DIR_SHIFT	16			/* shadow pages per part of the table */
#define DIR_PARTS	(1ul << (ADDR_BITS - SHADOW_PAGE_SHIFT - DIR_SHIFT))
static int **shadow[DIR_PARTS];

static inline int **shadow_slot(uintptr_t addr, bool make)
{
	uintptr_t page = addr >> SHADOW_PAGE_SHIFT;
	int ***part;

	if (addr >> ADDR_BITS)
		return NULL;
	part = &shadow[page >> DIR_SHIFT];
	if (!*part) {
		if (!make)
			return NULL;
		if (!(*part = calloc(1ul << DIR_SHIFT, sizeof(**part))))
			abort();
		made_note(part);
	}
	return &(*part)[page & ((1ul << DIR_SHIFT) - 1)];
}
#endif

#ifdef SIM_FREED_MAPS
unsigned char *sim_freed_map[SIM_FREED_MAPS];

/* Granule g's bit in its map (runtime.h): set for a freed object's, clear for a new one's. */
static void freed_mark(uintptr_t g, bool freed)
{
	unsigned char **map = &sim_freed_map[g >> 10];

	if ((uint64_t)g >> 26)
		return;		/* past 32 bits: no map, every access there is looked up */
	if (!*map) {
		if (!freed)
			return;
		if (!(*map = calloc(128, 1)))
			abort();
		made_note(map);
	}
	if (freed)
		(*map)[(g >> 3) & 127] |= 1u << (g & 7);
	else
		(*map)[(g >> 3) & 127] &= ~(1u << (g & 7));
}

#else
static void freed_mark(uintptr_t g, bool freed)
{
}
#endif

static struct sim_obj **blocks;			/* object id - 1 -> object */
static size_t nblocks;
static size_t nlive;				/* live objects */
size_t sim_slab_nfreed;
static int next_obj_id;
static char slab_state;				/* the explorer's footprint key for all of this */

/*
 * The live objects charged to each memcg, for reparenting: a list through
 * the objects (ids), its head found by the memcg's address in a table with
 * open addressing. sim_slab_recharge() walks the memcg's own objects, not
 * every live one.
 */
static struct charged {
	void *memcg;				/* NULL: an empty slot */
	int first;				/* the first object's id, 0: none */
} *charged;
static size_t charged_cap, charged_n;

static struct sim_obj *obj_by_id(int id)
{
	return &blocks[(id - 1) / OBJ_BLOCK][(id - 1) % OBJ_BLOCK];
}

static size_t charged_hash(void *memcg, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)memcg * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

/* memcg's slot in the table, made if it has none. */
static struct charged *charged_of(void *memcg)
{
	size_t i;

	if (2 * (charged_n + 1) > charged_cap) {
		struct charged *old = charged;
		size_t j, old_cap = charged_cap;

		charged_cap = charged_cap ? 2 * charged_cap : 256;
		if (!(charged = calloc(charged_cap, sizeof(*charged))))
			abort();
		for (j = 0; j < old_cap; j++) {
			if (!old[j].memcg)
				continue;
			for (i = charged_hash(old[j].memcg, charged_cap); charged[i].memcg;
			     i = (i + 1) & (charged_cap - 1))
				;
			charged[i] = old[j];
		}
		free(old);
	}
	for (i = charged_hash(memcg, charged_cap); charged[i].memcg && charged[i].memcg != memcg;
	     i = (i + 1) & (charged_cap - 1))
		;
	if (!charged[i].memcg) {
		charged[i].memcg = memcg;
		charged[i].first = 0;
		charged_n++;
	}
	return &charged[i];
}

static void charge_link(struct sim_obj *o)
{
	struct charged *c = charged_of(o->memcg);

	o->memcg_prev = 0;
	o->memcg_next = c->first;
	if (c->first)
		obj_by_id(c->first)->memcg_prev = o->id;
	c->first = o->id;
}

static void charge_unlink(struct sim_obj *o)
{
	if (o->memcg_next)
		obj_by_id(o->memcg_next)->memcg_prev = o->memcg_prev;
	if (o->memcg_prev)
		obj_by_id(o->memcg_prev)->memcg_next = o->memcg_next;
	else
		charged_of(o->memcg)->first = o->memcg_next;
}

/* A new object, with the next id. */
static struct sim_obj *obj_new(void)
{
	int id = ++next_obj_id;

	if ((size_t)(id - 1) / OBJ_BLOCK == nblocks) {
		blocks = realloc(blocks, (nblocks + 1) * sizeof(*blocks));
		if (!blocks || !(blocks[nblocks] = malloc(OBJ_BLOCK * sizeof(**blocks))))
			abort();
		nblocks++;
	}
	return obj_by_id(id);
}

/* The shadow of addr's granule: its object's id, negated once freed; 0: none. */
static inline int shadow_id(uintptr_t addr)
{
	int **slot = shadow_slot(addr, false);
	const int *page = slot ? *slot : NULL;

	return page ? page[(addr >> GRANULE_SHIFT) & ((1u << SHADOW_SHIFT) - 1)] : 0;
}

/* Object id's if its bytes include addr, or NULL. */
static inline struct sim_obj *in_obj(int id, uintptr_t addr)
{
	struct sim_obj *o = obj_by_id(id);

	return addr - o->start < (o->size ? o->size : 1) ? o : NULL;
}

/* The object whose granule holds addr and whose bytes include it, or NULL. */
static struct sim_obj *lookup(uintptr_t addr)
{
	int id = shadow_id(addr);

	return id ? in_obj(id < 0 ? -id : id, addr) : NULL;
}

static void shadow_set(uintptr_t start, size_t size, int id)
{
	uintptr_t g, last = (start + (size ? size : 1) - 1) >> GRANULE_SHIFT;

	for (g = start >> GRANULE_SHIFT; g <= last; g++) {
		int **page = shadow_slot(g << GRANULE_SHIFT, true);

		if (!*page) {
			if (!(*page = calloc(1u << SHADOW_SHIFT, sizeof(**page))))
				abort();
			made_note(page);
		}
		(*page)[g & ((1u << SHADOW_SHIFT) - 1)] = id;
		freed_mark(g, id < 0);
	}
}

void sim_slab_init(void)
{
	next_obj_id = 0;
	nlive = 0;
	sim_slab_nfreed = 0;
	if (charged)
		memset(charged, 0, charged_cap * sizeof(*charged));
	charged_n = 0;
}

/* A snapshot keeps the slots this run filled and what is in them. */
static size_t tables_save(void *buf, size_t room)
{
	size_t need = made.n * 2 * sizeof(void *), i;
	void **v = buf;

	if (need <= room)
		for (i = 0; i < made.n; i++) {
			v[2 * i] = made.v[i];
			v[2 * i + 1] = *(void **)made.v[i];
		}
	return need;
}

static void tables_restore(const void *buf, size_t len)
{
	void *const *v = buf;
	size_t i;

	for (i = 0; i < len / (2 * sizeof(void *)); i++)
		*(void **)v[2 * i] = v[2 * i + 1];
}

int sim_slab_regions(struct sim_region *r, int max)
{
	int n = 0;

	if (n < max)
		r[n++] = (struct sim_region){ (char *)shadow, (char *)shadow + sizeof(shadow), 1, "the slab's shadow",
					      tables_save, tables_restore };
#ifdef SIM_FREED_MAPS
	if (n < max)
		r[n++] = (struct sim_region){ (char *)sim_freed_map, (char *)sim_freed_map + sizeof(sim_freed_map), 1,
					      "KASAN's freed maps", NULL, NULL };
#endif
	return n;
}

/* Frees every object's memory (a freed object's is in the quarantine) and the shadow. */
void sim_slab_fini(void)
{
	size_t i;
	int id;

	for (id = 1; id <= next_obj_id; id++)
		free((void *)obj_by_id(id)->start);
	made_free();	/* the shadow's pages, its directory's parts, the freed maps */
	for (i = 0; i < nblocks; i++)
		free(blocks[i]);
	free(blocks);
	free(charged);
	blocks = NULL;
	charged = NULL;
	nblocks = charged_cap = 0;
	sim_slab_init();
}

unsigned long sim_live_objects(void)
{
	return nlive;
}

static struct sim_obj *find(const volatile void *p)
{
	struct sim_obj *o = lookup((uintptr_t)p);

	return o && !o->freed ? o : NULL;
}

static struct sim_obj *find_freed(uintptr_t addr)
{
	int id = shadow_id(addr);

	return id < 0 ? in_obj(-id, addr) : NULL;
}

/* The freed object an access of [addr, addr + size) touches, if any. */
const struct sim_obj *sim_slab_freed_at(uintptr_t addr, size_t size)
{
	const struct sim_obj *o;

	if (!sim_slab_nfreed)
		return NULL;
	o = find_freed(addr + size - 1);
	if (o || !((addr ^ (addr + size - 1)) >> GRANULE_SHIFT))
		return o;	/* found, or one granule: looked up already */
	return find_freed(addr);
}

int sim_obj_span(const void *addr, uintptr_t *start, size_t *size)
{
	struct sim_obj *o = find(addr);

	*start = o ? o->start : 0;
	*size = o ? o->size : 0;
	return o ? o->id : 0;
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

void *sim_alloc_memcg(void)
{
	return sim_current ? sim_current->active_memcg : NULL;
}

void sim_slab_recharge(void *from, void *to)
{
	struct charged *c;
	int id, last = 0;

	if (!from || from == to)
		return;
	c = charged_of(from);
	if (!c->first)
		return;
	/* from's objects are to's now: each renamed, then the list put before to's */
	for (id = c->first; id; id = obj_by_id(id)->memcg_next) {
		obj_by_id(id)->memcg = to;
		last = id;
	}
	id = c->first;
	c->first = 0;
	if (!to) {
		/* uncharged: on no list */
		while (id) {
			struct sim_obj *o = obj_by_id(id);

			id = o->memcg_next;
			o->memcg_next = o->memcg_prev = 0;
		}
		return;
	}
	c = charged_of(to);		/* after from's slot: the table may have grown */
	obj_by_id(last)->memcg_next = c->first;
	if (c->first)
		obj_by_id(c->first)->memcg_prev = last;
	c->first = id;
}

static int cpu_node(int cpu)
{
	return cpu * sim_nr_nodes / sim_ncpus;
}

void *sim_kmalloc(unsigned long size, int zero, int node, const struct sim_site *site)
{
	sim_fp_note(&slab_state, 1);
	struct sim_obj *o;
	void *p;

	/* Cache-line aligned, as SLUB's kmalloc caches are for sizes >= 64. */
	p = aligned_alloc(64, size ? (size + 63) & ~(size_t)63 : 64);
	if (!p)
		return NULL;
	sim_fp_note_range((uintptr_t)p, size, 1);
	mm_forget((uintptr_t)p, size, 1);	/* fresh memory: its last owner's history goes */
	if (zero)
		memset(p, 0, size);
	else
		memset(p, 0xcc, size);	/* uninitialised, visibly */
	o = obj_new();
	o->start = (uintptr_t)p;
	o->size = size;
	o->id = next_obj_id;
	o->node = node >= 0 && node < sim_nr_nodes ? node : cpu_node(sim_cpu_id());
	o->memcg = sim_current ? sim_current->active_memcg : NULL;
	if (o->memcg && sim_charge_target)
		o->memcg = sim_charge_target(o->memcg);
	o->alloc_site = sim_site_id(site);
	o->alloc_task = sim_task_id();
	o->free_site = 0;
	o->free_task = -1;
	o->freed = 0;
	nlive++;
	if (o->memcg)
		charge_link(o);
	shadow_set(o->start, size, o->id);
	sim_event(SIM_EV_KMALLOC, site, o->id, (int)size, o->node,
		  o->memcg ? sim_obj_for(SIM_EV_KMALLOC, o->memcg) : 0);
	sim_step(site, SIM_COST_KMALLOC);
	return p;
}

void sim_kfree(const void *p, const struct sim_site *site)
{
	sim_fp_note(&slab_state, 1);
	struct sim_obj *o;

	if (!p)
		return;
	o = find(p);
	if (!o || o->start != (uintptr_t)p) {
		sim_bug(o ? "kfree() of a pointer inside an object" :
			find_freed((uintptr_t)p) ? "double free: kfree() of a freed object" :
			"kfree() of memory that is not allocated", site);
		return;
	}
	/* No longer live; its granules keep its id: quarantined until the run ends. */
	nlive--;
	if (o->memcg)
		charge_unlink(o);
	o->freed = 1;
	sim_slab_nfreed++;
	shadow_set(o->start, o->size, -o->id);
	sim_fp_note_range((uintptr_t)p, o->size, 1);
	mm_forget((uintptr_t)p, o->size, 1);
	memset((void *)p, 0x6b, o->size);
	o->free_site = sim_site_id(site);
	o->free_task = sim_task_id();
	sim_event(SIM_EV_KFREE, site, o->id, (int)o->size, 0, 0);
	sim_step(site, SIM_COST_KFREE);
}
