/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: memory barriers (Documentation/memory-barriers.txt). The
 * simulation is sequentially consistent (one fiber runs at a time), so a
 * barrier orders nothing more than it already is; each full and one-sided
 * SMP barrier is still recorded as a BARRIER event at its line, since
 * which barrier pairs with which is part of what the code says.
 */
#ifndef __ASM_GENERIC_BARRIER_H
#define __ASM_GENERIC_BARRIER_H

#include <linux/compiler_types.h>
#include <sim.h>

#define SIM_BARRIER(kind) do {							\
	__asm__ __volatile__("" : : : "memory");				\
	sim_event(SIM_EV_BARRIER, SIM_SITE(), kind, 0, 0, 0);			\
	sim_step(SIM_SITE(), SIM_COST_BARRIER);					\
} while (0)

enum { SIM_MB = 1, SIM_RMB, SIM_WMB, SIM_MB_BEFORE_ATOMIC, SIM_MB_AFTER_ATOMIC,
       SIM_STORE_RELEASE, SIM_LOAD_ACQUIRE };

#define mb()	SIM_BARRIER(SIM_MB)
#define rmb()	SIM_BARRIER(SIM_RMB)
#define wmb()	SIM_BARRIER(SIM_WMB)
#define smp_mb()	SIM_BARRIER(SIM_MB)
#define smp_rmb()	SIM_BARRIER(SIM_RMB)
#define smp_wmb()	SIM_BARRIER(SIM_WMB)
#define smp_mb__before_atomic()	SIM_BARRIER(SIM_MB_BEFORE_ATOMIC)
#define smp_mb__after_atomic()	SIM_BARRIER(SIM_MB_AFTER_ATOMIC)
#define smp_store_release(p, v)	do { SIM_BARRIER(SIM_STORE_RELEASE); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p)	({ __auto_type __v = READ_ONCE(*(p)); SIM_BARRIER(SIM_LOAD_ACQUIRE); __v; })
#define smp_store_mb(var, value)  do { WRITE_ONCE(var, value); SIM_BARRIER(SIM_MB); } while (0)
#define virt_mb()	SIM_BARRIER(SIM_MB)

#endif /* __ASM_GENERIC_BARRIER_H */
