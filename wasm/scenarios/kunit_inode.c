// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "kunit-inode" on the simulated machine (the inode variants
 * only): inodes with page cache on and off the inode LRU, one step after
 * another on one CPU, over the code extracted from the branch's
 * fs/inode.c (wasm/glue/inode/inode.c) and the project's page cache model
 * (wasm/glue/inode/pagecache.c). Its body, kunit_inode_body.h, is the one
 * kernel-tree/kunit's KUnit suite runs inside User-Mode Linux v6.12 on a
 * real super block with real page cache; both print the same
 * "reclaim_lab: " lines, which kernel-tree/kunit/compare.sh diffs (with
 * variant inode, built from v6.12).
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/fs.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <sim.h>
#include "scenario.h"
#include "../glue/glue.h"
#include "../glue/inode/inode.h"

#define rl_trace(fmt, ...)	printk("reclaim_lab: " fmt, ##__VA_ARGS__)

/* No drop_inode: generic_drop_inode(), as the pseudo file system's in UML. */
static const struct super_operations rl_inode_sops;
static struct lab_lruvec *rl_inode_lruvec;

static void rl_inode_evicted(struct inode *inode);

/* An active super block with its inode LRU; the page cache model's lists. */
static struct super_block *rl_inode_mount(void)
{
	struct super_block *sb = kzalloc(sizeof(*sb), GFP_KERNEL);

	rl_inode_lruvec = kzalloc(sizeof(*rl_inode_lruvec), GFP_KERNEL);
	if (!sb || !rl_inode_lruvec || list_lru_init(&sb->s_inode_lru)) {
		kfree(sb);
		kfree(rl_inode_lruvec);
		return NULL;
	}
	lab_lruvec_init(rl_inode_lruvec);
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

static int rl_inode_add_page(struct inode *inode, unsigned long index)
{
	return lab_filemap_add_folio(inode->i_mapping, index, 0);
}

static void rl_inode_settle(void)
{
}

static void rl_inode_truncate(struct inode *inode, unsigned long index)
{
	lab_truncate_inode_pages_from(inode->i_mapping, index);
}

#define rl_prune_icache_sb(sb, sc)	lab_prune_icache_sb(sb, sc)

/* generic_shutdown_super(): SB_ACTIVE off, what is left evicted. */
static void rl_inode_unmount(struct super_block *sb);

#include "kunit_inode_body.h"

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
	kfree(rl_inode_lruvec);
	rl_inode_lruvec = NULL;
}

static void kunit_inode_init(void *arg)
{
	if (!sim_memcg_create(NULL, "/"))
		return;
	SCENARIO_CALL("reclaim_lab_inode", 0, 0, 0);
	SCENARIO_RETURN("reclaim_lab_inode", rl_inode_run());
	sim_memcg_free(root_mem_cgroup);
	rcu_barrier();
}

#define KUNIT_IF_ALL(...)
#define KUNIT_IF_WORD64(...)
#define KUNIT_IF_INODE(...)	__VA_ARGS__
#define KUNIT_IF_FOLIO_LRU(...)
#define KUNIT_IF_PLANTED(...)
#define KUNIT_TREE		SIM_KERNEL_TREE
#define KUNIT_SCENARIO		KUNIT_DEFINE
#include "kunit.def"
