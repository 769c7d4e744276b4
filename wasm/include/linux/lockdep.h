/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: lockdep's assertions, checked against the simulator's record
 * of which task holds which lock. A failed assertion is a WARN at the
 * caller's line, as with CONFIG_LOCKDEP.
 */
#ifndef __LINUX_LOCKDEP_H
#define __LINUX_LOCKDEP_H
#define __LINUX_LOCKDEP_TYPES_H

#include <linux/bug.h>
#include <sim.h>

struct lock_class_key { int dummy; };

#define lockdep_is_held(lock)		sim_lock_held(&(lock)->l)
#define lockdep_assert_held(lock)	(void)WARN_ON(!sim_lock_held(&(lock)->l))
#define lockdep_set_class(lock, key)	do { (void)(key); } while (0)
#define lockdep_set_class_and_name(lock, key, name) do { } while (0)
#define lockdep_assert_irqs_enabled()	do { } while (0)
#define lockdep_assert_irqs_disabled()	do { } while (0)	/* no interrupts: always as if disabled */
#define lockdep_assert_not_held(lock)	(void)WARN_ON(sim_lock_held(&(lock)->l))

#endif /* __LINUX_LOCKDEP_H */
