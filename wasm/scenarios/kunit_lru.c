// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "kunit-lru" on the simulated machine (the kernels with the
 * folio LRU: v6.12): 6.12's folio LRU one step after another on one CPU,
 * over the code wasm/glue/lru/ extracts from the branch, with the glue's
 * page allocator and memcg charging. Its body, kunit_lru_body.h, is the
 * one kernel-tree/kunit's KUnit suite runs inside User-Mode Linux over
 * the kernel's own; both print the same "reclaim_lab: " lines, which
 * kernel-tree/kunit/compare.sh diffs.
 */
#include "../glue/lru/lru.h"
#include <linux/string.h>
#include "scenario.h"
#include "../glue/glue.h"

#define rl_trace(fmt, ...)	printk("reclaim_lab: " fmt, ##__VA_ARGS__)
#define RL_ROOT			root_mem_cgroup
#define rl_memcg_create(parent, name)	sim_memcg_create(parent, name)
#define rl_folio_alloc()	lab_folio_alloc(GFP_KERNEL, 0)

static void rl_memcg_release(struct mem_cgroup *memcg)
{
	sim_memcg_offline(memcg);
	sim_memcg_free(memcg);
}

#include "kunit_lru_body.h"

#define KUNIT_LRU_PAGES 64	/* the machine's memory: the body's 40 folios, and room */

static void kunit_lru_init(void *arg)
{
	if (!sim_memcg_create(NULL, "/"))
		return;
	if (!lab_mem_map_init(KUNIT_LRU_PAGES, 0)) {
		SCENARIO_CALL("reclaim_lab_lru", 0, 0, 0);
		SCENARIO_RETURN("reclaim_lab_lru", rl_lru_run());
		WARN(lab_nr_free_pages() != KUNIT_LRU_PAGES, "kunit-lru: %lu pages not freed",
		     KUNIT_LRU_PAGES - lab_nr_free_pages());
		lab_mem_map_free();
	}
	sim_memcg_free(root_mem_cgroup);
}

#define KUNIT_IF_ALL(...)
#define KUNIT_IF_WORD64(...)
#define KUNIT_IF_INODE(...)
#define KUNIT_IF_FOLIO_LRU(...)	__VA_ARGS__
#define KUNIT_IF_PLANTED(...)
#define KUNIT_TREE		SIM_KERNEL_TREE
#define KUNIT_SCENARIO		KUNIT_DEFINE
#include "kunit.def"
