// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the folio LRU code calls in the rest of mm, for the simulated
 * machine: the nodes and their zones, the page allocator over the
 * simulator's memory, memcg charging through memcg_data, the node, zone
 * and lruvec counters, and the LRU_ADD/LRU_DEL events of the list
 * operations. Project code; each rule names the kernel function it
 * follows. lruvec_init() (mm/mmzone.c) and folio_mapping() (mm/util.c)
 * are the branch's own, extracted with their line numbers.
 */
#include <linux/xarray.h>
#include "lru.h"

#include "mm/mmzone-extract.c"
#include "mm/util-extract.c"
#include "mm/swap_state-extract.c"

/* kernel/bounds.c's constants, as the shim's generated/bounds.h has them */
static_assert(NR_PAGEFLAGS == __NR_PAGEFLAGS, "generated/bounds.h: NR_PAGEFLAGS");
static_assert(MAX_NR_ZONES == __MAX_NR_ZONES, "generated/bounds.h: MAX_NR_ZONES");

struct pglist_data sim_node_data[MAX_NUMNODES];

/* ---- the page allocator --------------------------------------------------- */

struct page *mem_map;
unsigned long lab_nr_pages;
static short *on_list;	/* pfn -> the lruvec list it is on, or -1 (the LRU_ADD/LRU_DEL events) */
static unsigned long *free_pfns;	/* a stack of free pfns: the last freed is the next given */
static unsigned long nr_free;

static const char *const zone_names[MAX_NR_ZONES] = { "Normal", "Movable" };

/*
 * The machine's memory: nr_pages pages of ZONE_NORMAL on node nid, each
 * struct page as free_area_init() leaves it (set_page_links(), no
 * reference, mapcount -1), and the nodes' zones and lruvecs
 * (free_area_init_core(), pgdat_init_internals()).
 */
int lab_mem_map_init(unsigned long nr_pages, int nid)
{
	unsigned long pfn;
	int n, z;

	for (n = 0; n < MAX_NUMNODES; n++) {
		struct pglist_data *pgdat = NODE_DATA(n);

		memset(pgdat, 0, sizeof(*pgdat));
		pgdat->node_id = n;
		lruvec_init(&pgdat->__lruvec);
		for (z = 0; z < MAX_NR_ZONES; z++) {
			pgdat->node_zones[z].zone_pgdat = pgdat;
			pgdat->node_zones[z].name = zone_names[z];
		}
	}
	mem_map = kcalloc(nr_pages, sizeof(struct page), GFP_KERNEL);
	free_pfns = kcalloc(nr_pages, sizeof(*free_pfns), GFP_KERNEL);
	on_list = kvmalloc(nr_pages * sizeof(*on_list), GFP_KERNEL);
	if (!mem_map || !free_pfns || !on_list) {
		lab_mem_map_free();
		return -ENOMEM;
	}
	lab_nr_pages = nr_pages;
	memset(on_list, -1, nr_pages * sizeof(*on_list));
	for (pfn = 0; pfn < nr_pages; pfn++) {
		struct page *page = pfn_to_page(pfn);

		set_page_zone(page, ZONE_NORMAL);
		set_page_node(page, nid);
		atomic_set(&page->_mapcount, -1);
		INIT_LIST_HEAD(&page->lru);
		free_pfns[nr_pages - 1 - pfn] = pfn;	/* pfn 0 is given first */
	}
	nr_free = nr_pages;
	__mod_zone_page_state(&NODE_DATA(nid)->node_zones[ZONE_NORMAL], NR_FREE_PAGES, nr_pages);
	return 0;
}

static void lab_lru_lists_free(void);

void lab_mem_map_free(void)
{
	lab_lru_lists_free();
	kvfree(mem_map);
	kvfree(free_pfns);
	mem_map = NULL;
	free_pfns = NULL;
	lab_nr_pages = nr_free = 0;
}

unsigned long lab_nr_free_pages(void)
{
	return READ_ONCE(nr_free);
}

/*
 * The free stack's ordering. The kernel's allocator takes zone->lock (or
 * its CPU's pcp lock) around its free lists, so what a CPU did to a page
 * before freeing it is seen by the CPU that is given it next. The stack
 * here has no lock: a push or a pop has no preemption point inside, so
 * no other CPU runs within one, and a full fence on each side (under tso
 * and relaxed; the sc machine needs none, and none is recorded) gives it
 * the order a lock would. Without them a relaxed CPU reads nr_free from
 * before another's push or pop and is given a page still in use (the BUG
 * in set_page_refcounted()). The stack's words are read and written with
 * READ_ONCE()/WRITE_ONCE(), so that every compiler makes the accesses in
 * one order: the model's record of them (its stale-read events) is then
 * the same natively and in wasm.
 */
static inline void lab_free_stack_fence(void)
{
	if (sim_mm_on())
		sim_mm_fence(SIM_MM_MB, SIM_SITE());
}

/*
 * An order-0 folio, as the allocator hands one out (prep_new_page():
 * flags cleared but for the zone and node, refcount 1). NULL when the
 * machine's memory is all in use (no reclaim to fall back on here).
 */
struct folio *lab_folio_alloc(gfp_t gfp, int nid)
{
	struct page *page;
	unsigned long n;

	lab_free_stack_fence();
	n = READ_ONCE(nr_free);
	if (!n)
		return NULL;
	WRITE_ONCE(nr_free, n - 1);
	page = pfn_to_page(READ_ONCE(free_pfns[n - 1]));
	lab_free_stack_fence();
	/* check_new_page(): nothing of its last life left in its flags */
	if (WARN(page->flags & PAGE_FLAGS_CHECK_AT_PREP, "BUG: Bad page state: pfn:%lu flags %#lx on allocation",
		 page_to_pfn(page), page->flags & PAGE_FLAGS_CHECK_AT_PREP))
		return NULL;
	page->mapping = NULL;
	page->index = 0;
	page->private = 0;
	page->memcg_data = 0;
	set_page_refcounted(page);
	__mod_zone_page_state(page_zone(page), NR_FREE_PAGES, -1);
	return page_folio(page);
}

/*
 * A page back to the allocator: what free_pages_prepare() checks of a
 * page being freed (its bad_page() reports), then onto the free stack.
 */
static void lab_free_page(struct page *page)
{
	unsigned long pfn = page_to_pfn(page), n;

	BUG_ON(pfn >= lab_nr_pages);
	if (WARN(page_ref_count(page) || atomic_read(&page->_mapcount) != -1,
		 "BUG: Bad page state: pfn:%lu refcount:%d mapcount:%d", pfn,
		 page_ref_count(page), atomic_read(&page->_mapcount) + 1))
		return;
	if (WARN(page->flags & PAGE_FLAGS_CHECK_AT_FREE,
		 "BUG: Bad page state: pfn:%lu flags %#lx set when freed", pfn,
		 page->flags & PAGE_FLAGS_CHECK_AT_FREE))
		return;
	if (WARN(page->memcg_data, "BUG: Bad page state: pfn:%lu page still charged to cgroup", pfn))
		return;
	/* an anonymous folio's mapping is cleared here, any other is a bad page */
	if ((unsigned long)page->mapping & PAGE_MAPPING_FLAGS)
		page->mapping = NULL;
	if (WARN(page->mapping, "BUG: Bad page state: pfn:%lu non-NULL mapping", pfn))
		return;
	/* free_pages_prepare() */
	page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
	lab_free_stack_fence();
	n = READ_ONCE(nr_free);
	WRITE_ONCE(free_pfns[n], pfn);
	WRITE_ONCE(nr_free, n + 1);
	lab_free_stack_fence();
	__mod_zone_page_state(page_zone(page), NR_FREE_PAGES, 1);
}

/* mm/page_alloc.c */
void free_unref_page(struct page *page, unsigned int order)
{
	BUG_ON(order);
	lab_free_page(page);
}

/* mm/page_alloc.c: the batch's folios back, and the batch empty */
void free_unref_folios(struct folio_batch *folios)
{
	unsigned int i;

	for (i = 0; i < folios->nr; i++)
		lab_free_page(&folios->folios[i]->page);
	folio_batch_reinit(folios);
}

/* ---- memcg charging ---------------------------------------------------- */

/*
 * include/linux/sched/mm.h: this task's charges without an mm go to memcg,
 * its folios' (below) and its kernel memory's (the runtime's slab charges
 * an object to the memcg it is told of, as current_obj_cgroup() reads
 * the active memcg), so that, say, the XArray nodes filemap_add_folio()
 * allocates are memcg's, as their shadow-node list_lru then finds them.
 */
struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = current->active_memcg;

	current->active_memcg = memcg;
	sim_set_alloc_memcg(memcg);
	return old;
}

/*
 * mm/memcontrol.c: charge_memcg() to the active memcg, or the root
 * (get_mem_cgroup_from_mm() without an mm), then commit_charge(): the
 * folio's memcg_data names the memcg. No limits here: a charge never
 * fails or reclaims.
 */
int __mem_cgroup_charge(struct folio *folio, struct mm_struct *mm, gfp_t gfp)
{
	struct mem_cgroup *memcg = current->active_memcg ? current->active_memcg : root_mem_cgroup;

	VM_BUG_ON_FOLIO(folio->memcg_data, folio);
	memcg->nr_charged += folio_nr_pages(folio);
	folio->memcg_data = (unsigned long)memcg;
	return 0;
}

/* mm/memcontrol.c: uncharge_folio() and uncharge_batch() */
void __mem_cgroup_uncharge(struct folio *folio)
{
	struct mem_cgroup *memcg = __folio_memcg(folio);

	if (!memcg)
		return;
	memcg->nr_charged -= folio_nr_pages(folio);
	folio->memcg_data = 0;
}

void __mem_cgroup_uncharge_folios(struct folio_batch *folios)
{
	unsigned int i;

	for (i = 0; i < folios->nr; i++)
		__mem_cgroup_uncharge(folios->folios[i]);
}

/* ---- counters ------------------------------------------------------------ */

/*
 * mm/vmstat.c's __mod_node_page_state() adds to its CPU's own delta (irqs
 * off: nobody else writes it) and folds it into the node's counter with an
 * atomic_long_add() past a threshold; mm/memcontrol.c adds to per-CPU
 * lruvec stats that rstat folds. Here every delta is folded at once (a
 * threshold of 0): one indivisible read-modify-write of the counter's
 * word, as the fold is. A per-CPU counter loses no update, so neither
 * does this one under tso and relaxed (where a plain += under the port's
 * batch locks could); and like a per-CPU add it is no preemption point and
 * logs no event, so the sc machine runs as it did.
 */
static void lab_counter_add(atomic_long_t *v, long delta)
{
	typeof(v->counter) old, new;

	if (sim_mm_on()) {
		sim_mm_rmw_begin(&v->counter, &old, sizeof(old), SIM_MM_NORET, NULL);
		new = old + delta;
		sim_mm_rmw_end(&v->counter, &new, sizeof(new), SIM_MM_NORET, 1, NULL);
	} else {
		v->counter += delta;
	}
}

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	lab_counter_add(&pgdat->vm_stat[item], delta);
}

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	lab_counter_add(&zone->vm_stat[item], delta);
}

unsigned long node_page_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	long x = atomic_long_read(&pgdat->vm_stat[item]);

	return x < 0 ? 0 : x;
}

/* mm/memcontrol.c: the node's counter, and the lruvec's of the memcg and each ancestor */
void __mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int val)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct mem_cgroup *memcg;

	__mod_node_page_state(pgdat, idx, val);
	for (memcg = lruvec_memcg(lruvec); memcg; memcg = parent_mem_cgroup(memcg))
		lab_counter_add(&memcg->nodeinfo[pgdat->node_id]->lruvec_stats->state[idx], val);
}

unsigned long lruvec_page_state(struct lruvec *lruvec, enum node_stat_item idx)
{
	struct mem_cgroup_per_node *pn = container_of(lruvec, struct mem_cgroup_per_node, lruvec);
	long x = atomic_long_read(&pn->lruvec_stats->state[idx]);

	return x < 0 ? 0 : x;
}

/* ---- the lists ----------------------------------------------------------- */

#define LAB_MAX_LRUVECS 64
static struct lruvec *lruvecs[LAB_MAX_LRUVECS];

void lab_lruvec_register(struct lruvec *lruvec)
{
	int i;

	for (i = 0; i < LAB_MAX_LRUVECS; i++) {
		if (!lruvecs[i]) {
			lruvecs[i] = lruvec;
			return;
		}
	}
	WARN(1, "lab: more than %d lruvecs", LAB_MAX_LRUVECS);
}

void lab_lruvec_unregister(struct lruvec *lruvec)
{
	int i;

	for (i = 0; i < LAB_MAX_LRUVECS; i++)
		if (lruvecs[i] == lruvec)
			lruvecs[i] = NULL;
}

int lab_lru_list_id(const struct list_head *head)
{
	int i;

	for (i = 0; i < LAB_MAX_LRUVECS; i++) {
		const struct lruvec *lv = lruvecs[i];

		if (lv && head >= &lv->lists[0] && head < &lv->lists[NR_LRU_LISTS])
			return i * NR_LRU_LISTS + (int)(head - &lv->lists[0]);
	}
	return -1;
}

/* The folio whose lru field entry is, if it is one of mem_map's (an order-0 folio is its first page). */
static struct folio *entry_folio(const struct list_head *entry)
{
	const struct page *page;

	if (!mem_map || (const void *)entry < (const void *)mem_map ||
	    (const void *)entry >= (const void *)(mem_map + lab_nr_pages))
		return NULL;
	page = container_of(entry, struct page, lru);
	return (struct folio *)page;
}

static int entry_pfn(const struct list_head *entry)
{
	struct folio *folio = entry_folio(entry);

	return folio ? (int)folio_pfn(folio) : -1;
}

/* A folio's batch tag * 2 + its sentinel bit, in a kernel with batch locks; -1 in one without. */
static int folio_batch_bits(const struct folio *folio)
{
#ifdef LRU_BATCH_TAG_MASK
	unsigned long flags = READ_ONCE(folio->flags);

	return (int)((flags & LRU_BATCH_TAG_MASK) >> LRU_BATCH_PGOFF) * 2 +
	       !!(flags & BIT(LRU_BATCH_SENTINEL_PGBIT));
#else
	return -1;
#endif
}

/* An LRU_ADD when entry, just linked, is on an lruvec's list: after which folio (-1: the head). */
void lab_lru_linked(struct list_head *entry, const struct sim_site *site)
{
	struct folio *folio = entry_folio(entry);
	int list;

	if (!folio || !on_list)
		return;
	list = lab_lru_list_id(entry->prev);
	if (list < 0) {
		struct folio *prev = entry_folio(entry->prev);

		/* after a folio: on that folio's list (a private list's folios are on none) */
		list = prev ? on_list[folio_pfn(prev)] : -1;
	}
	on_list[folio_pfn(folio)] = (short)list;
	if (list >= 0)
		sim_event(SIM_EV_LRU_ADD, site, (int)folio_pfn(folio), entry_pfn(entry->prev), list,
			  folio_batch_bits(folio));
}

/* An LRU_DEL when entry, about to be unlinked, is on an lruvec's list. */
void lab_lru_unlinking(struct list_head *entry, const struct sim_site *site)
{
	struct folio *folio = entry_folio(entry);
	int list;

	if (!folio || !on_list)
		return;
	list = on_list[folio_pfn(folio)];
	on_list[folio_pfn(folio)] = -1;
	if (list >= 0)
		sim_event(SIM_EV_LRU_DEL, site, (int)folio_pfn(folio), list, folio_batch_bits(folio), -1);
}

#ifdef LRU_BATCH_TAG_WIDTH
/* The folio's tag or sentinel bit just changed: an LRU_SENTINEL if it is on an lruvec's list. */
void lab_lru_batch_changed(struct folio *folio, const struct sim_site *site)
{
	int list = on_list ? on_list[folio_pfn(folio)] : -1;

	if (list >= 0)
		sim_event(SIM_EV_LRU_SENTINEL, site, (int)folio_pfn(folio), list, folio_batch_bits(folio), -1);
}
#endif

/* n folios just spliced in after head, first to last. */
void lab_lru_spliced(const struct list_head *head, int n, const struct sim_site *site)
{
	struct list_head *p = head->next;

	for (; n > 0; n--, p = p->next)
		lab_lru_linked(p, site);
}

/* The lists' record goes with the machine's memory. */
static void lab_lru_lists_free(void)
{
	kvfree(on_list);
	on_list = NULL;
}

/* ---- the page cache ------------------------------------------------------ */

/*
 * mm/filemap.c's __filemap_remove_folio(), for __remove_mapping(): the
 * folio's slot in the mapping's XArray (the real lib/xarray.c) gets the
 * shadow entry, or nothing, the folio leaves its mapping, and the
 * counters follow (filemap_unaccount_folio()). The caller holds the
 * XArray's lock.
 */
void lab_filemap_remove_folio(struct folio *folio, void *shadow)
{
	struct address_space *mapping = folio->mapping;
	long nr = folio_nr_pages(folio);

	__xa_store(&mapping->i_pages, folio->index, shadow, 0);
	folio->mapping = NULL;
	mapping->nrpages -= nr;
	__mod_lruvec_state(folio_lruvec(folio), NR_FILE_PAGES, -nr);
}
