/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Project code: what the inode-lru scenario reaches of the inode LRU code
 * extracted from fs/inode.c (wasm/glue/inode/inode.c) and of the page
 * cache extracted from mm/filemap.c, mm/truncate.c and mm/workingset.c
 * (wasm/glue/inode/filemap.c), over the real folio LRU (wasm/glue/lru/).
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

/* ---- the page cache (wasm/glue/inode/filemap.c: mm/filemap.c, truncate.c, workingset.c) ---- */

/* mm/truncate.c and fs/inode.c, extracted */
void truncate_inode_pages(struct address_space *mapping, loff_t lstart);
void truncate_inode_pages_final(struct address_space *mapping);
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end);
void clear_inode(struct inode *inode);

/* The real workingset_init(): the shadow nodes' list_lru and their shrinker "mm-shadow" */
int lab_workingset_init(void);
/* At the end of a run: that shrinker freed, the list_lru destroyed */
void lab_workingset_exit(void);
struct shrinker *lab_shadow_shrinker(void);
/* Nodes on the shadow list (XArray nodes holding only shadow entries) */
unsigned long lab_shadow_nodes_count(void);
/* Shadow entries in a mapping's XArray */
unsigned long lab_mapping_nr_shadows(struct address_space *mapping);

/*
 * A page of a file read from disk at index into folio, a new folio of
 * lab_folio_alloc() (filemap_read()'s miss path, as the read would take
 * it): the real filemap_add_folio() (into the XArray, replacing a shadow,
 * onto this CPU's lru_add batch), up to date and unlocked, then
 * folio_mark_accessed() accesses times (the read's own access and any
 * later ones), and the reader's reference dropped. Returns 0 or
 * filemap_add_folio()'s error (the folio then freed).
 */
int lab_filemap_read_folio(struct address_space *mapping, struct folio *folio, pgoff_t index,
			   int accesses);

/*
 * mapping_shrinkable() at a page cache change's call site (mm/filemap.c,
 * truncate.c, vmscan.c, workingset.c): an LRU_ITEM event of op MAPPING
 * when lab_mapping_events is set (a scenario that draws sets it).
 */
extern bool lab_mapping_events;
bool lab_mapping_shrinkable_at(struct address_space *mapping, const struct sim_site *site);

#endif /* SIM_GLUE_INODE_H */
