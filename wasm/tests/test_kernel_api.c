// SPDX-License-Identifier: GPL-2.0-only
/*
 * Litmus tests of the primitives as kernel code sees them (through the
 * shim's macros), each documented against the kernel's own rules:
 * refcount_t (include/linux/refcount.h: saturation, no increment from 0),
 * RCU nesting and kvfree_rcu() (Documentation/RCU/whatisRCU.rst), per-CPU
 * data (Documentation/core-api/this_cpu_ops.rst), spinlocks and mutexes on
 * up to 64 CPUs, and sleep and wakeup (kernel/sched/core.c: a wakeup
 * between set_current_state() and schedule() is not lost).
 */
#include <limits.h>
#include <string.h>
#include "test.h"
#include "litmus_kernel.h"
#include "../runtime/runtime.h"

static int boot_policy(int cpus, unsigned long long seed, int policy)
{
	struct sim_config cfg = { .nr_cpus = cpus, .nr_nodes = 1, .seed = seed, .policy = policy };

	memset(&litmus, 0, sizeof(litmus));
	return sim_init(&cfg);
}

static int boot(int cpus)
{
	return boot_policy(cpus, 3, SIM_POLICY_TIMED);
}

static int reports_of(int type)
{
	int n = 0;

	for (int i = 0; i < sim_nr_reports(); i++) {
		int ty, ev;
		const char *title, *text;

		sim_report_info(i, &ty, &ev, &title, &text);
		n += ty == type;
	}
	return n;
}

TEST(refcount_saturates_and_warns)
{
	ASSERT_EQ(boot(1), 0);
	litmus_refcount();
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(litmus.dec_and_test_hit_zero, 1);
	ASSERT_EQ(litmus.after_inc_on_zero, INT_MIN / 2);	/* REFCOUNT_SATURATED */
	ASSERT_EQ(litmus.after_overflow, INT_MIN / 2);
	ASSERT_EQ(litmus.after_underflow, INT_MIN / 2);
	ASSERT_EQ(litmus.inc_not_zero_on_zero, 1);	/* saturated is not zero */
	ASSERT_EQ(reports_of(SIM_REPORT_WARN), 3);
	sim_fini();
	return 0;
}

TEST(a_nested_reader_holds_the_grace_period_until_its_outer_unlock)
{
	ASSERT_EQ(boot(2), 0);
	litmus_rcu_nesting();
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(litmus.reader_inside_after_sync, 0);
	sim_fini();
	return 0;
}

TEST(kvfree_rcu_frees_only_after_the_readers)
{
	ASSERT_EQ(boot(2), 0);
	litmus_kvfree_rcu();
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(litmus.read_value, 42);
	ASSERT_EQ(reports_of(SIM_REPORT_KASAN), 0);
	ASSERT_EQ(sim_live_objects(), 0);
	sim_fini();
	return 0;
}

TEST(per_cpu_data_has_a_copy_per_cpu)
{
	ASSERT_EQ(boot(4), 0);
	litmus_percpu(4);
	ASSERT_EQ(sim_run(), SIM_DONE);
	litmus_percpu_collect(4);
	ASSERT_EQ(litmus.percpu_ok, 1);
	sim_fini();
	return 0;
}

TEST(locks_exclude_on_64_cpus)
{
	ASSERT_EQ(boot(64), 0);
	litmus_many_cpus(64);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(litmus.counter, 64 * 3);
	ASSERT_EQ(litmus.mutex_counter, 64 * 3);
	ASSERT_EQ(sim_nr_reports(), 0);
	sim_fini();
	return 0;
}

/*
 * The waker sets the flag and wakes the waiter wherever it is: before its
 * set_current_state(), between that and schedule(), or asleep in it.
 * Under every policy and 50 seeds each, the waiter always gets out.
 */
TEST(a_wakeup_before_schedule_is_not_lost)
{
	for (int policy = 0; policy < SIM_NR_POLICIES; policy++) {
		for (unsigned long long seed = 1; seed <= 50; seed++) {
			ASSERT_EQ(boot_policy(2, seed, policy), 0);
			litmus_wakeup();
			ASSERT_EQ(sim_run(), SIM_DONE);
			ASSERT_EQ(litmus.woken, 1);
			ASSERT_EQ(sim_nr_reports(), 0);
			sim_fini();
		}
	}
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(refcount_saturates_and_warns),
		RUN(a_nested_reader_holds_the_grace_period_until_its_outer_unlock),
		RUN(kvfree_rcu_frees_only_after_the_readers),
		RUN(per_cpu_data_has_a_copy_per_cpu),
		RUN(locks_exclude_on_64_cpus),
		RUN(a_wakeup_before_schedule_is_not_lost),
	};

	return run_tests("kernel-api", tests, sizeof(tests) / sizeof(tests[0]));
}
