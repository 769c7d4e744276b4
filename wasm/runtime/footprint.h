/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Footprints: what each step of an explored run touched, for the
 * explorer's sleep sets (wasm/explore/). A step is what the machine does
 * between two recorded decisions. Its footprint is every address the
 * kernel code touched in it (the KASAN callbacks see every load and
 * store) and every runtime object the primitives it called read or wrote:
 * the lock record, the completion, the SRCU structure, the RCU
 * grace-period state, the slab allocator, run queues and woken tasks. Two
 * steps of different CPUs are independent when their footprints share no
 * address that either writes.
 *
 * The machine notes (sim_fp_note*()); the explorer closes each step's
 * footprint at a decision and compares closed ones. Nothing else here.
 */
#ifndef SIM_FOOTPRINT_H
#define SIM_FOOTPRINT_H

#include <stddef.h>
#include <stdint.h>

/* Footprints: recorded only while an explored run is on (a flag test otherwise). */
extern int sim_fp_on;
void sim_fp_note_range(uintptr_t addr, size_t size, int write);
static inline void sim_fp_note(const volatile void *key, int write)
{
	if (sim_fp_on)
		sim_fp_note_range((uintptr_t)key, 1, write);
}

/* The step touches everything: it conflicts with every step. */
void sim_fp_note_all(void);

/* A closed footprint that stands for everything: it conflicts with every step. */
#define SIM_FP_ALL 0xffffffffu
/* Distinct 8-byte granules a step may note before it stands for everything. */
#define SIM_FP_MAX (8192 / 2)

/*
 * The step's footprint, sorted, as (granule << 1 | write), into out (room
 * entries); returns its length, or SIM_FP_ALL if it is more than room or
 * SIM_FP_MAX. The accumulator is empty again after.
 */
uint32_t sim_fp_close(uint32_t *out, uint32_t room);

/* Whether two closed footprints conflict: an address in both, written by either. */
int sim_fp_conflict(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);

/* The accumulator's own memory (empty between steps: a snapshot of the machine may skip it). */
void sim_fp_scratch(char **start, char **end);

#endif /* SIM_FOOTPRINT_H */
