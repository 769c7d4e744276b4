// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fibers for the simulated CPUs' tasks. See fiber.h.
 */
#include <stdlib.h>
#include <string.h>
#include "fiber.h"

#ifdef __EMSCRIPTEN__

static char main_asyncify_stack[64 * 1024];

void sim_fiber_init_main(struct sim_fiber *main)
{
	memset(main, 0, sizeof(*main));
	emscripten_fiber_init_from_current_context(&main->ctx, main_asyncify_stack,
						   sizeof(main_asyncify_stack));
}

static void fiber_entry(void *arg)
{
	struct sim_fiber *f = arg;

	f->entry(f->arg);
	abort();	/* entries never return: they switch away for good */
}

int sim_fiber_create(struct sim_fiber *f, void (*entry)(void *), void *arg, size_t stack_size)
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
	emscripten_fiber_init(&f->ctx, fiber_entry, f, f->stack, stack_size,
			      f->asyncify_stack, stack_size);
	return 0;
}

void sim_fiber_switch(struct sim_fiber *from, struct sim_fiber *to, int exiting)
{
	(void)exiting;
	emscripten_fiber_swap(&from->ctx, &to->ctx);
}

void sim_fiber_destroy(struct sim_fiber *f)
{
	free(f->stack);
	free(f->asyncify_stack);
	f->stack = f->asyncify_stack = NULL;
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
static struct sim_fiber *starting;

void sim_fiber_init_main(struct sim_fiber *main)
{
	memset(main, 0, sizeof(*main));
	main_fiber = main;
}

static void fiber_entry(void)
{
	struct sim_fiber *f = starting;

#ifdef SIM_ASAN
	/* First arrival on this stack: learn the bounds of the one we left. */
	__sanitizer_finish_switch_fiber(NULL, &main_stack_bottom, &main_stack_size);
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

static void stack_put(void *stack, size_t size)
{
	if (stack && pooled < STACK_POOL) {
		pool[pooled].stack = stack;
		pool[pooled++].size = size;
		return;
	}
	free(stack);
}

int sim_fiber_create(struct sim_fiber *f, void (*entry)(void *), void *arg, size_t stack_size)
{
	memset(f, 0, sizeof(*f));
	f->stack = stack_get(stack_size);
	if (!f->stack)
		return -1;
	f->stack_size = stack_size;
	f->entry = entry;
	f->arg = arg;
	if (getcontext(&f->ctx)) {
		stack_put(f->stack, stack_size);
		return -1;
	}
	f->ctx.uc_stack.ss_sp = f->stack;
	f->ctx.uc_stack.ss_size = stack_size;
	f->ctx.uc_link = NULL;
	makecontext(&f->ctx, fiber_entry, 0);
	return 0;
}

void sim_fiber_switch(struct sim_fiber *from, struct sim_fiber *to, int exiting)
{
	starting = to;	/* read only by fiber_entry, when "to" runs for the first time */
#ifdef SIM_ASAN
	{
		const void *bottom = to == main_fiber ? main_stack_bottom : to->stack;
		size_t size = to == main_fiber ? main_stack_size : to->stack_size;

		__sanitizer_start_switch_fiber(exiting ? NULL : &from->fake_stack, bottom, size);
	}
#else
	(void)exiting;
#endif
	swapcontext(&from->ctx, &to->ctx);
#ifdef SIM_ASAN
	__sanitizer_finish_switch_fiber(from->fake_stack, NULL, NULL);
#endif
}

void sim_fiber_destroy(struct sim_fiber *f)
{
	stack_put(f->stack, f->stack_size);
	f->stack = NULL;
}

#endif
