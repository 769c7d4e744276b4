/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: RCU (Documentation/RCU/whatisRCU.rst). Read-side sections,
 * call_rcu(), kvfree_rcu(), synchronize_rcu() and rcu_barrier() are
 * simulated by wasm/runtime/rcu.c and recorded at the caller's line.
 * rcu_dereference() and friends are READ_ONCE(); under tso and relaxed the
 * memory model orders what is read through the pointer after its load, as
 * the address dependency does, and rcu_assign_pointer() is a release store.
 */
#ifndef __LINUX_RCUPDATE_H
#define __LINUX_RCUPDATE_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <asm/barrier.h>
#include <sim.h>

#define rcu_read_lock()		sim_rcu_read_lock(SIM_SITE())
#define rcu_read_unlock()	sim_rcu_read_unlock(SIM_SITE())
#define rcu_read_lock_held()	sim_rcu_read_lock_held()
#define rcu_read_lock_bh()	rcu_read_lock()
#define rcu_read_unlock_bh()	rcu_read_unlock()
#define rcu_read_lock_sched()	rcu_read_lock()
#define rcu_read_unlock_sched()	rcu_read_unlock()

#define SIM_RCU_DEREF(p)	SIM_READ_ORDERED(p, SIM_MM_DEREF)
#define rcu_dereference_raw(p)	SIM_RCU_DEREF(p)
#define rcu_dereference(p)	SIM_RCU_DEREF(p)
#define rcu_dereference_check(p, c)	SIM_RCU_DEREF(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference_raw_check(p)	SIM_RCU_DEREF(p)
#define rcu_access_pointer(p)	READ_ONCE(p)
#define rcu_assign_pointer(p, v) do {					\
	barrier();							\
	SIM_WRITE_ORDERED((p), (v), SIM_MM_RELEASE);			\
	sim_event(SIM_EV_RCU_ASSIGN, SIM_SITE_EXPR(#p),			\
		  sim_obj_for(SIM_EV_RCU_ASSIGN, &(p)),			\
		  sim_obj_for(SIM_EV_RCU_ASSIGN, (const void *)(v)), 0, 0);	\
} while (0)
#define RCU_INIT_POINTER(p, v)	WRITE_ONCE((p), (v))
#define RCU_INITIALIZER(v)	(typeof(*(v)) __force __rcu *)(v)
#define rcu_pointer_handoff(p)	(p)
#define rcu_head_init(rhp)	do { } while (0)

typedef void (*rcu_callback_t)(struct rcu_head *head);

#define call_rcu(head, func)	sim_call_rcu(head, func, SIM_SITE_EXPR(#func))
#define synchronize_rcu()	sim_synchronize_rcu(SIM_SITE())
#define rcu_barrier()		sim_rcu_barrier(SIM_SITE())
/* kvfree_rcu(ptr, field) frees ptr after a grace period (side record, see rcu.c). */
#define kvfree_rcu(ptr, ...)	sim_kvfree_rcu((void *)(ptr), SIM_SITE_EXPR(#ptr))
#define kfree_rcu(ptr, ...)	kvfree_rcu(ptr)

/* The runtime has no RCU Tasks flavour: the quiescent state is the cond_resched(). */
#define cond_resched_tasks_rcu_qs()	cond_resched()

#endif /* __LINUX_RCUPDATE_H */
