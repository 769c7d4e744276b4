// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "kunit-seq": the sequential scenario the real kernel referees.
 * Its body, kunit_seq_body.h, is the one kernel-tree/kunit's KUnit suite
 * runs inside User-Mode Linux; here it runs on the simulated machine (one
 * CPU, one node: UML has neither SMP nor NUMA) through the project's glue,
 * and prints the same "reclaim_lab: " lines as PRINTK events, which
 * `labrun --trace` prints. kernel-tree/kunit/compare.sh requires the
 * three traces (UML, native, wasm) to be identical.
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
#define rl_shrink_slab(memcg, priority)	lab_shrink_slab(GFP_KERNEL, 0, memcg, priority)
#define rl_list_lru_add(lru, item)	lab_list_lru_add(lru, item)
#define rl_list_lru_del(lru, item)	lab_list_lru_del(lru, item)
#define rl_shrinker_bit(memcg, s)	((int)lab_shrinker_bit(memcg, 0, s))

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

static void init_task(void *arg)
{
	if (!sim_memcg_create(NULL, "/"))
		return;
	SCENARIO_CALL("reclaim_lab_seq", 0, 0, 0);
	SCENARIO_RETURN("reclaim_lab_seq", rl_run());
	sim_memcg_free(root_mem_cgroup);
	rcu_barrier();
}

const struct scenario scenario_kunit_seq = {
	.name = "kunit-seq",
	.title = "The KUnit suite's sequential scenario (compared with User-Mode Linux)",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 1,
	.nr_nodes = 1,
	.defaults = { .seed = 1 },
	.init = init_task,
};
