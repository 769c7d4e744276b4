/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: mutexes (Documentation/locking/mutex-design.rst). A task that
 * finds the mutex held sleeps until mutex_unlock() hands it over.
 */
#ifndef __LINUX_MUTEX_H
#define __LINUX_MUTEX_H

#include <linux/lockdep.h>
#include <sim.h>

struct mutex {
	struct sim_lock l;
};

#define __MUTEX_INITIALIZER(lockname)	{ .l = SIM_LOCK_INIT(#lockname, SIM_LOCK_MUTEX) }
#define DEFINE_MUTEX(mutexname)	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)
#define mutex_init(m)		sim_lock_init(&(m)->l, #m, SIM_LOCK_MUTEX, SIM_SITE_EXPR(#m))
#define __mutex_init(m, name, key)	sim_lock_init(&(m)->l, name, SIM_LOCK_MUTEX, SIM_SITE_EXPR(#m))
#define mutex_lock(m)		sim_mutex_lock(&(m)->l, SIM_SITE_EXPR(#m))
#define mutex_trylock(m)	sim_mutex_trylock(&(m)->l, SIM_SITE_EXPR(#m))
#define mutex_unlock(m)		sim_mutex_unlock(&(m)->l, SIM_SITE_EXPR(#m))
#define mutex_is_locked(m)	sim_lock_is_locked(&(m)->l)
#define mutex_destroy(m)	do { } while (0)

#endif /* __LINUX_MUTEX_H */
