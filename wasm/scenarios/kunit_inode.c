// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenarios "kunit-inode" and "kunit-shadow" on the simulated machine (the
 * inode variants only): inodes with page cache on and off the inode LRU,
 * and the shadow entries reclaim leaves, one step after another on one CPU, over the code extracted from the branch's
 * fs/inode.c (wasm/glue/inode/inode.c) and the page cache extracted from
 * mm/filemap.c, mm/truncate.c and mm/workingset.c (wasm/glue/inode/filemap.c)
 * over the real folio LRU. Their bodies, kunit_inode_body.h and
 * kunit_shadow_body.h, are the ones kernel-tree/kunit's KUnit suite runs
 * inside User-Mode Linux v6.12 on a real super block with real page
 * cache; both print the same
 * "reclaim_lab: " lines, which kernel-tree/kunit/compare.sh diffs (with
 * variant inode, built from v6.12).
 */
#include "../glue/lru/lru.h"
#include <linux/string.h>
#include <linux/list_lru.h>
#include "scenario.h"
#include "../glue/glue.h"
#include "../glue/inode/inode.h"

/* The machine's memory: the case's pages, and room for the lru_add batch */
#define RL_INODE_PAGES	64

#define rl_trace(fmt, ...)	printk("reclaim_lab: " fmt, ##__VA_ARGS__)

/* No drop_inode: generic_drop_inode(), as the pseudo file system's in UML. */
static const struct super_operations rl_inode_sops;

static void rl_inode_evicted(struct inode *inode);

/* An active super block with its inode LRU. */
static struct super_block *rl_inode_mount(void)
{
	struct super_block *sb = kzalloc(sizeof(*sb), GFP_KERNEL);

	if (!sb || list_lru_init(&sb->s_inode_lru)) {
		kfree(sb);
		return NULL;
	}
	sb->s_flags = SB_ACTIVE;
	sb->s_op = &rl_inode_sops;
	lab_inode_evicted = rl_inode_evicted;
	return sb;
}

/* new_inode() and insert_inode_hash(): in use, hashed, one link. */
static struct inode *rl_inode_new(struct super_block *sb, unsigned long ino)
{
	return lab_new_inode(sb, ino);
}

/* A clean page read in at index: the real filemap_add_folio(), as __filemap_get_folio(FGP_CREAT) in UML. */
static int rl_inode_add_page(struct inode *inode, unsigned long index)
{
	struct folio *folio = lab_folio_alloc(GFP_KERNEL, 0);

	return folio ? lab_filemap_read_folio(inode->i_mapping, folio, index, 0) : -ENOMEM;
}

/* The new folios out of this CPU's lru_add batch, onto the LRU lists. */
static void rl_inode_settle(void)
{
	lru_add_drain();
}

static void rl_inode_truncate(struct inode *inode, unsigned long index)
{
	truncate_inode_pages(inode->i_mapping, (loff_t)index << PAGE_SHIFT);
}

#define rl_prune_icache_sb(sb, sc)	lab_prune_icache_sb(sb, sc)

/* generic_shutdown_super(): SB_ACTIVE off, what is left evicted. */
static void rl_inode_unmount(struct super_block *sb);

#include "kunit_inode_body.h"

/* kunit-shadow's memcg, below the root, online */
static struct mem_cgroup *rl_shadow_memcg_create(void)
{
	return sim_memcg_create(root_mem_cgroup, "shadow");
}

static void rl_shadow_memcg_release(struct mem_cgroup *memcg)
{
	sim_memcg_offline(memcg);
	sim_memcg_free(memcg);
}

/* The glue's statistics are exact at every step: nothing to flush */
#define rl_shadow_flush(memcg)	do { (void)(memcg); } while (0)

#include "kunit_shadow_body.h"

static void rl_inode_unmount(struct super_block *sb)
{
	int i;

	sb->s_flags &= ~SB_ACTIVE;
	for (i = 0; i < RL_INODES; i++)
		if (rl_inode[i])
			lab_inode_destroy(rl_inode[i]);
	list_lru_destroy(&sb->s_inode_lru);
	lab_inode_evicted = NULL;
	kfree(sb);
}

/* A case on a fresh machine: the root memcg, the pages, and (kunit-shadow) workingset_init() */
static void rl_inode_case(const char *name, int (*run)(void), bool workingset)
{
	if (!sim_memcg_create(NULL, "/"))
		return;
	if (lab_mem_map_init(RL_INODE_PAGES, 0))
		goto free_root;
	if (workingset && lab_workingset_init())
		goto free_map;
	SCENARIO_CALL(name, 0, 0, 0);
	SCENARIO_RETURN(name, run());
	lru_add_drain();
	WARN(lab_nr_free_pages() != lab_nr_pages, "%s: %lu pages not freed", name,
	     lab_nr_pages - lab_nr_free_pages());
	if (workingset) {
		WARN(lab_shadow_nodes_count(), "%s: %lu shadow nodes left", name, lab_shadow_nodes_count());
		lab_workingset_exit();
	}
free_map:
	lab_mem_map_free();
free_root:
	sim_memcg_free(root_mem_cgroup);
	rcu_barrier();
}

static void kunit_inode_init(void *arg)
{
	rl_inode_case("reclaim_lab_inode", rl_inode_run, false);
}

static void kunit_shadow_init(void *arg)
{
	rl_inode_case("reclaim_lab_shadow", rl_shadow_run, true);
}

#define KUNIT_IF_ALL(...)
#define KUNIT_IF_WORD64(...)
#define KUNIT_IF_INODE(...)	__VA_ARGS__
#define KUNIT_IF_FOLIO_LRU(...)
#define KUNIT_IF_PLANTED(...)
#define KUNIT_TREE		SIM_KERNEL_TREE
#define KUNIT_SCENARIO		KUNIT_DEFINE
#include "kunit.def"
