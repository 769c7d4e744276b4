// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sequential scenarios the real kernel referees, on the simulated
 * machine: "kunit-seq", and one per scene taken from what the scene does
 * ("kunit-lifetime", "kunit-churn", "kunit-bitmap", and those that reach where
 * the kernel's semantics are subtle: "kunit-offline", "kunit-deferred",
 * "kunit-reuse", "kunit-runaway", "kunit-bigcount"; "kunit-lru-batch" is
 * in kunit_lru_batch.c, for the lru-batch variant only). Their bodies
 * (kunit_*_body.h) are the ones kernel-tree/kunit's KUnit suite runs
 * inside User-Mode Linux; here they run on one CPU and one node (UML has
 * neither SMP nor NUMA) through the project's glue, and print the same
 * "reclaim_lab: " lines as PRINTK events, which `labrun --trace` prints.
 * kernel-tree/kunit/compare.sh requires the three traces (UML, native,
 * wasm) to be identical.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <sim.h>
#include "scenario.h"
#include "../glue/glue.h"

#define rl_trace(fmt, ...)	printk("reclaim_lab: " fmt, ##__VA_ARGS__)
#define RL_ROOT			root_mem_cgroup

#define rl_memcg_create(parent, name)	sim_memcg_create(parent, name)
#define rl_shrinker_alloc(flags, name)	lab_shrinker_alloc(flags, name)
#define rl_shrinker_register(s, count, scan, private_data) \
	lab_shrinker_register(s, count, scan, private_data)
#define rl_shrinker_private(s)		lab_shrinker_private(s)
#define rl_shrinker_free(s)		lab_shrinker_free(s)
#define rl_shrink_slab(gfp, memcg, priority)	lab_shrink_slab(gfp, 0, memcg, priority)
#define rl_list_lru_add(lru, item)	lab_list_lru_add(lru, item)
#define rl_list_lru_del(lru, item)	lab_list_lru_del(lru, item)
#define rl_shrinker_bit(memcg, s)	((int)lab_shrinker_bit(memcg, 0, s))
#define rl_nr_deferred(memcg, s)	lab_nr_deferred(memcg, 0, s)

/* rmdir in UML; here mem_cgroup_css_offline(), now */
static void rl_memcg_offline(struct mem_cgroup *memcg)
{
	if (memcg && mem_cgroup_online(memcg))
		sim_memcg_offline(memcg);
}

static void rl_memcg_release(struct mem_cgroup *memcg)
{
	if (!memcg)
		return;
	rl_memcg_offline(memcg);
	sim_memcg_free(memcg);
}

static void *rl_alloc_charged(size_t size, struct mem_cgroup *memcg)
{
	void *p;

	sim_set_alloc_memcg(memcg);
	p = kzalloc(size, memcg ? GFP_KERNEL_ACCOUNT : GFP_KERNEL);
	sim_set_alloc_memcg(NULL);
	return p;
}

#include "kunit_seq_body.h"
#include "kunit_lifetime_body.h"
#include "kunit_churn_body.h"
#include "kunit_bitmap_body.h"
#include "kunit_offline_body.h"
#include "kunit_deferred_body.h"
#include "kunit_reuse_body.h"
#include "kunit_runaway_body.h"
#include "kunit_bigcount_body.h"

/* The init task of each: the root memcg, the body, what is left for RCU. */
static void run_body(const char *name, int (*body)(void))
{
	if (!sim_memcg_create(NULL, "/"))
		return;
	SCENARIO_CALL(name, 0, 0, 0);
	SCENARIO_RETURN(name, body());
	sim_memcg_free(root_mem_cgroup);
	rcu_barrier();
}

/* The scenarios kunit.def lists as ALL: an init task each, named as the KUnit case. */
#define KUNIT_SCENARIO(ident, name, fn, where, variant, title)			\
	KUNIT_IF_##where(static void kunit_##ident##_init(void *arg)		\
	{									\
		run_body("reclaim_lab_" #ident, fn);				\
	})
#define KUNIT_IF_ALL(...)		__VA_ARGS__
#define KUNIT_IF_WORD64(...)		__VA_ARGS__
#define KUNIT_IF_INODE(...)
#define KUNIT_IF_FOLIO_LRU(...)
#define KUNIT_IF_PLANTED(...)
#include "kunit.def"
#undef KUNIT_SCENARIO

#define KUNIT_TREE		SIM_KERNEL_TREE
#define KUNIT_SCENARIO		KUNIT_DEFINE
#include "kunit.def"
