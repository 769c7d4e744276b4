/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: memory barriers. The simulation is sequentially consistent
 * (one fiber runs at a time), so barriers only need to stop the compiler.
 */
#ifndef __ASM_GENERIC_BARRIER_H
#define __ASM_GENERIC_BARRIER_H

#include <linux/compiler.h>

#define mb()	barrier()
#define rmb()	barrier()
#define wmb()	barrier()
#define smp_mb()	barrier()
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()
#define smp_mb__before_atomic()	barrier()
#define smp_mb__after_atomic()	barrier()
#define smp_store_release(p, v)	do { barrier(); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p)	({ __auto_type __v = READ_ONCE(*(p)); barrier(); __v; })
#define smp_store_mb(var, value)  do { WRITE_ONCE(var, value); barrier(); } while (0)
#define virt_mb()	barrier()

#endif /* __ASM_GENERIC_BARRIER_H */
