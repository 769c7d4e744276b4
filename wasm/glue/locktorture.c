// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/locking/locktorture.c of 6.12 on the simulated machine: the
 * test and the lock types the runtime has, extracted with their lines
 * (wasm/extract/selftest-locktorture.txt), compiled as they are.
 *
 * lock_torture_init() names every lock type of the file in its table.
 * The ones whose primitive the runtime lacks (raw_spinlock_t, rwlock_t,
 * ww_mutex, percpu_rw_semaphore; rt_mutex is behind CONFIG_RT_MUTEXES,
 * off) are declared here and defined below as "not built": their names
 * say so, so that torture_type=<one of them> is an invalid type, and the
 * list init prints shows it.
 */
#include <linux/types.h>
/* what the kernel's headers bring into locktorture.c on the way */
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/preempt.h>

struct lock_torture_ops;
#define SIM_LOCKTORTURE_NOT_BUILT(ops, type) extern struct lock_torture_ops ops;
#define SIM_LOCKTORTURE_NOT_BUILT_LIST(x)					\
	x(raw_spin_lock_ops, "raw_spin_lock") x(raw_spin_lock_irq_ops, "raw_spin_lock_irq")	\
	x(rw_lock_ops, "rw_lock") x(rw_lock_irq_ops, "rw_lock_irq")				\
	x(ww_mutex_lock_ops, "ww_mutex_lock") x(percpu_rwsem_lock_ops, "percpu_rwsem_lock")
SIM_LOCKTORTURE_NOT_BUILT_LIST(SIM_LOCKTORTURE_NOT_BUILT)

/*
 * Stubbed: start_poll_synchronize_rcu() is called only by the
 * call_rcu_chains option (0 here); its cookie is never polled, and the
 * call_rcu() after it starts a grace period anyway.
 */
#define start_poll_synchronize_rcu()	0UL

#include "kernel/locking/locktorture-extract.c"

#undef SIM_LOCKTORTURE_NOT_BUILT
#define SIM_LOCKTORTURE_NOT_BUILT(ops, type) struct lock_torture_ops ops = { .name = type " (not built)" };
SIM_LOCKTORTURE_NOT_BUILT_LIST(SIM_LOCKTORTURE_NOT_BUILT)

/*
 * The test's verdict as lock_torture_cleanup() decides it: the errors its
 * statistics counted (a "Fail: 1 !!!" line each); the scenario reports a
 * FAILURE (wasm/scenarios/selftest_locktorture.c).
 */
int sim_locktorture_errors(void)
{
	return atomic_read(&cxt.n_lock_torture_errors);
}
