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
void __libc_free(void *p);

extern char __data_start[], _end[];

#define IP_MAX_SPANS 16

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
}

/*
 * One execution here: the run works on a copy of the search's state (as
 * a child works on its own), then the machine's memory is put back.
 */
int xp_inprocess_exec(struct xp *x)
{
	struct xp copy = *x;
	jmp_buf jb;
	volatile int r = 0;

	ip.crashed = 0;
	sim_heap_machine(1);
	if (!setjmp(jb)) {
		ip.crash = &jb;
		r = xp_run_body(&copy);
	}
	ip.crash = NULL;
	sim_heap_machine(0);
	sim_fp_on = 0;
	if (ip.forget) {
		struct sim_region r[8];
		int i, n = sim_boot_regions(r, 8);

		if (!ip.crashed)
			sim_slab_forget();	/* the slots it filled, by the list the run kept */
		else
			for (i = 0; i < n; i++)	/* a crash may have left the list behind its tables */
				if (r[i].empty_at_boot)
					memset(r[i].start, 0, (size_t)(r[i].end - r[i].start));
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

int xp_inprocess_on(void)
{
	return ip.save != NULL;
}
#endif
