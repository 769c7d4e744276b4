// SPDX-License-Identifier: GPL-2.0-only
/*
 * In wasm: fork() and the fork server for a wasm module, which has one memory and
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
#ifdef __EMSCRIPTEN__
#include <stdlib.h>
#include <string.h>
#include <emscripten/emscripten.h>
#include <emscripten/stack.h>
#include <unistd.h>
#include "xp.h"

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

int xp_exec(struct xp *x, int quiet, const unsigned char *sched, const unsigned char *kinds, uint32_t sched_n)
{
	uint32_t end = (uint32_t)(uintptr_t)sbrk(0), g[6], gl[6];
	int n = gaps_of(x, g, 0), nl = gaps_of(x, gl, 1), r;

	xp_shared_reset(x->sh);
	xp_request_fill(x, quiet, sched, kinds, sched_n);
	xp_memory(0, end, g, n);
	xp_memory(3, end, gl, nl);
	r = xp_run_body(x);
	xp_memory(1, end, g, n);
	return r ? -1 : 0;
}

int xp_exec_start(struct xp *x)
{
	uint32_t g[6];
	int n = gaps_of(x, g, 0);

	xp_memory(2, (uint32_t)(uintptr_t)sbrk(0), g, n);
	return 0;
}

void xp_exec_stop(void)
{
}

void *xp_shared_alloc(size_t size)
{
	return calloc(1, size);
}

void xp_shared_free(void *p, size_t size)
{
	(void)size;
	free(p);
}

void xp_warm_up(void)
{
}
#endif
