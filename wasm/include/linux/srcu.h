/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: sleepable RCU (simulated in wasm/runtime/rcu.c).
 * srcu_read_lock() returns an index; synchronize_srcu() waits only for the
 * readers of the index in use before it flipped it.
 */
#ifndef _LINUX_SRCU_H
#define _LINUX_SRCU_H

#include <linux/rcupdate.h>
#include <sim.h>

struct srcu_struct {
	struct sim_srcu s;
};

#define __SRCU_STRUCT_INIT(name)	{ .s = SIM_SRCU_INIT(#name) }
#define DEFINE_SRCU(name)		struct srcu_struct name = __SRCU_STRUCT_INIT(name)
#define DEFINE_STATIC_SRCU(name)	static struct srcu_struct name = __SRCU_STRUCT_INIT(name)
#define init_srcu_struct(ssp)		(sim_srcu_init(&(ssp)->s, #ssp), 0)
#define cleanup_srcu_struct(ssp)	do { } while (0)
#define srcu_read_lock(ssp)		sim_srcu_read_lock(&(ssp)->s, SIM_SITE_EXPR(#ssp))
#define srcu_read_unlock(ssp, idx)	sim_srcu_read_unlock(&(ssp)->s, idx, SIM_SITE_EXPR(#ssp))
#define synchronize_srcu(ssp)		sim_synchronize_srcu(&(ssp)->s, SIM_SITE_EXPR(#ssp))
#define srcu_read_lock_held(ssp)	sim_srcu_read_lock_held(&(ssp)->s)
#define srcu_dereference_check(p, ssp, c)	READ_ONCE(p)
#define srcu_dereference(p, ssp)	READ_ONCE(p)

#endif /* _LINUX_SRCU_H */
