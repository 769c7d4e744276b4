// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory model (memmodel.h says what it is for; docs/memory-model.md
 * defines it, with its sources and what it cannot do).
 *
 * Locations. A location is a naturally aligned doubleword (8 bytes) of
 * kernel memory, or a runtime object's sync word (a lock, a completion:
 * keyed by its address | 1, never a real doubleword). A location the model
 * tracks has a history: its stores in coherence order, oldest first, each
 * a message with the bytes it wrote (a mask), its writer, the writer's
 * release epoch when it wrote, and the view it carries for an acquire. The
 * oldest message of a location tracked from a plain store is the memory
 * as it was then, seen by every CPU ("initial"). A location every CPU has
 * seen to its newest store is dropped: memory alone says what it holds.
 *
 * Views (relaxed). A view says which stores a CPU must have seen: vc[c] =
 * e covers CPU c's stores made before its e-th release point (a release
 * store, an unlock, smp_wmb(), smp_mb(), a fully ordered RMW, a spawn),
 * and a set of single stores observed (loc, ts). Each CPU has a read view
 * and a write view (smp_rmb() moves only the first), a pending view
 * (what its relaxed loads brought, that smp_rmb() or smp_mb() makes its
 * own), the stores it observed, and its release snapshot, carried by its
 * stores. smp_mb() also joins the global view, which every full barrier
 * reads and writes (the SC fence of Kang et al., POPL 2017). A load may
 * read any message not older than its CPU's floor: the newest message the
 * read view covers, or that the CPU itself read or wrote (coherence).
 *
 * Store buffers (tso). Each CPU has a FIFO of stores not yet in memory;
 * its loads read its own newest buffered store to the location, else
 * memory; a store leaves the buffer for memory (its location's history)
 * in order, when a load of another CPU chooses to see it, or at a fence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime.h"
#include "../footprint.h"
#include "../choice.h"
#include "memmodel.h"

int sim_memory;			/* enum sim_memory_model */
static int hooks_on;		/* sim_memory != sc, or every marked access is a step */
static int marked_steps;
static int nr_cpus;

static const char *const model_names[SIM_NR_MEMORY_MODELS] = SIM_MEMORY_NAMES;

const char *sim_memory_name(int model)
{
	return model >= 0 && model < SIM_NR_MEMORY_MODELS ? model_names[model] : "?";
}

int sim_memory_from_name(const char *name)
{
	int m;

	for (m = 0; m < SIM_NR_MEMORY_MODELS; m++)
		if (!strcmp(name, model_names[m]))
			return m;
	return -1;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

/* ---- each kernel file's copy of the switch ----------------------------- */

static struct {
	int **v;
	int n, cap;
} flags;

void sim_mm_register(int *flag)
{
	if (flags.n == flags.cap) {
		flags.cap = flags.cap ? 2 * flags.cap : 64;
		flags.v = xrealloc(flags.v, flags.cap * sizeof(*flags.v));
	}
	flags.v[flags.n++] = flag;
	*flag = hooks_on;
}

static void set_flags(int on)
{
	int i;

	hooks_on = on;
	for (i = 0; i < flags.n; i++)
		*flags.v[i] = on;
}

/* ---- the model's choices ---------------------------------------------------- */

/*
 * Every choice the model makes is a choice point (choice.h), among n
 * options, 0 the one closest to sequential consistency (the newest store,
 * no reordering): which store a load reads (mem-load), where a store falls
 * among the stores to its location (mem-store), how far another CPU's
 * store buffer has drained (mem-drain); key is the location. The explorer
 * searches them with the scheduler's decisions, a schedule's text replays
 * them; when nobody decides, a run draws them from a stream of its own
 * seeded by the run's seed (so the cost model's and the random policy's
 * streams stay as they are).
 */
enum { MM_CHOICE_LOAD = SIM_CHOICE_MEM_LOAD, MM_CHOICE_STORE = SIM_CHOICE_MEM_STORE,
       MM_CHOICE_DRAIN = SIM_CHOICE_MEM_DRAIN };
static uint64_t choice_rng;
static unsigned long nr_choices;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned mm_choose(int kind, unsigned n, uintptr_t key)
{
	if (n <= 1)
		return 0;
	nr_choices++;
	return (unsigned)sim_choose_or((unsigned)kind, n, NULL, (const void *)(key & ~(uintptr_t)1),
				       (unsigned)(splitmix(&choice_rng) % n));
}

/* ---- views ------------------------------------------------------------------- */

struct mm_ent {
	uint32_t loc;		/* location id */
	int32_t cpu;		/* the store's writer and its epoch: covered once vc[cpu] > epoch */
	uint32_t epoch;
	uint64_t ts;
};

struct mm_view {
	int refs;		/* shared snapshots; 0: a CPU's own */
	int n, cap;
	struct mm_ent *set;
	uint32_t vc[];
};

static struct mm_view *view_new(void)
{
	struct mm_view *v = xmalloc(sizeof(*v) + nr_cpus * sizeof(uint32_t));

	v->refs = 0;
	v->n = v->cap = 0;
	v->set = NULL;
	memset(v->vc, 0, nr_cpus * sizeof(uint32_t));
	return v;
}

static void view_free(struct mm_view *v)
{
	if (v) {
		free(v->set);
		free(v);
	}
}

static struct mm_view *view_get(struct mm_view *v)
{
	if (v)
		v->refs++;
	return v;
}

static void view_put(struct mm_view *v)
{
	if (v && --v->refs <= 0)
		view_free(v);
}

static int ent_covered(const struct mm_view *v, const struct mm_ent *e)
{
	return e->cpu < 0 || v->vc[e->cpu] > e->epoch;
}

static void view_clear(struct mm_view *v)
{
	memset(v->vc, 0, nr_cpus * sizeof(uint32_t));
	v->n = 0;
}

/* Add a single store to v, unless v already covers it. */
static void view_add(struct mm_view *v, const struct mm_ent *e)
{
	int i;

	if (ent_covered(v, e))
		return;
	for (i = 0; i < v->n; i++)
		if (v->set[i].loc == e->loc) {
			if (v->set[i].ts < e->ts)
				v->set[i] = *e;
			return;
		}
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->set = xrealloc(v->set, v->cap * sizeof(*v->set));
	}
	v->set[v->n++] = *e;
}

static void view_prune(struct mm_view *v)
{
	int i, j = 0;

	for (i = 0; i < v->n; i++)
		if (!ent_covered(v, &v->set[i]))
			v->set[j++] = v->set[i];
	v->n = j;
}

static void view_join(struct mm_view *d, const struct mm_view *s)
{
	int i, grew = 0;

	if (!s || s == d)
		return;
	for (i = 0; i < nr_cpus; i++)
		if (s->vc[i] > d->vc[i]) {
			d->vc[i] = s->vc[i];
			grew = 1;
		}
	for (i = 0; i < s->n; i++)
		view_add(d, &s->set[i]);
	if (grew)
		view_prune(d);
}

static struct mm_view *view_copy(const struct mm_view *s)
{
	struct mm_view *v = view_new();

	view_join(v, s);
	return v;
}

/* ---- locations ----------------------------------------------------------------- */

struct mm_msg {
	uint64_t ts;
	uint8_t val[8];
	uint8_t mask;		/* the bytes it wrote */
	int8_t cpu;		/* -1: the initial message */
	uint8_t rmw;
	uint8_t plain;
	uint32_t epoch;
	int site;		/* where it was written (a site id) */
	uint32_t event;		/* the log's length when it was written */
	struct mm_view *view;
};

struct mm_loc {
	uintptr_t key;		/* the doubleword's address, or a sync word's address | 1 */
	uint32_t id;
	int sync;
	int n, cap;
	struct mm_msg *msgs;	/* coherence order, oldest first */
	uint64_t *seen;		/* per CPU: the newest message it read or wrote (ts) */
	int capture;		/* a plain store's bytes are still in memory only (msgs[n-1]) */
	uint8_t capture_mask;
	int stale;		/* memory holds another CPU's view of these bytes */
	uint8_t stale_mask;
	uint8_t wmask;		/* the bytes stores have written since it is tracked */
	int buffered;		/* tso: stores waiting in store buffers */
	uint8_t bufmask;	/* tso: the bytes they write */
	int capture_cpu;	/* tso: whose buffer holds the plain store to capture */
	int unsettled;		/* on the settle list */
	struct mm_loc *next;	/* hash chain */
	/* what each CPU has not seen of it, as last recorded for the page (sim_mm_unseen_on) */
	uint64_t *udig;		/* per CPU: a digest of its last record, 0 none */
	uint8_t *uin;		/* per CPU: on that CPU's list of locations to look at again */
	uint16_t *ucnt;		/* per CPU: the count of its last record */
	int udirty;		/* on the list of locations changed since the last event */
};

/* The page's "not yet seen" (below): what changed since the last event. */
static void unseen_loc_changed(struct mm_loc *l);
static void unseen_cpu_changed(int cpu);
static void unseen_loc_gone(struct mm_loc *l);
static void unseen_name(uintptr_t addr, int size, const struct sim_site *site);

static struct {
	struct mm_loc **b;
	size_t nb, n;
} table;

static struct mm_loc **by_id;	/* location id -> location (NULL once dropped) */
static uint32_t next_id, by_id_cap;
static uint64_t clock_ts;	/* the newest append's timestamp */
#define TS_GAP (1ULL << 20)	/* room for stores placed between two others */

static size_t bucket(uintptr_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (table.nb - 1);
}

static struct mm_loc *loc_find(uintptr_t key)
{
	struct mm_loc *l;

	if (!table.n)
		return NULL;
	for (l = table.b[bucket(key)]; l; l = l->next)
		if (l->key == key)
			return l;
	return NULL;
}

static void table_grow(void)
{
	struct mm_loc **old = table.b;
	size_t i, nb = table.nb;

	table.nb = nb ? 2 * nb : 1024;
	table.b = calloc(table.nb, sizeof(*table.b));
	if (!table.b)
		abort();
	for (i = 0; i < nb; i++) {
		struct mm_loc *l = old[i], *next;

		for (; l; l = next) {
			size_t k = bucket(l->key);

			next = l->next;
			l->next = table.b[k];
			table.b[k] = l;
		}
	}
	free(old);
}

static struct mm_msg *msg_append(struct mm_loc *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->msgs = xrealloc(l->msgs, l->cap * sizeof(*l->msgs));
	}
	memset(&l->msgs[l->n], 0, sizeof(l->msgs[0]));
	return &l->msgs[l->n++];
}

/*
 * The doubleword's bytes as memory has them. Its bytes around the ones
 * kernel code accesses may be another object's or padding (redzones to the
 * native build's AddressSanitizer): read past its checks; only the bytes
 * kernel code accessed are ever used or written back.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
__attribute__((no_sanitize("address")))
#endif
#endif
static void mem_read8(uintptr_t dw, uint8_t *out)
{
	const volatile uint8_t *p = (const volatile uint8_t *)dw;
	int b;

	for (b = 0; b < 8; b++)
		out[b] = p[b];
}

/* A new location; for a doubleword, its initial message is memory as it is. */
static struct mm_loc *loc_new(uintptr_t key, int sync)
{
	struct mm_loc *l = calloc(1, sizeof(*l));
	struct mm_msg *m;

	if (!l)
		abort();
	if (table.n + 1 > table.nb)
		table_grow();
	l->key = key;
	l->sync = sync;
	l->id = ++next_id;
	l->seen = calloc(nr_cpus, sizeof(*l->seen));
	if (!l->seen)
		abort();
	if (sim_mm_unseen_on && !sync) {
		l->udig = calloc(nr_cpus, sizeof(*l->udig));
		l->uin = calloc(nr_cpus, sizeof(*l->uin));
		l->ucnt = calloc(nr_cpus, sizeof(*l->ucnt));
		if (!l->udig || !l->uin || !l->ucnt)
			abort();
	}
	m = msg_append(l);
	m->cpu = -1;
	m->mask = 0xff;
	m->ts = 0;
	if (!sync)
		mem_read8(key, m->val);
	l->next = table.b[bucket(key)];
	table.b[bucket(key)] = l;
	table.n++;
	if (l->id >= by_id_cap) {
		by_id_cap = by_id_cap ? 2 * by_id_cap : 1024;
		while (by_id_cap <= l->id)
			by_id_cap *= 2;
		by_id = xrealloc(by_id, by_id_cap * sizeof(*by_id));
	}
	by_id[l->id] = l;
	return l;
}

static void loc_unlink(struct mm_loc *l)
{
	struct mm_loc **pp = &table.b[bucket(l->key)];

	while (*pp != l)
		pp = &(*pp)->next;
	*pp = l->next;
	table.n--;
	by_id[l->id] = NULL;
	unseen_loc_gone(l);
}

static void loc_free(struct mm_loc *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		view_put(l->msgs[i].view);
	free(l->msgs);
	free(l->seen);
	free(l->udig);
	free(l->uin);
	free(l->ucnt);
	free(l);
}

/* The value of the bytes in mask as of message index i (the newest message at or before it writing each). */
static void compose(const struct mm_loc *l, int i, uint8_t mask, uint8_t *out)
{
	int b, j;

	for (b = 0; b < 8; b++) {
		if (!(mask & (1u << b)))
			continue;
		for (j = i; j > 0 && !(l->msgs[j].mask & (1u << b)); j--)
			;
		out[b] = l->msgs[j].val[b];
	}
}

/* The bytes some store wrote since tracking began (the rest memory alone knows). */
static uint8_t written_mask(const struct mm_loc *l)
{
	return l->wmask | l->bufmask;
}

/* ---- settling memory ----------------------------------------------------------- */

/*
 * Locations whose memory is not their newest value: a plain store's bytes
 * not yet read into its message, or a stale view written for a plain load.
 * Every entry into the model settles them first.
 */
static struct {
	struct mm_loc **v;
	int n, cap;
} unsettled;

static void mark_unsettled(struct mm_loc *l)
{
	if (l->unsettled)
		return;
	l->unsettled = 1;
	if (unsettled.n == unsettled.cap) {
		unsettled.cap = unsettled.cap ? 2 * unsettled.cap : 16;
		unsettled.v = xrealloc(unsettled.v, unsettled.cap * sizeof(*unsettled.v));
	}
	unsettled.v[unsettled.n++] = l;
}

static void tso_capture(struct mm_loc *l);

/* Read a plain store's bytes out of memory into its message. */
static void capture(struct mm_loc *l)
{
	int b;

	if (!l->capture)
		return;
	if (sim_memory == SIM_MEMORY_TSO) {
		tso_capture(l);
	} else {
		struct mm_msg *m = &l->msgs[l->n - 1];

		for (b = 0; b < 8; b++)
			if (l->capture_mask & (1u << b))
				m->val[b] = ((const uint8_t *)l->key)[b];
	}
	l->capture = 0;
	l->capture_mask = 0;
	unseen_loc_changed(l);
}

/* Write the newest value of every byte a store wrote back into memory. */
static void restore(struct mm_loc *l)
{
	uint8_t now[8], mask = written_mask(l);
	int b;

	if (l->sync || !mask)
		return;
	compose(l, l->n - 1, mask, now);
	for (b = 0; b < 8; b++)
		if (mask & (1u << b))
			((uint8_t *)l->key)[b] = now[b];
}

static void settle_one(struct mm_loc *l)
{
	capture(l);
	if (l->stale) {
		restore(l);
		l->stale = 0;
		l->stale_mask = 0;
	}
	l->unsettled = 0;
}

static void settle(void)
{
	if (sim_kcsan_on)
		kcsan_settle();		/* it looks at what the last writes wrote first */
	while (unsettled.n)
		settle_one(unsettled.v[--unsettled.n]);
}

/* ---- per-CPU state --------------------------------------------------------------- */

struct mm_fifo_ent {
	struct mm_loc *loc;
	uint8_t val[8];
	uint8_t mask;
	uint8_t plain;
	int site;
	uint32_t event;
};

struct mm_cpu {
	/* relaxed */
	struct mm_view *read, *write;	/* what loads and stores must respect */
	struct mm_view *pending;	/* what relaxed loads brought, for smp_rmb()/smp_mb() */
	struct mm_view *observed;	/* single stores read from others, for A-cumulativity */
	struct mm_view *rel;		/* the release snapshot this CPU's stores carry */
	uint32_t epoch;
	int before_atomic;		/* smp_mb__before_atomic() waits for the next RMW */
	/* tso */
	struct {
		struct mm_fifo_ent *v;
		int head, n, cap;
	} fifo;
};

static struct mm_cpu cpus[SIM_MAX_CPUS];
static struct mm_view *global;		/* what full barriers have published */
static struct mm_view **spawned;	/* per task: its parent's snapshot at spawn */
static int spawned_cap;

static int this_cpu(void)
{
	return sim_current ? sim_current->cpu : sim_event_cpu;
}

static int site_id(const struct sim_site *site)
{
	return site ? sim_site_id(site) : (sim_current ? sim_current->last_site : 0);
}

/* ---- relaxed --------------------------------------------------------------------- */

/* Whether v covers message i of l (or the CPU saw it: seen). */
static int msg_covered(const struct mm_view *v, const struct mm_loc *l, int i)
{
	const struct mm_msg *m = &l->msgs[i];
	int k;

	if (m->cpu < 0 || v->vc[m->cpu] > m->epoch)
		return 1;
	for (k = 0; k < v->n; k++)
		if (v->set[k].loc == l->id && v->set[k].ts >= m->ts)
			return 1;
	return 0;
}

/* The index of the oldest message cpu may still read (or overwrite) under view v. */
static int floor_index(const struct mm_loc *l, int cpu, const struct mm_view *v)
{
	int i;

	for (i = l->n - 1; i > 0; i--)
		if (l->msgs[i].ts <= l->seen[cpu] || msg_covered(v, l, i))
			return i;
	return 0;
}

static struct mm_ent ent_of(const struct mm_loc *l, int i)
{
	struct mm_ent e = { l->id, l->msgs[i].cpu, l->msgs[i].epoch, l->msgs[i].ts };

	return e;
}

/* A release point: the CPU's stores so far, and (A-cumulative) all it has seen, go with its later stores. */
static void release_point(int cpu, int cumulative)
{
	struct mm_cpu *c = &cpus[cpu];
	struct mm_view *r = view_copy(c->rel);

	if (cumulative) {
		view_join(r, c->read);
		view_join(r, c->write);
		view_join(r, c->observed);
		view_clear(c->observed);
	}
	c->epoch++;
	r->vc[cpu] = c->epoch;
	view_prune(r);
	r->refs = 1;
	view_put(c->rel);
	c->rel = r;
}

static void full_fence(int cpu)
{
	struct mm_cpu *c = &cpus[cpu];

	view_join(c->read, c->write);
	view_join(c->read, c->pending);
	view_join(c->read, c->observed);
	view_join(c->read, global);
	view_clear(c->pending);
	release_point(cpu, 1);
	view_join(c->read, c->rel);
	view_clear(c->write);
	view_join(c->write, c->read);
	view_join(global, c->rel);
	sim_fp_note(&global, 1);
	unseen_cpu_changed(cpu);
}

static void acquire_view(int cpu, const struct mm_view *v, int lock)
{
	struct mm_cpu *c = &cpus[cpu];

	if (!v)
		return;
	view_join(c->read, v);
	view_join(c->write, v);
	unseen_cpu_changed(cpu);
	if (lock) {
		/*
		 * po-unlock-lock-po (linux-kernel.cat): what came before the
		 * unlock reaches every CPU before what follows the lock.
		 */
		struct mm_view *r = view_copy(c->rel);

		view_join(r, v);
		r->refs = 1;
		view_put(c->rel);
		c->rel = r;
	}
}

/* Join into v the views of the messages the bytes of mask come from, as of index i; each noted as observed. */
static void read_sources(struct mm_loc *l, int i, uint8_t mask, int cpu, struct mm_view *v)
{
	int b, j, last = -1;

	for (b = 0; b < 8; b++) {
		if (!(mask & (1u << b)))
			continue;
		for (j = i; j > 0 && !(l->msgs[j].mask & (1u << b)); j--)
			;
		if (j == last)
			continue;
		last = j;
		if (v)
			view_join(v, l->msgs[j].view);
		if (l->msgs[j].cpu >= 0 && l->msgs[j].cpu != cpu) {
			struct mm_ent e = ent_of(l, j);

			view_add(cpus[cpu].observed, &e);
		}
	}
}

static void stale_event(const struct mm_loc *l, int read, int cpu, const struct sim_site *site);

/* Drop the messages of l no CPU can read any more; drop l itself once every CPU has seen its newest. */
static void loc_gc(struct mm_loc *l)
{
	int d, lo = l->n - 1, k;

	if (l->unsettled || l->buffered || (l->n == 1 && l->sync))
		return;
	for (d = 0; d < nr_cpus && lo > 0; d++) {
		int f = floor_index(l, d, cpus[d].read);

		if (!sim_cpus[d].curr && f < lo) {
			int g = floor_index(l, d, global);	/* it will run after a full barrier */

			f = g > f ? g : f;
		}
		if (f < lo)
			lo = f;
	}
	if (lo > 0) {
		uint8_t all[8];

		compose(l, lo, 0xff, all);
		memcpy(l->msgs[lo].val, all, 8);
		l->msgs[lo].mask = 0xff;
		for (k = 0; k < lo; k++)
			view_put(l->msgs[k].view);
		memmove(l->msgs, l->msgs + lo, (l->n - lo) * sizeof(*l->msgs));
		l->n -= lo;
		unseen_loc_changed(l);
	}
	if (l->n == 1 && !l->sync) {
		restore(l);
		loc_unlink(l);
		loc_free(l);
	}
}

static unsigned long appends;

static void gc_sweep(void)
{
	size_t i;

	for (i = 0; i < table.nb && table.n; i++) {
		struct mm_loc *l = table.b[i], *next;

		for (; l; l = next) {
			next = l->next;
			loc_gc(l);
		}
	}
}

static void appended(struct mm_loc *l)
{
	loc_gc(l);
	if (!(++appends & 1023))
		gc_sweep();
}

static uint64_t next_ts(void)
{
	clock_ts += TS_GAP;
	return clock_ts;
}

static uint32_t log_now(void)
{
	return (uint32_t)sim_log_length();
}

static void relaxed_load(struct mm_loc *l, int cpu, uint8_t mask, int order, uint8_t *out,
			 const struct sim_site *site)
{
	struct mm_cpu *c = &cpus[cpu];
	int lo = floor_index(l, cpu, c->read), opts[64], n = 0, i, k;

	for (i = l->n - 1; i >= lo && n < 64; i--)
		if ((l->msgs[i].mask & mask) || i == lo)
			opts[n++] = i;
	k = opts[mm_choose(MM_CHOICE_LOAD, (unsigned)n, l->key)];
	compose(l, k, mask, out);
	if (l->msgs[k].ts > l->seen[cpu])
		l->seen[cpu] = l->msgs[k].ts;
	unseen_loc_changed(l);
	switch (order) {
	case SIM_MM_ACQUIRE:
	case SIM_MM_DEREF: {
		struct mm_view *v = view_new();

		read_sources(l, k, mask, cpu, v);
		acquire_view(cpu, v, 0);
		view_free(v);
		break;
	}
	case SIM_MM_NORET:
		read_sources(l, k, mask, cpu, NULL);
		break;
	default:
		read_sources(l, k, mask, cpu, c->pending);
	}
	if (k != opts[0])
		stale_event(l, opts[0], cpu, site);
}

/* Where a store of cpu to l may go: the end first, then each gap after what it has seen. */
static int relaxed_place(struct mm_loc *l, int cpu, int plain)
{
	int lo = floor_index(l, cpu, cpus[cpu].write), opts[64], n = 0, p;

	opts[n++] = l->n;
	if (!plain)
		for (p = l->n - 1; p > lo && n < 64; p--)
			if (!l->msgs[p].rmw && l->msgs[p].ts - l->msgs[p - 1].ts >= 2)
				opts[n++] = p;
	return opts[mm_choose(MM_CHOICE_STORE, (unsigned)n, l->key)];
}

static struct mm_msg *relaxed_insert(struct mm_loc *l, int cpu, int p)
{
	struct mm_msg *m;
	uint64_t ts = p == l->n ? next_ts() : l->msgs[p - 1].ts + (l->msgs[p].ts - l->msgs[p - 1].ts) / 2;

	msg_append(l);
	memmove(&l->msgs[p + 1], &l->msgs[p], (l->n - 1 - p) * sizeof(*l->msgs));
	m = &l->msgs[p];
	memset(m, 0, sizeof(*m));
	m->ts = ts;
	m->cpu = (int8_t)cpu;
	m->epoch = cpus[cpu].epoch;
	m->event = log_now();
	if (ts > l->seen[cpu])
		l->seen[cpu] = ts;
	unseen_loc_changed(l);
	return m;
}

/*
 * Memory after message i's store: the newest value of each byte it wrote.
 * A store placed before newer ones (relaxed_place()) is still the newest
 * of the bytes none of them writes: a doubleword's later messages may
 * write its other bytes only.
 */
static void write_memory(struct mm_loc *l, int i)
{
	uint8_t now[8];
	int b;

	if (l->sync)
		return;
	compose(l, l->n - 1, l->msgs[i].mask, now);
	for (b = 0; b < 8; b++)
		if (l->msgs[i].mask & (1u << b))
			((uint8_t *)l->key)[b] = now[b];
}

static void relaxed_store(struct mm_loc *l, int cpu, const uint8_t *val, uint8_t mask, int order,
			  const struct sim_site *site)
{
	struct mm_cpu *c = &cpus[cpu];
	struct mm_msg *m;
	int p;

	if (order == SIM_MM_RELEASE)
		release_point(cpu, 1);
	p = relaxed_place(l, cpu, 0);
	m = relaxed_insert(l, cpu, p);
	memcpy(m->val, val, 8);
	m->mask = mask;
	m->site = site_id(site);
	m->view = view_get(c->rel);
	l->wmask |= mask;
	write_memory(l, p);
	appended(l);
}

/* ---- tso --------------------------------------------------------------------------- */

static struct mm_fifo_ent *fifo_at(struct mm_cpu *c, int i)
{
	return &c->fifo.v[(c->fifo.head + i) % c->fifo.cap];
}

static struct mm_fifo_ent *fifo_push(int cpu, struct mm_loc *l)
{
	struct mm_cpu *c = &cpus[cpu];
	struct mm_fifo_ent *e;

	if (c->fifo.n == c->fifo.cap) {
		int cap = c->fifo.cap ? 2 * c->fifo.cap : 16, i;
		struct mm_fifo_ent *v = xmalloc(cap * sizeof(*v));

		for (i = 0; i < c->fifo.n; i++)
			v[i] = *fifo_at(c, i);
		free(c->fifo.v);
		c->fifo.v = v;
		c->fifo.cap = cap;
		c->fifo.head = 0;
	}
	e = fifo_at(c, c->fifo.n++);
	memset(e, 0, sizeof(*e));
	e->loc = l;
	e->event = log_now();
	l->buffered++;
	unseen_loc_changed(l);
	return e;
}

/* The oldest entry of cpu's buffer leaves it for memory. */
static void drain_one(int cpu)
{
	struct mm_cpu *c = &cpus[cpu];
	struct mm_fifo_ent e = *fifo_at(c, 0);
	struct mm_loc *l = e.loc;
	struct mm_msg *m;

	if (l->capture && l->capture_cpu == cpu)
		capture(l);
	e = *fifo_at(c, 0);
	c->fifo.head = (c->fifo.head + 1) % c->fifo.cap;
	c->fifo.n--;
	m = msg_append(l);
	m->ts = next_ts();
	m->cpu = (int8_t)cpu;
	memcpy(m->val, e.val, 8);
	m->mask = e.mask;
	m->plain = e.plain;
	m->site = e.site;
	m->event = e.event;
	l->wmask |= e.mask;
	if (--l->buffered == 0)
		l->bufmask = 0;
	write_memory(l, l->n - 1);
	unseen_loc_changed(l);
	appended(l);
}

static void drain_all(int cpu)
{
	while (cpus[cpu].fifo.n)
		drain_one(cpu);
}

/* The i-th entry of cpu's buffer for l, counting from its newest (-1: none). */
static int fifo_find(int cpu, const struct mm_loc *l, int nth)
{
	struct mm_cpu *c = &cpus[cpu];
	int i;

	for (i = c->fifo.n - 1; i >= 0; i--)
		if (fifo_at(c, i)->loc == l && nth-- == 0)
			return i;
	return -1;
}

static int fifo_count(int cpu, const struct mm_loc *l)
{
	struct mm_cpu *c = &cpus[cpu];
	int i, n = 0;

	for (i = 0; i < c->fifo.n; i++)
		n += fifo_at(c, i)->loc == l;
	return n;
}

/*
 * Before cpu reads l from memory: each other CPU with stores to l in its
 * buffer has drained through its newest (choice 0), an older one, or
 * none. force: through the newest, no choice (a lock word being taken).
 */
static int tso_drain_for(struct mm_loc *l, int cpu, int force)
{
	int d, missed = 0;

	if (!l->buffered)
		return 0;
	for (d = 0; d < nr_cpus; d++) {
		int n, k, i;

		if (d == cpu || !(n = fifo_count(d, l)))
			continue;
		if (n > SIM_CHOICE_MAX - 1)
			n = SIM_CHOICE_MAX - 1;	/* its older stores to l drain with the newest of these */
		k = force ? 0 : (int)mm_choose(MM_CHOICE_DRAIN, (unsigned)n + 1, l->key);
		missed |= k > 0;
		if (k == n)
			continue;
		i = fifo_find(d, l, k);
		while (i-- >= 0)
			drain_one(d);
	}
	return missed;
}

/* cpu's view of l's bytes in mask: its own buffered stores over memory's newest. */
static uint8_t tso_own(struct mm_loc *l, int cpu, uint8_t mask, uint8_t *out)
{
	struct mm_cpu *c = &cpus[cpu];
	uint8_t got = 0;
	int i, b;

	compose(l, l->n - 1, mask, out);
	for (i = c->fifo.n - 1; i >= 0 && (got & mask) != mask; i--) {
		struct mm_fifo_ent *e = fifo_at(c, i);

		if (e->loc != l)
			continue;
		for (b = 0; b < 8; b++)
			if ((mask & e->mask & ~got) & (1u << b))
				out[b] = e->val[b];
		got |= e->mask & mask;
	}
	return got;
}

static void tso_load(struct mm_loc *l, int cpu, uint8_t mask, uint8_t *out, const struct sim_site *site)
{
	uint8_t own[8];

	if ((tso_own(l, cpu, mask, own) & mask) != mask && tso_drain_for(l, cpu, 0))
		stale_event(l, l->n - 1, cpu, site);
	tso_own(l, cpu, mask, out);
}

static void tso_store(struct mm_loc *l, int cpu, const uint8_t *val, uint8_t mask, int plain,
		      const struct sim_site *site)
{
	struct mm_fifo_ent *e = fifo_push(cpu, l);

	if (val)
		memcpy(e->val, val, 8);
	e->mask = mask;
	e->plain = (uint8_t)plain;
	e->site = site_id(site);
	l->bufmask |= mask;
}

static void tso_capture(struct mm_loc *l)
{
	int i = fifo_find(l->capture_cpu, l, 0), b;
	struct mm_fifo_ent *e;

	if (i < 0)
		return;
	e = fifo_at(&cpus[l->capture_cpu], i);
	for (b = 0; b < 8; b++)
		if (l->capture_mask & (1u << b))
			e->val[b] = ((const uint8_t *)l->key)[b];
	unseen_loc_changed(l);
}

/* ---- the stale load's event ------------------------------------------------------------ */

/* cpu read l at site, not the newer store missed (relaxed: its index; tso: in another buffer). */
static void stale_event(const struct mm_loc *l, int missed, int cpu, const struct sim_site *site)
{
	const struct mm_msg *newest = &l->msgs[missed];
	int d;

	if (!sim_event_wanted(SIM_EV_MM_STALE))
		return;
	if (sim_memory == SIM_MEMORY_TSO) {
		/* The newest store it missed is in another CPU's buffer. */
		for (d = 0; d < nr_cpus; d++) {
			int i = d == cpu ? -1 : fifo_find(d, l, 0);

			if (i >= 0) {
				const struct mm_fifo_ent *e = fifo_at(&cpus[d], i);

				sim_event(SIM_EV_MM_STALE, site, l->sync ? 0 : sim_obj_of((const void *)l->key),
					  e->site, d, (int)e->event);
				return;
			}
		}
		return;
	}
	sim_event(SIM_EV_MM_STALE, site, l->sync ? 0 : sim_obj_of((const void *)l->key),
		  newest->site, newest->cpu, (int)newest->event);
}

/* ---- entry points ------------------------------------------------------------------- */

static int plain_on;		/* tso or relaxed: plain accesses reach the model */

/* KASAN's check of a marked access, which the model makes instead of the compiler (kasan.c). */
void sim_kasan_check(uintptr_t addr, size_t size, int write);

/*
 * Whether addr is on a task's stack: a task's own, which only it reads
 * (its frames come and go under the model's feet, the runtime's among
 * them), is never tracked; nor another's, reached through a pointer.
 */
static int on_a_stack(uintptr_t addr)
{
	const struct sim_task *t = sim_current;
	int i;

	if (t && addr - (uintptr_t)t->fiber.stack < t->fiber.stack_size)
		return 1;
	for (i = 0; (t = sim_task_by_id(i)); i++)
		if (t->fiber.stack && addr - (uintptr_t)t->fiber.stack < t->fiber.stack_size)
			return 1;
	return 0;
}

/* The location of a doubleword, tracked from now on; NULL for a stack's. */
static struct mm_loc *loc_get(uintptr_t key)
{
	struct mm_loc *l = loc_find(key);

	if (l)
		return l;
	return on_a_stack(key) ? NULL : loc_new(key, 0);
}

/* The doublewords of [addr, addr + size): each one's address, the mask of its bytes, their offset in the value. */
#define FOR_EACH_PART(addr, size, dw, mask, off)					\
	for (dw = (addr) & ~(uintptr_t)7; dw < (addr) + (size); dw += 8)		\
		if ((mask = part_mask(dw, addr, size, &off)), 1)

static uint8_t part_mask(uintptr_t dw, uintptr_t addr, size_t size, int *off)
{
	uint8_t m = 0;
	int b;

	*off = (int)((intptr_t)dw - (intptr_t)addr);	/* value byte of the doubleword's byte 0 */
	for (b = 0; b < 8; b++)
		if (dw + b >= addr && dw + b < addr + size)
			m |= (uint8_t)(1u << b);
	return m;
}

static void to_value(uint8_t *val, int size, int off, uint8_t mask, const uint8_t *dwbytes)
{
	int b;

	for (b = 0; b < 8; b++)
		if (mask & (1u << b) && off + b >= 0 && off + b < size)
			val[off + b] = dwbytes[b];
}

static void from_value(uint8_t *dwbytes, int size, int off, uint8_t mask, const uint8_t *val)
{
	int b;

	memset(dwbytes, 0, 8);
	for (b = 0; b < 8; b++)
		if (mask & (1u << b) && off + b >= 0 && off + b < size)
			dwbytes[b] = val[off + b];
}

static void marked_step(const struct sim_site *site)
{
	if (marked_steps)
		sim_step(site, SIM_COST_NONE);
}

void sim_mm_load(const volatile void *p, void *val, int size, int order, const struct sim_site *site)
{
	uintptr_t addr = (uintptr_t)p, dw;
	uint8_t mask, buf[8];
	int off, cpu;

	if (sim_kcsan_on && sim_current) {
		kcsan_settle();
		kcsan_marked(addr, size, 0, site);
		if (order == SIM_MM_ACQUIRE || order == SIM_MM_DEREF)
			kcsan_acquire(addr, sim_current->cpu);
		else
			kcsan_acquire_later(addr, sim_current->cpu);
	}
	if (!sim_current || sim_memory == SIM_MEMORY_SC) {
		sim_kasan_check(addr, size, 0);	/* what the compiler's check would have done */
		memcpy(val, (const void *)p, size);
		marked_step(site);
		return;
	}
	settle();
	sim_kasan_check(addr, size, 0);
	unseen_name(addr, size, site);
	cpu = this_cpu();
	FOR_EACH_PART(addr, size, dw, mask, off) {
		struct mm_loc *l = loc_find(dw);

		if (!l) {
			mem_read8(dw, buf);	/* untracked: every CPU has seen it */
		} else if (sim_memory == SIM_MEMORY_TSO) {
			tso_load(l, cpu, mask, buf, site);
		} else {
			relaxed_load(l, cpu, mask, order, buf, site);
		}
		to_value(val, size, off, mask, buf);
	}
	marked_step(site);
}

void sim_mm_store(volatile void *p, const void *val, int size, int order, const struct sim_site *site)
{
	uintptr_t addr = (uintptr_t)p, dw;
	uint8_t mask, buf[8];
	int off, cpu, released = 0;

	if (sim_kcsan_on && sim_current) {
		kcsan_settle();
		kcsan_marked(addr, size, 1, site);
		if (order == SIM_MM_RELEASE)
			kcsan_release(addr, sim_current->cpu, 0);
		else
			kcsan_store(addr, sim_current->cpu, 0);
	}
	if (!sim_current || sim_memory == SIM_MEMORY_SC) {
		sim_kasan_check(addr, size, 1);
		memcpy((void *)p, val, size);
		marked_step(site);
		return;
	}
	settle();
	sim_kasan_check(addr, size, 1);
	unseen_name(addr, size, site);
	cpu = this_cpu();
	FOR_EACH_PART(addr, size, dw, mask, off) {
		struct mm_loc *l = loc_get(dw);
		int b;

		from_value(buf, size, off, mask, val);
		if (!l) {
			for (b = 0; b < 8; b++)
				if (mask & (1u << b))
					((uint8_t *)dw)[b] = buf[b];
			continue;
		}
		if (sim_memory == SIM_MEMORY_TSO)
			tso_store(l, cpu, buf, mask, 0, site);
		else
			relaxed_store(l, cpu, buf, mask, released ? SIM_MM_ONCE : order, site);
		released = 1;
	}
	marked_step(site);
}

/* The read-modify-write being made (nothing runs between its two halves). */
static struct {
	uintptr_t addr;
	int size;
	struct mm_view *read_view;	/* the views of the messages it read */
} rmw;

void sim_mm_rmw_begin(volatile void *p, void *val, int size, int order, const struct sim_site *site)
{
	uintptr_t addr = (uintptr_t)p, dw;
	uint8_t mask, buf[8];
	int off, cpu;

	if (sim_kcsan_on && sim_current) {
		kcsan_settle();
		kcsan_marked(addr, size, 1, site);
	}
	if (!sim_current || sim_memory == SIM_MEMORY_SC) {
		sim_kasan_check(addr, size, 1);
		memcpy(val, (const void *)p, size);
		return;
	}
	settle();
	sim_kasan_check(addr, size, 1);
	unseen_name(addr, size, site);
	cpu = this_cpu();
	if (sim_memory == SIM_MEMORY_TSO)
		drain_all(cpu);		/* a locked instruction */
	rmw.addr = addr;
	rmw.size = size;
	rmw.read_view = view_new();
	FOR_EACH_PART(addr, size, dw, mask, off) {
		struct mm_loc *l = loc_get(dw);

		if (!l) {
			mem_read8(dw, buf);
			to_value(val, size, off, mask, buf);
			continue;
		}
		if (sim_memory == SIM_MEMORY_TSO && tso_drain_for(l, cpu, 0))
			stale_event(l, l->n - 1, cpu, site);
		compose(l, l->n - 1, mask, buf);
		if (sim_memory == SIM_MEMORY_RELAXED) {
			if (l->msgs[l->n - 1].ts > l->seen[cpu])
				l->seen[cpu] = l->msgs[l->n - 1].ts;
			unseen_loc_changed(l);
			read_sources(l, l->n - 1, mask, cpu, rmw.read_view);
		}
		to_value(val, size, off, mask, buf);
	}
}

void sim_mm_rmw_end(volatile void *p, const void *val, int size, int order, int wrote,
		    const struct sim_site *site)
{
	uintptr_t addr = (uintptr_t)p, dw;
	uint8_t mask, buf[8];
	int off, cpu;
	struct mm_cpu *c;

	if (sim_kcsan_on && sim_current)
		kcsan_rmw(addr, sim_current->cpu, order, wrote);
	if (!sim_current || sim_memory == SIM_MEMORY_SC) {
		if (wrote)
			memcpy((void *)p, val, size);
		return;
	}
	cpu = this_cpu();
	c = &cpus[cpu];
	if (sim_memory == SIM_MEMORY_RELAXED) {
		if (!wrote) {
			/* A failed cmpxchg: a read, with no ordering. */
			if (order != SIM_MM_NORET)
				view_join(c->pending, rmw.read_view);
			goto out;
		}
		if (order == SIM_MM_FULL || c->before_atomic)
			full_fence(cpu);
		if (order == SIM_MM_RELEASE || order == SIM_MM_ACQ_REL)
			release_point(cpu, 1);
	}
	c->before_atomic = 0;
	if (!wrote)
		goto out;
	FOR_EACH_PART(addr, size, dw, mask, off) {
		struct mm_loc *l = loc_get(dw);
		struct mm_msg *m;
		int b;

		from_value(buf, size, off, mask, val);
		if (!l) {
			for (b = 0; b < 8; b++)
				if (mask & (1u << b))
					((uint8_t *)dw)[b] = buf[b];
			continue;
		}
		m = sim_memory == SIM_MEMORY_TSO ? msg_append(l) : relaxed_insert(l, cpu, l->n);
		if (sim_memory == SIM_MEMORY_TSO) {
			m->ts = next_ts();
			m->cpu = (int8_t)cpu;
			m->event = log_now();
		} else {
			struct mm_view *v = view_copy(c->rel);

			view_join(v, rmw.read_view);	/* a release sequence goes on through RMWs */
			v->refs = 1;
			m->view = v;
		}
		memcpy(m->val, buf, 8);
		m->mask = mask;
		m->rmw = 1;
		m->site = site_id(site);
		l->wmask |= mask;
		write_memory(l, l->n - 1);
		appended(l);
	}
	if (sim_memory == SIM_MEMORY_RELAXED) {
		if (order == SIM_MM_FULL)
			full_fence(cpu);
		else if (order == SIM_MM_ACQUIRE || order == SIM_MM_ACQ_REL)
			acquire_view(cpu, rmw.read_view, 0);
		else if (order == SIM_MM_ONCE)
			view_join(c->pending, rmw.read_view);
	}
out:
	view_free(rmw.read_view);
	rmw.read_view = NULL;
}

void sim_mm_fence(int kind, const struct sim_site *site)
{
	int cpu;

	(void)site;
	if (sim_kcsan_on && sim_current)
		kcsan_fence(sim_current->cpu, kind);
	if (!sim_current || sim_memory == SIM_MEMORY_SC)
		return;
	settle();
	cpu = this_cpu();
	if (sim_memory == SIM_MEMORY_TSO) {
		if (kind == SIM_MM_MB)
			drain_all(cpu);		/* MFENCE; the rest are compiler barriers on x86 */
		return;
	}
	switch (kind) {
	case SIM_MM_MB:
	case SIM_MM_AFTER_ATOMIC:
	case SIM_MM_AFTER_SPINLOCK:
		full_fence(cpu);
		break;
	case SIM_MM_RMB:
		view_join(cpus[cpu].read, cpus[cpu].pending);
		unseen_cpu_changed(cpu);
		break;
	case SIM_MM_WMB:
		release_point(cpu, 0);
		break;
	case SIM_MM_BEFORE_ATOMIC:
		cpus[cpu].before_atomic = 1;
		break;
	}
}

/* ---- the runtime's side ------------------------------------------------------------------ */

void mm_plain(uintptr_t addr, size_t size, int write)
{
	uintptr_t dw;
	uint8_t mask, buf[8];
	int off, cpu, b;

	if (!plain_on || !sim_current)
		return;
	settle();
	cpu = sim_current->cpu;
	FOR_EACH_PART(addr, size, dw, mask, off) {
		struct mm_loc *l = loc_find(dw);

		(void)off;
		if (write) {
			if (!l && !(l = loc_get(dw)))
				continue;
			if (sim_memory == SIM_MEMORY_TSO) {
				tso_store(l, cpu, NULL, mask, 1, NULL);
				l->capture_cpu = cpu;
				l->stale = 1;	/* memory shows the drained value once the store is in the buffer */
			} else {
				struct mm_msg *m = relaxed_insert(l, cpu, l->n);

				m->mask = mask;
				m->plain = 1;
				m->site = site_id(NULL);
				m->view = view_get(cpus[cpu].rel);
				l->wmask |= mask;
			}
			l->capture = 1;
			l->capture_mask = mask;
			mark_unsettled(l);
			continue;
		}
		if (!l)
			continue;
		mask &= written_mask(l);
		if (!mask)
			continue;
		if (sim_memory == SIM_MEMORY_TSO) {
			tso_own(l, cpu, mask, buf);
		} else {
			int k = floor_index(l, cpu, cpus[cpu].read);

			if (k == l->n - 1)
				continue;
			compose(l, k, mask, buf);
		}
		for (b = 0; b < 8; b++)
			if (mask & (1u << b) && ((uint8_t *)dw)[b] != buf[b]) {
				((uint8_t *)dw)[b] = buf[b];
				l->stale = 1;
			}
		if (l->stale) {
			l->stale_mask |= mask;
			mark_unsettled(l);
			if (sim_memory == SIM_MEMORY_RELAXED) {
				int i;

				for (i = l->n - 1; i > 0 && !(l->msgs[i].mask & mask); i--)
					;
				stale_event(l, i, cpu, sim_site_at(sim_current->last_site));
			}
		}
	}
}

void *mm_copy(void *dst, const void *src, size_t n)
{
	uint8_t small[256], *tmp = n <= sizeof(small) ? small : xmalloc(n);

	settle();
	mm_plain((uintptr_t)src, n, 0);
	memcpy(tmp, src, n);
	settle();
	mm_plain((uintptr_t)dst, n, 1);
	memcpy(dst, tmp, n);
	settle();
	if (tmp != small)
		free(tmp);
	return dst;
}

static void forget_loc(struct mm_loc *l)
{
	uintptr_t key;
	int d;

	if (!l)
		return;
	key = l->key;
	settle_one(l);
	for (d = 0; d < nr_cpus && l->buffered; d++) {
		int i = fifo_find(d, l, 0);

		while (i-- >= 0)
			drain_one(d);
	}
	if (!(l = loc_find(key)))
		return;		/* the drain dropped it */
	restore(l);
	loc_unlink(l);
	loc_free(l);
}

void mm_forget(uintptr_t addr, size_t size, int sync)
{
	uintptr_t dw;

	if (sim_kcsan_on && sync)
		kcsan_forget(addr, size);	/* memory born or dead */
	if (!plain_on || !table.n)
		return;
	settle();
	for (dw = addr & ~(uintptr_t)7; dw < addr + size && table.n; dw += 8) {
		forget_loc(loc_find(dw));
		if (sync) {
			forget_loc(loc_find(dw | 1));
			forget_loc(loc_find((dw + 4) | 1));
		}
	}
}

static struct mm_loc *sync_loc(const void *obj)
{
	uintptr_t key = (uintptr_t)obj | 1;
	struct mm_loc *l = loc_find(key);

	return l ? l : loc_new(key, 1);
}

static void sync_append(struct mm_loc *l, int cpu, int value, int rmw, struct mm_view *view)
{
	struct mm_msg *m = sim_memory == SIM_MEMORY_TSO ? msg_append(l) : relaxed_insert(l, cpu, l->n);

	if (sim_memory == SIM_MEMORY_TSO) {
		m->ts = next_ts();
		m->cpu = (int8_t)cpu;
		m->event = log_now();
	}
	m->val[0] = (uint8_t)value;
	m->mask = 1;
	m->rmw = (uint8_t)rmw;
	m->site = site_id(NULL);
	m->view = view;
	appended(l);
}

void mm_acquire(const void *obj, int kind)
{
	struct mm_loc *l;
	int cpu;

	if (sim_kcsan_on && sim_current)
		kcsan_acquire((uintptr_t)obj | 1, sim_current->cpu);
	if (!plain_on || !sim_current)
		return;
	settle();
	cpu = this_cpu();
	l = sync_loc(obj);
	if (sim_memory == SIM_MEMORY_TSO) {
		if (kind & MM_SYNC_RMW)
			drain_all(cpu);
		tso_drain_for(l, cpu, 1);	/* it reads the release it waited for */
		if (kind & MM_SYNC_RMW)
			sync_append(l, cpu, 1, 1, NULL);
		return;
	} else {
		struct mm_view *v = view_get(l->msgs[l->n - 1].view);

		if (l->msgs[l->n - 1].ts > l->seen[cpu])
			l->seen[cpu] = l->msgs[l->n - 1].ts;
		acquire_view(cpu, v, kind & MM_SYNC_LOCK);
		if (kind & MM_SYNC_RMW) {
			struct mm_view *w = view_copy(cpus[cpu].rel);

			view_join(w, v);
			w->refs = 1;
			sync_append(l, cpu, 1, 1, w);
		}
		view_put(v);
	}
}

void mm_release(const void *obj, int kind)
{
	struct mm_loc *l;
	int cpu;

	if (sim_kcsan_on && sim_current)
		kcsan_release((uintptr_t)obj | 1, sim_current->cpu, kind & MM_SYNC_RMW);
	if (!plain_on || !sim_current)
		return;
	settle();
	cpu = this_cpu();
	l = sync_loc(obj);
	if (sim_memory == SIM_MEMORY_TSO) {
		uint8_t zero[8] = { 0 };

		if (kind & MM_SYNC_RMW) {
			drain_all(cpu);
			sync_append(l, cpu, 0, 1, NULL);
		} else {
			tso_store(l, cpu, zero, 1, 0, NULL);	/* x86's unlock is a plain store */
		}
		return;
	}
	release_point(cpu, 1);
	{
		struct mm_view *w = view_copy(cpus[cpu].rel);

		if (kind & MM_SYNC_RMW)
			view_join(w, l->msgs[l->n - 1].view);
		w->refs = 1;
		sync_append(l, cpu, 0, kind & MM_SYNC_RMW, w);
	}
}

int mm_lock_word(const void *obj, int held_now)
{
	struct mm_loc *l;
	uint8_t buf[8];
	int cpu;

	if (!plain_on || !sim_current)
		return held_now;
	settle();
	cpu = this_cpu();
	l = sync_loc(obj);
	if (sim_memory == SIM_MEMORY_TSO)
		tso_load(l, cpu, 1, buf, NULL);
	else
		relaxed_load(l, cpu, 1, SIM_MM_ONCE, buf, NULL);
	return buf[0] != 0;
}

void mm_fence_cpu(int cpu)
{
	if (!plain_on || cpu < 0 || cpu >= nr_cpus)
		return;
	settle();
	if (sim_memory == SIM_MEMORY_TSO)
		drain_all(cpu);
	else
		full_fence(cpu);
}

/* The race detector's key for a task's start: an odd number below any address. */
#define TASK_KEY(task)	(((uintptr_t)(task) << 1) | 1)

void mm_task_spawn(int task)
{
	int cpu;

	if (sim_kcsan_on && task >= 0)
		kcsan_release(TASK_KEY(task), this_cpu(), 0);
	if (!plain_on || task < 0)
		return;
	settle();
	cpu = this_cpu();
	if (sim_memory == SIM_MEMORY_TSO) {
		drain_all(cpu);
		return;
	}
	release_point(cpu, 1);
	if (task >= spawned_cap) {
		int cap = spawned_cap ? 2 * spawned_cap : 64, i;

		while (cap <= task)
			cap *= 2;
		spawned = xrealloc(spawned, cap * sizeof(*spawned));
		for (i = spawned_cap; i < cap; i++)
			spawned[i] = NULL;
		spawned_cap = cap;
	}
	view_put(spawned[task]);
	spawned[task] = view_get(cpus[cpu].rel);
}

void mm_task_start(int task, int cpu)
{
	if (sim_kcsan_on)
		kcsan_acquire(TASK_KEY(task), cpu);
	if (!plain_on)
		return;
	settle();
	if (sim_memory == SIM_MEMORY_RELAXED && task >= 0 && task < spawned_cap && spawned[task]) {
		acquire_view(cpu, spawned[task], 0);
		view_put(spawned[task]);
		spawned[task] = NULL;
	}
}

int mm_unseen(int cpu)
{
	size_t i;
	int n = 0;

	if (!plain_on)
		return 0;
	for (i = 0; i < table.nb; i++) {
		const struct mm_loc *l;

		for (l = table.b[i]; l; l = l->next) {
			int k;

			if (l->sync)
				continue;
			if (sim_memory == SIM_MEMORY_TSO) {
				int d;

				for (d = 0; d < nr_cpus; d++)
					if (d != cpu)
						n += fifo_count(d, l);
				continue;
			}
			for (k = floor_index(l, cpu, cpus[cpu].read) + 1; k < l->n; k++)
				n += l->msgs[k].cpu != cpu;
		}
	}
	return n;
}

/* ---- what each CPU has not yet seen (the page's view) ------------------------------------- */

/*
 * For the page: at each event, for each CPU, the locations of kernel
 * memory whose newest store it has not seen, how many of the other CPUs'
 * stores to each it has not seen, what it may still read and what the
 * newest store wrote. Kept as changes: a record when a (CPU, location)
 * pair's state changes, made as the next event is logged, so that the
 * page rebuilds the state at any event from the records before it and
 * the event log stays as it is. The model marks what it changes (a
 * location's history or store buffers, a CPU's view); at the next event
 * only those are looked at again. Nothing here changes the model's state.
 */
int sim_mm_unseen_on;
uint32_t sim_mm_unseen_from;

static struct {
	struct sim_unseen *v;
	size_t n, cap;
	int resolved;			/* name holds site ids, not name-table indices */
	const struct sim_site **names;	/* the sites naming locations, by index + 1 in name */
	int nnames, capnames;
	struct mm_loc **dirty;		/* locations changed since the last event */
	int ndirty, capdirty;
	uint32_t *list[SIM_MAX_CPUS];	/* per CPU: the ids of locations it may have a record for */
	int nlist[SIM_MAX_CPUS], caplist[SIM_MAX_CPUS];
	int live;			/* past sim_mm_unseen_from: kept up to date */
	uint64_t cpus_changed;		/* CPUs whose view grew since the last event (bit per CPU < 64) */
	int all_cpus_changed;		/* ... or, past 64 CPUs, every CPU */
} uns;

/*
 * The last marked access to each doubleword with a named argument: a
 * direct-mapped cache, lossy; allocated only for a run that keeps this
 * (the explorer's snapshots copy static data).
 */
#define UNSEEN_NAMES 4096
static struct uname_ent {
	uintptr_t dw;
	int name;		/* index + 1 in uns.names */
	uint8_t off, size;
} *uname;

static void *grow(void *v, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return v;
	*cap = *cap ? 2 * *cap : 64;
	while (*cap < need)
		*cap *= 2;
	return xrealloc(v, (size_t)*cap * size);
}

static size_t uname_slot(uintptr_t dw)
{
	return (size_t)(((uint64_t)dw * 0x9e3779b97f4a7c15ULL) >> 40) & (UNSEEN_NAMES - 1);
}

static int name_index(const struct sim_site *site)
{
	int i;

	/* Few sites name locations; the last ones come back most. */
	for (i = uns.nnames - 1; i >= 0; i--)
		if (uns.names[i] == site)
			return i + 1;
	uns.names = grow(uns.names, &uns.capnames, uns.nnames + 1, sizeof(*uns.names));
	uns.names[uns.nnames++] = site;
	return uns.nnames;
}

/* A marked access to [addr, addr + size) at site: its expression names the doubleword it starts in. */
static void unseen_name(uintptr_t addr, int size, const struct sim_site *site)
{
	uintptr_t dw = addr & ~(uintptr_t)7;
	size_t k;
	int off = (int)(addr - dw);

	if (!sim_mm_unseen_on || !uname || !site || !site->expr)
		return;
	k = uname_slot(dw);
	if (uname[k].dw != dw || !uname[k].name || uns.names[uname[k].name - 1] != site) {
		struct mm_loc *l = loc_find(dw);

		uname[k].dw = dw;
		uname[k].name = name_index(site);
		if (l)
			unseen_loc_changed(l);
	}
	uname[k].off = (uint8_t)off;
	uname[k].size = (uint8_t)(size < 8 - off ? size : 8 - off);
}

static void unseen_loc_changed(struct mm_loc *l)
{
	if (!l->udig || l->udirty || !uns.live)
		return;
	uns.dirty = grow(uns.dirty, &uns.capdirty, uns.ndirty + 1, sizeof(*uns.dirty));
	uns.dirty[uns.ndirty++] = l;
	l->udirty = 1;
}

static void unseen_cpu_changed(int cpu)
{
	if (!sim_mm_unseen_on || !uns.live)
		return;
	if (cpu < 64)
		uns.cpus_changed |= 1ULL << cpu;
	else
		uns.all_cpus_changed = 1;
}

static struct sim_unseen *unseen_record(void)
{
	if (uns.n == uns.cap) {
		uns.cap = uns.cap ? 2 * uns.cap : 1024;
		uns.v = xrealloc(uns.v, uns.cap * sizeof(*uns.v));
	}
	memset(&uns.v[uns.n], 0, sizeof(uns.v[0]));
	return &uns.v[uns.n++];
}

static uint64_t bytes_value(const uint8_t *b, int off, int size)
{
	uint64_t v = 0;
	int i;

	for (i = size - 1; i >= 0; i--)
		v = v << 8 | b[off + i];
	return v;
}

static int32_t pointee(uint64_t v, int size)
{
	if (size != (int)sizeof(void *) || !v || (uintptr_t)v != v)
		return 0;
	return sim_obj_of((const void *)(uintptr_t)v);
}

/* What cpu has not seen of l now (count 0: nothing); the bytes from memory where a plain store's are not captured yet. */
static int unseen_state(const struct mm_loc *l, int cpu, struct sim_unseen *r)
{
	uint8_t rd[8] = { 0 }, nw[8] = { 0 }, mask;
	int count = 0, d, b, off = 0, size = 8;
	size_t k;

	if (sim_memory == SIM_MEMORY_TSO) {
		const struct mm_fifo_ent *newest = NULL;
		int nd = -1;

		for (d = 0; d < nr_cpus; d++) {
			struct mm_cpu *c = &cpus[d];
			int i;

			if (d == cpu)
				continue;
			for (i = 0; i < c->fifo.n; i++) {
				const struct mm_fifo_ent *e = fifo_at(c, i);

				if (e->loc != l)
					continue;
				count++;
				if (!newest || e->event >= newest->event) {
					newest = e;
					nd = d;
				}
			}
		}
		if (!count)
			return 0;
		mask = newest->mask;
		tso_own((struct mm_loc *)l, cpu, 0xff, rd);
		memcpy(nw, rd, 8);
		for (b = 0; b < 8; b++)
			if (mask & (1u << b))
				nw[b] = newest->val[b];
		if (l->capture) {
			const uint8_t *mem = (const uint8_t *)l->key;
			int own = fifo_find(l->capture_cpu, l, 0);

			for (b = 0; b < 8; b++) {
				if (!(l->capture_mask & (1u << b)))
					continue;
				if (l->capture_cpu == cpu)
					rd[b] = mem[b];
				else if (l->capture_cpu == nd && own >= 0 && fifo_at(&cpus[nd], own) == newest)
					nw[b] = mem[b];
			}
		}
		r->store_cpu = (int8_t)nd;
		r->store_site = (uint32_t)newest->site;
		r->store_event = newest->event;
	} else {
		int f = floor_index(l, cpu, cpus[cpu].read), i;
		const struct mm_msg *m = &l->msgs[l->n - 1];

		for (i = f + 1; i < l->n; i++)
			count += l->msgs[i].cpu != cpu;
		if (!count)
			return 0;
		mask = m->mask;
		compose(l, f, 0xff, rd);
		compose(l, l->n - 1, 0xff, nw);
		if (l->capture) {
			const uint8_t *mem = (const uint8_t *)l->key;

			for (b = 0; b < 8; b++)
				if (l->capture_mask & (1u << b))
					nw[b] = mem[b];	/* the newest message is the plain store's */
		}
		r->store_cpu = m->cpu;
		r->store_site = (uint32_t)m->site;
		r->store_event = m->event;
	}
	k = uname_slot(l->key);
	if (uname && uname[k].dw == l->key && uname[k].name) {
		r->name = (uint32_t)uname[k].name;
		off = uname[k].off;
		size = uname[k].size;
	} else if (mask && mask != 0xff) {
		int hi = 7;

		while (!(mask & (1u << off)))
			off++;
		while (!(mask & (1u << hi)))
			hi--;
		size = hi - off + 1;
	}
	r->off = (uint8_t)off;
	r->size = (uint8_t)size;
	r->read = bytes_value(rd, off, size);
	r->newest = bytes_value(nw, off, size);
	r->read_obj = pointee(r->read, size);
	r->newest_obj = pointee(r->newest, size);
	r->count = (uint16_t)(count < 0xffff ? count : 0xffff);
	return count;
}

static uint64_t unseen_digest(const struct sim_unseen *r)
{
	const uint8_t *p = (const uint8_t *)r;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < sizeof(*r); i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h | 1;
}

static void unseen_one(struct mm_loc *l, int cpu, uint32_t event)
{
	struct sim_unseen now;
	uint64_t dig;

	memset(&now, 0, sizeof(now));
	dig = unseen_state(l, cpu, &now) ? unseen_digest(&now) : 0;
	if (dig == l->udig[cpu])
		return;
	l->udig[cpu] = dig;
	l->ucnt[cpu] = now.count;
	now.event = event;
	now.loc = l->id;
	now.cpu = (uint8_t)cpu;
	now.obj = sim_obj_of((const void *)l->key);
	*unseen_record() = now;
	if (dig && !l->uin[cpu]) {
		uns.list[cpu] = grow(uns.list[cpu], &uns.caplist[cpu], uns.nlist[cpu] + 1, sizeof(uint32_t));
		uns.list[cpu][uns.nlist[cpu]++] = l->id;
		l->uin[cpu] = 1;
	}
}

/* A location the model drops: every CPU has seen it, or its memory is born or dead. */
static void unseen_loc_gone(struct mm_loc *l)
{
	int c;

	if (!l->udig)
		return;
	for (c = 0; c < nr_cpus; c++)
		if (l->udig[c]) {
			struct sim_unseen *r = unseen_record();

			r->event = log_now();
			r->loc = l->id;
			r->cpu = (uint8_t)c;
			r->obj = sim_obj_of((const void *)l->key);
			l->udig[c] = 0;
			l->ucnt[c] = 0;
		}
	if (l->udirty) {
		int i;

		for (i = 0; i < uns.ndirty; i++)
			if (uns.dirty[i] == l) {
				uns.dirty[i] = uns.dirty[--uns.ndirty];
				break;
			}
		l->udirty = 0;
	}
}

static void unseen_check(uint32_t event)
{
	int c;

	for (c = 0; c < nr_cpus; c++) {
		int n = 0, i;

		for (i = 0; i < uns.nlist[c]; i++) {
			struct mm_loc *l = by_id[uns.list[c][i]];

			if (l && l->udig[c])
				n += l->ucnt[c];
		}
		if (n != mm_unseen(c)) {
			fprintf(stderr, "memmodel: at event %u CPU%d's records count %d unseen stores, the model %d\n",
				event, c, n, mm_unseen(c));
			abort();
		}
	}
}

void mm_unseen_flush(uint32_t event)
{
	int c, i;

	if (!plain_on || !sim_mm_unseen_on)
		return;
	if (!uns.live) {
		size_t b;
		struct mm_loc *l;

		if (event < sim_mm_unseen_from)
			return;
		/* The first event kept: every location, as it is now; from here on, what changes. */
		uns.live = 1;
		for (b = 0; b < table.nb; b++)
			for (l = table.b[b]; l; l = l->next)
				if (l->udig)
					for (c = 0; c < nr_cpus; c++)
						unseen_one(l, c, event);
		return;
	}
	if (!uns.ndirty && !uns.cpus_changed && !uns.all_cpus_changed)
		return;
	for (c = 0; c < nr_cpus; c++) {
		int j = 0;

		if (!uns.all_cpus_changed && !(c < 64 && uns.cpus_changed >> c & 1))
			continue;
		/* Its view grew: each location it had not seen, again; those it has now seen leave its list. */
		for (i = 0; i < uns.nlist[c]; i++) {
			struct mm_loc *l = by_id[uns.list[c][i]];

			if (l && l->udig[c])
				unseen_one(l, c, event);
			if (l && l->udig[c])
				uns.list[c][j++] = l->id;
			else if (l)
				l->uin[c] = 0;
		}
		uns.nlist[c] = j;
	}
	uns.cpus_changed = 0;
	uns.all_cpus_changed = 0;
	while (uns.ndirty) {
		struct mm_loc *l = uns.dirty[--uns.ndirty];

		l->udirty = 0;
		for (c = 0; c < nr_cpus; c++)
			unseen_one(l, c, event);
	}
	if (sim_mm_unseen_on > 1)
		unseen_check(event);
}

const struct sim_unseen *mm_unseen_records(size_t *n)
{
	size_t i;

	if (!uns.resolved) {
		/* Only now: a site given an id during the run would renumber the log's later sites. */
		for (i = 0; i < uns.n; i++)
			if (uns.v[i].name)
				uns.v[i].name = (uint32_t)sim_site_id(uns.names[uns.v[i].name - 1]);
		uns.resolved = 1;
	}
	*n = uns.n;
	return uns.v;
}

static void unseen_reset(int free_all)
{
	int c;

	uns.n = 0;
	uns.live = 0;
	uns.resolved = 0;
	uns.nnames = 0;
	uns.ndirty = 0;
	uns.cpus_changed = 0;
	uns.all_cpus_changed = 0;
	for (c = 0; c < SIM_MAX_CPUS; c++) {
		uns.nlist[c] = 0;
		if (free_all) {
			free(uns.list[c]);
			uns.list[c] = NULL;
			uns.caplist[c] = 0;
		}
	}
	if (uname)
		memset(uname, 0, UNSEEN_NAMES * sizeof(*uname));
	else if (sim_mm_unseen_on && !free_all && !(uname = calloc(UNSEEN_NAMES, sizeof(*uname))))
		abort();
	if (free_all) {
		free(uname);
		uname = NULL;
		free(uns.v);
		free(uns.names);
		free(uns.dirty);
		uns.v = NULL;
		uns.names = NULL;
		uns.dirty = NULL;
		uns.cap = 0;
		uns.capnames = 0;
		uns.capdirty = 0;
	}
}

/* ---- a run ------------------------------------------------------------------------------ */

static void free_state(void)
{
	size_t i;
	int c;

	for (i = 0; i < table.nb; i++) {
		struct mm_loc *l = table.b[i], *next;

		for (; l; l = next) {
			next = l->next;
			loc_free(l);
		}
		table.b[i] = NULL;
	}
	table.n = 0;
	for (c = 0; c < SIM_MAX_CPUS; c++) {
		view_free(cpus[c].read);
		view_free(cpus[c].write);
		view_free(cpus[c].pending);
		view_free(cpus[c].observed);
		view_put(cpus[c].rel);
		free(cpus[c].fifo.v);
		memset(&cpus[c], 0, sizeof(cpus[c]));
	}
	view_free(global);
	global = NULL;
	for (c = 0; c < spawned_cap; c++) {
		view_put(spawned[c]);
		spawned[c] = NULL;
	}
	unsettled.n = 0;
	view_free(rmw.read_view);
	rmw.read_view = NULL;
}

void mm_init(int model, int ncpus, uint64_t seed, int steps)
{
	int c;

	free_state();
	sim_memory = model;
	plain_on = model != SIM_MEMORY_SC;
	marked_steps = steps;
	nr_cpus = ncpus;
	next_id = 0;
	clock_ts = 0;
	appends = 0;
	nr_choices = 0;
	unseen_reset(0);
	choice_rng = seed ^ 0x6d656d6f72790000ULL;	/* "memory" */
	if (plain_on) {
		for (c = 0; c < ncpus; c++) {
			cpus[c].read = view_new();
			cpus[c].write = view_new();
			cpus[c].pending = view_new();
			cpus[c].observed = view_new();
			cpus[c].rel = view_new();
			cpus[c].rel->refs = 1;
		}
		global = view_new();
	}
	set_flags(model != SIM_MEMORY_SC || steps);
}

void mm_run_end(void)
{
	size_t i;
	int c;

	if (!plain_on)
		return;
	settle();
	for (c = 0; c < nr_cpus; c++)
		drain_all(c);
	for (i = 0; i < table.nb; i++) {
		struct mm_loc *l;

		for (l = table.b[i]; l; l = l->next)
			restore(l);
	}
}

void mm_fini(void)
{
	free_state();
	free(table.b);
	table.b = NULL;
	table.nb = 0;
	free(by_id);
	by_id = NULL;
	by_id_cap = 0;
	free(unsettled.v);
	unsettled.v = NULL;
	unsettled.cap = 0;
	free(spawned);
	spawned = NULL;
	spawned_cap = 0;
	unseen_reset(1);
	set_flags(0);
	sim_memory = SIM_MEMORY_SC;
	plain_on = 0;
}
