/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenarios "kunit-planted" and "kunit-planted-taint": the planted-bugs
 * scene's three bugs, one after another in one task, each after the same
 * step done right, so that the kernel's own checkers can referee the
 * simulated kernel's reports. Compiled twice: by
 * wasm/scenarios/planted_bugs.c in the simulation, where the reports come
 * from the project's runtime (wasm/runtime/reports.c, kasan.c), and by
 * kernel-tree/kunit/reclaim_lab_kunit.c inside User-Mode Linux built with
 * KASAN, PROVE_LOCKING and DEBUG_ATOMIC_SLEEP, where they come from the
 * kernel's KASAN, lockdep and __might_resched(). Like the scene's code,
 * this is project code, not kernel code.
 *
 * Lockdep reports once and then turns itself off, and a KASAN report
 * taints the kernel and turns lockdep off as well, so the order matters
 * and each order needs a boot of its own:
 *
 *   kunit-planted        the scene's order: the lock-order inversion,
 *                        sleeping inside rcu_read_lock(), the
 *                        use-after-free; all three are reported
 *   kunit-planted-taint  the use-after-free first: after its report
 *                        lockdep is off, and the inversion goes unseen
 *
 * After each step the reports it caused are read back as text (the
 * harness's rl_reports_take()) and reduced by kunit_reports.h to what both
 * kernels print the same way. UML's RCU is preemptible here (CONFIG_PREEMPT), as the
 * simulated kernel's is, so rcu_read_lock() shows as "RCU nest depth", not
 * as a preempt count.
 *
 * The harness defines, before including this file:
 *   rl_trace(fmt, ...)            print one "reclaim_lab: " trace line
 *   rl_reports_skip()             forget what was printed so far
 *   rl_reports_take(buf, size)    the text printed since, NUL-terminated
 *   rl_debug_locks()              lockdep still on
 */
#ifndef RECLAIM_LAB_KUNIT_PLANTED_BODY_H
#define RECLAIM_LAB_KUNIT_PLANTED_BODY_H

#include "kunit_reports.h"

#define RL_PL_TEXT 32768	/* a KASAN report with its stacks fits */

struct rl_planted_object {
	int value;
	int pad[7];		/* 32 bytes, a kmalloc-32 object in both kernels */
};

static DEFINE_MUTEX(rl_lock_a);
static DEFINE_MUTEX(rl_lock_b);
static char *rl_pl_text;

static void rl_pl_check(const char *step)
{
	rl_reports_take(rl_pl_text, RL_PL_TEXT);
	rl_reports_reduce(step, rl_pl_text);
	rl_reports_skip();	/* not the lines just printed */
}

/* lock_a, then lock_b: the order the inversion breaks */
static void rl_pl_lock_in_order(void)
{
	mutex_lock(&rl_lock_a);
	mutex_lock(&rl_lock_b);
	mutex_unlock(&rl_lock_b);
	mutex_unlock(&rl_lock_a);
}

static void rl_pl_inversion(void)
{
	rl_pl_lock_in_order();
	rl_pl_check("lock_a then lock_b");
	mutex_lock(&rl_lock_b);
	mutex_lock(&rl_lock_a);	/* BUG: lock order inversion */
	mutex_unlock(&rl_lock_a);
	mutex_unlock(&rl_lock_b);
	rl_pl_check("lock_b then lock_a");
}

static void rl_pl_sleep_in_rcu(void)
{
	mutex_lock(&rl_lock_a);
	mutex_unlock(&rl_lock_a);
	rl_pl_check("mutex_lock() outside rcu_read_lock()");
	rcu_read_lock();
	mutex_lock(&rl_lock_a);	/* BUG: sleeping in RCU read-side section */
	mutex_unlock(&rl_lock_a);
	rcu_read_unlock();
	rl_pl_check("mutex_lock() inside rcu_read_lock()");
}

static int rl_pl_use_after_free(void)
{
	struct rl_planted_object *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	int v;

	if (!obj)
		return -ENOMEM;
	WRITE_ONCE(obj->value, 1);
	v = READ_ONCE(obj->value);
	rl_pl_check("read before kfree()");
	kfree(obj);
	OPTIMIZER_HIDE_VAR(obj);
	v += READ_ONCE(obj->value);	/* BUG: use-after-free */
	rl_pl_check("read after kfree()");
	/* what the freed memory held is garbage (in UML, whatever KASAN or the slab left) */
	OPTIMIZER_HIDE_VAR(v);
	return 0;
}

static int rl_planted_run(bool uaf_first)
{
	int err = 0;

	rl_pl_text = kmalloc(RL_PL_TEXT, GFP_KERNEL);
	if (!rl_pl_text)
		return -ENOMEM;
	rl_trace("scenario %s", uaf_first ? "kunit-planted-taint" : "kunit-planted");
	rl_trace("lockdep: %s", rl_debug_locks() ? "on" : "off");
	rl_reports_skip();
	if (uaf_first)
		err = rl_pl_use_after_free();
	rl_pl_inversion();
	rl_pl_sleep_in_rcu();
	if (!uaf_first)
		err = rl_pl_use_after_free();
	rl_trace("lockdep: %s", rl_debug_locks() ? "on" : "off");
	kfree(rl_pl_text);
	rl_pl_text = NULL;
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_PLANTED_BODY_H */
