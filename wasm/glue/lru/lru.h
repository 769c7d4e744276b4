/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The folio LRU of the branch (v6.12, and the ports built on it), as the
 * files of wasm/glue/lru/ compile it: the real headers and the pieces
 * extracted from the kernel's own (wasm/extract/lru-*.txt, each with its
 * real line numbers), and, between them, what the rest of the kernel
 * would give, each saying what it stands in for. The simulated machine
 * has no user space: a folio is mapped by no page table, and the
 * scenario's faults are where folios are born (wasm/scenarios/lru_batch.c).
 *
 * Configuration (the page and docs/lru.md say so): CONFIG_LRU_GEN off,
 * the classic active/inactive LRU; no swap, no THP, no hugetlb, no
 * ZONE_DEVICE, no mlock; CONFIG_MEMCG on.
 *
 * Observability: every link of a folio onto one of an lruvec's lists and
 * every unlink from one is an LRU_ADD or LRU_DEL event at its line of the
 * kernel file (the list_add() in lruvec_add_folio(), the list_move() in
 * isolate_lru_folios()...): the list macros below expand inside the
 * extracted code. lru_lock is the runtime's spinlock, the folio's
 * refcount and flags its atomics and bit operations, each at its line.
 */
#ifndef SIM_GLUE_LRU_H
#define SIM_GLUE_LRU_H

#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/local_lock.h>
#include <linux/sched.h>
#include <linux/rcupdate.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/mmzone.h>
#include <linux/page-flags.h>
#include <linux/page_ref.h>
#include <linux/pagevec.h>
#include <linux/memcontrol.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/nodemask.h>
#include <sim.h>

/* ---- the memory model (include/asm-generic/memory_model.h, FLATMEM) ---- */

/*
 * Customised: mem_map is the simulator's: one object of the simulator's
 * slab holding every struct page of the run (wasm/glue/lru/mm.c), so a
 * freed folio touched again is KASAN's to report.
 */
extern struct page *mem_map;
extern unsigned long lab_nr_pages;
#define page_to_pfn(page)	((unsigned long)((page) - mem_map))
#define pfn_to_page(pfn)	(mem_map + (pfn))
#undef virt_to_page
#undef page_to_nid		/* the real one, from the page's flags (linux/mm-extract.h) */

/* ---- the lists: LRU_ADD and LRU_DEL at the line of each list operation ---- */

/*
 * The list an entry is linked onto is an lruvec's when its head is one of
 * lists[] of an lruvec the glue knows (lab_lruvec_register()): its id is
 * lruvec index * NR_LRU_LISTS + lru. Folios on such lists are remembered,
 * so their removal is an event too.
 */
int lab_lru_list_id(const struct list_head *head);
void lab_lru_linked(struct list_head *entry, const struct sim_site *site);
void lab_lru_unlinking(struct list_head *entry, const struct sim_site *site);
void lab_lru_spliced(const struct list_head *head, int n, const struct sim_site *site);
void lab_lruvec_register(struct lruvec *lruvec);
void lab_lruvec_unregister(struct lruvec *lruvec);

static inline int lab_list_count(const struct list_head *list)
{
	const struct list_head *p;
	int n = 0;

	for (p = list->next; p != list; p = p->next)
		n++;
	return n;
}

static inline void lab_list_add(struct list_head *new, struct list_head *head,
				const struct sim_site *site)
{
	list_add(new, head);
	lab_lru_linked(new, site);
}

static inline void lab_list_add_tail(struct list_head *new, struct list_head *head,
				     const struct sim_site *site)
{
	list_add_tail(new, head);
	lab_lru_linked(new, site);
}

static inline void lab_list_del(struct list_head *entry, const struct sim_site *site)
{
	lab_lru_unlinking(entry, site);
	list_del(entry);
}

static inline void lab_list_move(struct list_head *entry, struct list_head *head,
				 const struct sim_site *site)
{
	lab_lru_unlinking(entry, site);
	list_move(entry, head);
	lab_lru_linked(entry, site);
}

static inline void lab_list_move_tail(struct list_head *entry, struct list_head *head,
				      const struct sim_site *site)
{
	lab_lru_unlinking(entry, site);
	list_move_tail(entry, head);
	lab_lru_linked(entry, site);
}

/* A private list's folios onto head: each is an LRU_ADD when head is an lruvec's. */
static inline void lab_list_splice(const struct list_head *list, struct list_head *head,
				   int init, const struct sim_site *site)
{
	int n = lab_list_count(list);

	if (init)
		list_splice_init((struct list_head *)list, head);
	else
		list_splice(list, head);
	lab_lru_spliced(head, n, site);
}

#define list_add(new, head)		lab_list_add(new, head, SIM_SITE())
#define list_add_tail(new, head)	lab_list_add_tail(new, head, SIM_SITE())
#define list_del(entry)			lab_list_del(entry, SIM_SITE())
#define list_move(entry, head)		lab_list_move(entry, head, SIM_SITE())
#define list_move_tail(entry, head)	lab_list_move_tail(entry, head, SIM_SITE())
#define list_splice(list, head)		lab_list_splice(list, head, 0, SIM_SITE())
#define list_splice_init(list, head)	lab_list_splice(list, head, 1, SIM_SITE())

/* ---- what the headers the LRU code includes give, around its pieces ---- */

/* Customised: the vm event counters are not kept (linux/mm.h); memcg's neither */
#define __count_vm_events(item, delta)		do { (void)(item); (void)(delta); } while (0)
#define __count_vm_event(item)			do { (void)(item); } while (0)
#define __count_zid_vm_events(item, zid, delta)	do { (void)(zid); (void)(delta); } while (0)
#define __count_memcg_events(memcg, item, n)	do { (void)(memcg); (void)(n); } while (0)
#define count_memcg_folio_events(folio, item, n) do { (void)(folio); (void)(n); } while (0)

/*
 * Customised: the node, zone and lruvec counters (include/linux/vmstat.h,
 * mm/memcontrol.c's __mod_lruvec_state()): exact at every read, an
 * lruvec's hierarchical (its memcg's descendants included), as the
 * kernel's are once rstat has folded them (wasm/glue/lru/mm.c).
 */
void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void __mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int val);
unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item);
unsigned long lruvec_page_state(struct lruvec *lruvec, enum node_stat_item idx);
#define mod_node_page_state(pgdat, item, delta)	__mod_node_page_state(pgdat, item, delta)
#define node_stat_mod_folio(folio, item, nr)	__mod_node_page_state(folio_pgdat(folio), item, nr)
#define node_stat_add_folio(folio, item)	node_stat_mod_folio(folio, item, folio_nr_pages(folio))

/* Stubbed: tracepoints of include/trace/events/pagemap.h and vmscan.h the LRU code fires */
#define trace_mm_lru_insertion(folio)		do { (void)(folio); } while (0)
#define trace_mm_lru_activate(folio)		do { (void)(folio); } while (0)
#define trace_mm_vmscan_write_folio(folio)	do { (void)(folio); } while (0)
static inline void trace_mm_vmscan_lru_isolate(int highest_zoneidx, int order, unsigned long nr_requested,
					       unsigned long nr_scanned, unsigned long nr_skipped,
					       unsigned long nr_taken, int lru) { }
struct reclaim_stat;
static inline void trace_mm_vmscan_lru_shrink_inactive(int nid, unsigned long nr_scanned,
						       unsigned long nr_reclaimed,
						       struct reclaim_stat *stat, int priority, int file) { }

/* Stubbed: the other kinds of folio, which never reach the LRU here */
static inline void free_zone_device_folio(struct folio *folio) { BUG(); }	/* no ZONE_DEVICE */
static inline void free_huge_folio(struct folio *folio) { BUG(); }		/* no hugetlb */
static inline bool __folio_unqueue_deferred_split(struct folio *folio) { return false; }	/* no THP */

/* Customised: the page allocator's frees (mm/page_alloc.c), wasm/glue/lru/mm.c */
void free_unref_page(struct page *page, unsigned int order);
void free_unref_folios(struct folio_batch *folios);

/* Customised: memcg charging through memcg_data (wasm/glue/lru/mm.c) */
int __mem_cgroup_charge(struct folio *folio, struct mm_struct *mm, gfp_t gfp);
void __mem_cgroup_uncharge(struct folio *folio);
void __mem_cgroup_uncharge_folios(struct folio_batch *folios);
struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg);

#ifdef SIM_PAGE_CACHE
/* mm/workingset.c, extracted (wasm/glue/inode/filemap.c): shadow entries and refaults */
void workingset_activation(struct folio *folio);
void workingset_age_nonresident(struct lruvec *lruvec, unsigned long nr_pages);
void *workingset_eviction(struct folio *folio, struct mem_cgroup *target_memcg);
void workingset_refault(struct folio *folio, void *shadow);
#else
/* Stubbed: mm/workingset.c's refault detection (no kernel without the page cache has shadows) */
static inline void workingset_activation(struct folio *folio) { }
static inline void workingset_age_nonresident(struct lruvec *lruvec, unsigned long nr_pages)
{
	atomic_long_add(nr_pages, &lruvec->nonresident_age);
}
static inline void *workingset_eviction(struct folio *folio, struct mem_cgroup *target_memcg)
{
	return NULL;
}
#endif

/* Stubbed: mm/mlock.c (no VM_LOCKED mappings: no mlock batches to drain) */
static inline void mlock_drain_local(void) { }

/* Stubbed: rmap's unmapping (mm/rmap.c): no page table maps a folio here */
enum ttu_flags { TTU_SPLIT_HUGE_PMD = 0x4, TTU_IGNORE_MLOCK = 0x8, TTU_SYNC = 0x10,
		 TTU_HWPOISON = 0x20, TTU_BATCH_FLUSH = 0x40, TTU_RMAP_LOCKED = 0x80 };
static inline void try_to_unmap(struct folio *folio, enum ttu_flags flags) { }

/* Customised: swap.h's view of tasks (PF_KSWAPD: no kswapd here) */
static inline int current_is_kswapd(void) { return current->flags & PF_KSWAPD; }
static inline bool current_is_khugepaged(void) { return false; }
#define smp_processor_id()	sim_cpu_id()

/* Stubbed: swap (no swap device: no folio is ever in the swap cache) */
#define swap_address_space(entry)	((struct address_space *)NULL)
static inline bool folio_free_swap(struct folio *folio) { return false; }

/*
 * A kernel with the RFC's batch locks (the project's port: its
 * page-flags-layout.h gives a folio a batch tag): its tracepoints'
 * wrappers in mm_inline.h, not extracted, are events at the line that
 * fires them: a folio's new tag or sentinel bit, once it is on a list,
 * an LRU_SENTINEL (the LRU_ADD or LRU_DEL is the list operation's).
 * New batches' tags come from the run's seeded generator
 * (get_random_u32_below()), so that a seed replays the run.
 */
#ifdef LRU_BATCH_TAG_WIDTH
void lab_lru_batch_changed(struct folio *folio, const struct sim_site *site);
#define trace_lru_batch_add_folio(lruvec, folio, lru, at, pos)	lab_lru_batch_changed(folio, SIM_SITE())
#define trace_lru_batch_sentinel_folio(folio, sentinel)		lab_lru_batch_changed(folio, SIM_SITE())
#define trace_lru_batch_del_folio(lruvec, folio, lru)		do { } while (0)
#define trace_lru_batch_close_end(lruvec, lru, at, tag, next)	do { } while (0)
#define trace_mm_lru_batch_splice_enabled()			0
#define trace_mm_lru_batch_splice(lruvec, lru, tag, first, last, nr) do { } while (0)
#endif
/* Customised: include/linux/random.h from the run's seeded generator (runtime/core.c) */
unsigned long long sim_random(void);
static inline u32 get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)(u32)sim_random() * ceil) >> 32);
}

/* The pieces of the branch's headers, in the kernel's order */
#include <linux/huge_mm-extract.h>
#include <linux/mm-extract.h>
#include <linux/vmstat-extract.h>
#include <linux/swap-extract.h>
#include <linux/pagemap-extract.h>
#include <linux/memcontrol-extract.h>
#include <linux/mm_inline-extract.h>
struct address_space *folio_mapping(struct folio *folio);	/* mm/util.c */
#include "mm/internal-extract.h"

/* The folio lock (include/linux/pagemap.h, mm/filemap.c): nobody sleeps on it here */
#define folio_test_locked(folio)	test_bit(PG_locked, const_folio_flags(folio, 0))
static inline void folio_unlock(struct folio *folio)
{
	VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio);
	clear_bit(PG_locked, folio_flags(folio, 0));
}

/* The glue's page allocator over the simulator's memory (wasm/glue/lru/mm.c). */
int lab_mem_map_init(unsigned long nr_pages, int nid);
void lab_mem_map_free(void);
struct folio *lab_folio_alloc(gfp_t gfp, int nid);
unsigned long lab_nr_free_pages(void);

/* mm/vmscan.c's shrink_inactive_list(), as a memcg's reclaim calls it (wasm/scenarios/kunit_lru_vmscan.h) */
unsigned long rl_lru_shrink_inactive_list(struct lruvec *lruvec, enum lru_list lru,
					  unsigned long nr_to_scan, unsigned long *scanned);

#endif /* SIM_GLUE_LRU_H */
