// SPDX-License-Identifier: GPL-2.0-only
/*
 * The race detector (kcsan.h says what it reports and why).
 *
 * Clocks. Each CPU has a vector clock C (what happened before its next
 * access), a pending one P (what its marked loads read, for the read
 * barrier that follows them) and F (its clock at its last release fence,
 * which its marked stores carry). Each location or sync word that has
 * seen a release has a clock L. A release (unlock, release store, wmb/mb
 * before a marked store, complete(), a spawn, a quiescent state) sets F to
 * C and ticks C; a marked store then sets L to F (a read-modify-write adds
 * F to L: the release sequence goes on); an acquire (lock, acquire load,
 * rcu_dereference(), wait_for_completion(), task start, a grace period's
 * end) adds L to C; a relaxed marked load adds L to P, and smp_rmb() or
 * smp_mb() adds P to C.
 *
 * Shadow. Each doubleword has up to eight accesses: per CPU its last read
 * and its writes (a write drops the accesses it covers and happens after).
 * An access is checked against those of the other CPUs there.
 *
 * Lines. A marked access names its own line; a plain one the last kernel
 * line its task reported (what the wasm build can know, so that reports
 * and their titles are the same in every build), and natively also the
 * line the compiler's debug information gives its address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../runtime.h"
#include "../strbuf.h"
#include "kcsan.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KC_HAVE_SYMBOLIZER 1
#include <sanitizer/common_interface_defs.h>
#endif
#endif

int sim_kcsan_on;
static int nr_cpus;

static uint32_t C[SIM_MAX_CPUS][SIM_MAX_CPUS], P[SIM_MAX_CPUS][SIM_MAX_CPUS], F[SIM_MAX_CPUS][SIM_MAX_CPUS];
static int disabled[SIM_MAX_TASKS];	/* data_race() nesting, per task */

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

static void join(uint32_t *d, const uint32_t *s)
{
	int i;

	for (i = 0; i < nr_cpus; i++)
		if (s[i] > d[i])
			d[i] = s[i];
}

/* ---- hash tables: sync clocks and shadow cells, by address ---------------------- */

struct kc_acc {
	uint8_t mask, write, plain, aligned_write, cpu, changed, pending;
	uint32_t clock;
	int task, site;
	void *pc;
	uintptr_t addr;
	uint32_t size;
	uint8_t old[8];			/* a write: the bytes before it */
};

struct kc_cell {
	uintptr_t key;
	struct kc_cell *next;
	int n;
	struct kc_acc a[8];
};

struct kc_sync {
	uintptr_t key;
	struct kc_sync *next;
	uint32_t vc[];
};

static struct {
	void **b;
	size_t nb, n;
} cells, syncs;

static size_t slot(uintptr_t key, size_t nb)
{
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> 32) & (nb - 1);
}

/* Both tables chain through a "next" right after the key. */
struct kc_node {
	uintptr_t key;
	struct kc_node *next;
};

static struct kc_node *table_find(void *t, uintptr_t key)
{
	struct { void **b; size_t nb, n; } *h = t;
	struct kc_node *e;

	if (!h->n)
		return NULL;
	for (e = h->b[slot(key, h->nb)]; e; e = e->next)
		if (e->key == key)
			return e;
	return NULL;
}

static void table_add(void *t, struct kc_node *e)
{
	struct { void **b; size_t nb, n; } *h = t;
	size_t i;

	if (h->n + 1 > h->nb) {
		void **old = h->b;
		size_t nb = h->nb;

		h->nb = nb ? 2 * nb : 1024;
		h->b = xcalloc(h->nb, sizeof(*h->b));
		for (i = 0; i < nb; i++) {
			struct kc_node *x = old[i], *next;

			for (; x; x = next) {
				size_t k = slot(x->key, h->nb);

				next = x->next;
				x->next = h->b[k];
				h->b[k] = x;
			}
		}
		free(old);
	}
	i = slot(e->key, h->nb);
	e->next = h->b[i];
	h->b[i] = e;
	h->n++;
}

static void table_del(void *t, struct kc_node *e)
{
	struct { void **b; size_t nb, n; } *h = t;
	struct kc_node **pp = (struct kc_node **)&h->b[slot(e->key, h->nb)];

	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	h->n--;
	free(e);
}

static void table_clear(void *t)
{
	struct { void **b; size_t nb, n; } *h = t;
	size_t i;

	for (i = 0; i < h->nb; i++) {
		struct kc_node *x = h->b[i], *next;

		for (; x; x = next) {
			next = x->next;
			free(x);
		}
		h->b[i] = NULL;
	}
	h->n = 0;
}

static uint32_t *sync_vc(uintptr_t key)
{
	struct kc_sync *s = (struct kc_sync *)table_find(&syncs, key);

	if (!s) {
		s = xcalloc(1, sizeof(*s) + nr_cpus * sizeof(uint32_t));
		s->key = key;
		table_add(&syncs, (struct kc_node *)s);
	}
	return s->vc;
}

/* ---- happens-before -------------------------------------------------------------- */

static int cpu_ok(int cpu)
{
	return sim_kcsan_on && cpu >= 0 && cpu < nr_cpus;
}

static void release_fence(int cpu)
{
	memcpy(F[cpu], C[cpu], nr_cpus * sizeof(uint32_t));
	C[cpu][cpu]++;
}

void kcsan_acquire(uintptr_t obj, int cpu)
{
	struct kc_sync *s;

	if (!cpu_ok(cpu) || !(s = (struct kc_sync *)table_find(&syncs, obj)))
		return;
	join(C[cpu], s->vc);
}

void kcsan_acquire_later(uintptr_t obj, int cpu)
{
	struct kc_sync *s;

	if (!cpu_ok(cpu) || !(s = (struct kc_sync *)table_find(&syncs, obj)))
		return;
	join(P[cpu], s->vc);
}

void kcsan_store(uintptr_t obj, int cpu, int add)
{
	uint32_t *l;

	if (!cpu_ok(cpu))
		return;
	l = sync_vc(obj);
	if (add)
		join(l, F[cpu]);
	else
		memcpy(l, F[cpu], nr_cpus * sizeof(uint32_t));
}

void kcsan_release(uintptr_t obj, int cpu, int add)
{
	if (!cpu_ok(cpu))
		return;
	release_fence(cpu);
	kcsan_store(obj, cpu, add);
}

void kcsan_fence(int cpu, int kind)
{
	if (!cpu_ok(cpu))
		return;
	switch (kind) {
	case SIM_MM_RMB:
		join(C[cpu], P[cpu]);
		break;
	case SIM_MM_WMB:
		release_fence(cpu);
		break;
	case SIM_MM_MB:
	case SIM_MM_BEFORE_ATOMIC:
	case SIM_MM_AFTER_ATOMIC:
	case SIM_MM_AFTER_SPINLOCK:
		join(C[cpu], P[cpu]);
		release_fence(cpu);
		break;
	}
}

/* data_race(): the accesses its expression makes are not looked at (kcsan-checks.h's wrapper). */
void sim_kcsan_nest(int delta)
{
	if (sim_current && sim_current->id < SIM_MAX_TASKS)
		disabled[sim_current->id] += delta;
}

/* ---- reports ----------------------------------------------------------------------- */

static uint64_t reported[256];
static int nreported;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static const struct sim_site *acc_site(const struct kc_acc *a)
{
	return sim_site_at(a->site);
}

static const char *acc_func(const struct kc_acc *a)
{
	const struct sim_site *s = acc_site(a);

	return s && s->func && *s->func ? s->func : "?";
}

static void put_access(struct strbuf *b, const struct kc_acc *a)
{
	const struct sim_site *s = acc_site(a);
	const struct sim_task *t = sim_task_by_id(a->task);
	int obj = sim_obj_of((const void *)a->addr);

	sb_put(b, "%s%s to ", a->write ? "write" : "read", a->plain ? "" : " (marked)");
	if (obj) {
		uintptr_t start;
		size_t size;

		sim_obj_span((const void *)a->addr, &start, &size);
		sb_put(b, "object #%d + %zu", obj, (size_t)(a->addr - start));
	} else {
		sb_put(b, "static data");
	}
	sb_put(b, " of %u bytes by task %s/%d on cpu %d:\n", a->size,
	       t ? sim_name_at(t->name) : "?", a->task, a->cpu);
	if (s && s->file && *s->file)
		sb_put(b, " %s()\n  %s:%d%s\n", s->func, s->file, s->line,
		       a->plain ? " (the last kernel line the task reported before the access)" : "");
	else
		sb_put(b, " (no kernel line)\n");
#ifdef KC_HAVE_SYMBOLIZER
	if (a->plain && a->pc) {
		char where[256], *dot;

		__sanitizer_symbolize_pc(a->pc, "%f %s:%l", where, sizeof(where));
		if ((dot = strstr(where, " ./")))
			memmove(dot + 1, dot + 3, strlen(dot + 3) + 1);
		sb_put(b, "  the access: %s\n", where);
	}
#endif
}

static void report(const struct kc_acc *first, const struct kc_acc *then, const uint8_t *before,
		   const uint8_t *after, uint8_t mask)
{
	struct strbuf b = { 0 };
	char title[160];
	uint64_t h = 0xcbf29ce484222325ULL;
	int i, lo = first->site, hi = then->site;
	const struct sim_task *t = sim_task_by_id(then->task);

	if (lo > hi) {
		lo = then->site;
		hi = first->site;
	}
	h = fnv(fnv(h, &lo, sizeof(lo)), &hi, sizeof(hi));
	for (i = 0; i < nreported; i++)
		if (reported[i] == h)
			return;		/* each pair of lines once, as KCSAN's rate limit */
	if (nreported == (int)(sizeof(reported) / sizeof(reported[0])))
		return;
	reported[nreported++] = h;
	snprintf(title, sizeof(title), "KCSAN: data-race in %s / %s", acc_func(first), acc_func(then));
	sb_put(&b, "==================================================================\n");
	sb_put(&b, "BUG: %s\n\n", title);
	put_access(&b, first);
	sb_put(&b, "\n");
	put_access(&b, then);
	if (before && after) {
		unsigned long long x = 0, y = 0;
		int k;

		for (k = 7; k >= 0; k--)
			if (mask & (1u << k)) {
				x = x << 8 | before[k];
				y = y << 8 | after[k];
			}
		sb_put(&b, "\nvalue changed: 0x%0*llx -> 0x%0*llx\n", 2 * __builtin_popcount(mask), x,
		       2 * __builtin_popcount(mask), y);
	}
	sb_put(&b, "\nReported by Kernel Concurrency Sanitizer on:\nCPU: %d PID: %d Comm: %s\n", then->cpu,
	       then->task, t ? sim_name_at(t->name) : "?");
	sb_put(&b, "==================================================================\n");
	sim_report_text(SIM_REPORT_KCSAN, acc_site(then), title, b.s, sim_obj_of((const void *)then->addr));
}

/*
 * A write's bytes are in memory once it is made: whether it changed the
 * value is looked at when the detector is next entered (settle), and so is
 * each race with a plain read made before it (value-change only).
 */
struct kc_pending {
	uintptr_t dw;
	struct kc_acc read, write;
	int has_read;
};
static struct {
	struct kc_pending *v;
	int n, cap;
} pending;

static void pending_add(uintptr_t dw, const struct kc_acc *w, const struct kc_acc *r)
{
	struct kc_pending *p;

	if (pending.n == pending.cap) {
		pending.cap = pending.cap ? 2 * pending.cap : 16;
		pending.v = realloc(pending.v, pending.cap * sizeof(*pending.v));
		if (!pending.v)
			abort();
	}
	p = &pending.v[pending.n++];
	p->dw = dw;
	p->write = *w;
	p->has_read = r != NULL;
	if (r)
		p->read = *r;
}

static int changed(uintptr_t dw, const uint8_t *old, uint8_t mask, uint8_t *now)
{
	int b, diff = 0;

	for (b = 0; b < 8; b++)
		if (mask & (1u << b)) {
			now[b] = ((const volatile uint8_t *)dw)[b];
			diff |= now[b] != old[b];
		}
	return diff;
}

void kcsan_settle(void)
{
	int i, k;

	for (i = 0; i < pending.n; i++) {
		struct kc_pending *p = &pending.v[i];
		struct kc_cell *c = (struct kc_cell *)table_find(&cells, p->dw);
		uint8_t now[8] = { 0 };
		int ch = changed(p->dw, p->write.old, p->write.mask, now);

		if (!p->has_read) {
			/* the write's own entry learns whether it changed the value */
			for (k = 0; c && k < c->n; k++)
				if (c->a[k].pending && c->a[k].write && c->a[k].clock == p->write.clock &&
				    c->a[k].cpu == p->write.cpu) {
					c->a[k].pending = 0;
					c->a[k].changed = (uint8_t)ch;
				}
			continue;
		}
		if (ch)
			report(&p->read, &p->write, p->write.old, now, p->write.mask & p->read.mask);
	}
	pending.n = 0;
}

/* ---- accesses ------------------------------------------------------------------------ */

static int hb(const struct kc_acc *e, int cpu)
{
	return e->cpu == cpu || e->clock <= C[cpu][e->cpu];
}

static void drop(struct kc_cell *c, int i)
{
	memmove(&c->a[i], &c->a[i + 1], (c->n - i - 1) * sizeof(c->a[0]));
	c->n--;
}

static void access(uintptr_t addr, size_t size, int write, int plain, int site, void *pc)
{
	int cpu = sim_current->cpu, i;
	uintptr_t dw;

	if (sim_current->id < SIM_MAX_TASKS && disabled[sim_current->id])
		return;
	kcsan_settle();
	for (dw = addr & ~(uintptr_t)7; dw < addr + size; dw += 8) {
		struct kc_cell *c = (struct kc_cell *)table_find(&cells, dw);
		struct kc_acc a = { 0 };
		int b;

		for (b = 0; b < 8; b++)
			if (dw + b >= addr && dw + b < addr + size)
				a.mask |= (uint8_t)(1u << b);
		a.write = (uint8_t)write;
		a.plain = (uint8_t)plain;
		a.aligned_write = write && plain && size <= sizeof(long) && !(addr & (size - 1));
		a.cpu = (uint8_t)cpu;
		a.clock = C[cpu][cpu];
		a.task = sim_current->id;
		a.site = site;
		a.pc = pc;
		a.addr = addr;
		a.size = (uint32_t)size;
		if (!c) {
			c = xcalloc(1, sizeof(*c));
			c->key = dw;
			table_add(&cells, (struct kc_node *)c);
		}
		for (i = 0; i < c->n; i++) {
			const struct kc_acc *e = &c->a[i];

			if (!(e->mask & a.mask) || (!write && !e->write) || hb(e, cpu))
				continue;
			if (!e->plain && !plain)
				continue;		/* both marked: no data race */
			if ((!e->plain || e->aligned_write) && (!plain || a.aligned_write))
				continue;		/* CONFIG_KCSAN_ASSUME_PLAIN_WRITES_ATOMIC */
			if (e->write && !write) {
				/* CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY: a read of a write that changed nothing */
				if (plain && !e->changed && !e->pending)
					continue;
				report(e, &a, NULL, NULL, 0);
			} else if (write && !e->write && e->plain) {
				a.old[0] = 0;
				for (b = 0; b < 8; b++)
					if (a.mask & (1u << b))
						a.old[b] = ((const volatile uint8_t *)dw)[b];
				pending_add(dw, &a, e);	/* reported once the write is seen to change the value */
			} else {
				report(e, &a, NULL, NULL, 0);
			}
		}
		if (write) {
			for (b = 0; b < 8; b++)
				if (a.mask & (1u << b))
					a.old[b] = ((const volatile uint8_t *)dw)[b];
			a.pending = 1;
			pending_add(dw, &a, NULL);
			for (i = c->n - 1; i >= 0; i--)
				if (!(c->a[i].mask & ~a.mask) && hb(&c->a[i], cpu))
					drop(c, i);
		} else {
			for (i = 0; i < c->n; i++)
				if (c->a[i].cpu == cpu && !c->a[i].write && c->a[i].plain == a.plain) {
					a.mask |= c->a[i].mask;
					drop(c, i);
					break;
				}
		}
		if (c->n == 8)
			drop(c, 0);
		c->a[c->n++] = a;
	}
}

void kcsan_plain(uintptr_t addr, size_t size, int write, void *pc)
{
	if (!sim_kcsan_on || !sim_current || !size)
		return;
	access(addr, size, write, 1, sim_current->last_site, pc);
}

void kcsan_marked(uintptr_t addr, size_t size, int write, const struct sim_site *site)
{
	if (!sim_kcsan_on || !sim_current || !size)
		return;
	access(addr, size, write, 0, site ? sim_site_id(site) : sim_current->last_site, NULL);
}

void kcsan_forget(uintptr_t addr, size_t size)
{
	uintptr_t dw;

	if (!sim_kcsan_on || !cells.n)
		return;
	kcsan_settle();
	for (dw = addr & ~(uintptr_t)7; dw < addr + size && cells.n; dw += 8) {
		struct kc_node *c = table_find(&cells, dw);

		if (c)
			table_del(&cells, c);
	}
}

void kcsan_init(int on, int ncpus)
{
	int c;

	table_clear(&cells);
	table_clear(&syncs);
	pending.n = 0;
	nreported = 0;
	memset(disabled, 0, sizeof(disabled));
	sim_kcsan_on = on;
	nr_cpus = ncpus;
	memset(C, 0, sizeof(C));
	memset(P, 0, sizeof(P));
	memset(F, 0, sizeof(F));
	for (c = 0; c < ncpus; c++)
		C[c][c] = 1;
}

void kcsan_run_end(void)
{
	if (sim_kcsan_on)
		kcsan_settle();
}

/* A read-modify-write of obj ends (wrote 0: a failed cmpxchg, a read). */
void kcsan_rmw(uintptr_t obj, int cpu, int order, int wrote)
{
	if (!cpu_ok(cpu))
		return;
	if (!wrote) {
		if (order != SIM_MM_NORET)
			kcsan_acquire_later(obj, cpu);
		return;
	}
	switch (order) {
	case SIM_MM_FULL:
		kcsan_fence(cpu, SIM_MM_MB);
		kcsan_acquire(obj, cpu);
		kcsan_release(obj, cpu, 1);
		break;
	case SIM_MM_ACQUIRE:
		kcsan_acquire(obj, cpu);
		kcsan_store(obj, cpu, 1);
		break;
	case SIM_MM_RELEASE:
		kcsan_release(obj, cpu, 1);
		break;
	case SIM_MM_ACQ_REL:
		kcsan_acquire(obj, cpu);
		kcsan_release(obj, cpu, 1);
		break;
	case SIM_MM_ONCE:
		kcsan_acquire_later(obj, cpu);
		kcsan_store(obj, cpu, 1);
		break;
	default:
		kcsan_store(obj, cpu, 1);
	}
}
