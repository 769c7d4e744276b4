/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Project code: what the inode-lru scenario reaches of the inode LRU code
 * extracted from fs/inode.c (wasm/glue/inode/inode.c), and the project's
 * model of the page cache and the file LRU lists (pagecache.c), which
 * 6.12's folio code cannot be compiled apart from the rest of mm for.
 */
#ifndef SIM_GLUE_INODE_H
#define SIM_GLUE_INODE_H

#include <linux/fs.h>
#include <linux/shrinker.h>
#include <sim.h>

/* Codes of LRU_ITEM events (sim.h): the lru_status an isolate callback returned, and the ops. */
enum {
#define LAB_LRU_STATUS(name, code) LAB_LRU_##name = code,
	SIM_LRU_STATUSES(LAB_LRU_STATUS)
#undef LAB_LRU_STATUS
#define LAB_LRU_OP(name, code) LAB_LRU_OP_##name = code,
	SIM_LRU_ITEM_OPS(LAB_LRU_OP)
#undef LAB_LRU_OP
};

/* The cost model's memory access per inode the shrinker visits, in ns. */
extern unsigned int lab_inode_visit_ns;
/* Called by evict() before the inode is freed. */
extern void (*lab_inode_evicted)(struct inode *inode);

/* The sum of fs/inode.c's per-CPU nr_unused. */
long lab_inode_nr_unused(void);
/* The real mapping_shrinkable() of include/linux/pagemap.h. */
bool lab_mapping_shrinkable(struct address_space *mapping);
/* fs/super.c super_cache_count()/super_cache_scan(), for inodes only. */
unsigned long lab_super_cache_count(struct shrinker *s, struct shrink_control *sc);
unsigned long lab_super_cache_scan(struct shrinker *s, struct shrink_control *sc);
/* fs/inode.c prune_icache_sb(), as the scenarios call it. */
long lab_prune_icache_sb(struct super_block *sb, struct shrink_control *sc);
/* new_inode() and insert_inode_hash(): an inode of sb in use, hashed, one link, on no list. */
struct inode *lab_new_inode(struct super_block *sb, unsigned long ino);
/* Teardown: the inode off the LRU, its pages gone, freed. */
void lab_inode_destroy(struct inode *inode);

/* ---- the page cache and file LRU model (project code) ---- */
struct folio {
	struct list_head	lru;
	struct address_space	*mapping;
	unsigned long		index;
	int			active;
};

struct lab_lruvec {
	spinlock_t		lru_lock;
	struct list_head	inactive_file;
	struct list_head	active_file;
	unsigned long		nr_inactive;
	unsigned long		nr_active;
	unsigned int		reclaim_ns;	/* cost model: a reclaimed page's other work */
};

extern struct lab_lruvec *lab_page_lruvec;

void lab_lruvec_init(struct lab_lruvec *lruvec);
/* A new page at index of mapping, on the active or inactive file list. */
int lab_filemap_add_folio(struct address_space *mapping, unsigned long index, int active);
/* Reclaim up to nr_to_scan pages from the inactive file list's tail; returns how many went. */
unsigned long lab_shrink_inactive_list(unsigned long nr_to_scan);
/*
 * truncate_inode_pages(mapping, start << PAGE_SHIFT): the pages from
 * index start dropped, then, as mm/filemap.c delete_from_page_cache_batch()
 * does when it deleted any, inode_add_lru() if mapping_shrinkable().
 */
void lab_truncate_inode_pages_from(struct address_space *mapping, unsigned long start);
/* Every page of mapping dropped (teardown and evict()). */
void lab_truncate_inode_pages(struct address_space *mapping);

#endif /* SIM_GLUE_INODE_H */
