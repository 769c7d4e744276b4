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
 * footprint accumulator, which every run leaves empty, and the heap's
 * own switches. A run that crashes (a signal) is counted as a crash, as
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
		{ NULL, NULL },
		{ (char *)&ip, (char *)&ip + sizeof(ip) },
		{ NULL, NULL },
	};
	size_t i, j, ng = sizeof(gaps) / sizeof(gaps[0]);

	sim_fp_scratch(&gaps[0].a, &gaps[0].b);
	sim_heap_switches(&gaps[2].a, &gaps[2].b);

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
