// SPDX-License-Identifier: GPL-2.0-only
/*
 * The branch's page cache: mm/filemap.c's insertion, deletion and lookups
 * (wasm/extract/inode-filemap.txt), mm/truncate.c's truncation and
 * invalidation (inode-truncate.txt) and mm/workingset.c's shadow entries,
 * shadow-node list_lru and shrinker (inode-workingset.txt), each extracted
 * with its line numbers, over the real folio LRU of wasm/glue/lru/ and the
 * real lib/xarray.c, list_lru and shrinker code. Nothing of them is
 * changed; what stands around them is below, each saying what it stands
 * in for.
 *
 * The files of the scenarios are read by no file system: a folio of a
 * file is clean and up to date from its birth (the read's copy is the
 * scenario's cost model), never dirty, never under writeback, never
 * mapped; no buffer heads, no shmem, no DAX, no hugetlb, no large folios.
 */
#include <linux/xarray.h>
#include "../lru/lru.h"
#include "inode.h"

/* ---- what the extracted code calls elsewhere in the kernel ---------------- */

/* Stubbed: no shmem, DAX or hugetlb mappings (mm/shmem.c, fs/dax.c) */
static inline bool shmem_mapping(struct address_space *mapping) { return false; }
static inline bool dax_mapping(struct address_space *mapping) { return false; }
static inline void dax_delete_mapping_entry(struct address_space *mapping, pgoff_t index) { BUG(); }
#define folio_test_hugetlb(folio)	false
#define filemap_nr_thps_dec(mapping)	do { (void)(mapping); } while (0)

/* Stubbed: no large folios (the XArray holds order-0 entries only) */
#define mapping_min_folio_order(mapping)	0
static inline int split_folio(struct folio *folio) { BUG(); return -EBUSY; }
static inline void folio_zero_range(struct folio *folio, size_t start, size_t length) { BUG(); }

/* Stubbed: the swap cache (no swap: no folio here is in it) */
static inline pgoff_t __folio_swap_cache_index(struct folio *folio) { BUG(); return 0; }

/* Stubbed: writeback and dirty accounting (no folio here is ever dirty) */
static inline bool mapping_can_writeback(struct address_space *mapping) { return false; }
#define folio_account_cleaned(folio, wb)	do { (void)(folio); } while (0)
#define inode_to_wb(inode)			NULL
static inline bool folio_cancel_dirty(struct folio *folio) { return false; }
static inline void folio_wait_writeback(struct folio *folio) { }
static inline bool try_to_free_buffers(struct folio *folio) { return true; }	/* no buffer heads */
#define folio_clear_mappedtodisk(folio)	do { (void)(folio); } while (0)

/* Stubbed: rmap (no page table maps a folio: the unmap is never reached) */
static inline void unmap_mapping_folio(struct folio *folio) { BUG(); }

/* Stubbed: tracepoints of include/trace/events/filemap.h */
#define trace_mm_filemap_delete_from_page_cache(folio)	do { (void)(folio); } while (0)
#define trace_mm_filemap_add_to_page_cache(folio)	do { (void)(folio); } while (0)
#define ALLOW_ERROR_INJECTION(fname, type)

/* Stubbed: the bad-page report of filemap_unaccount_folio() (a mapped folio is a BUG first) */
#define dump_page(page, reason)		do { (void)(page); } while (0)
#define add_taint(flag, lockdep)	do { } while (0)

/*
 * Customised: the folio lock's sleeping side (mm/filemap.c __folio_lock()):
 * a holder here is reclaim or truncation, which holds it for a few list
 * and XArray steps, so a waiter spins, 10 ns of the cost model a try,
 * until folio_trylock() succeeds.
 */
static inline void folio_lock(struct folio *folio)
{
	while (!folio_trylock(folio))
		sim_busy_ns(10, SIM_SITE());
}


/* Stubbed: a slab object's struct page, which the code below reads only for the node counters not kept */
#define virt_to_page(addr)	((void)(addr), (struct page *)NULL)

/* mm/vmscan.c, mm/swap.c (extracted in wasm/glue/lru/) */
long remove_mapping(struct address_space *mapping, struct folio *folio);
void deactivate_file_folio(struct folio *folio);
void lru_note_cost_refault(struct folio *folio);

/*
 * Customised: memcg ids and references (mm/memcontrol.c). A memcg's id is
 * the shim's (wasm/glue/memcg.c); a lookup walks the memcg tree. The
 * scenarios free no memcg while shadow entries of its pages remain, so a
 * reference always succeeds.
 */
static inline unsigned short mem_cgroup_id(struct mem_cgroup *memcg)
{
	return memcg ? memcg->id : 0;
}
static struct mem_cgroup *mem_cgroup_from_id(unsigned short id)
{
	struct cgroup_subsys_state *css;

	css_for_each_descendant_pre(css, &root_mem_cgroup->css)
		if (mem_cgroup_from_css(css)->id == id)
			return mem_cgroup_from_css(css);
	return NULL;
}
static inline bool mem_cgroup_tryget(struct mem_cgroup *memcg) { return true; }
static inline void mem_cgroup_put(struct mem_cgroup *memcg) { }
static inline struct mem_cgroup *folio_memcg_rcu(struct folio *folio) { return __folio_memcg(folio); }
static inline void __lruvec_stat_mod_folio(struct folio *folio, enum node_stat_item idx, int val)
{
	__mod_lruvec_state(folio_lruvec(folio), idx, val);
}

/* Customised: mm/memcontrol.c's statistics for the shadow nodes' counters */
#define __inc_node_page_state(page, item)	do { (void)(page); } while (0)
#define __dec_node_page_state(page, item)	do { (void)(page); } while (0)
#define __inc_lruvec_kmem_state(p, idx)		do { (void)(p); } while (0)
#define mod_lruvec_state(lruvec, idx, val)	__mod_lruvec_state(lruvec, idx, val)
#define mem_cgroup_flush_stats_ratelimited(memcg) do { (void)(memcg); } while (0)
/* An lruvec's own pages, its descendants' left out (rstat's local counter) */
unsigned long lruvec_page_state_local(struct lruvec *lruvec, enum node_stat_item idx);
static inline long mem_cgroup_get_nr_swap_pages(struct mem_cgroup *memcg) { return 0; }	/* no swap */
static inline unsigned long node_present_pages(int nid) { return lab_nr_pages; }
static inline unsigned long totalram_pages(void) { return lab_nr_pages; }
#define lru_gen_enabled()	false

/*
 * Observability: each call site's mapping_shrinkable() before its
 * inode_add_lru() (a folio or shadow gone from a mapping) is an LRU_ITEM
 * event of op MAPPING at that line, with the inode's pages and shadow
 * entries then (lab_mapping_shrinkable_at(), below); mm/vmscan.c's
 * __remove_mapping() has the same (wasm/glue/lru/vmscan.c).
 */
#define mapping_shrinkable(mapping)	lab_mapping_shrinkable_at(mapping, SIM_SITE())

#define __init
#define module_init(fn)
extern struct list_head shrinker_list;	/* mm/shrinker.c */

#include "include/linux/mm-pagecache-extract.h"
#include "include/linux/pagemap-pagecache-extract.h"
#include "mm/internal-pagecache-extract.h"

/*
 * Customised: __filemap_get_folio() (mm/filemap.c) for truncation's look
 * up of a partial folio: the lookup half only (FGP_LOCK; nothing here
 * creates a folio through it), calling the real filemap_get_entry().
 */
struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index,
				  fgf_t fgp_flags, gfp_t gfp);

/* mm/internal.h (v6.12), as it is there */
#define GFP_RECLAIM_MASK (__GFP_RECLAIM|__GFP_HIGH|__GFP_IO|__GFP_FS|\
			__GFP_NOWARN|__GFP_RETRY_MAYFAIL|__GFP_NOFAIL|\
			__GFP_NORETRY|__GFP_MEMALLOC|__GFP_NOMEMALLOC|\
			__GFP_NOLOCKDEP)
/* include/linux/memcontrol.h (v6.12), CONFIG_MEMCG */
#define MEM_CGROUP_ID_SHIFT	16
#include "mm/filemap-extract.c"
#include "mm/truncate-extract.c"
#include "mm/workingset-extract.c"

struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index,
				  fgf_t fgp_flags, gfp_t gfp)
{
	struct folio *folio;

	WARN_ON(fgp_flags & ~FGP_LOCK);
	folio = filemap_get_entry(mapping, index);
	if (xa_is_value(folio))
		folio = NULL;
	if (!folio)
		return ERR_PTR(-ENOENT);
	if (fgp_flags & FGP_LOCK) {
		folio_lock(folio);
		/* Has the page been truncated? */
		if (unlikely(folio->mapping != mapping)) {
			folio_unlock(folio);
			folio_put(folio);
			return ERR_PTR(-ENOENT);
		}
	}
	return folio;
}

/* ---- for the scenarios ---------------------------------------------------- */

/* kunit-shadow's calls of the shadow-node shrinker, as UML's mm/workingset.c has them */
#include "../../scenarios/kunit_inode_workingset.h"

/* The shrinker workingset_init() registered: the one that scans shadow nodes. */
struct shrinker *lab_shadow_shrinker(void)
{
	struct shrinker *shrinker;

	list_for_each_entry(shrinker, &shrinker_list, list)
		if (shrinker->scan_objects == scan_shadow_nodes)
			return shrinker;
	return NULL;
}

/* The real workingset_init(), as the kernel's module_init runs it at boot. */
int lab_workingset_init(void)
{
	return workingset_init();
}

/* Its undoing, at the end of a run: the shrinker freed, the list_lru destroyed. */
void lab_workingset_exit(void)
{
	struct shrinker *shrinker = lab_shadow_shrinker();

	if (shrinker)
		shrinker_free(shrinker);
	list_lru_destroy(&shadow_nodes);
}

unsigned long lab_shadow_nodes_count(void)
{
	return list_lru_count(&shadow_nodes);
}

unsigned long lab_mapping_nr_shadows(struct address_space *mapping)
{
	XA_STATE(xas, &mapping->i_pages, 0);
	unsigned long n = 0;
	void *entry;

	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX)
		if (xa_is_value(entry))
			n++;
	rcu_read_unlock();
	return n;
}

bool lab_mapping_events;

bool lab_mapping_shrinkable_at(struct address_space *mapping, const struct sim_site *site)
{
	/* the name in parentheses: pagemap.h's function, not the macro above */
	bool shrinkable = (mapping_shrinkable)(mapping);

	if (lab_mapping_events && mapping->host)
		sim_event(SIM_EV_LRU_ITEM, site, sim_obj_of(mapping->host), LAB_LRU_OP_MAPPING,
			  (int)lab_mapping_nr_shadows(mapping) * 2 + shrinkable, (int)mapping->nrpages);
	return shrinkable;
}

/*
 * Project code: the read path's miss (mm/filemap.c filemap_read() ->
 * filemap_get_pages() -> page_cache_sync_ra() -> ... -> the file system's
 * read_folio()), reduced to what a page of the scenarios needs: its new
 * folio (the caller's, from lab_folio_alloc()), the real
 * filemap_add_folio(), the read done
 * (folio_mark_uptodate(), folio_unlock()), and filemap_read()'s
 * folio_mark_accessed() after the copy.
 */
int lab_filemap_read_folio(struct address_space *mapping, struct folio *folio, pgoff_t index,
			   int accesses)
{
	int ret = filemap_add_folio(mapping, folio, index, GFP_KERNEL);

	if (ret) {
		folio_put(folio);
		return ret;
	}
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	while (accesses-- > 0)
		folio_mark_accessed(folio);
	folio_put(folio);
	return 0;
}

/*
 * mm/memcontrol.c's lruvec_page_state_local(): the lruvec's own pages.
 * The glue keeps hierarchical counters (wasm/glue/lru/mm.c), so the own
 * count is the lruvec's less its memcg's children's on the same node.
 */
unsigned long lruvec_page_state_local(struct lruvec *lruvec, enum node_stat_item idx)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec), *child;
	long x = (long)lruvec_page_state(lruvec, idx);

	if (memcg)
		for (child = memcg->first_child; child; child = child->next_sibling)
			x -= (long)lruvec_page_state(mem_cgroup_lruvec(child, lruvec_pgdat(lruvec)), idx);
	return x < 0 ? 0 : x;
}
