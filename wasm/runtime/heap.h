/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine's heap: where the simulated machine's allocations come from
 * in the optimised native build once sim_heap_start() is called, so that
 * writing back the static data and the heap's used part puts the machine's
 * memory back as it was (the explorer runs each execution so, in one
 * process). heap.c replaces malloc() and its family; it calls nothing of
 * the runtime, so it is below every other file of the project.
 */
#ifndef SIM_HEAP_H
#define SIM_HEAP_H

#include <stddef.h>

/*
 * SIM_HEAP_OWN: 1 where heap.c replaces the allocator (natively without
 * AddressSanitizer, whose allocator and shadow memory are its own; not in
 * wasm). -DSIM_HEAP_OWN=0 leaves the C library's in any build.
 */
#ifndef SIM_HEAP_OWN
#if defined(__EMSCRIPTEN__) || defined(__SANITIZE_ADDRESS__)
#define SIM_HEAP_OWN 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_HEAP_OWN 0
#endif
#endif
#endif
#ifndef SIM_HEAP_OWN
#define SIM_HEAP_OWN 1
#endif

/* Map the region; from now on the machine allocates from it. Nothing where !SIM_HEAP_OWN. */
void sim_heap_start(void);
int sim_heap_started(void);

/*
 * Whose allocations these are: the machine's (1: from the region) or the
 * caller's own (0: the C library's heap, which the machine never touches).
 */
void sim_heap_machine(int on);

/* The region's start and the end of its used part. */
char *sim_heap_base(void);
char *sim_heap_top(void);

/* An allocation found the region full since the last sim_heap_machine(1). */
int sim_heap_overflowed(void);

/*
 * The parts of the heap in use that hold nothing anyone reads before
 * writing it: free blocks' bodies, and each block's room past the bytes
 * it was asked for; fn is called for each of at least min bytes, in order.
 */
void sim_heap_slack(void (*fn)(void *ctx, char *start, char *end), void *ctx, size_t min);

/* The heap's own switches (not the machine's memory: never written back). */
void sim_heap_switches(char **start, char **end);

#endif /* SIM_HEAP_H */
