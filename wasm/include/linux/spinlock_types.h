/* SPDX-License-Identifier: GPL-2.0-only */
/* Customised: spinlock_t is the simulator's lock record (see sim.h). */
#ifndef __LINUX_SPINLOCK_TYPES_H
#define __LINUX_SPINLOCK_TYPES_H

#include <linux/cache.h>
#include <sim.h>

typedef struct spinlock {
	struct sim_lock l;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lockname)	{ .l = SIM_LOCK_INIT(#lockname, SIM_LOCK_SPIN) }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

#endif /* __LINUX_SPINLOCK_TYPES_H */
