/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fibers: each simulated task runs on its own stack and gives control back
 * to the scheduler at preemption points. Natively a stack switch of a few
 * instructions on x86 (fiber.c; ucontext elsewhere), annotated for
 * AddressSanitizer; in wasm (32 and 64 bits) a switch over Binaryen's
 * Asyncify driven from C (fiber.c).
 */
#ifndef SIM_FIBER_H
#define SIM_FIBER_H

#include <stddef.h>
#include <stdint.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#elif defined(__i386__) || defined(__x86_64__)
#define SIM_FIBER_ASM 1
#else
#define SIM_FIBER_ASM 0
#include <ucontext.h>
#endif

struct sim_fiber {
#if defined(__EMSCRIPTEN__)
	/*
	 * Asyncify's data: where the next frame goes, where the buffer ends.
	 * Two 32-bit words at both widths: the 64-bit module is lowered to a
	 * 32-bit memory before the Asyncify pass runs.
	 */
	struct {
		uint32_t pos, end;
	} unwind;
	void *asyncify_stack;
	uintptr_t sp;		/* the C stack pointer while switched away */
	int started, rewinding;
#else
#if SIM_FIBER_ASM
	void *sp;		/* saved stack pointer while switched away */
#else
	ucontext_t ctx;
#endif
	void *fake_stack;	/* AddressSanitizer's per-fiber bookkeeping */
#endif
	void *stack;
	size_t stack_size;
	void (*entry)(void *);
	void *arg;
};

/* The calling context (the host of a run); call once before creating fibers. */
void sim_fiber_init_main(struct sim_fiber *main);
int sim_fiber_create(struct sim_fiber *f, void (*entry)(void *), void *arg, size_t stack_size);
/* Switch from one fiber to another; exiting: "from" will never run again. */
void sim_fiber_switch(struct sim_fiber *from, struct sim_fiber *to, int exiting);
void sim_fiber_destroy(struct sim_fiber *f);
/*
 * Leave "from" for good, for "to", from any depth: in wasm32 also from
 * code Asyncify does not instrument (KASAN's callbacks), which cannot
 * unwind; the run must have called sim_fiber_catch_leaves(1) first.
 */
void sim_fiber_leave(struct sim_fiber *from, struct sim_fiber *to);
void sim_fiber_catch_leaves(int on);

/*
 * From the host's context (sim_fiber_init_main()), run fibers from "to"
 * until one switches back to the host. The host's frames stay as they
 * are meanwhile, so code running there pays nothing for its own frames at
 * a switch (natively, and in wasm, at both widths,
 * the host loop, which Asyncify does not instrument).
 */
void sim_fiber_run(struct sim_fiber *host, struct sim_fiber *to);

#endif /* SIM_FIBER_H */
