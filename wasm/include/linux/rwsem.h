/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: reader-writer semaphores (kernel/locking/rwsem.c semantics,
 * simulated in wasm/runtime/locks.c): a waiting writer blocks new readers,
 * down_read_trylock() fails while a writer holds the lock or anyone waits,
 * rwsem_is_contended() is true while anyone waits. Every operation is
 * recorded at the caller's line.
 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

#include <linux/lockdep.h>
#include <sim.h>

struct rw_semaphore {
	union {
		struct sim_rwsem s;
		struct sim_lock l;	/* s.l, for lockdep_is_held() and friends */
	};
};

#define __RWSEM_INITIALIZER(name)	{ { .s = SIM_RWSEM_INIT(#name) } }
#define DECLARE_RWSEM(name)	struct rw_semaphore name = __RWSEM_INITIALIZER(name)
#define init_rwsem(sem)		sim_rwsem_init(&(sem)->s, #sem, SIM_SITE_EXPR(#sem))
#define down_read(sem)		sim_down_read(&(sem)->s, SIM_SITE_EXPR(#sem))
#define down_read_killable(sem)	(sim_down_read(&(sem)->s, SIM_SITE_EXPR(#sem)), 0)
#define down_read_trylock(sem)	sim_down_read_trylock(&(sem)->s, SIM_SITE_EXPR(#sem))
#define up_read(sem)		sim_up_read(&(sem)->s, SIM_SITE_EXPR(#sem))
#define down_write(sem)		sim_down_write(&(sem)->s, SIM_SITE_EXPR(#sem))
#define down_write_killable(sem) (sim_down_write(&(sem)->s, SIM_SITE_EXPR(#sem)), 0)
#define down_write_trylock(sem)	sim_down_write_trylock(&(sem)->s, SIM_SITE_EXPR(#sem))
#define up_write(sem)		sim_up_write(&(sem)->s, SIM_SITE_EXPR(#sem))
#define rwsem_is_contended(sem)	sim_rwsem_is_contended(&(sem)->s, SIM_SITE())
#define rwsem_is_locked(sem)	sim_rwsem_is_locked(&(sem)->s)

#endif /* _LINUX_RWSEM_H */
