/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: memory barriers (Documentation/memory-barriers.txt). Each
 * full and one-sided SMP barrier is recorded as a BARRIER event at its
 * line, since which barrier pairs with which is part of what the code
 * says, and is a preemption point. Under sc (one fiber runs at a time, and
 * what it stores every CPU sees at once) a barrier orders nothing more
 * than it already is; under tso and relaxed it is the memory model's to
 * enforce (wasm/runtime/memmodel/memmodel.h), and smp_load_acquire() and
 * smp_store_release() are the model's acquire and release accesses.
 */
#ifndef __ASM_GENERIC_BARRIER_H
#define __ASM_GENERIC_BARRIER_H

#include <linux/compiler_types.h>
#include <asm/rwonce.h>
#include <sim.h>

#define SIM_BARRIER(kind) do {							\
	__asm__ __volatile__("" : : : "memory");				\
	if (sim_mm_on())							\
		sim_mm_fence(kind, SIM_SITE());					\
	sim_event(SIM_EV_BARRIER, SIM_SITE(), kind, 0, 0, 0);			\
	sim_step(SIM_SITE(), SIM_COST_BARRIER);					\
} while (0)

enum { SIM_MB = SIM_MM_MB, SIM_RMB = SIM_MM_RMB, SIM_WMB = SIM_MM_WMB,
       SIM_MB_BEFORE_ATOMIC = SIM_MM_BEFORE_ATOMIC, SIM_MB_AFTER_ATOMIC = SIM_MM_AFTER_ATOMIC,
       SIM_STORE_RELEASE = SIM_MM_STORE_RELEASE, SIM_LOAD_ACQUIRE = SIM_MM_LOAD_ACQUIRE,
       SIM_MB_AFTER_SPINLOCK = SIM_MM_AFTER_SPINLOCK };

#define mb()	SIM_BARRIER(SIM_MB)
#define rmb()	SIM_BARRIER(SIM_RMB)
#define wmb()	SIM_BARRIER(SIM_WMB)
#define smp_mb()	SIM_BARRIER(SIM_MB)
#define smp_rmb()	SIM_BARRIER(SIM_RMB)
#define smp_wmb()	SIM_BARRIER(SIM_WMB)
#define smp_mb__before_atomic()	SIM_BARRIER(SIM_MB_BEFORE_ATOMIC)
#define smp_mb__after_atomic()	SIM_BARRIER(SIM_MB_AFTER_ATOMIC)
#define smp_store_release(p, v)	do {						\
	SIM_BARRIER(SIM_STORE_RELEASE);						\
	compiletime_assert_rwonce_type(*(p));					\
	SIM_WRITE_ORDERED(*(p), (v), SIM_MM_RELEASE);				\
} while (0)
#define smp_load_acquire(p)	({						\
	compiletime_assert_rwonce_type(*(p));					\
	__auto_type __v = SIM_READ_ORDERED(*(p), SIM_MM_ACQUIRE);		\
	SIM_BARRIER(SIM_LOAD_ACQUIRE);						\
	__v; })
#define smp_store_mb(var, value)  do { WRITE_ONCE(var, value); SIM_BARRIER(SIM_MB); } while (0)
#define virt_mb()	SIM_BARRIER(SIM_MB)

#endif /* __ASM_GENERIC_BARRIER_H */
