// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explorer: every schedule of a scenario, or a random sample of them
 * with a guarantee, each run checked by what checks any run.
 *
 * Search (mode "dfs"). A stateless depth-first search over the scheduler's
 * recorded decisions (Godefroid, "Model checking for programming languages
 * using VeriSoft", POPL 1997): each execution is a fresh boot that follows
 * a prefix of choices, then takes the default choice at every new
 * decision. The default never preempts: the CPU that ran the last step goes
 * on, unless it yielded (cond_resched(), a turn of a spin loop), when the
 * next CPU in turn goes. A preemption is any other choice while the last
 * CPU could go on: switching away from a running CPU, or staying on one
 * that yielded (a spinning CPU is never picked again while another can go,
 * since it would only spin again). Preemptions are bounded and the bound
 * is raised one at a time, k = 0, 1, 2, ... (iterative context bounding,
 * Musuvathi and Qadeer, "Iterative context bounding for systematic testing
 * of multithreaded programs", PLDI 2007): a choice that would exceed the
 * bound is kept as a work item for the next bound, so that every
 * execution is run once, at the bound equal to its preemption count, and
 * cooperative yields give the fairness of CHESS (Musuvathi and Qadeer,
 * "Fair stateless model checking", PLDI 2008).
 *
 * Partial-order reduction: sleep sets (Godefroid, "Partial-Order Methods
 * for the Verification of Concurrent Systems", LNCS 1032, 1996, ch. 5).
 * Once the subtree of choice a at a decision is explored, a sleeps in the
 * sibling subtrees until a step dependent with a's step runs; a sleeping
 * CPU is not chosen. Executions that only reorder independent steps are
 * then run once, or cut short ("blocked") when every CPU sleeps (Abdulla
 * et al., "Optimal dynamic partial order reduction", POPL 2014, sec. 3,
 * on sleep sets alone). Steps are independent when their footprints
 * (explore.h) share no address that either writes. Under a preemption
 * bound, a reordered execution may need more preemptions than the one it
 * stands for (Coons, Musuvathi and McKinley, "Bounded partial-order
 * reduction", OOPSLA 2013): here a choice is put to sleep only when its
 * subtree was explored completely, with nothing deferred to a higher
 * bound, so every end state reachable with at most k preemptions is
 * reached by the time bound k is finished.
 *
 * Random mode (mode "pct"): probabilistic concurrency testing (Burckhardt,
 * Kothari, Musuvathi and Nagarakatte, "A randomized scheduler with
 * probabilistic guarantees of finding bugs", ASPLOS 2010). The CPUs get
 * random distinct priorities d..d+n-1, d-1 change points are drawn among
 * the first k decisions, the highest-priority CPU that can go takes each
 * step, and at the j-th change point the CPU that ran last drops to
 * priority d-1-j, below every other. A bug of depth d is then found by one
 * run with probability at least 1/(n k^(d-1)), n CPUs, k decisions. A CPU
 * that yields drops below every other too (a spinning CPU would otherwise
 * spin for ever); so a change point drops the CPU below the lowest
 * priority yet given, not to d-1-j, which a yield may already have passed.
 * The guarantee is stated for k, the decisions of the run without
 * preemptions.
 *
 * Every execution is a fresh boot. In the optimised native build each
 * runs in this process and the machine's memory (the static data and the
 * heap its allocations come from) is put back after it (exec_here). In
 * the builds with AddressSanitizer, or with labrun --fork, each runs in
 * a child process forked from one that never ran the kernel, so the
 * kernel's static state and the heap are those of a boot, and a crash is
 * counted, not fatal. The
 * children are forked by a fork server, a process forked when the search
 * starts, which never holds the search's work items, so a fork copies the
 * page tables of a small process. A child reads what it needs of the
 * search from a request in shared memory (struct request) and writes what
 * it saw there too. Every run thus starts from the same memory, whatever
 * the search has allocated since it started: the kernel's allocations get
 * the same addresses in every run, so the footprints of runs compare. A
 * wasm module cannot fork: there the memory as the search starts is
 * copied once, written over the memory before each run, and the search's
 * memory put back after it (exec_one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef __EMSCRIPTEN__
#include <sys/mman.h>
#endif
#include "explore.h"
#include "fiber.h"
#include "lab.h"
#include "strbuf.h"

int sim_fp_on;

/*
 * Natively without AddressSanitizer (the optimised build), runs are made
 * in this process and its memory put back after each (exec_here); with
 * it, and in wasm, as described above.
 */
#ifndef XP_INPROCESS		/* -DXP_INPROCESS=0: the fork server in any build */
#if defined(__EMSCRIPTEN__) || defined(__SANITIZE_ADDRESS__)
#define XP_INPROCESS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XP_INPROCESS 0
#endif
#endif
#endif
#ifndef XP_INPROCESS
#define XP_INPROCESS 1
#endif

#if XP_INPROCESS
/* ---- the machine's heap ------------------------------------------------------ */

/*
 * Where the simulated machine's allocations come from once explore_heap()
 * is called (labrun --explore, before anything else is allocated): one
 * region of address space, handed out by size class (powers of two from
 * 32 bytes) with a free list per class, every block's header in front of
 * it. Its state (top, free lists) is static data, so writing back the
 * static data and the region's used part puts the heap back as it was.
 * Outside runs (xp_heap.machine 0) allocations go to the C library's
 * heap, which runs never touch: a run frees none of its blocks and
 * reallocates one by copying it into the region.
 */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);
void __libc_free(void *p);

#define HEAP_SIZE (768u << 20)
#define HEAP_CLASSES 30

static struct {
	char *base, *end;
	int on, machine, overflow;
} xp_heap;

static struct {
	char *top;
	void *free[HEAP_CLASSES];
} heap_state;

struct heap_hdr {
	uint32_t cls;		/* size class: the block is 32 << cls bytes */
	uint32_t off;		/* from the block's start to the pointer handed out */
	uint32_t pad[2];
};

static inline int in_heap(const void *p)
{
	return (const char *)p >= xp_heap.base && (const char *)p < xp_heap.end;
}

static void *heap_alloc(size_t n, size_t align)
{
	size_t need = n + sizeof(struct heap_hdr) + (align > 16 ? align : 0);
	uint32_t cls = 0;
	char *b, *p;
	struct heap_hdr *h;

	while (cls < HEAP_CLASSES && ((size_t)32 << cls) < need)
		cls++;
	if (cls >= HEAP_CLASSES || n > HEAP_SIZE) {
		xp_heap.overflow = 1;
		return NULL;
	}
	if (heap_state.free[cls]) {
		b = heap_state.free[cls];
		heap_state.free[cls] = *(void **)b;
	} else {
		if (!heap_state.top)
			heap_state.top = xp_heap.base;
		if ((size_t)(xp_heap.end - heap_state.top) < ((size_t)32 << cls)) {
			xp_heap.overflow = 1;
			return NULL;
		}
		b = heap_state.top;
		heap_state.top += (size_t)32 << cls;
	}
	p = b + sizeof(struct heap_hdr);
	if (align > 16)
		p = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	h = (struct heap_hdr *)p - 1;
	h->cls = cls;
	h->off = (uint32_t)(p - b);
	return p;
}

static size_t heap_usable(const void *p)
{
	const struct heap_hdr *h = (const struct heap_hdr *)p - 1;

	return ((size_t)32 << h->cls) - h->off;
}

static void heap_free(void *p)
{
	struct heap_hdr *h = (struct heap_hdr *)p - 1;
	char *b = (char *)p - h->off;
	uint32_t cls = h->cls;

	*(void **)b = heap_state.free[cls];
	heap_state.free[cls] = b;
}

static char *machine_heap_top(void)
{
	return heap_state.top ? heap_state.top : xp_heap.base;
}

/* The usable size of a block of the C library's heap (its chunk header). */
static size_t libc_usable(const void *p)
{
	size_t h = ((const size_t *)p)[-1];

	return (h & ~(size_t)7) - (h & 2 ? 2 : 1) * sizeof(size_t);
}

void explore_heap(void)
{
	void *m;

	if (xp_heap.on)
		return;
	m = mmap(NULL, HEAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return;
	xp_heap.base = m;
	xp_heap.end = xp_heap.base + HEAP_SIZE;
	xp_heap.machine = 1;
	xp_heap.on = 1;
}

void *malloc(size_t n)
{
	if (!xp_heap.machine)
		return __libc_malloc(n);
	return heap_alloc(n, 16);
}

void free(void *p)
{
	if (!p)
		return;
	if (in_heap(p)) {
		if (xp_heap.machine)
			heap_free(p);
	} else if (!xp_heap.machine) {
		__libc_free(p);
	}
}

void *calloc(size_t n, size_t size)
{
	void *p;

	if (!xp_heap.machine)
		return __libc_calloc(n, size);
	if (size && n > (size_t)-1 / size)
		return NULL;
	p = heap_alloc(n * size, 16);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	size_t have;
	void *q;

	if (!p)
		return malloc(n);
	if (!in_heap(p) && !xp_heap.machine)
		return __libc_realloc(p, n);
	have = in_heap(p) ? heap_usable(p) : libc_usable(p);
	if (in_heap(p) && n <= have && xp_heap.machine)
		return p;
	q = malloc(n ? n : 1);
	if (!q)
		return NULL;
	memcpy(q, p, have < n ? have : n);
	free(p);
	return q;
}

void *memalign(size_t align, size_t n)
{
	if (!xp_heap.machine)
		return __libc_memalign(align, n);
	return heap_alloc(n, align);
}

void *aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p = memalign(align, n);

	if (!p)
		return 12;	/* ENOMEM */
	*out = p;
	return 0;
}

void *valloc(size_t n)
{
	return memalign(4096, n);
}

void *pvalloc(size_t n)
{
	return memalign(4096, (n + 4095) & ~(size_t)4095);
}

size_t malloc_usable_size(void *p)
{
	return !p ? 0 : in_heap(p) ? heap_usable(p) : libc_usable(p);
}
#else
void explore_heap(void)
{
}
#endif

/* ---- footprints ----------------------------------------------------------- */

#define FP_HASH 8192		/* distinct 8-byte granules per step before "everything" */
static struct {
	uint32_t key[FP_HASH];	/* granule + 1, 0 empty */
	uint8_t w[FP_HASH];
	uint32_t used[FP_HASH];
	uint32_t n;
	int all;		/* too many: conflicts with every step */
} acc;

void sim_fp_note_range(uintptr_t addr, size_t size, int write)
{
	uint32_t g, last;

	if (!sim_fp_on || !size)
		return;
	g = (uint32_t)(addr >> 3);
	last = (uint32_t)((addr + size - 1) >> 3);
	for (; g <= last && !acc.all; g++) {
		uint32_t h = (g * 2654435761u) & (FP_HASH - 1);

		while (acc.key[h] && acc.key[h] != g + 1)
			h = (h + 1) & (FP_HASH - 1);
		if (!acc.key[h]) {
			if (acc.n >= FP_HASH / 2) {
				acc.all = 1;
				return;
			}
			acc.key[h] = g + 1;
			acc.w[h] = 0;
			acc.used[acc.n++] = h;
		}
		acc.w[h] |= (uint8_t)(write != 0);
		if (g == last)
			break;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define FP_ALL 0xffffffffu

/* The step's footprint, sorted, as (granule << 1 | write); returns its length or FP_ALL. */
static uint32_t fp_close(uint32_t *out, uint32_t room)
{
	uint32_t i, n = acc.n;

	if (acc.all || n > room) {
		n = FP_ALL;
	} else {
		for (i = 0; i < n; i++)
			out[i] = (acc.key[acc.used[i]] - 1) << 1 | acc.w[acc.used[i]];
		qsort(out, n, sizeof(*out), cmp_u32);
	}
	for (i = 0; i < acc.n; i++)
		acc.key[acc.used[i]] = 0;
	acc.n = 0;
	acc.all = 0;
	return n;
}

static int fp_conflict(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
	uint32_t i = 0, j = 0;

	if (na == FP_ALL || nb == FP_ALL)
		return 1;
	while (i < na && j < nb) {
		uint32_t ka = a[i] >> 1, kb = b[j] >> 1;

		if (ka < kb)
			i++;
		else if (kb < ka)
			j++;
		else if ((a[i] | b[j]) & 1)
			return 1;
		else
			i++, j++;
	}
	return 0;
}

/* A footprint kept by the search: shared by nodes and work items. */
struct fpblk {
	int refs;
	uint32_t n;		/* FP_ALL: everything */
	uint32_t k[];
};

static void out_of_memory(void) __attribute__((noreturn));

static struct fpblk *fp_new(const uint32_t *k, uint32_t n)
{
	struct fpblk *f = malloc(sizeof(*f) + (n == FP_ALL ? 0 : n) * sizeof(uint32_t));

	if (!f)
		out_of_memory();
	f->refs = 1;
	f->n = n;
	if (n != FP_ALL)
		memcpy(f->k, k, n * sizeof(uint32_t));
	return f;
}

static struct fpblk *fp_get(struct fpblk *f)
{
	if (f)
		f->refs++;
	return f;
}

static void fp_put(struct fpblk **f)
{
	if (*f && !--(*f)->refs)
		free(*f);
	*f = NULL;
}

/* ---- what a child reports ------------------------------------------------------ */

#define XP_MAX_CPUS 16
#define XP_MAX_NODES 100000
#define XP_POOL (6u << 20)
#define XP_MAX_BOUND 64

enum { CUT_NONE, CUT_SLEEP, CUT_BOUND, CUT_DIVERGED, CUT_OVERFLOW, CUT_CRASH };

#define XP_FAILS(X) X(panic) X(deadlock) X(stuck) X(warn) X(bug) X(lockdep) \
	X(sleep_in_atomic) X(kasan) X(hung_task) X(test) X(leak) X(crash)
enum {
#define X(n) FAIL_##n,
	XP_FAILS(X)
#undef X
	NR_FAILS
};
static const char *const fail_names[NR_FAILS] = {
#define X(n) #n,
	XP_FAILS(X)
#undef X
};

struct snode {
	uint64_t mask, sleep;
	int8_t from, yield, chosen;
	uint8_t pad;
	int pc;				/* preemptions before this decision */
	uint32_t fp_off, fp_len;	/* the footprint of the chosen CPU's step */
};

/* A replayed decision, as the search sends it to the run. */
struct rnode {
	uint64_t mask, sleep;
	int8_t from, yield, chosen, known;
};

#define XP_REQ_POOL (XP_MAX_CPUS * FP_HASH / 2)

/*
 * What a run needs of the search, written by the search before each run:
 * natively the run is forked by a process that holds none of the search's
 * state (exec_one), so all of it comes through here.
 */
struct request {
	int quiet, bound, branch, pct_depth;
	uint32_t replay_len;		/* decisions to replay from nodes */
	int32_t sched_n;		/* >= 0: replay sched instead of searching */
	uint64_t last_sleep;		/* who sleeps after the last replayed decision */
	uint32_t sfp_off[XP_MAX_CPUS], sfp_len[XP_MAX_CPUS];	/* their steps, in pool */
	int prio[XP_MAX_CPUS], lowest;	/* pct */
	uint32_t change[XP_MAX_BOUND];
	int nchange;
	uint32_t pool[XP_REQ_POOL];
	struct rnode nodes[XP_MAX_NODES];
	unsigned char sched[XP_MAX_NODES];
};

struct shared {
	struct request req;
	uint32_t nnodes;
	int cut;
	int status;
	unsigned long live;
	uint32_t fails;			/* 1 << FAIL_* */
	uint64_t hash;			/* the end state */
	int report_event;		/* the first report's event index, -1 */
	int branch_event;		/* in a replay, the event of decision xp.branch, -1 */
	char report_title[96];
	uint32_t fp_used;
	struct snode nodes[XP_MAX_NODES];
	uint32_t pool[XP_POOL];
};

/* ---- the search's state ------------------------------------------------------ */

struct node {
	uint64_t mask, tried, done, sleep;
	int from, yield, chosen, pc, frozen, known;
	unsigned long defer_mark;
	struct fpblk *cur;			/* the chosen CPU's step */
	struct fpblk *sfp[XP_MAX_CPUS];		/* the steps of the CPUs in sleep or done */
};

/* The most the kept work items' choices may take: 1 GiB. */
#define XP_ITEM_BYTES	((size_t)1 << 30)

struct item {
	int pc;
	uint32_t n;
	unsigned char *choices;
	uint64_t sleep;
	struct fpblk *sfp[XP_MAX_CPUS];
};

struct itemlist {
	struct item *v;
	size_t n, cap;
};

struct xp {
	const struct scenario *sc;
	struct scenario_params p;
	struct explore_options o;
	int ncpus;
	struct shared *sh;
	/* dfs */
	struct node *stack;
	uint32_t deepest;		/* nodes of the stack ever written: the ones to clear at the end */
	uint32_t replay_len;
	int bound;
	unsigned long deferrals;
	struct itemlist items[XP_MAX_BOUND + 2];
	size_t beyond;			/* work items past the last bound: counted, not kept (no checkpoint) */
	size_t item_bytes;		/* the kept work items' choices */
	/* pct */
	int prio[XP_MAX_CPUS], lowest;
	uint32_t change[XP_MAX_BOUND];
	int nchange;
	uint32_t pct_k;
	/* outcome */
	unsigned long execs, blocked, crashes, fail_execs, bound_execs, bound_blocked;
	unsigned long fails[NR_FAILS];
	struct { uint64_t *v; size_t n, cap; } states;
	int best_pc;
	uint32_t best_n;
	unsigned char *best;
	uint32_t best_fails;
	uint64_t told[64];		/* the failing executions told: (preemptions << 32 | decisions), sorted */
	int ntold;
	double t0;
	int branch;			/* a replay notes the event of this decision (-1: none) */
	int stopped;			/* a budget ran out */
	int exhausted;
	FILE *out;
};

static struct xp *xp_current;	/* the search under way, for out_of_memory() */

/*
 * The search's own memory ran out, most likely in the work items a deep
 * run defers (each keeps its prefix of choices: a byte a decision): say
 * so, and what to change, rather than abort without a word.
 */
static void out_of_memory(void)
{
	size_t items = 0, bytes = 0;
	uint32_t deepest = 0;
	int b;

	if (xp_current) {
		deepest = xp_current->deepest;
		bytes = xp_current->item_bytes;
		for (b = 0; b < XP_MAX_BOUND + 2; b++)
			items += xp_current->items[b].n;
	}
	fprintf(stderr, "explore: out of memory: %zu work items kept, %zu MiB of choices (at most "
		"%zu), from runs of up to %u decisions. Explore a smaller set-up of the scenario "
		"(--rounds, --objects, --tasks), to a lower --bound, or with --pct.\n",
		items, bytes >> 20, XP_ITEM_BYTES >> 20, deepest);
	exit(2);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cost_of(uint64_t mask, int from, int yield, int c)
{
	if (from < 0 || !(mask & (1ULL << from)))
		return 0;
	return yield ? c == from : c != from;
}

/* ---- in the child: the decisions ------------------------------------------------ */

static struct {
	int pc;
	uint64_t sleep;			/* of the last node */
	const uint32_t *sfp[XP_MAX_CPUS];	/* the sleeping CPUs' steps */
	uint32_t sfp_n[XP_MAX_CPUS];
} cx;

/* The first candidate after "from" in turn whose choice costs want_cost preemptions. */
static int pick(uint64_t cands, int from, int yield, uint64_t mask, int want_cost)
{
	int i;

	if (!want_cost && !yield && from >= 0 && (cands & (1ULL << from)))
		return from;	/* the running CPU goes on */
	for (i = 1; i <= XP_MAX_CPUS; i++) {
		int c = ((from < 0 ? XP_MAX_CPUS - 1 : from) + i) % XP_MAX_CPUS;

		if ((cands & (1ULL << c)) && cost_of(mask, from, yield, c) == want_cost)
			return c;
	}
	return -1;
}

/* The candidates at a node: awake, and never a spinning CPU again while another can go. */
static uint64_t candidates(uint64_t mask, uint64_t sleep, int from, int yield)
{
	uint64_t c = mask & ~sleep;

	if (yield == SIM_YIELD_SPIN && from >= 0 && (mask & ~(1ULL << from)))
		c &= ~(1ULL << from);
	return c;
}

static int dfs_choose(struct xp *x, uint32_t i, uint64_t mask, int from, int yield)
{
	struct shared *sh = x->sh;
	struct snode *sn = &sh->nodes[i];
	uint64_t cands;
	int c, t;

	sn->mask = mask;
	sn->from = (int8_t)from;
	sn->yield = (int8_t)yield;
	sn->pc = cx.pc;
	if (i < x->replay_len) {
		const struct rnode *n = &sh->req.nodes[i];

		if (n->known && (n->mask != mask || n->from != from || n->yield != yield)) {
			sh->cut = CUT_DIVERGED;
			return -1;
		}
		sn->chosen = n->chosen;
		sn->sleep = n->sleep;
		cx.pc += cost_of(mask, from, yield, n->chosen);
		if (i == x->replay_len - 1) {
			cx.sleep = sh->req.last_sleep;
			for (t = 0; t < XP_MAX_CPUS; t++) {
				cx.sfp[t] = &sh->req.pool[sh->req.sfp_off[t]];
				cx.sfp_n[t] = sh->req.sfp_len[t];
			}
		}
		return n->chosen;
	}
	/* A new node: who sleeps here, from the node before. */
	if (i > 0 && x->o.por) {
		const struct snode *prev = &sh->nodes[i - 1];
		const uint32_t *pf = &sh->pool[prev->fp_off];
		uint64_t s = 0;

		for (t = 0; t < x->ncpus; t++) {
			if (!(cx.sleep & (1ULL << t)) || !(mask & (1ULL << t)))
				continue;
			if (!fp_conflict(cx.sfp[t], cx.sfp_n[t], pf, prev->fp_len))
				s |= 1ULL << t;
		}
		cx.sleep = s;
	} else {
		cx.sleep = 0;
	}
	sn->sleep = cx.sleep;
	cands = candidates(mask, cx.sleep, from, yield);
	sn->chosen = -1;
	if (!cands) {
		sh->cut = CUT_SLEEP;
		return -1;
	}
	c = pick(cands, from, yield, mask, 0);
	if (c < 0) {
		if (cx.pc + 1 > x->bound) {
			sh->cut = CUT_BOUND;
			return -1;
		}
		c = pick(cands, from, yield, mask, 1);
		cx.pc++;
	}
	sn->chosen = (int8_t)c;
	return c;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int pct_choose(struct xp *x, uint32_t i, uint64_t mask, int from, int yield)
{
	struct snode *sn = &x->sh->nodes[i];
	int j, c, best = -1;
	uint64_t cands;

	sn->mask = mask;
	sn->from = (int8_t)from;
	sn->yield = (int8_t)yield;
	sn->pc = cx.pc;
	sn->sleep = 0;
	/*
	 * A change point, and a yield, put the CPU below every other: PCT's
	 * d-1-j is below the initial priorities, but a yield may already
	 * have put others lower still, which would make the change point
	 * (taken later) a raise instead of a drop.
	 */
	for (j = 0; j < x->nchange; j++)
		if (x->change[j] == i && from >= 0)
			x->prio[from] = --x->lowest;
	if (yield && from >= 0)
		x->prio[from] = --x->lowest;
	cands = candidates(mask, 0, from, yield);
	for (c = 0; c < x->ncpus; c++)
		if ((cands & (1ULL << c)) && (best < 0 || x->prio[c] > x->prio[best]))
			best = c;
	cx.pc += cost_of(mask, from, yield, best);
	sn->chosen = (int8_t)best;
	return best;
}

static int child_choose(void *ctx, uint64_t mask, int from, int yield)
{
	struct xp *x = ctx;
	struct shared *sh = x->sh;
	uint32_t i = sh->nnodes;

	if (i > 0) {
		struct snode *prev = &sh->nodes[i - 1];

		prev->fp_off = sh->fp_used;
		prev->fp_len = fp_close(&sh->pool[sh->fp_used], XP_POOL - sh->fp_used);
		if (prev->fp_len != FP_ALL)
			sh->fp_used += prev->fp_len;
	} else {
		fp_close(sh->pool, 0);	/* what came before the first decision */
	}
	if (i >= XP_MAX_NODES) {
		sh->cut = CUT_OVERFLOW;
		return -1;
	}
	sh->nnodes = i + 1;
	return x->o.pct_depth ? pct_choose(x, i, mask, from, yield) : dfs_choose(x, i, mask, from, yield);
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

/* ---- running one execution ------------------------------------------------------ */

/*
 * The child's part: one boot following the search (or, with sched, a
 * schedule), what it saw written into x->sh. Returns 0, or 3 if the run
 * could not start.
 */
static __attribute__((noinline)) int child_body(struct xp *x)
{
	struct shared *sh = x->sh;
	const struct request *rq = &sh->req;
	struct lab_options lo = { .max_events = 0, .policy = SIM_POLICY_TIMED, .quiet = rq->quiet,
				  .max_steps = 200000 };
	struct lab_result res;
	char err[256], *text = NULL;
	int sched = rq->sched_n >= 0;

	/* The search's state this run needs (natively x is the fork server's copy). */
	x->bound = rq->bound;
	x->branch = rq->branch;
	x->replay_len = rq->replay_len;
	x->o.pct_depth = rq->pct_depth;
	memcpy(x->prio, rq->prio, sizeof(x->prio));
	x->lowest = rq->lowest;
	memcpy(x->change, rq->change, sizeof(x->change));
	x->nchange = rq->nchange;
	if (sched) {
		uint32_t sched_n = (uint32_t)rq->sched_n, i;
		struct sim_decision *d = calloc(sched_n + 1, sizeof(*d));

		for (i = 0; i < sched_n; i++)
			d[i].cpu = rq->sched[i];
		text = lab_schedule_encode(d, sched_n);
		lo.schedule = text;
	} else {
		sim_fp_on = x->o.por && !x->o.pct_depth;
		sim_set_chooser(child_choose, x);
	}
	cx.pc = 0;
	if (lab_run(x->sc, &x->p, &lo, &res, err, sizeof(err))) {
		fprintf(stderr, "explore: %s\n", err);
		return 3;
	}
	if (!sched && sh->nnodes > 0) {
		struct snode *last = &sh->nodes[sh->nnodes - 1];

		last->fp_off = sh->fp_used;
		last->fp_len = fp_close(&sh->pool[sh->fp_used], XP_POOL - sh->fp_used);
		if (last->fp_len != FP_ALL)
			sh->fp_used += last->fp_len;
	}
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
static void request_fill(struct xp *x, int quiet, const unsigned char *sched, uint32_t sched_n)
{
	struct request *rq = &x->sh->req;
	uint32_t i, used = 0;
	int t;

	rq->quiet = quiet;
	rq->bound = x->bound;
	rq->branch = x->branch;
	rq->pct_depth = x->o.pct_depth;
	rq->replay_len = sched ? 0 : x->replay_len;
	rq->sched_n = sched ? (int32_t)sched_n : -1;
	if (sched)
		memcpy(rq->sched, sched, sched_n);
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
	}
	if (rq->replay_len) {
		const struct node *n = &x->stack[rq->replay_len - 1];

		rq->last_sleep = n->sleep | n->done;
		for (t = 0; t < XP_MAX_CPUS; t++) {
			const struct fpblk *f = n->sfp[t];

			if (!(rq->last_sleep & (1ULL << t)))
				continue;
			rq->sfp_off[t] = used;
			rq->sfp_len[t] = f ? f->n : FP_ALL;
			if (f && f->n != FP_ALL) {
				memcpy(&rq->pool[used], f->k, f->n * sizeof(uint32_t));
				used += f->n;
			}
		}
	}
}

static void shared_reset(struct shared *sh)
{
	sh->nnodes = 0;
	sh->cut = CUT_NONE;
	sh->fails = 0;
	sh->fp_used = 0;
	sh->report_event = -1;
	sh->branch_event = -1;
	sh->report_title[0] = 0;
}

#ifndef __EMSCRIPTEN__
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* A run that died (a signal, a child's bad exit): counted as a crash. */
static void mark_crashed(struct shared *sh)
{
	sh->cut = CUT_CRASH;
	sh->fails = 1u << FAIL_crash;
	sh->hash = 0x6372617368ULL;
}

#if XP_INPROCESS
/*
 * Runs in this process (the optimised native build). A fork costs the
 * page faults of every page the child writes, hundreds of microseconds
 * in all; here the run writes this process's own memory, and what it
 * wrote is put back after it by copying: the memory of the simulated
 * machine is the executable's static data (from __data_start to _end)
 * and the heap its allocations come from (machine_heap), both copied as
 * the search starts and written back after each run. The search's own
 * allocations come from the C library's heap, which no run touches
 * (xp_heap.machine is 0 outside runs). Left out of the copy: the
 * footprint accumulator, which every run leaves empty, and the heap's
 * own switches. A run that crashes (a signal) is counted as a crash, as
 * a child's death is, and the memory is put back all the same.
 *
 * The builds with AddressSanitizer (native, native64, fuzz) keep the fork
 * server: their allocator and its shadow memory are the sanitizer's,
 * which this does not copy.
 */
extern char __data_start[], _end[];

static struct {
	char *save;			/* the static data, as the search started */
	char *heap_save;		/* the machine's heap up to heap_top */
	char *heap_top;
	jmp_buf *crash;			/* in a run: where a crash goes */
	int crashed;
	char *altstack;
} ip;

static void ip_copy(int save)
{
	char *lo = __data_start, *hi = _end;
	struct { char *a, *b; } gaps[] = {
		{ (char *)&acc, (char *)&acc + sizeof(acc) },
		{ (char *)&ip, (char *)&ip + sizeof(ip) },
		{ (char *)&xp_heap, (char *)&xp_heap + sizeof(xp_heap) },
	};
	size_t i, j, ng = sizeof(gaps) / sizeof(gaps[0]);

	for (i = 0; i < ng; i++)
		for (j = i + 1; j < ng; j++)
			if (gaps[j].a < gaps[i].a) {
				char *a = gaps[i].a, *b = gaps[i].b;

				gaps[i] = gaps[j];
				gaps[j].a = a, gaps[j].b = b;
			}
	for (i = 0; i <= ng; i++) {
		char *end = i < ng ? gaps[i].a : hi;

		if (end > lo) {
			if (save)
				memcpy(ip.save + (lo - __data_start), lo, (size_t)(end - lo));
			else
				memcpy(lo, ip.save + (lo - __data_start), (size_t)(end - lo));
		}
		if (i < ng && gaps[i].b > lo)
			lo = gaps[i].b;
	}
	if (save)
		memcpy(ip.heap_save, xp_heap.base, (size_t)(ip.heap_top - xp_heap.base));
	else
		memcpy(xp_heap.base, ip.heap_save, (size_t)(ip.heap_top - xp_heap.base));
}

static void ip_crash(int sig)
{
	(void)sig;
	if (ip.crash) {
		ip.crashed = 1;
		longjmp(*ip.crash, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static int ip_start(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	stack_t ss;
	size_t i;

	fflush(NULL);
	ip.save = __libc_malloc((size_t)(_end - __data_start));
	ip.heap_top = machine_heap_top();
	ip.heap_save = __libc_malloc((size_t)(ip.heap_top - xp_heap.base) + 1);
	ip.altstack = __libc_malloc(SIGSTKSZ + 65536);
	if (!ip.save || !ip.heap_save || !ip.altstack)
		return -1;
	ss.ss_sp = ip.altstack;
	ss.ss_size = SIGSTKSZ + 65536;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ip_crash;
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	ip_copy(1);
	return 0;
}

static void ip_stop(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	stack_t ss = { .ss_flags = SS_DISABLE };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigaltstack(&ss, NULL);
	__libc_free(ip.save);
	__libc_free(ip.heap_save);
	__libc_free(ip.altstack);
	ip.save = ip.heap_save = ip.altstack = NULL;
}

/*
 * One execution here: the run works on a copy of the search's state (as
 * a child works on its own), then the machine's memory is put back.
 */
static int exec_here(struct xp *x)
{
	struct xp copy = *x;
	jmp_buf jb;
	volatile int r = 0;

	ip.crashed = 0;
	xp_heap.machine = 1;
	if (!setjmp(jb)) {
		ip.crash = &jb;
		r = child_body(&copy);
	}
	ip.crash = NULL;
	xp_heap.machine = 0;
	sim_fp_on = 0;
	ip_copy(0);
	if (ip.crashed || xp_heap.overflow) {
		mark_crashed(x->sh);
		if (xp_heap.overflow) {
			fprintf(stderr, "explore: the machine's heap is full\n");
			return -1;
		}
		return 0;
	}
	return r ? -1 : 0;
}
#endif

/*
 * The fork server: a process forked when the search starts, before it
 * holds any work items, which forks one child per run. A fork copies the
 * page tables of the process forked, so forking the search itself costs
 * more with every work item it keeps; the server stays as small as at
 * the start. The search writes the run's request into the shared block
 * and a byte into cmd; the server answers with the child's wait status on
 * ret.
 */
static struct {
	pid_t pid;
	int cmd, ret;
} srv = { -1, -1, -1 };

static void server_loop(struct xp *x, int cmd, int ret)
{
	char c;

	while (read(cmd, &c, 1) == 1) {
		pid_t pid;
		int st = -1;

		fflush(NULL);
		pid = fork();
		if (pid == 0)
			_exit(child_body(x));
		if (pid < 0)
			perror("explore: fork");
		else if (waitpid(pid, &st, 0) < 0)
			perror("explore: waitpid"), st = -1;
		if (write(ret, &st, sizeof(st)) != sizeof(st))
			break;
	}
	_exit(0);
}

static int server_start(struct xp *x)
{
	int a[2], b[2];

#if XP_INPROCESS
	if (xp_heap.on)
		return ip_start();
#endif

	if (pipe(a) || pipe(b)) {
		perror("explore: pipe");
		return -1;
	}
	fflush(NULL);
	srv.pid = fork();
	if (srv.pid < 0) {
		perror("explore: fork");
		return -1;
	}
	if (srv.pid == 0) {
		close(a[1]);
		close(b[0]);
		server_loop(x, a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	srv.cmd = a[1];
	srv.ret = b[0];
	return 0;
}

static void server_stop(void)
{
#if XP_INPROCESS
	if (ip.save)
		ip_stop();
#endif
	if (srv.pid <= 0)
		return;
	close(srv.cmd);
	close(srv.ret);
	waitpid(srv.pid, NULL, 0);
	srv.pid = -1;
}

/* One execution in a child of the fork server; 0, or -1 if no child could run. */
static int exec_fork(struct xp *x)
{
	int st;
	char c = 1;

	if (write(srv.cmd, &c, 1) != 1 || read(srv.ret, &st, sizeof(st)) != sizeof(st)) {
		fprintf(stderr, "explore: the fork server is gone\n");
		return -1;
	}
	if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 3))
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		mark_crashed(x->sh);
	}
	return 0;
}

static void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void shared_free(void *p, size_t size)
{
	munmap(p, size);
}


static int exec_one(struct xp *x, int quiet, const unsigned char *sched, uint32_t sched_n)
{
	shared_reset(x->sh);
	request_fill(x, quiet, sched, sched_n);
#if XP_INPROCESS
	if (ip.save)
		return exec_here(x);
#endif
	return exec_fork(x);
}
#else
#include <emscripten/emscripten.h>
#include <emscripten/stack.h>
#include <unistd.h>

/*
 * fork() and the fork server for a wasm module, which has one memory and
 * no processes. When the search starts, the memory below the break
 * (static data, the stack, the heap) is copied: the boot, as the fork
 * server holds it natively. Each run then copies the memory as the search
 * left it, writes the boot over it, runs, and puts the search's memory
 * back: the run starts from the same memory as a child of the fork server,
 * whatever the search has allocated since. Left out: the shared block the
 * run reads its request from and writes its findings into, and the
 * search's stack of decisions, which the run never touches (both allocated
 * before the boot was copied, so the run's heap never hands them out); and
 * when the boot is written, the live part of the wasm stack (the frames
 * of the search that called the run). A run that traps (a crash a native
 * child would survive) ends the module.
 */
EM_JS(void, xp_memory, (int op, uint32_t end, const uint32_t *gaps, int ngaps), {
	/* op 0: save the search's memory, 1: put it back, 2: copy the boot, 3: write the boot */
	gaps = Number(gaps);	/* a BigInt in the 64-bit build (make wasm64), as every pointer */
	var key = op >= 2 ? 'xpBoot' : 'xpSnapshot';
	var snap = Module[key];
	if (op == 2 || (op == 0 && (!snap || snap.length < end)))
		snap = Module[key] = new Uint8Array(end);
	if (op == 3)
		end = Math.min(end, snap.length);
	var lo = 0;
	for (var i = 0; i <= ngaps; i++) {
		var hi = i < ngaps ? HEAPU32[(gaps >> 2) + 2 * i] : end;
		if (hi > end)
			hi = end;
		if (hi > lo) {
			if (op == 0 || op == 2)
				snap.set(HEAPU8.subarray(lo, hi), lo);
			else
				HEAPU8.set(snap.subarray(lo, hi), lo);
		}
		if (i < ngaps && HEAPU32[(gaps >> 2) + 2 * i + 1] > lo)
			lo = HEAPU32[(gaps >> 2) + 2 * i + 1];
	}
});

/* The blocks left out, sorted: [start, end) pairs; returns how many. */
static int gaps_of(struct xp *x, uint32_t *g, int live_stack)
{
	uint32_t v[6];
	int n = 0, i, j;

	v[n++] = (uint32_t)(uintptr_t)x->sh;
	v[n++] = v[0] + (uint32_t)sizeof(struct shared);
	if (x->stack) {
		v[n++] = (uint32_t)(uintptr_t)x->stack;
		v[n++] = v[2] + XP_MAX_NODES * (uint32_t)sizeof(*x->stack);
	}
	if (live_stack) {
		v[n++] = (uint32_t)emscripten_stack_get_current();
		v[n++] = (uint32_t)emscripten_stack_get_base();
	}
	for (i = 0; i < n / 2; i++)
		for (j = i + 1; j < n / 2; j++)
			if (v[2 * j] < v[2 * i]) {
				uint32_t t0 = v[2 * i], t1 = v[2 * i + 1];

				v[2 * i] = v[2 * j], v[2 * i + 1] = v[2 * j + 1];
				v[2 * j] = t0, v[2 * j + 1] = t1;
			}
	memcpy(g, v, n * sizeof(*v));
	return n / 2;
}

static int exec_one(struct xp *x, int quiet, const unsigned char *sched, uint32_t sched_n)
{
	uint32_t end = (uint32_t)(uintptr_t)sbrk(0), g[6], gl[6];
	int n = gaps_of(x, g, 0), nl = gaps_of(x, gl, 1), r;

	shared_reset(x->sh);
	request_fill(x, quiet, sched, sched_n);
	xp_memory(0, end, g, n);
	xp_memory(3, end, gl, nl);
	r = child_body(x);
	xp_memory(1, end, g, n);
	return r ? -1 : 0;
}

static int server_start(struct xp *x)
{
	uint32_t g[6];
	int n = gaps_of(x, g, 0);

	xp_memory(2, (uint32_t)(uintptr_t)sbrk(0), g, n);
	return 0;
}

static void server_stop(void)
{
}

static void *shared_alloc(size_t size)
{
	return calloc(1, size);
}

static void shared_free(void *p, size_t size)
{
	(void)size;
	free(p);
}
#endif

#ifndef __EMSCRIPTEN__
static struct sim_fiber warm_main, warm_fiber;

static void warm_entry(void *arg)
{
	sim_fiber_switch(&warm_fiber, &warm_main, 1);
}

/*
 * One fiber switch before the first fork: the sanitizer's one-time notes
 * about fibers are then printed once, by this process, not by every child.
 */
static void warm_up(void)
{
	sim_fiber_init_main(&warm_main);
	if (!sim_fiber_create(&warm_fiber, warm_entry, NULL, 64 * 1024)) {
		sim_fiber_switch(&warm_main, &warm_fiber, 0);
		sim_fiber_destroy(&warm_fiber);
	}
}
#else
static void warm_up(void)
{
}
#endif

/* ---- outcomes -------------------------------------------------------------------- */

static int state_add(struct xp *x, uint64_t h)
{
	size_t i, mask;

	if (x->states.n * 2 >= x->states.cap) {
		size_t cap = x->states.cap ? x->states.cap * 2 : 1024, j;
		uint64_t *v = calloc(cap, sizeof(*v)), *old = x->states.v;

		if (!v)
			out_of_memory();
		for (j = 0; j < x->states.cap; j++)
			if (old[j]) {
				for (i = old[j] & (cap - 1); v[i]; i = (i + 1) & (cap - 1))
					;
				v[i] = old[j];
			}
		free(old);
		x->states.v = v;
		x->states.cap = cap;
	}
	if (!h)
		h = 1;
	mask = x->states.cap - 1;
	for (i = h & mask; x->states.v[i]; i = (i + 1) & mask)
		if (x->states.v[i] == h)
			return 0;
	x->states.v[i] = h;
	x->states.n++;
	return 1;
}

static double now_s(void);
static int exec_one(struct xp *x, int quiet, const unsigned char *sched, uint32_t sched_n);
static char *choices_text(const unsigned char *c, uint32_t n);

static void tell(struct xp *x, struct explore_progress *pr)
{
	pr->bound = x->bound;
	pr->executions = x->execs;
	pr->blocked = x->blocked;
	pr->failing = x->fail_execs;
	pr->end_states = x->states.n;
	pr->seconds = now_s() - x->t0;
	x->o.progress(x->o.progress_ctx, pr);
}

/*
 * A failing execution among the shortest so far (fewest preemptions, then
 * fewest decisions) is told to a watching caller, replayed once more with
 * the full log for the step of its first report. The execution's findings
 * in x->sh are read before the replay overwrites them.
 */
static void tell_failing(struct xp *x, int pc)
{
	struct shared *sh = x->sh;
	struct explore_progress pr = { 0 };
	uint32_t n = sh->nnodes, i;
	uint64_t key = (uint64_t)pc << 32 | n;
	int want = x->o.progress_failing < 64 ? x->o.progress_failing : 64, j;
	unsigned char *c;
	char *text;

	if (!x->o.progress || want <= 0 || (x->ntold == want && key >= x->told[want - 1]))
		return;
	for (j = x->ntold < want ? x->ntold++ : want - 1; j > 0 && x->told[j - 1] > key; j--)
		x->told[j] = x->told[j - 1];
	x->told[j] = key;
	c = malloc(n + 1);
	if (!c)
		out_of_memory();
	for (i = 0; i < n; i++)
		c[i] = (unsigned char)sh->nodes[i].chosen;
	text = choices_text(c, n);
	pr.schedule = text;
	pr.preemptions = pc;
	pr.decisions = n;
	pr.kinds = sh->fails;
	pr.step = -1;
	pr.report = "";
	/*
	 * Where it leaves the run without preemptions: its first decision
	 * that costs one (every choice before it is the default one).
	 */
	pr.branch = -1;
	pr.branch_step = -1;
	for (i = 0; i < n; i++)
		if (cost_of(sh->nodes[i].mask, sh->nodes[i].from, sh->nodes[i].yield, sh->nodes[i].chosen)) {
			pr.branch = (int)i;
			pr.branch_cpu = sh->nodes[i].chosen;
			pr.branch_from = sh->nodes[i].from;
			break;
		}
	x->branch = pr.branch;
	if (!exec_one(x, 0, c, n)) {
		pr.step = sh->report_event;
		pr.report = sh->report_title;
		pr.branch_step = sh->branch_event;
	}
	x->branch = -1;
	tell(x, &pr);
	free(text);
	free(c);
}

/* Count a finished execution: its end state, and whether it failed. */
static void account(struct xp *x)
{
	struct shared *sh = x->sh;
	int k, pc;
	uint32_t n = sh->nnodes, i;

	if (sh->cut == CUT_SLEEP || sh->cut == CUT_BOUND) {
		x->blocked++;
		x->bound_blocked++;
		return;
	}
	x->execs++;
	x->bound_execs++;
	state_add(x, sh->hash);
	if (!sh->fails)
		return;
	x->fail_execs++;
	for (k = 0; k < NR_FAILS; k++)
		if (sh->fails & (1u << k))
			x->fails[k]++;
	pc = n ? sh->nodes[n - 1].pc + cost_of(sh->nodes[n - 1].mask, sh->nodes[n - 1].from,
						 sh->nodes[n - 1].yield, sh->nodes[n - 1].chosen) : 0;
	tell_failing(x, pc);
	if (x->best && (pc > x->best_pc || (pc == x->best_pc && n >= x->best_n)))
		return;
	free(x->best);
	x->best = malloc(n + 1);
	if (!x->best)
		out_of_memory();
	for (i = 0; i < n; i++)
		x->best[i] = (unsigned char)sh->nodes[i].chosen;
	x->best_n = n;
	x->best_pc = pc;
	x->best_fails = sh->fails;
}

static char *choices_text(const unsigned char *c, uint32_t n)
{
	struct sim_decision *d = calloc(n + 1, sizeof(*d));
	char *s;
	uint32_t i;

	if (!d)
		out_of_memory();
	for (i = 0; i < n; i++)
		d[i].cpu = c[i];
	s = lab_schedule_encode(d, n);
	free(d);
	return s;
}

static void put_fails(struct strbuf *b, const unsigned long *counts, uint32_t mask)
{
	int k, first = 1;

	for (k = 0; k < NR_FAILS; k++) {
		if (counts ? !counts[k] : !(mask & (1u << k)))
			continue;
		if (counts)
			sb_put(b, "%s\"%s\":%lu", first ? "" : ",", fail_names[k], counts[k]);
		else
			sb_put(b, "%s\"%s\"", first ? "" : ",", fail_names[k]);
		first = 0;
	}
}

/* The shortest failing schedule, replayed with the full log for its step. */
static void put_best(struct xp *x, struct strbuf *b)
{
	char *text;

	if (!x->best) {
		sb_put(b, ",\"shortest\":null");
		return;
	}
	text = choices_text(x->best, x->best_n);
	sb_put(b, ",\"shortest\":{\"preemptions\":%d,\"decisions\":%u,\"kinds\":[", x->best_pc, x->best_n);
	put_fails(b, NULL, x->best_fails);
	sb_put(b, "],\"schedule\":");
	sb_json(b, text);
	free(text);
	if (!exec_one(x, 0, x->best, x->best_n)) {
		sb_put(b, ",\"replayed\":{\"kinds\":[");
		put_fails(b, NULL, x->sh->fails);
		sb_put(b, "],\"step\":%d,\"report\":", x->sh->report_event);
		sb_json(b, x->sh->report_title);
		sb_put(b, "}");
	}
	sb_put(b, "}");
}

/* The work items waiting at bound b, kept or only counted. */
static size_t waiting(const struct xp *x, int b)
{
	return b > x->o.max_bound && !x->o.checkpoint ? x->beyond : x->items[b].n;
}

static void summary(struct xp *x, const char *mode, int bound, int exhausted)
{
	struct strbuf b = { 0 };
	double dt = now_s() - x->t0;

	sb_put(&b, "{\"mode\":\"%s\",\"scenario\":", mode);
	sb_json(&b, x->sc->name);
	sb_put(&b, ",\"tree\":");
	sb_json(&b, x->sc->tree);
	sb_put(&b, ",\"seed\":%llu,\"cpus\":%d", x->p.seed, x->ncpus);
	if (x->o.pct_depth) {
		double k = (double)x->pct_k, p = 1.0, all;
		int j;

		for (j = 1; j < x->o.pct_depth; j++)
			p *= k;
		p = 1.0 / ((double)x->ncpus * p);
		all = 1.0;
		for (j = 0; (unsigned long)j < x->execs && j < 100000000; j++)
			all *= 1.0 - p;
		sb_put(&b, ",\"depth\":%d,\"k\":%.0f,\"runs\":%lu,\"p_per_run\":%.3g,\"p_found\":%.3g",
		       x->o.pct_depth, k, x->execs, p, 1.0 - all);
	} else {
		sb_put(&b, ",\"bound\":%d,\"por\":%s,\"executions\":%lu,\"blocked\":%lu,\"deferred\":%zu",
		       bound, x->o.por ? "true" : "false", x->bound_execs, x->bound_blocked,
		       bound + 1 <= XP_MAX_BOUND ? waiting(x, bound + 1) : 0);
	}
	sb_put(&b, ",\"executions_total\":%lu,\"blocked_total\":%lu,\"end_states\":%zu,"
		   "\"failing_executions\":%lu,\"failing\":{",
	       x->execs, x->blocked, x->states.n, x->fail_execs);
	put_fails(&b, x->fails, 0);
	sb_put(&b, "}");
	put_best(x, &b);
	sb_put(&b, ",\"exhausted\":%s,\"stopped\":%s,\"seconds\":%.3f,\"rate\":%.1f}",
	       exhausted ? "true" : "false", x->stopped ? "true" : "false", dt,
	       dt > 0 ? (double)(x->execs + x->blocked) / dt : 0.0);
	if (x->out) {
		fprintf(x->out, "%s\n", b.s);
		fflush(x->out);
	}
	if (x->o.progress) {
		struct explore_progress pr = { .step = -1, .summary = b.s };

		tell(x, &pr);
	}
	free(b.s);
}

static int budget_out(struct xp *x)
{
	if (x->o.max_execs && x->execs + x->blocked >= x->o.max_execs)
		x->stopped = 1;
	if (x->o.max_seconds > 0 && now_s() - x->t0 >= x->o.max_seconds)
		x->stopped = 1;
	return x->stopped;
}

/* ---- work items and the search ---------------------------------------------------- */

/* A new, zeroed item at the end of list l, for program counter pc. */
static struct item *item_new(struct itemlist *l, int pc)
{
	struct item *it;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			out_of_memory();
	}
	it = &l->v[l->n++];
	memset(it, 0, sizeof(*it));
	it->pc = pc;
	return it;
}

static void item_push(struct xp *x, int bound, int pc, const struct node *stack, uint32_t depth,
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
		out_of_memory();
	it = item_new(l, pc);
	it->n = depth + 1;
	x->item_bytes += depth + 1;
	it->choices = malloc(depth + 1);
	if (!it->choices)
		out_of_memory();
	for (i = 0; i < depth; i++)
		it->choices[i] = (unsigned char)stack[i].chosen;
	it->choices[depth] = (unsigned char)choice;
	it->sleep = sleep;
	for (t = 0; t < XP_MAX_CPUS; t++)
		if (sleep & (1ULL << t))
			it->sfp[t] = fp_get(sfp[t]);
}

static void node_clear(struct node *n)
{
	int t;

	fp_put(&n->cur);
	for (t = 0; t < XP_MAX_CPUS; t++)
		fp_put(&n->sfp[t]);
	memset(n, 0, sizeof(*n));
}

/* Take in what the child saw: nodes past the replayed prefix, and the footprints. */
static void take_nodes(struct xp *x, uint32_t *depth)
{
	struct shared *sh = x->sh;
	uint32_t i, n = sh->nnodes;
	int t;

	for (i = 0; i < n; i++) {
		const struct snode *s = &sh->nodes[i];
		struct node *nd = &x->stack[i];

		if (i < x->replay_len) {
			if (!nd->known) {
				nd->mask = s->mask;
				nd->from = s->from;
				nd->yield = s->yield;
				nd->pc = s->pc;
				nd->known = 1;
			}
			if (i == x->replay_len - 1 && s->chosen >= 0 && (i + 1 < n || sh->cut == CUT_NONE)) {
				fp_put(&nd->cur);
				nd->cur = fp_new(&sh->pool[s->fp_off], s->fp_len);
			}
			continue;
		}
		node_clear(nd);
		nd->mask = s->mask;
		nd->from = s->from;
		nd->yield = s->yield;
		nd->pc = s->pc;
		nd->known = 1;
		nd->chosen = s->chosen;
		nd->sleep = s->sleep;
		nd->tried = s->chosen >= 0 ? 1ULL << s->chosen : 0;
		nd->defer_mark = x->deferrals;
		for (t = 0; t < x->ncpus; t++) {
			if (!(s->sleep & (1ULL << t)))
				continue;
			nd->sfp[t] = fp_get(x->stack[i - 1].sfp[t]);
		}
		if (s->chosen >= 0 && (i + 1 < n || sh->cut == CUT_NONE))
			nd->cur = fp_new(&sh->pool[s->fp_off], s->fp_len);
	}
	*depth = n;
	if (n > x->deepest)
		x->deepest = n;
}

/* Explore below one work item, at bound k. */
static int run_item(struct xp *x, struct item *it, int k)
{
	uint32_t depth, i;
	int t;

	if (it->n > x->deepest)
		x->deepest = it->n;
	for (i = 0; i < it->n; i++) {
		node_clear(&x->stack[i]);
		x->stack[i].chosen = it->choices[i];
		x->stack[i].frozen = 1;
	}
	if (it->n) {
		struct node *last = &x->stack[it->n - 1];

		last->done = it->sleep;
		for (t = 0; t < XP_MAX_CPUS; t++)
			last->sfp[t] = fp_get(it->sfp[t]);
	}
	x->replay_len = it->n;
	x->bound = k;
	for (;;) {
		int next = -1;

		if (exec_one(x, 1, NULL, 0))
			return -1;
		if (x->sh->cut == CUT_DIVERGED || x->sh->cut == CUT_OVERFLOW) {
			fprintf(stderr, "explore: %s at decision %u\n", x->sh->cut == CUT_DIVERGED ?
				"a replayed run took another path (the runtime is not deterministic)" :
				"too many decisions in one run", x->sh->nnodes);
			return -1;
		}
		take_nodes(x, &depth);
		account(x);
		if (x->o.progress) {
			struct explore_progress pr = { .step = -1 };

			tell(x, &pr);
		}
		/* Backtrack: the deepest node with a choice left. */
		while (depth > it->n) {
			struct node *nd = &x->stack[depth - 1];
			uint64_t cands;
			int c;

			if (nd->chosen >= 0) {
				if (x->o.por && nd->cur && x->deferrals == nd->defer_mark) {
					nd->done |= 1ULL << nd->chosen;
					nd->sfp[nd->chosen] = fp_get(nd->cur);
				}
				fp_put(&nd->cur);
				nd->chosen = -1;
			}
			cands = candidates(nd->mask, nd->sleep, nd->from, nd->yield) & ~nd->tried;
			for (c = 0; c < x->ncpus && next < 0; c++) {
				int cost;

				if (!(cands & (1ULL << c)))
					continue;
				nd->tried |= 1ULL << c;
				cost = cost_of(nd->mask, nd->from, nd->yield, c);
				if (nd->pc + cost > k) {
					item_push(x, nd->pc + cost, nd->pc + cost, x->stack, depth - 1, c,
						  nd->sleep | nd->done, nd->sfp);
					x->deferrals++;
					continue;
				}
				next = c;
			}
			if (next >= 0) {
				nd->chosen = next;
				nd->defer_mark = x->deferrals;
				break;
			}
			node_clear(nd);
			depth--;
		}
		if (next < 0)
			return 0;
		x->replay_len = depth;
		if (budget_out(x)) {
			/* What is left becomes work items: the choice about to run, and the untried ones. */
			for (i = it->n; i < depth; i++) {
				struct node *nd = &x->stack[i];
				uint64_t cands = candidates(nd->mask, nd->sleep, nd->from, nd->yield) & ~nd->tried;
				int c;

				for (c = 0; c < x->ncpus; c++)
					if (cands & (1ULL << c))
						item_push(x, nd->pc + cost_of(nd->mask, nd->from, nd->yield, c) > k ? k + 1 : k,
							  nd->pc + cost_of(nd->mask, nd->from, nd->yield, c), x->stack, i, c, 0, nd->sfp);
			}
			{
				struct node *nd = &x->stack[depth - 1];

				item_push(x, k, nd->pc + cost_of(nd->mask, nd->from, nd->yield, nd->chosen),
					  x->stack, depth - 1, nd->chosen, 0, nd->sfp);
			}
			return 1;
		}
	}
}

static void item_free(struct xp *x, struct item *it)
{
	int t;

	x->item_bytes -= it->n;
	free(it->choices);
	for (t = 0; t < XP_MAX_CPUS; t++)
		fp_put(&it->sfp[t]);
}

/* ---- checkpoints ------------------------------------------------------------------- */

#define CKPT_MAGIC "reclaim-lab explore checkpoint 1"

static void ckpt_write(struct xp *x, int bound)
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
	if (x->best) {
		char *t = choices_text(x->best, x->best_n);

		fprintf(f, "best %d %u %u %s\n", x->best_pc, x->best_n, x->best_fails, t);
		free(t);
	}
	for (i = 0; i < x->states.cap; i++)
		if (x->states.v[i])
			fprintf(f, "state %016llx\n", (unsigned long long)x->states.v[i]);
	for (b = 0; b <= XP_MAX_BOUND + 1; b++)
		for (i = 0; i < x->items[b].n; i++) {
			char *t = choices_text(x->items[b].v[i].choices, x->items[b].v[i].n);

			fprintf(f, "item %d %d %s\n", b, x->items[b].v[i].pc, *t ? t : "-");
			free(t);
		}
	if (fclose(f) || rename(tmp, x->o.checkpoint))
		perror(x->o.checkpoint);
}

static int decode_choices(struct xp *x, const char *text, unsigned char **out, uint32_t *n)
{
	size_t len;
	char err[128];

	if (!strcmp(text, "-")) {
		*out = malloc(1);
		*n = 0;
		return *out ? 0 : -1;
	}
	if (lab_schedule_decode(text, x->ncpus, out, &len, err, sizeof(err)))
		return -1;
	*n = (uint32_t)len;
	return 0;
}

/* Resume: 1 loaded, 0 no checkpoint, -1 a bad one. Items resume without sleep sets. */
static int ckpt_read(struct xp *x, int *bound)
{
	FILE *f = fopen(x->o.checkpoint, "r");
	char line[1 << 16], name[128], tree[128], text[1 << 15];
	unsigned long long seed, h;
	int por, maxb, k, b, pc, bad = 0;

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

			bad = decode_choices(x, text, &x->best, &n);
		} else if (sscanf(line, "state %llx", &h) == 1) {
			state_add(x, h);
		} else if (sscanf(line, "item %d %d %32767s", &b, &pc, text) == 3 && b >= 0 && b <= XP_MAX_BOUND + 1) {
			struct itemlist *l = &x->items[b];
			struct item *it;

			it = item_new(l, pc);
			bad = decode_choices(x, text, &it->choices, &it->n);
			x->item_bytes += it->n;
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

/* ---- the two modes ---------------------------------------------------------------------- */

static int dfs(struct xp *x)
{
	int k = 0, r, exhausted = 0, resumed;

	resumed = x->o.checkpoint ? ckpt_read(x, &k) : 0;
	if (resumed < 0)
		return -1;
	if (!resumed) {
		item_push(x, 0, 0, x->stack, 0, 0, 0, NULL);	/* the root: no choice made yet */
		x->items[0].v[0].n = 0;
		x->item_bytes = 0;
	}
	for (; k <= x->o.max_bound; k++) {
		struct itemlist *l = &x->items[k];

		x->bound_execs = x->bound_blocked = 0;
		while (l->n && !budget_out(x)) {
			struct item it = l->v[--l->n];

			r = run_item(x, &it, k);
			item_free(x, &it);
			if (r < 0)
				return -1;
		}
		exhausted = !x->stopped && !waiting(x, k + 1);
		x->exhausted = exhausted;
		summary(x, "dfs", k, exhausted);
		if (x->stopped) {
			if (x->o.checkpoint)
				ckpt_write(x, k);
			break;
		}
		if (exhausted)
			break;
	}
	if (!x->stopped && x->o.checkpoint)
		remove(x->o.checkpoint);
	return 0;
}

static int pct(struct xp *x)
{
	int depth = x->o.pct_depth, j, c;
	unsigned long r;

	/* k: the decisions of the run without preemptions. */
	x->o.pct_depth = 0;
	x->bound = 0;
	x->replay_len = 0;
	if (exec_one(x, 1, NULL, 0))
		return -1;
	x->pct_k = x->sh->nnodes ? x->sh->nnodes : 1;
	x->o.pct_depth = depth;
	for (r = 0; r < x->o.pct_runs && !budget_out(x); r++) {
		uint64_t rng = x->o.pct_seed * 0x9e3779b97f4a7c15ULL + r + 1;
		int perm[XP_MAX_CPUS];

		for (c = 0; c < x->ncpus; c++)
			perm[c] = depth + c;
		for (c = x->ncpus - 1; c > 0; c--) {
			int o = (int)(rng_next(&rng) % (uint64_t)(c + 1)), t = perm[c];

			perm[c] = perm[o];
			perm[o] = t;
		}
		memcpy(x->prio, perm, sizeof(perm));
		x->lowest = 0;
		x->nchange = depth - 1 < XP_MAX_BOUND ? depth - 1 : XP_MAX_BOUND;
		for (j = 0; j < x->nchange; j++)
			x->change[j] = 1 + (uint32_t)(rng_next(&rng) % x->pct_k);
		if (exec_one(x, 1, NULL, 0))
			return -1;
		account(x);
		if (x->o.progress) {
			struct explore_progress pr = { .step = -1 };

			tell(x, &pr);
		}
	}
	summary(x, "pct", 0, 0);
	return 0;
}

const char *explore_fail_kind(int i)
{
	return i >= 0 && i < NR_FAILS ? fail_names[i] : NULL;
}

static void fill_result(struct xp *x, struct explore_result *res, int exhausted)
{
	size_t i, n = 0;

	memset(res, 0, sizeof(*res));
	res->executions = x->execs;
	res->blocked = x->blocked;
	res->failing = x->fail_execs;
	res->states = malloc((x->states.n + 1) * sizeof(uint64_t));
	if (!res->states)
		out_of_memory();
	for (i = 0; i < x->states.cap; i++)
		if (x->states.v[i])
			res->states[n++] = x->states.v[i];
	qsort(res->states, n, sizeof(uint64_t), cmp_u64);
	res->nr_states = n;
	res->exhausted = exhausted;
	res->shortest_preemptions = x->best ? x->best_pc : -1;
	res->shortest = x->best ? choices_text(x->best, x->best_n) : NULL;
	res->shortest_kinds = x->best ? x->best_fails : 0;
}

int explore_run(const struct scenario *sc, const struct scenario_params *p,
		const struct explore_options *o, FILE *out, struct explore_result *res)
{
	struct xp *x;
	int r, b;

#if XP_INPROCESS
	xp_heap.machine = 0;	/* the search's own allocations: the C library's heap */
#endif
	x = calloc(1, sizeof(*x));
	if (!x)
		out_of_memory();
	xp_current = x;
	x->sc = sc;
	x->p = *p;
	x->o = *o;
	x->out = out;
	x->ncpus = sc->cpus ? sc->cpus(p) : sc->nr_cpus;
	x->branch = -1;
	if (x->ncpus > XP_MAX_CPUS || o->max_bound < 0 || o->max_bound > XP_MAX_BOUND ||
	    o->pct_depth < 0 || o->pct_depth > XP_MAX_BOUND) {
		fprintf(stderr, "explore: at most %d CPUs, bounds and depths from 0 to %d\n",
			XP_MAX_CPUS, XP_MAX_BOUND);
		xp_current = NULL;
		free(x);
		return -1;
	}
	x->sh = shared_alloc(sizeof(struct shared));
	if (!x->sh) {
		perror("explore: the shared block");
		xp_current = NULL;
		free(x);
		return -1;
	}
	if (!o->pct_depth) {
		x->stack = calloc(XP_MAX_NODES, sizeof(*x->stack));
		if (!x->stack)
			out_of_memory();
	}
#if XP_INPROCESS
	if (!xp_heap.on)
		warm_up();
#else
	warm_up();
#endif
	x->t0 = now_s();
	if (server_start(x)) {
		free(x->stack);
		shared_free(x->sh, sizeof(struct shared));
		xp_current = NULL;
		free(x);
		return -1;
	}
	r = o->pct_depth ? pct(x) : dfs(x);
	server_stop();
	if (res)
		fill_result(x, res, x->exhausted);
	if (r == 0 && x->fail_execs)
		r = 1;
	shared_free(x->sh, sizeof(struct shared));
	for (b = 0; b <= XP_MAX_BOUND + 1; b++) {
		while (x->items[b].n)
			item_free(x, &x->items[b].v[--x->items[b].n]);
		free(x->items[b].v);
	}
	if (x->stack)	/* not all XP_MAX_NODES: clearing them would fault in every page of the stack */
		for (b = 0; b < (int)x->deepest && b < XP_MAX_NODES; b++)
			node_clear(&x->stack[b]);
	free(x->stack);
	free(x->states.v);
	free(x->best);
	xp_current = NULL;
	free(x);
#if XP_INPROCESS
	xp_heap.machine = xp_heap.on;
#endif
	return r;
}
