/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: atomic_t and atomic_long_t. Reads and plain sets are silent;
 * read-modify-write operations are preemption points that record an ATOMIC
 * event at the caller's line, naming the object the counter lives in.
 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/bitops.h>
#include <sim.h>

typedef atomic_t atomic_long_t;	/* 32-bit kernel: long is int-sized */

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	ATOMIC_INIT(i)

enum { SIM_ATOMIC_XCHG = 1, SIM_ATOMIC_ADD_RETURN, SIM_ATOMIC_ADD, SIM_ATOMIC_CMPXCHG,
       SIM_ATOMIC_INC, SIM_ATOMIC_DEC };

static inline int sim_atomic_rmw(atomic_t *v, int op, int arg, int old_expected,
				 const struct sim_site *site)
{
	int old = v->counter, new = old;

	switch (op) {
	case SIM_ATOMIC_XCHG: new = arg; break;
	case SIM_ATOMIC_ADD_RETURN:
	case SIM_ATOMIC_ADD: new = (int)((unsigned)old + (unsigned)arg); break;
	case SIM_ATOMIC_CMPXCHG: new = old == old_expected ? arg : old; break;
	case SIM_ATOMIC_INC: new = (int)((unsigned)old + 1u); break;
	case SIM_ATOMIC_DEC: new = (int)((unsigned)old - 1u); break;
	}
	v->counter = new;
	sim_event(SIM_EV_ATOMIC, site, sim_obj_of(v), old, new, op);
	sim_step(site, SIM_COST_ATOMIC);
	return op == SIM_ATOMIC_ADD_RETURN ? new : old;
}

#define atomic_read(v)		READ_ONCE((v)->counter)
#define atomic_set(v, i)	WRITE_ONCE((v)->counter, (i))
#define atomic_xchg(v, i)	sim_atomic_rmw(v, SIM_ATOMIC_XCHG, i, 0, SIM_SITE_EXPR(#v))
#define atomic_add_return(i, v)	sim_atomic_rmw(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_SITE_EXPR(#v))
#define atomic_add(i, v)	((void)sim_atomic_rmw(v, SIM_ATOMIC_ADD, i, 0, SIM_SITE_EXPR(#v)))
#define atomic_sub(i, v)	((void)sim_atomic_rmw(v, SIM_ATOMIC_ADD, -(i), 0, SIM_SITE_EXPR(#v)))
#define atomic_inc(v)		((void)sim_atomic_rmw(v, SIM_ATOMIC_INC, 0, 0, SIM_SITE_EXPR(#v)))
#define atomic_dec(v)		((void)sim_atomic_rmw(v, SIM_ATOMIC_DEC, 0, 0, SIM_SITE_EXPR(#v)))
#define atomic_cmpxchg(v, o, n)	sim_atomic_rmw(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_SITE_EXPR(#v))

#define atomic_long_read(v)		atomic_read(v)
#define atomic_long_set(v, i)		atomic_set(v, i)
#define atomic_long_xchg(v, i)		atomic_xchg(v, i)
#define atomic_long_add_return(i, v)	atomic_add_return(i, v)
#define atomic_long_add(i, v)		atomic_add(i, v)
#define atomic_long_sub(i, v)		atomic_sub(i, v)
#define atomic_long_inc(v)		atomic_inc(v)
#define atomic_long_dec(v)		atomic_dec(v)
#define atomic_long_cmpxchg(v, o, n)	atomic_cmpxchg(v, o, n)

#endif /* _LINUX_ATOMIC_H */
