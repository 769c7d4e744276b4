// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs in this process (the optimised native build). A fork costs the
 * page faults of every page the child writes, hundreds of microseconds
 * in all; here the run writes this process's own memory, and what it
 * wrote is put back after it by copying: the memory of the simulated
 * machine is the executable's static data (from __data_start to _end)
 * and the heap its allocations come from (wasm/runtime/heap.c), both copied as
 * the search starts and written back after each run. The search's own
 * allocations come from the C library's heap, which no run touches
 * (sim_heap_machine(0) outside runs). Left out of the copy: the
 * footprint accumulator, which every run leaves empty, the heap's own
 * switches, and what the runtime says a boot needs not (ip_spans()): of
 * 752 KiB of static data in labrun, 39 KiB are put back. A run that crashes (a signal) is counted as a crash, as
 * a child's death is, and the memory is put back all the same.
 *
 * A run of the search may also start from a snapshot of the machine
 * taken by an earlier run at a decision it shares with it (below,
 * "snapshots"), instead of from the boot.
 *
 * The builds with AddressSanitizer (native, native64, fuzz) keep the fork
 * server: their allocator and its shadow memory are the sanitizer's,
 * which this does not copy.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "xp.h"

#if XP_INPROCESS
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void __libc_free(void *p);

extern char __data_start[], _end[];

#define IP_MAX_SPANS 16
struct snap;

static struct {
	char *save;			/* the static data, as the search started */
	char *heap_save;		/* the machine's heap up to heap_top */
	char *heap_top;
	struct { char *a, *b; } span[IP_MAX_SPANS];	/* the static data put back: all but the gaps */
	int nspans;
	int forget;			/* the slab's sparse tables are left out: empty what a run filled */
	jmp_buf *crash;			/* in a run: where a crash goes */
	int crashed;
	char *altstack;
	/* snapshots (below): where a run's frames start, and the bookkeeping of one run */
	void *base;
	uint32_t next_snap;		/* the next decision a snapshot may be taken at */
	struct snap *resume;		/* the snapshot this run starts from, or NULL */
	unsigned char *prefix;		/* this run's prefix, then its kinds */
	size_t prefix_cap;
	unsigned long clock, taken, resumed, bytes;
	char *resume_stack;
	size_t resume_stack_size;
	struct snap *snaps;		/* SNAP_MAX of them, from the C library's heap */
	struct {
		struct sim_region *v;
		int n, cap;
	} skip;				/* ranges of the heap a snapshot leaves out */
	struct xp run_x;		/* the run's copy of the search (here: a snapshot's frames point at it) */
} ip;

static int all_zero(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p)
			return 0;
	return 1;
}

/*
 * The spans of static data to put back: from __data_start to _end but the
 * footprint accumulator (empty between runs), this back end's own state,
 * the heap's switches, and the tables the runtime says a boot needs not
 * (sim_boot_regions(): those a boot resets itself, and the slab's sparse
 * tables, left out only if they are empty now, as the boot finds them).
 */
static void ip_spans(void)
{
	struct sim_region r[8];
	struct { char *a, *b; } gap[12], t;
	int n = 0, i, j, nr = sim_boot_regions(r, 8);
	char *lo = __data_start;

	sim_fp_scratch(&gap[n].a, &gap[n].b), n++;
	gap[n].a = (char *)&ip, gap[n].b = (char *)&ip + sizeof(ip), n++;
	sim_heap_switches(&gap[n].a, &gap[n].b), n++;
	ip.forget = 0;
	for (i = 0; i < nr; i++) {
		if (r[i].empty_at_boot) {
			if (!all_zero(r[i].start, r[i].end))
				continue;
			ip.forget = 1;
		}
		gap[n].a = r[i].start, gap[n].b = r[i].end, n++;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (gap[j].a < gap[i].a)
				t.a = gap[i].a, t.b = gap[i].b, gap[i] = gap[j], gap[j].a = t.a, gap[j].b = t.b;
	ip.nspans = 0;
	for (i = 0; i <= n; i++) {
		char *end = i < n ? gap[i].a : _end;

		if (end > lo)
			ip.span[ip.nspans].a = lo, ip.span[ip.nspans++].b = end;
		if (i < n && gap[i].b > lo)
			lo = gap[i].b;
	}
}

static void ip_copy(int save)
{
	int i;

	for (i = 0; i < ip.nspans; i++) {
		char *lo = ip.span[i].a, *copy = ip.save + (lo - __data_start);
		size_t len = (size_t)(ip.span[i].b - lo);

		if (save)
			memcpy(copy, lo, len);
		else
			memcpy(lo, copy, len);
	}
	if (save)
		memcpy(ip.heap_save, sim_heap_base(), (size_t)(ip.heap_top - sim_heap_base()));
	else
		memcpy(sim_heap_base(), ip.heap_save, (size_t)(ip.heap_top - sim_heap_base()));
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

/* ---- snapshots ------------------------------------------------------------------- */

/*
 * A run need not start from the boot: it may start from a snapshot of the
 * machine taken by an earlier run of the search at a decision it shares
 * with this one, every choice before it the same (the deepest such one
 * kept). The machine's state there is the same whichever run reached it
 * (a run is a function of its choices), so the run is still the real
 * kernel from its boot; it only skips executing the prefix again.
 *
 * A snapshot is taken at every SNAP_EVERY-th decision of a run, before its
 * choice, while the run has preemptions left within the bound (later runs
 * of the search branch only there), and holds: the static data that is
 * put back (ip.span) and what the runtime's sparse tables hold
 * (sim_region.save), the machine's heap but the unused parts of the tasks'
 * stacks (sim_heap_spare()), the live part of this process's stack below
 * the run's base (the frames from xp_call_base() down: the host context's
 * while a task runs), the run's records of the decisions before it, and a
 * jmp_buf. Resuming writes it all back over the boot's memory, the stack
 * from a stack of its own (xp_jump_on()), and jumps into the decision,
 * whose choice is then made as this run's request says. xp_call_base()
 * keeps the callee-saved registers of its caller in its own frame, above
 * the part of the stack a snapshot holds, so the frames written back
 * return into it whatever the caller had in them.
 */
#if defined(__i386__) || defined(__x86_64__)
#define XP_SNAPSHOTS 1
int xp_call_base(int (*fn)(void), void **base);
void xp_jump_on(void *stack_top, void (*fn)(void *), void *arg) __attribute__((noreturn));
__asm__(".text\n"
	".p2align 4\n"
	".globl xp_call_base\n.hidden xp_call_base\n.type xp_call_base, @function\n"
	"xp_call_base:\n"
#ifdef __x86_64__
	"	pushq %rbp\n	pushq %rbx\n	pushq %r12\n	pushq %r13\n	pushq %r14\n	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	movq %rsp, (%rsi)\n"
	"	call *%rdi\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n	popq %r14\n	popq %r13\n	popq %r12\n	popq %rbx\n	popq %rbp\n"
	"	ret\n"
#else
	"	pushl %ebp\n	pushl %ebx\n	pushl %esi\n	pushl %edi\n"
	"	movl 20(%esp), %eax\n"
	"	movl 24(%esp), %ecx\n"
	"	subl $12, %esp\n"
	"	movl %esp, (%ecx)\n"
	"	call *%eax\n"
	"	addl $12, %esp\n"
	"	popl %edi\n	popl %esi\n	popl %ebx\n	popl %ebp\n"
	"	ret\n"
#endif
	".size xp_call_base, .-xp_call_base\n"
	".p2align 4\n"
	".globl xp_jump_on\n.hidden xp_jump_on\n.type xp_jump_on, @function\n"
	"xp_jump_on:\n"
#ifdef __x86_64__
	"	movq %rdi, %rsp\n	andq $-16, %rsp\n	movq %rdx, %rdi\n	call *%rsi\n	ud2\n"
#else
	"	movl 4(%esp), %eax\n	movl 8(%esp), %ecx\n	movl 12(%esp), %edx\n"
	"	movl %eax, %esp\n	andl $-16, %esp\n	subl $12, %esp\n	pushl %edx\n	call *%ecx\n	ud2\n"
#endif
	".size xp_jump_on, .-xp_jump_on\n");
#else
#define XP_SNAPSHOTS 0
#endif

#define SNAP_EVERY 16			/* decisions between two snapshots of a run */
#define SNAP_MAX 48			/* kept, the least recently used replaced */

struct snap {
	int valid;
	uint32_t depth;			/* taken at this decision, before its choice */
	unsigned char *prefix;		/* the choices before it, then their kinds */
	size_t prefix_cap;
	unsigned long used;		/* when it last served: the least recent is replaced */
	jmp_buf jb;
	void *base;			/* the run's base on this process's stack */
	char *data;			/* the copies, back to back */
	size_t len, cap;
	int npieces, cap_pieces;
	struct piece { char *at; size_t len; int region; } *piece;	/* region >= 0: sim_region.restore */
	uint32_t fp_used, kinds_seen, nmodel;
	uint32_t pstack;		/* the piece that is this process's stack, -1 none */
};

#define snaps ip.snaps
#define skip ip.skip
#define run_x ip.run_x

static int snap_grow(struct snap *s, size_t more)
{
	char *d;
	size_t cap = s->cap ? s->cap : 1 << 16;

	while (cap < s->len + more)
		cap *= 2;
	if (cap == s->cap)
		return 0;
	d = __libc_malloc(cap);
	if (!d)
		return -1;
	if (s->len)
		memcpy(d, s->data, s->len);
	__libc_free(s->data);
	s->data = d;
	s->cap = cap;
	return 0;
}

/* A piece's place in the snapshot's list (its bytes go at the end of data). */
static int snap_piece(struct snap *s, char *at, size_t len, int region)
{
	if (s->npieces == s->cap_pieces) {
		int cap = s->cap_pieces ? 2 * s->cap_pieces : 64;
		struct piece *v = __libc_malloc((size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		if (s->npieces)
			memcpy(v, s->piece, (size_t)s->npieces * sizeof(*v));
		__libc_free(s->piece);
		s->piece = v;
		s->cap_pieces = cap;
	}
	s->piece[s->npieces].at = at;
	s->piece[s->npieces].len = len;
	s->piece[s->npieces++].region = region;
	return 0;
}

/* A copy of [at, at + len) into the snapshot; -1 if it does not fit. */
static int snap_add(struct snap *s, char *at, size_t len, int region)
{
	if (!len)
		return 0;
	if (snap_grow(s, len) || snap_piece(s, at, len, region))
		return -1;
	memcpy(s->data + s->len, at, len);
	s->len += len;
	return 0;
}

static int cmp_region(const void *a, const void *b)
{
	const struct sim_region *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}


static void skip_add(void *ctx, char *start, char *end)
{
	(void)ctx;
	if (skip.n == skip.cap) {
		int cap = skip.cap ? 2 * skip.cap : 256;
		struct sim_region *v = __libc_malloc((size_t)cap * sizeof(*v));

		if (!v)
			return;		/* then it is copied: no harm */
		if (skip.n)
			memcpy(v, skip.v, (size_t)skip.n * sizeof(*v));
		__libc_free(skip.v);
		skip.v = v;
		skip.cap = cap;
	}
	skip.v[skip.n].start = start;
	skip.v[skip.n++].end = end;
}

/*
 * The machine's heap in use but what nothing reads before writing it: the
 * runtime's spare parts (stacks below their pointers, the log's room) and
 * the allocator's (free blocks, each block's room past its bytes), those of
 * 512 bytes or more.
 */
static int snap_heap(struct snap *s, const void *sp)
{
	struct sim_region r[64];
	int n = sim_heap_spare(r, 64, sp), i;
	char *lo = sim_heap_base(), *top = sim_heap_top();

	skip.n = 0;
	for (i = 0; i < n; i++)
		skip_add(NULL, r[i].start, r[i].end);
	sim_heap_slack(skip_add, NULL, 512);
	qsort(skip.v, (size_t)skip.n, sizeof(skip.v[0]), cmp_region);
	for (i = 0; i <= skip.n; i++) {
		char *end = i < skip.n ? skip.v[i].start : top;

		if (end > top)
			end = top;
		if (end > lo && snap_add(s, lo, (size_t)(end - lo), -1))
			return -1;
		if (i < skip.n && skip.v[i].end > lo)
			lo = skip.v[i].end;
	}
	return 0;
}

static int same_prefix(const struct snap *s, const struct shared *sh, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < i; j++)
		if (s->prefix[j] != (unsigned char)sh->nodes[j].chosen || s->prefix[i + j] != sh->nodes[j].kind)
			return 0;
	return 1;
}

/* Called in the run at decision i: a snapshot there, if it is one to take. Returns twice when resumed. */
static void at_decision(struct xp *x, uint32_t i, const struct sim_choice_point *cp)
{
	struct shared *sh = x->sh;
	struct sim_region r[8];
	struct snap *s = NULL;
	volatile char here;
	char *sp;
	int k, nr;
	uint32_t j;

	if (i < ip.next_snap || cp->kind != SIM_CHOICE_CPU || xp_cx.pc >= x->bound || !i)
		return;
	ip.next_snap = i + SNAP_EVERY;
	for (k = 0; k < SNAP_MAX; k++)	/* one of these choices, kept already */
		if (snaps[k].valid && snaps[k].depth == i && same_prefix(&snaps[k], sh, i))
			return;
	for (k = 0; k < SNAP_MAX; k++)	/* the least recently used slot */
		if (!s || !snaps[k].valid || (s->valid && snaps[k].used < s->used))
			s = &snaps[k];
	s->valid = 0;
	s->used = ++ip.clock;
	s->depth = i;
	s->len = 0;
	s->npieces = 0;
	s->pstack = (uint32_t)-1;
	if (s->prefix_cap < 2 * (size_t)i) {
		__libc_free(s->prefix);
		s->prefix_cap = 2 * (size_t)i + 64;
		s->prefix = __libc_malloc(s->prefix_cap);
		if (!s->prefix) {
			s->prefix_cap = 0;
			return;
		}
	}
	for (j = 0; j < i; j++) {
		s->prefix[j] = (unsigned char)sh->nodes[j].chosen;
		s->prefix[i + j] = sh->nodes[j].kind;
	}
	if (_setjmp(s->jb))
		return;		/* resumed from it: the choice at i is this run's */
	sp = (char *)&here - 256;	/* below this frame, nothing of the run's is live */
	s->base = ip.base;
	for (k = 0; k < ip.nspans; k++)
		if (snap_add(s, ip.span[k].a, (size_t)(ip.span[k].b - ip.span[k].a), -1))
			return;
	nr = sim_boot_regions(r, 8);
	for (k = 0; k < nr; k++)
		if (r[k].save) {
			size_t need = r[k].save(NULL, 0), got;

			if (snap_grow(s, need))
				return;
			got = r[k].save(s->data + s->len, s->cap - s->len);
			if (got > s->cap - s->len || snap_piece(s, NULL, got, k))
				return;
			s->len += got;
		}
	if (snap_heap(s, sim_current ? sp : sim_host_sp()))
		return;
	/* This process's stack: the host context's frames while a task runs, else this very frame's. */
	{
		char *lo = sim_current ? (char *)sim_host_sp() : sp;

		if (!lo || lo >= (char *)ip.base)
			return;
		s->pstack = (uint32_t)s->npieces;
		if (snap_add(s, lo, (size_t)((char *)ip.base - lo), -1))
			return;
	}
	if (snap_add(s, (char *)sh->nodes, i * sizeof(sh->nodes[0]), -1))
		return;
	if (sh->nodes[i - 1].fp_len != SIM_FP_ALL &&
	    snap_add(s, (char *)&sh->pool[sh->nodes[i - 1].fp_off], sh->nodes[i - 1].fp_len * sizeof(uint32_t), -1))
		return;
	s->fp_used = sh->fp_used;
	s->kinds_seen = sh->kinds_seen;
	s->nmodel = sh->nmodel;
	s->valid = 1;
	ip.taken++;
	ip.bytes += s->len;
}

/* The deepest snapshot whose choices are the first ones of this run's prefix. */
static struct snap *snap_find(struct xp *x)
{
	struct snap *best = NULL;
	uint32_t L = x->replay_len, j;
	int k;

	if (!snaps || !L)
		return NULL;
	if (ip.prefix_cap < 2 * (size_t)L) {
		__libc_free(ip.prefix);
		ip.prefix_cap = 2 * (size_t)L + 64;
		ip.prefix = __libc_malloc(ip.prefix_cap);
		if (!ip.prefix) {
			ip.prefix_cap = 0;
			return NULL;
		}
	}
	for (j = 0; j < L; j++) {
		ip.prefix[j] = (unsigned char)x->stack[j].chosen;
		ip.prefix[L + j] = (unsigned char)x->stack[j].kind;
	}
	for (k = 0; k < SNAP_MAX; k++) {
		struct snap *s = &snaps[k];
		uint32_t d = s->depth;

		if (!s->valid || d > L || (best && d <= best->depth))
			continue;
		if (!memcmp(s->prefix, ip.prefix, d) && !memcmp(s->prefix + d, ip.prefix + L, d))
			best = s;
	}
	return best;
}

/* On a stack of its own: this process's stack written back, then into the snapshot's decision. */
static void resume_on(void *arg)
{
	struct snap *s = arg;
	const char *src = s->data;
	int k;

	for (k = 0; k < s->npieces; k++) {
		if ((uint32_t)k == s->pstack)
			memcpy(s->piece[k].at, src, s->piece[k].len);
		src += s->piece[k].len;
	}
	_longjmp(s->jb, 1);
}

/* The run from its snapshot s: everything but this process's stack written back, then resume_on(). */
static int resume(void)
{
	struct snap *s = ip.resume;
	struct shared *sh = run_x.sh;
	struct sim_region r[8];
	const char *src;
	uint32_t i = s->depth;
	int k;

	if (s->base != ip.base)
		return xp_run_body(&run_x);	/* another call chain: from the boot, as always */
	sim_boot_regions(r, 8);
	src = s->data;
	for (k = 0; k < s->npieces; k++) {
		if (s->piece[k].region >= 0)
			r[s->piece[k].region].restore(src, s->piece[k].len);
		else if ((uint32_t)k != s->pstack && s->piece[k].at != (char *)sh->nodes &&
			 s->piece[k].at != (char *)&sh->pool[sh->nodes[i - 1].fp_off])
			memcpy(s->piece[k].at, src, s->piece[k].len);
		src += s->piece[k].len;
	}
	/* The run's records of its decisions before i (this run's sh may hold another run's). */
	src = s->data;
	for (k = 0; k < s->npieces; k++) {
		if (s->piece[k].at == (char *)sh->nodes) {
			memcpy(sh->nodes, src, s->piece[k].len);
			if (k + 1 < s->npieces && (uint32_t)k + 1 != s->pstack)
				memcpy(&sh->pool[sh->nodes[i - 1].fp_off], src + s->piece[k].len, s->piece[k + 1].len);
			break;
		}
		src += s->piece[k].len;
	}
	sh->fp_used = s->fp_used;
	sh->kinds_seen = s->kinds_seen;
	sh->nmodel = s->nmodel;
	/* The run's copy of the search: this request's, as xp_run_body() would make it. */
	xp_run_setup(&run_x);
	xp_run_resumed(&run_x, i);
	ip.next_snap = i + SNAP_EVERY;
	ip.resumed++;
	s->used = ++ip.clock;
	xp_jump_on(ip.resume_stack + ip.resume_stack_size, resume_on, s);
}

static int from_boot(void)
{
	return xp_run_body(&run_x);
}

/*
 * One execution here: the run works on a copy of the search's state (as
 * a child works on its own), from the boot or from a snapshot, then the
 * machine's memory is put back.
 */
int xp_inprocess_exec(struct xp *x)
{
	jmp_buf jb;
	volatile int r = 0;

	run_x = *x;
	run_x.at_decision = XP_SNAPSHOTS && snaps && x->sh->req.snap ? at_decision : NULL;
	ip.resume = run_x.at_decision ? snap_find(x) : NULL;
	ip.next_snap = 0;
	ip.crashed = 0;
	sim_heap_machine(1);
	if (!setjmp(jb)) {
		ip.crash = &jb;
#if XP_SNAPSHOTS
		r = xp_call_base(ip.resume ? resume : from_boot, &ip.base);
#else
		r = xp_run_body(&run_x);
#endif
	}
	ip.crash = NULL;
	sim_heap_machine(0);
	sim_fp_on = 0;
	if (ip.crashed)
		sim_fp_close(NULL, 0);	/* a step the crash cut short */
	if (ip.forget) {
		struct sim_region rg[8];
		int i, n = sim_boot_regions(rg, 8);

		if (!ip.crashed)
			sim_slab_forget();	/* the slots it filled, by the list the run kept */
		else
			for (i = 0; i < n; i++)	/* a crash may have left the list behind its tables */
				if (rg[i].empty_at_boot)
					memset(rg[i].start, 0, (size_t)(rg[i].end - rg[i].start));
	}
	ip_copy(0);
	if (ip.crashed || sim_heap_overflowed()) {
		xp_mark_crashed(x->sh);
		if (sim_heap_overflowed()) {
			fprintf(stderr, "explore: the machine's heap is full\n");
			return -1;
		}
		return 0;
	}
	return r ? -1 : 0;
}

int xp_inprocess_start(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	stack_t ss;
	size_t i;

	fflush(NULL);
	ip.save = __libc_malloc((size_t)(_end - __data_start));
	ip.heap_top = sim_heap_top();
	ip.heap_save = __libc_malloc((size_t)(ip.heap_top - sim_heap_base()) + 1);
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
	ip_spans();
	ip_copy(1);
#if XP_SNAPSHOTS
	if (!getenv("XP_NO_SNAPSHOTS")) {
		ip.resume_stack_size = 256 << 10;
		ip.resume_stack = __libc_malloc(ip.resume_stack_size);
		snaps = __libc_calloc(SNAP_MAX, sizeof(*snaps));
		if (!ip.resume_stack || !snaps) {
			__libc_free(ip.resume_stack);
			__libc_free(snaps);
			snaps = NULL;
		}
	}
#endif
	return 0;
}

void xp_inprocess_stop(void)
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
	if (getenv("XP_SNAPSHOT_STATS"))
		fprintf(stderr, "explore: %lu snapshots taken (%lu bytes on average), %lu runs resumed from one\n",
			ip.taken, ip.taken ? ip.bytes / ip.taken : 0, ip.resumed);
	if (snaps)
		for (i = 0; i < SNAP_MAX; i++) {
			__libc_free(snaps[i].data);
			__libc_free(snaps[i].prefix);
			__libc_free(snaps[i].piece);
		}
	__libc_free(snaps);
	__libc_free(skip.v);
	skip.v = NULL;
	skip.n = skip.cap = 0;
	__libc_free(ip.resume_stack);
	__libc_free(ip.prefix);
	snaps = NULL;
	ip.resume_stack = NULL;
	ip.prefix = NULL;
	ip.prefix_cap = 0;
	ip.clock = ip.taken = ip.resumed = ip.bytes = 0;
}

int xp_inprocess_on(void)
{
	return ip.save != NULL;
}
#endif
