// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine's heap (heap.h). Once sim_heap_start() is called (labrun
 * --explore, before anything else is allocated), the simulated machine's
 * allocations come from one region of address space, handed out by size
 * class (powers of two from 32 bytes) with a free list per class, every
 * block's header in front of it. Its state (top, free lists) is static
 * data, so writing back the static data and the region's used part puts
 * the heap back as it was. While the machine is off (sim_heap_machine(0))
 * allocations go to the C library's heap, which runs never touch: a run
 * frees none of its blocks and reallocates one by copying it into the
 * region.
 */
#include <stdint.h>
#include <string.h>
#include "heap.h"

#if SIM_HEAP_OWN
#include <sys/mman.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);
void __libc_free(void *p);

#define HEAP_SIZE (768u << 20)
#define HEAP_CLASSES 30

/* The heap's switches: left out of the machine's memory. */
static struct {
	char *base, *end;
	int on, machine, overflow;
} xp_heap;

/* The heap's state: part of the machine's memory, written back with it. */
static struct {
	char *top;
	void *free[HEAP_CLASSES];
} heap_state;

/*
 * Every block starts with one (and an aligned pointer has one right before
 * it too): its class, where the pointer is (0: the block is free, the free
 * list's link at next), and how much of it the pointer's bytes reach.
 */
struct heap_hdr {
	uint32_t cls;		/* size class: the block is 32 << cls bytes */
	uint32_t off;		/* from the block's start to the pointer handed out; 0: free */
	union {
		struct {
			uint32_t used;	/* from the block's start to the end of what was asked for */
			uint32_t pad;
		};
		void *next;	/* free: the next block of its class's list */
	};
};
_Static_assert(sizeof(struct heap_hdr) == 16, "a block's header is 16 bytes");

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
		heap_state.free[cls] = ((struct heap_hdr *)b)->next;
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
	h = (struct heap_hdr *)b;
	h->cls = cls;
	h->off = (uint32_t)(p - b);
	h->used = (uint32_t)(p - b + n);
	h->pad = 0;
	if ((char *)h != p - sizeof(*h))
		((struct heap_hdr *)p)[-1] = *h;
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

	h = (struct heap_hdr *)b;
	h->off = 0;
	h->next = heap_state.free[cls];
	heap_state.free[cls] = b;
}

/* A block grown in place: its header says how far its bytes now reach. */
static void heap_resized(void *p, size_t n)
{
	struct heap_hdr *h = (struct heap_hdr *)p - 1;

	((struct heap_hdr *)((char *)p - h->off))->used = (uint32_t)(h->off + n);
}

void sim_heap_slack(void (*fn)(void *ctx, char *start, char *end), void *ctx, size_t min)
{
	char *b = xp_heap.base, *top = sim_heap_top();

	while (b < top) {
		const struct heap_hdr *h = (const struct heap_hdr *)b;
		size_t size = (size_t)32 << (h->cls < HEAP_CLASSES ? h->cls : 0);
		char *from = b + (h->off ? h->used : sizeof(*h));

		/* A header the machine wrote over (a kernel bug): nothing past it is left out. */
		if (h->cls >= HEAP_CLASSES || (size_t)(top - b) < size ||
		    (h->off && (h->off < sizeof(*h) || h->used < h->off || h->used > size)))
			return;
		from = (char *)(((uintptr_t)from + 15) & ~(uintptr_t)15);
		if ((size_t)(b + size - from) >= min && from < b + size)
			fn(ctx, from, b + size);
		b += size;
	}
}

/* The usable size of a block of the C library's heap (its chunk header). */
static size_t libc_usable(const void *p)
{
	size_t h = ((const size_t *)p)[-1];

	return (h & ~(size_t)7) - (h & 2 ? 2 : 1) * sizeof(size_t);
}

void sim_heap_start(void)
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

int sim_heap_started(void)
{
	return xp_heap.on;
}

void sim_heap_machine(int on)
{
	xp_heap.machine = on && xp_heap.on;
}

char *sim_heap_base(void)
{
	return xp_heap.base;
}

char *sim_heap_top(void)
{
	return heap_state.top ? heap_state.top : xp_heap.base;
}

int sim_heap_overflowed(void)
{
	return xp_heap.overflow;
}

void sim_heap_switches(char **start, char **end)
{
	*start = (char *)&xp_heap;
	*end = (char *)&xp_heap + sizeof(xp_heap);
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
	if (in_heap(p) && n <= have && xp_heap.machine) {
		heap_resized(p, n);
		return p;
	}
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
void sim_heap_start(void)
{
}

int sim_heap_started(void)
{
	return 0;
}

void sim_heap_machine(int on)
{
	(void)on;
}

char *sim_heap_base(void)
{
	return NULL;
}

char *sim_heap_top(void)
{
	return NULL;
}

int sim_heap_overflowed(void)
{
	return 0;
}

void sim_heap_switches(char **start, char **end)
{
	*start = *end = NULL;
}

void sim_heap_slack(void (*fn)(void *ctx, char *start, char *end), void *ctx, size_t min)
{
	(void)fn;
	(void)ctx;
	(void)min;
}
#endif
