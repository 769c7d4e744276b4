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
 * A grace period is compressed: real ones take milliseconds; here one ends
 * no earlier than SIM_COST_GP_LATENCY after it starts and no earlier than
 * the last CPU's quiescent state. The compression keeps a grace period
 * visible next to the operations it waits for. An SRCU grace period is
 * longer: Tree SRCU runs it from a workqueue and waits for readers of the
 * old index by polling with delays, so synchronize_srcu() takes several
 * times as long as an RCU grace period's shortest duration.
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

unsigned sim_cost_of(int cost)
{
	unsigned base;

	if (cost <= SIM_COST_NONE || cost >= SIM_NR_COSTS)
		return 0;
	base = costs[cost].ns;
	if (cost == SIM_COST_GP_LATENCY || cost == SIM_COST_SRCU_GP_LATENCY)
		return base;
	return base + (unsigned)(sim_random() % (base / 2 + 1));
}

const char *sim_cost_name(int cost)
{
	return cost > 0 && cost < SIM_NR_COSTS ? costs[cost].name : "none";
}

unsigned sim_cost_base(int cost)
{
	return cost > 0 && cost < SIM_NR_COSTS ? costs[cost].ns : 0;
}
