// SPDX-License-Identifier: GPL-2.0-only
/*
 * The branch's mm/vmscan.c, its isolation, putback and inactive-list
 * reclaim extracted with their line numbers (wasm/extract/lru-vmscan.txt),
 * and what they call elsewhere, for folios that are mapped by nothing
 * (the simulated machine has no page tables) and backed by no swap:
 * such a folio is reclaimed when it is a lazily freed anonymous one
 * (MADV_FREE: no longer swap-backed) or clean page cache; an anonymous
 * one that still needs swap goes back to the active list.
 */
#include "lru.h"

/*
 * Stubbed: rmap (mm/rmap.c). No page table maps a folio here: the real
 * folio_referenced() returns at its first test, mapcount 0, as this does.
 */
static inline int folio_referenced(struct folio *folio, int is_locked,
				   struct mem_cgroup *memcg, unsigned long *vm_flags)
{
	*vm_flags = 0;
	WARN_ON(folio_mapcount(folio));
	return 0;
}
static inline void try_to_unmap_flush(void) { }
static inline void try_to_unmap_flush_dirty(void) { }

/* Stubbed: swap (CONFIG_SWAP off) */
struct swap_iocb;
static inline bool add_to_swap(struct folio *folio) { return false; }
static inline bool mem_cgroup_swap_full(struct folio *folio) { return false; }
static inline void swap_write_unplug(struct swap_iocb *sio) { }
static inline void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry, void *shadow) { }
static inline void mem_cgroup_swapout(struct folio *folio, swp_entry_t entry) { }
static inline void put_swap_folio(struct folio *folio, swp_entry_t entry) { }
#define SWP_FS_OPS	0
static inline int folio_swap_flags(struct folio *folio) { return 0; }

/* Stubbed: memory tiering (no demotion targets) and hwpoison (CONFIG_MEMORY_FAILURE off) */
static const bool numa_demotion_enabled;
static inline int next_demotion_node(int node) { return NUMA_NO_NODE; }
static inline unsigned int demote_folio_list(struct list_head *demote_folios,
					     struct pglist_data *pgdat)
{
	return 0;	/* can_demote() is false: the list is empty */
}
static inline void unmap_poisoned_folio(struct folio *folio, unsigned long pfn, bool early) { }

/* Stubbed: writeback (nothing here is dirty or under writeback) */
static inline void folio_wait_writeback(struct folio *folio) { }
#ifdef SIM_PAGE_CACHE
bool filemap_release_folio(struct folio *folio, gfp_t gfp);	/* mm/filemap.c, extracted */
#else
static inline bool filemap_release_folio(struct folio *folio, gfp_t gfp) { return true; }
#endif
static inline void wakeup_flusher_threads(int reason) { }
#define WB_REASON_VMSCAN	0
static inline void reclaim_throttle(pg_data_t *pgdat, enum vmscan_throttle_state reason) { }
static inline void wake_throttle_isolated(pg_data_t *pgdat) { }
static inline bool fatal_signal_pending(struct task_struct *p) { return false; }
static inline bool gfp_has_io_fs(gfp_t gfp) { return (gfp & (__GFP_IO | __GFP_FS)) == (__GFP_IO | __GFP_FS); }
static inline bool dax_mapping(struct address_space *mapping) { return false; }

#ifdef SIM_PAGE_CACHE
/* The page cache's side of __remove_mapping(): the real mm/filemap.c and fs/inode.c (wasm/glue/inode/) */
void __filemap_remove_folio(struct folio *folio, void *shadow);
/* Its mapping_shrinkable() before inode_add_lru(): an LRU_ITEM event at its line (wasm/glue/inode/filemap.c) */
bool lab_mapping_shrinkable_at(struct address_space *mapping, const struct sim_site *site);
#define mapping_shrinkable(mapping)	lab_mapping_shrinkable_at(mapping, SIM_SITE())
#else
/* Customised: the page cache's side of __remove_mapping() (mm/filemap.c, fs/inode.c) */
void lab_filemap_remove_folio(struct folio *folio, void *shadow);
#define __filemap_remove_folio(folio, shadow)	lab_filemap_remove_folio(folio, shadow)
/* Stubbed: fs/inode.c (the inode LRU is the inode-lru scene's) */
#define inode_add_lru(inode)	do { (void)(inode); } while (0)
#endif

/* Stubbed: pageout() writes a dirty folio (no folio here is dirty: the caller keeps it) */
static inline int lab_pageout(struct folio *folio, struct address_space *mapping,
			      struct swap_iocb **plug, struct list_head *folio_list)
{
	return 0;	/* PAGE_KEEP */
}
#define pageout(folio, mapping, plug, folio_list)	lab_pageout(folio, mapping, plug, folio_list)

#include "mm/vmscan-extract.c"

/* What scenarios reach of this file's statics (scenario kunit-lru's hook, the same in UML) */
#include "../../scenarios/kunit_lru_vmscan.h"
