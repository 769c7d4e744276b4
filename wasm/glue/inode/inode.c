// SPDX-License-Identifier: GPL-2.0-only
/*
 * Project code that compiles the inode LRU code extracted from the
 * branch's fs/inode.c (wasm/extract/inode-fs.txt), with its real line
 * numbers, and stands in for what it calls elsewhere in the kernel: no
 * buffer heads, no writeback, no dirty inodes; evict() is fs/inode.c's
 * without the super block's ->evict_inode (none here) and the inode hash
 * wake-ups: the real truncate_inode_pages_final() (mm/truncate.c, in
 * wasm/glue/inode/filemap.c) and clear_inode(), then the free.
 *
 * Observability: each list_lru_add_obj()/list_lru_del_obj() call and each
 * lru_status that inode_lru_isolate() returns is recorded as an LRU_ITEM
 * event at its line of fs/inode.c: the macros below expand inside the
 * extracted code. The cost model's memory access per inode visited
 * (lab_inode_visit_ns) is charged at that return too.
 */
#include "../lru/lru.h"
#include <linux/list_lru.h>
#include <linux/shrinker.h>
#include "inode.h"

unsigned int lab_inode_visit_ns;
void (*lab_inode_evicted)(struct inode *inode);

/* What fs/inode.c calls in the rest of the kernel. */
static bool inode_has_buffers(struct inode *inode) { return false; }	/* fs/buffer.c */
static int remove_inode_buffers(struct inode *inode) { return 1; }
static int write_inode_now(struct inode *inode, int sync) { return 0; }	/* no dirty inodes */
static void mark_inode_dirty_sync(struct inode *inode) { }
#define trace_writeback_lazytime_iput(inode)	do { } while (0)
#define mm_account_reclaimed_pages(n)		do { (void)(n); } while (0)
static void evict(struct inode *inode);

static int lab_lru_item(int op, int ret, struct inode *inode, const struct sim_site *site)
{
	sim_event(SIM_EV_LRU_ITEM, site, sim_obj_of(inode), op, ret, (int)inode->i_mapping->nrpages);
	return ret;
}

static enum lru_status lab_lru_status(enum lru_status status, int code, struct inode *inode,
				      const struct sim_site *site)
{
	if (lab_inode_visit_ns)
		sim_busy_ns(lab_inode_visit_ns, site);
	lab_lru_item(LAB_LRU_OP_ISOLATE, code, inode, site);
	return status;
}

/* Each return of inode_lru_isolate() names its line (a macro is not expanded inside itself). */
#define LRU_REMOVED		lab_lru_status(LRU_REMOVED, LAB_LRU_REMOVED, inode, SIM_SITE())
#define LRU_REMOVED_RETRY	lab_lru_status(LRU_REMOVED_RETRY, LAB_LRU_REMOVED_RETRY, inode, SIM_SITE())
#define LRU_ROTATE		lab_lru_status(LRU_ROTATE, LAB_LRU_ROTATE, inode, SIM_SITE())
#define LRU_SKIP		lab_lru_status(LRU_SKIP, LAB_LRU_SKIP, inode, SIM_SITE())
#define LRU_RETRY		lab_lru_status(LRU_RETRY, LAB_LRU_RETRY, inode, SIM_SITE())
#define LRU_STOP		lab_lru_status(LRU_STOP, LAB_LRU_STOP, inode, SIM_SITE())
#define LRU_ROTATE_NODEFER	lab_lru_status(LRU_ROTATE_NODEFER, LAB_LRU_ROTATE_NODEFER, inode, SIM_SITE())
#define list_lru_add_obj(lru, item) \
	lab_lru_item(LAB_LRU_OP_ADD, list_lru_add_obj(lru, item), \
		     container_of(item, struct inode, i_lru), SIM_SITE())
#define list_lru_del_obj(lru, item) \
	lab_lru_item(LAB_LRU_OP_DEL, list_lru_del_obj(lru, item), \
		     container_of(item, struct inode, i_lru), SIM_SITE())

#include "fs/inode-extract.c"

#undef list_lru_add_obj
#undef list_lru_del_obj

/*
 * fs/inode.c evict(), reduced to what these inodes have: no writeback
 * list, no super block list, no hash, no file system's evict_inode, so
 * its else branch, the real truncate_inode_pages_final() (mm/truncate.c)
 * and clear_inode(), then the inode freed (destroy_inode()).
 */
static void evict(struct inode *inode)
{
	BUG_ON(!(inode->i_state & I_FREEING));
	BUG_ON(!list_empty(&inode->i_lru));
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (lab_inode_evicted)
		lab_inode_evicted(inode);
	kfree(inode);
}

long lab_inode_nr_unused(void)
{
	long sum = 0;
	int cpu;

	for (cpu = 0; cpu < SIM_NR_POSSIBLE_CPUS; cpu++)
		sum += (long)per_cpu(nr_unused, cpu);
	return sum;
}

bool lab_mapping_shrinkable(struct address_space *mapping)
{
	return mapping_shrinkable(mapping);
}

/*
 * fs/super.c super_cache_count(): the super block's objects for this
 * shrinker, here its inodes only (no dentries, no file system objects),
 * scaled by vfs_cache_pressure at its default of 100.
 */
unsigned long lab_super_cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct super_block *sb = s->private_data;
	unsigned long total = list_lru_shrink_count(&sb->s_inode_lru, sc);

	if (!total)
		return SHRINK_EMPTY;
	return total;
}

/*
 * fs/super.c super_cache_scan(): nr_to_scan proportioned between the
 * caches (here: inodes, out of inodes + 1) and handed to prune_icache_sb().
 */
unsigned long lab_super_cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct super_block *sb = s->private_data;
	unsigned long inodes = list_lru_shrink_count(&sb->s_inode_lru, sc);
	unsigned long total = inodes + 1;

	inodes = sc->nr_to_scan * inodes / total;
	sc->nr_to_scan = inodes + 1;
	return prune_icache_sb(sb, sc);
}

long lab_prune_icache_sb(struct super_block *sb, struct shrink_control *sc)
{
	return prune_icache_sb(sb, sc);
}

/* fs/inode.c's empty_aops, which inode_init_always() gives a new inode */
static const struct address_space_operations lab_empty_aops = {
};

struct inode *lab_new_inode(struct super_block *sb, unsigned long ino)
{
	struct inode *inode = kzalloc(sizeof(*inode), GFP_KERNEL);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_nlink = 1;
	inode->i_sb = sb;
	spin_lock_init(&inode->i_lock);
	atomic_set(&inode->i_count, 1);
	hlist_add_fake(&inode->i_hash);
	INIT_LIST_HEAD(&inode->i_lru);
	INIT_LIST_HEAD(&inode->i_wb_list);
	inode->i_data.host = inode;
	inode->i_data.a_ops = &lab_empty_aops;
	INIT_LIST_HEAD(&inode->i_data.i_private_list);
	/* fs/inode.c __address_space_init_once(): its XArray's nodes are accounted */
	xa_init_flags(&inode->i_data.i_pages, XA_FLAGS_LOCK_IRQ | XA_FLAGS_ACCOUNT);
	inode->i_mapping = &inode->i_data;
	return inode;
}

void lab_inode_destroy(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	inode->i_state |= I_FREEING;
	if (!list_empty(&inode->i_lru))
		inode_lru_list_del(inode);
	spin_unlock(&inode->i_lock);
	evict(inode);
}
