// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fibers for the simulated CPUs' tasks. See fiber.h.
 */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "fiber.h"

#ifdef __EMSCRIPTEN__
/*
 * Both wasm builds: a fiber owns a C stack and a stack for Asyncify's saved
 * frames, each stack_size bytes.
 */
static int fiber_alloc(struct sim_fiber *f, void (*entry)(void *), void *arg, size_t stack_size)
{
	memset(f, 0, sizeof(*f));
	f->stack = malloc(stack_size);
	f->asyncify_stack = malloc(stack_size);
	if (!f->stack || !f->asyncify_stack) {
		free(f->stack);
		free(f->asyncify_stack);
		return -1;
	}
	f->stack_size = stack_size;
	f->entry = entry;
	f->arg = arg;
	return 0;
}

void sim_fiber_destroy(struct sim_fiber *f)
{
	free(f->stack);
	free(f->asyncify_stack);
	f->stack = f->asyncify_stack = NULL;
}

/* No stacks are kept for reuse in wasm. */
int sim_fiber_pooled(int i, void **stack, size_t *size)
{
	return 0;
}
#endif

#if defined(__EMSCRIPTEN__)
/*
 * wasm, at 32 and at 64 bits: the switch is Binaryen's Asyncify driven from C, with no
 * JavaScript in it (emscripten's fibers go through its JavaScript library
 * for every switch: its export wrappers, its trampoline and several calls
 * back into the module, a quarter of a run's time). A fiber runs on the
 * wasm stack under fiber_host_loop(), entered from the host's context. A
 * switch away saves the C stack pointer and unwinds the fiber's frames
 * into its Asyncify buffer back to that loop, which then rewinds the next
 * fiber's frames from its buffer (or starts it), until one switches to
 * the host context. Binaryen connects the "asyncify" imports below to its
 * own unwind and rewind; a function that calls them (fiber_unwind()) is
 * the bottom of the runtime and is not instrumented itself, only its
 * callers are. fiber_host_loop() must not be instrumented either
 * (wasm/tools/asyncify.py leaves it out), and fiber_entry() must stay a
 * function of its own, the one a rewind re-enters: these three are
 * exported, which keeps Binaryen from inlining them.
 *
 * At 64 bits (emcc -sMEMORY64=2) the module is lowered to a 32-bit memory
 * after linking and Asyncify runs on the lowered module, so its data is
 * two 32-bit words and its imports take a 32-bit address (uint32_t here:
 * Binaryen's Memory64Lowering changes no function's type); every address
 * is below 2^32.
 */
#include <stdint.h>
#include <emscripten/stack.h>

#define ASYNCIFY_IMPORT(name) __attribute__((import_module("asyncify"), import_name(name)))
ASYNCIFY_IMPORT("start_unwind") void asyncify_start_unwind(uint32_t data);
ASYNCIFY_IMPORT("stop_unwind") void asyncify_stop_unwind(void);
ASYNCIFY_IMPORT("start_rewind") void asyncify_start_rewind(uint32_t data);
ASYNCIFY_IMPORT("stop_rewind") void asyncify_stop_rewind(void);
void stackRestore(uintptr_t sp);	/* emscripten's compiler-rt: sets the C stack pointer */

static struct sim_fiber *host;		/* the context that is no fiber: the host's */
static struct sim_fiber *next;		/* set by a switch: who runs after the unwind */
static int catch_leaves;		/* sim_fiber_catch_leaves() */

/*
 * sim_fiber_leave() from code that is not instrumented (KASAN's callbacks):
 * a JavaScript exception drops the fiber's frames, and the host loop,
 * which then enters fibers through fiber_enter_catching(), catches it.
 */
EM_JS(void, fiber_throw_leave, (void), {
	throw 'sim_fiber_leave';
});
/* At 64 bits fn and f are BigInts; after the lowering fn is a 32-bit table index. */
EM_JS(int, fiber_enter_catching, (void *fn, void *f), {
	try {
		wasmTable.get(Number(fn))(f);
	} catch (e) {
		if (e !== 'sim_fiber_leave')
			throw e;
		return 1;
	}
	return 0;
});

void sim_fiber_init_main(struct sim_fiber *main)
{
	memset(main, 0, sizeof(*main));
	host = main;
}

int sim_fiber_create(struct sim_fiber *f, void (*entry)(void *), void *arg, size_t stack_size)
{
	return fiber_alloc(f, entry, arg, stack_size);
}

/*
 * The bottom frame of every fiber; a rewind calls it again. Entries never
 * return (they switch away for good), but fiber_host_loop() checks that,
 * not this function: with an abort() here the compiler takes it for one
 * that never returns and drops the code after its call, where every
 * unwind comes back.
 */
EMSCRIPTEN_KEEPALIVE __attribute__((noinline)) void fiber_entry(struct sim_fiber *f)
{
	f->entry(f->arg);
}

/* Run fibers, from "to", until one switches to the host context. */
EMSCRIPTEN_KEEPALIVE __attribute__((noinline)) void fiber_host_loop(struct sim_fiber *to)
{
	uintptr_t host_sp = emscripten_stack_get_current();
	uintptr_t host_base = emscripten_stack_get_base(), host_end = emscripten_stack_get_end();

	while (to != host) {
		struct sim_fiber *f = to;
		uintptr_t top = ((uintptr_t)f->stack + f->stack_size) & ~(uintptr_t)15;

		next = NULL;
		emscripten_stack_set_limits((void *)top, f->stack);
		if (f->started) {
			stackRestore(f->sp);
			f->rewinding = 1;
			asyncify_start_rewind((uint32_t)(uintptr_t)&f->unwind);
		} else {
			f->started = 1;
			stackRestore(top);
		}
		/* An unwind or a leave comes back here, having set next. */
		if (!catch_leaves) {
			fiber_entry(f);
			asyncify_stop_unwind();
		} else if (!fiber_enter_catching((void *)fiber_entry, f)) {
			asyncify_stop_unwind();
		}
		if (!next)
			abort();	/* the fiber's entry returned */
		stackRestore(host_sp);
		to = next;
	}
	emscripten_stack_set_limits((void *)host_base, (void *)host_end);
}

/* Leave "from" for "to": unwind to the loop; when "from" is rewound, return. */
EMSCRIPTEN_KEEPALIVE __attribute__((noinline)) void fiber_unwind(struct sim_fiber *from,
								 struct sim_fiber *to)
{
	if (from->rewinding) {
		from->rewinding = 0;
		asyncify_stop_rewind();
		return;
	}
	from->sp = emscripten_stack_get_current();
	from->unwind.pos = (uint32_t)(uintptr_t)from->asyncify_stack;
	from->unwind.end = (uint32_t)((uintptr_t)from->asyncify_stack + from->stack_size);
	next = to;
	asyncify_start_unwind((uint32_t)(uintptr_t)&from->unwind);
}

void sim_fiber_switch(struct sim_fiber *from, struct sim_fiber *to, int exiting)
{
	(void)exiting;
	if (from == host)
		fiber_host_loop(to);
	else
		fiber_unwind(from, to);
}

void sim_fiber_run(struct sim_fiber *from, struct sim_fiber *to)
{
	(void)from;
	fiber_host_loop(to);
}

void sim_fiber_catch_leaves(int on)
{
	catch_leaves = on;
}

void sim_fiber_leave(struct sim_fiber *from, struct sim_fiber *to)
{
	(void)from;
	next = to;
	fiber_throw_leave();
}

#else /* native */

#if defined(__SANITIZE_ADDRESS__)
#define SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_ASAN 1
#endif
#endif

#ifdef SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/asan_interface.h>
static const void *main_stack_bottom;
static size_t main_stack_size;
#endif

static struct sim_fiber *main_fiber;
static struct sim_fiber *starting, *leaving;

void sim_fiber_init_main(struct sim_fiber *main)
{
	memset(main, 0, sizeof(*main));
	main_fiber = main;
}

static void fiber_entry(void)
{
	struct sim_fiber *f = starting;

#ifdef SIM_ASAN
	/* First arrival on this stack: learn the main stack's bounds if we left it. */
	if (leaving == main_fiber)
		__sanitizer_finish_switch_fiber(NULL, &main_stack_bottom, &main_stack_size);
	else
		__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
	f->entry(f->arg);
	abort();
}

/*
 * Stacks of finished fibers, kept for the next ones: a run starts a few
 * tasks, and a fuzzer or a test starts thousands of runs, each of which
 * would otherwise map, fault in and unmap fresh stacks. Unpoisoned on
 * reuse, since a fiber that never returned leaves its frames' poison.
 */
#define STACK_POOL 16
static struct {
	void *stack;
	size_t size;
} pool[STACK_POOL];
static int pooled;

static void *stack_get(size_t size)
{
	for (int i = 0; i < pooled; i++) {
		if (pool[i].size == size) {
			void *stack = pool[i].stack;

			pool[i] = pool[--pooled];
#ifdef SIM_ASAN
			__asan_unpoison_memory_region(stack, size);
#endif
			return stack;
		}
	}
	return malloc(size);
}

int sim_fiber_pooled(int i, void **stack, size_t *size)
{
	if (i < 0 || i >= pooled)
		return 0;
	*stack = pool[i].stack;
	*size = pool[i].size;
	return 1;
}

static void stack_put(void *stack, size_t size)
{
	if (stack && pooled < STACK_POOL) {
		pool[pooled].stack = stack;
		pool[pooled++].size = size;
		return;
	}
	free(stack);
}

#if SIM_FIBER_ASM
/*
 * The switch itself, for x86: push the callee-saved registers on the
 * current stack, store the stack pointer in *from_sp, load to_sp, pop
 * that fiber's registers and return into it. No signal mask is saved or
 * restored (nothing in the simulation changes it): swapcontext()'s two
 * sigprocmask() system calls per switch were the native build's largest
 * cost after the slab lookup. A new fiber's stack is laid out as if it
 * had switched away at the entry of fiber_entry() (fiber_frame()).
 */
__attribute__((visibility("hidden"))) void sim_fiber_swap(void **from_sp, void *to_sp);
__asm__(".text\n"
	".p2align 4\n"
	".globl sim_fiber_swap\n"
	".hidden sim_fiber_swap\n"
	".type sim_fiber_swap, @function\n"
	"sim_fiber_swap:\n"
#ifdef __x86_64__
	"	pushq %rbp\n	pushq %rbx\n	pushq %r12\n	pushq %r13\n	pushq %r14\n	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	popq %r15\n	popq %r14\n	popq %r13\n	popq %r12\n	popq %rbx\n	popq %rbp\n"
#else
	"	movl 4(%esp), %eax\n"
	"	movl 8(%esp), %edx\n"
	"	pushl %ebp\n	pushl %ebx\n	pushl %esi\n	pushl %edi\n"
	"	movl %esp, (%eax)\n"
	"	movl %edx, %esp\n"
	"	popl %edi\n	popl %esi\n	popl %ebx\n	popl %ebp\n"
#endif
	"	ret\n"
	".size sim_fiber_swap, .-sim_fiber_swap\n");

#ifdef __x86_64__
#define SAVED_REGS 6
#else
#define SAVED_REGS 4
#endif

/* A new stack as sim_fiber_swap() leaves one: registers, then fiber_entry() to return into. */
static void *fiber_frame(void *stack, size_t size)
{
	void **sp = (void **)(((uintptr_t)stack + size) & ~(uintptr_t)15);
	int i;

	*--sp = NULL;			/* fiber_entry()'s return address: it never returns */
	*--sp = (void *)fiber_entry;	/* entered with the stack as after a call (ABI alignment) */
	for (i = 0; i < SAVED_REGS; i++)
		*--sp = NULL;
	return sp;
}
#endif

int sim_fiber_create(struct sim_fiber *f, void (*entry)(void *), void *arg, size_t stack_size)
{
	memset(f, 0, sizeof(*f));
	f->stack = stack_get(stack_size);
	if (!f->stack)
		return -1;
	f->stack_size = stack_size;
	f->entry = entry;
	f->arg = arg;
#if SIM_FIBER_ASM
	f->sp = fiber_frame(f->stack, stack_size);
#else
	if (getcontext(&f->ctx)) {
		stack_put(f->stack, stack_size);
		return -1;
	}
	f->ctx.uc_stack.ss_sp = f->stack;
	f->ctx.uc_stack.ss_size = stack_size;
	f->ctx.uc_link = NULL;
	makecontext(&f->ctx, fiber_entry, 0);
#endif
	return 0;
}

void sim_fiber_switch(struct sim_fiber *from, struct sim_fiber *to, int exiting)
{
	starting = to;	/* read only by fiber_entry, when "to" runs for the first time */
	leaving = from;
#ifdef SIM_ASAN
	{
		const void *bottom = to == main_fiber ? main_stack_bottom : to->stack;
		size_t size = to == main_fiber ? main_stack_size : to->stack_size;

		__sanitizer_start_switch_fiber(exiting ? NULL : &from->fake_stack, bottom, size);
	}
#else
	(void)exiting;
#endif
#if SIM_FIBER_ASM
	sim_fiber_swap(&from->sp, to->sp);
#else
	swapcontext(&from->ctx, &to->ctx);
#endif
#ifdef SIM_ASAN
	__sanitizer_finish_switch_fiber(from->fake_stack, NULL, NULL);
#endif
}

void sim_fiber_destroy(struct sim_fiber *f)
{
	stack_put(f->stack, f->stack_size);
	f->stack = NULL;
}

void sim_fiber_catch_leaves(int on)
{
	(void)on;
}

void sim_fiber_leave(struct sim_fiber *from, struct sim_fiber *to)
{
	sim_fiber_switch(from, to, 1);
}

#endif

#if !defined(__EMSCRIPTEN__)
/* Natively the host's context is a fiber like the others. */
void sim_fiber_run(struct sim_fiber *from, struct sim_fiber *to)
{
	sim_fiber_switch(from, to, 0);
}
#endif
