/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: local locks (Documentation/locking/locktypes.rst) as a
 * kernel without PREEMPT_RT has them: local_lock() disables preemption
 * on this CPU and only lockdep sees the lock. The simulated kernel is not
 * preemptible (CONFIG_PREEMPT_NONE) and a task keeps its CPU, so the
 * per-CPU data a local lock guards is already this task's alone; the lock
 * records nothing. The _irq forms are the same: there are no interrupts.
 */
#ifndef _LINUX_LOCAL_LOCK_H
#define _LINUX_LOCAL_LOCK_H

#include <linux/percpu.h>

typedef struct {
	int depth;	/* lockdep's view: held on this CPU */
} local_lock_t;

#define INIT_LOCAL_LOCK(lockname)	{ 0 }
#define local_lock_init(lock)		do { this_cpu_ptr(lock)->depth = 0; } while (0)
#define local_lock(lock)		do { this_cpu_ptr(lock)->depth++; } while (0)
#define local_unlock(lock)		do { this_cpu_ptr(lock)->depth--; } while (0)
#define local_lock_irq(lock)		local_lock(lock)
#define local_unlock_irq(lock)		local_unlock(lock)
#define local_lock_irqsave(lock, flags)	do { (flags) = 0; local_lock(lock); } while (0)
#define local_unlock_irqrestore(lock, flags) do { (void)(flags); local_unlock(lock); } while (0)
#define lockdep_assert_held_local(lock)	WARN_ON(this_cpu_ptr(lock)->depth <= 0)

#endif /* _LINUX_LOCAL_LOCK_H */
