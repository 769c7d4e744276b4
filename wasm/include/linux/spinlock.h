/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: spinlocks (Documentation/locking/spinlocks.rst). A CPU that
 * finds the lock held spins in virtual time; the _irq, _irqsave and _bh
 * forms behave the same, as the simulation has no interrupts.
 */
#ifndef __LINUX_SPINLOCK_H
#define __LINUX_SPINLOCK_H

#include <linux/spinlock_types.h>
#include <linux/compiler.h>
#include <linux/bug.h>
#include <asm/barrier.h>
#include <sim.h>

#define spin_lock_init(lock)	sim_lock_init(&(lock)->l, #lock, SIM_LOCK_SPIN, SIM_SITE_EXPR(#lock))
#define spin_lock(lock)		sim_spin_lock(&(lock)->l, SIM_SITE_EXPR(#lock))
#define spin_unlock(lock)	sim_spin_unlock(&(lock)->l, SIM_SITE_EXPR(#lock))
#define spin_trylock(lock)	sim_spin_trylock(&(lock)->l, SIM_SITE_EXPR(#lock))
#define spin_lock_irq(lock)	spin_lock(lock)
#define spin_unlock_irq(lock)	spin_unlock(lock)
#define spin_lock_bh(lock)	spin_lock(lock)
#define spin_unlock_bh(lock)	spin_unlock(lock)
#define spin_lock_irqsave(lock, flags)	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags)	do { (void)(flags); spin_unlock(lock); } while (0)
#define spin_lock_nested(lock, subclass)	spin_lock(lock)
#define spin_is_locked(lock)	sim_spin_is_locked(&(lock)->l)
/* A full barrier after taking a lock (linux/spinlock.h); on x86 the lock's RMW already is one. */
#define smp_mb__after_spinlock()	SIM_BARRIER(SIM_MB_AFTER_SPINLOCK)
#define assert_spin_locked(lock)	BUG_ON(!sim_lock_is_locked(&(lock)->l))
#define local_irq_save(flags)	do { (flags) = 0; } while (0)
#define local_irq_restore(flags)	do { (void)(flags); } while (0)
#define local_irq_disable()	do { } while (0)
#define local_irq_enable()	do { } while (0)

#endif /* __LINUX_SPINLOCK_H */
