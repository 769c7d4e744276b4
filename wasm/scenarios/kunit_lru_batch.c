// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "kunit-lru-batch" on the simulated machine (variant lru-batch
 * only): the lru-batch scene's operations one after another on one CPU,
 * over the project's port of the 2018 lru_lock RFC (mm/lru_batch.c on
 * branch lru-batch-locks, not upstream code). Its body,
 * kunit_lru_batch_body.h, is the one kernel-tree/kunit's KUnit suite runs
 * inside User-Mode Linux built from that branch; both print the same
 * "reclaim_lab: " lines, which kernel-tree/kunit/compare.sh diffs.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/lru_batch.h>
#include <sim.h>
#include "scenario.h"

#define rl_trace(fmt, ...)	printk("reclaim_lab: " fmt, ##__VA_ARGS__)

#include "kunit_lru_batch_body.h"

static void kunit_lru_batch_init(void *arg)
{
	SCENARIO_CALL("reclaim_lab_lru_batch", 0, 0, 0);
	SCENARIO_RETURN("reclaim_lab_lru_batch", rl_lb_run());
}

#define KUNIT_IF_ALL(...)
#define KUNIT_IF_WORD64(...)
#define KUNIT_IF_LRU_BATCH(...)	__VA_ARGS__
#define KUNIT_IF_INODE(...)
#define KUNIT_IF_PLANTED(...)
#define KUNIT_TREE		SIM_KERNEL_TREE
#define KUNIT_SCENARIO		KUNIT_DEFINE
#include "kunit.def"
