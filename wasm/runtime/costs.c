// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost model: how far a CPU's virtual clock advances for each operation
 * the kernel code performs through the shim.
 *
 * Figures are virtual nanoseconds chosen to keep the relative order of real
 * costs on a current x86 server (an uncontended atomic is a few ns, a
 * kmalloc around a hundred, a context switch around a microsecond), not
 * measured on any machine. Each operation costs its base plus a seeded
 * jitter of up to half the base, which is what makes seeds differ: two
 * CPUs racing through the same code interleave differently.
 *
 * A grace period ends no earlier than its latency after it starts, and no
 * earlier than the last CPU's quiescent state (RCU) or the last reader of
 * the old index (SRCU). Two time scales:
 *
 *  - for watching (the default), grace periods are compressed about a
 *    thousandfold, to a few microseconds, so that one stays visible next
 *    to the operations it waits for: 2 us for RCU, and 6 us for SRCU,
 *    whose grace periods run from a workqueue and poll for readers;
 *  - for measuring (real_gp, the stress modes), they take their real
 *    length in jiffies at HZ=1000, read from the kernel tree: an RCU grace
 *    period waits RCU_JIFFIES_TILL_FORCE_QS = 3 jiffies before forcing
 *    quiescent states (kernel/rcu/tree.h); a non-expedited SRCU grace
 *    period waits a jiffy before process_srcu() runs it
 *    (srcu_funnel_gp_start(): queue_delayed_work(..., !!srcu_get_delay()))
 *    and another before its callbacks run (srcu_gp_end(): cbdelay = 1),
 *    2 jiffies. synchronize_srcu() is expedited only when SRCU looks idle
 *    (srcu_might_be_idle()), which back-to-back callers never see.
 *
 * Every other cost is the same on both scales.
 */
#include "runtime.h"

static const struct {
	const char *name;
	unsigned ns;
} costs[SIM_NR_COSTS] = {
	[SIM_COST_NONE]          = { "none", 0 },
	[SIM_COST_ATOMIC]        = { "atomic read-modify-write", 8 },
	[SIM_COST_BARRIER]       = { "memory barrier", 6 },
	[SIM_COST_BITOP]         = { "atomic bit operation", 8 },
	[SIM_COST_LIST]          = { "list link or unlink", 6 },
	[SIM_COST_RCU_READ]      = { "rcu_read_lock/unlock", 2 },
	[SIM_COST_SPIN_LOCK]     = { "spin_lock, uncontended", 20 },
	[SIM_COST_SPIN_UNLOCK]   = { "spin_unlock", 10 },
	[SIM_COST_MUTEX_LOCK]    = { "mutex_lock, uncontended", 25 },
	[SIM_COST_MUTEX_UNLOCK]  = { "mutex_unlock", 15 },
	[SIM_COST_REFCOUNT]      = { "refcount_t operation", 10 },
	[SIM_COST_COMPLETION]    = { "completion operation", 30 },
	[SIM_COST_KMALLOC]       = { "kmalloc", 100 },
	[SIM_COST_KFREE]         = { "kfree", 60 },
	[SIM_COST_CALL_RCU]      = { "call_rcu", 40 },
	[SIM_COST_COND_RESCHED]  = { "cond_resched", 15 },
	[SIM_COST_WAKEUP]        = { "wakeup to running (context switch)", 1000 },
	[SIM_COST_SPIN_RETRY]    = { "one spin on a held lock", 20 },
	[SIM_COST_GP_LATENCY]    = { "shortest grace period", 2000 },
	[SIM_COST_SRCU_GP_LATENCY] = { "shortest SRCU grace period", 6000 },
	[SIM_COST_OBJECT_COUNT]  = { "count_objects callback", 150 },
	[SIM_COST_OBJECT_SCAN]   = { "scan_objects, per object", 80 },
	[SIM_COST_SCENARIO_STEP] = { "scenario bookkeeping", 50 },
};

#define JIFFY_NS 1000000u	/* HZ=1000 */

static int real_gp;

void sim_costs_real_gp(int real)
{
	real_gp = real;
}

int sim_costs_are_real_gp(void)
{
	return real_gp;
}

unsigned sim_cost_base(int cost)
{
	if (cost <= SIM_COST_NONE || cost >= SIM_NR_COSTS)
		return 0;
	if (real_gp && cost == SIM_COST_GP_LATENCY)
		return 3 * JIFFY_NS;
	if (real_gp && cost == SIM_COST_SRCU_GP_LATENCY)
		return 2 * JIFFY_NS;
	return costs[cost].ns;
}

unsigned sim_cost_of(int cost)
{
	unsigned base;

	if (cost <= SIM_COST_NONE || cost >= SIM_NR_COSTS)
		return 0;
	base = sim_cost_base(cost);
	if (cost == SIM_COST_GP_LATENCY || cost == SIM_COST_SRCU_GP_LATENCY)
		return base;
	return base + (unsigned)(sim_random() % (base / 2 + 1));
}

const char *sim_cost_name(int cost)
{
	return cost > 0 && cost < SIM_NR_COSTS ? costs[cost].name : "none";
}

