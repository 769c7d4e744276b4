// SPDX-License-Identifier: GPL-2.0-only
/*
 * Project code: a model of the page cache's file LRU lists, for the
 * inode-lru scenario. 6.12's folio LRU (mm/swap.c, mm/vmscan.c) cannot be
 * compiled apart from the rest of mm, so this models what the scenario
 * needs of it, in the kernel's names: pages are entries of the mapping's
 * real XArray (lib/xarray.c), so that the real mapping_shrinkable() sees
 * them; reclaim takes pages off the inactive list's tail and removes them
 * from their mapping as mm/vmscan.c __remove_mapping() does, then, as
 * there (v6.12 mm/vmscan.c:800-801), puts the inode on the inode LRU with
 * the real inode_add_lru() once mapping_shrinkable() allows it.
 *
 * Not modelled: shadow entries (a reclaimed page leaves none), dirty pages
 * and writeback, page locks, the active list's aging (the workingset's
 * pages are never scanned: drop-behind reclaim does not touch them).
 * Costs: the runtime's for every lock and list operation, plus
 * reclaim_ns per reclaimed page for the rest of its work (rmap, page
 * lock, freeing to the page allocator): a stand-in of the cost model.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/xarray.h>
#include <sim.h>
#include "inode.h"

struct lab_lruvec *lab_page_lruvec;

void lab_lruvec_init(struct lab_lruvec *lruvec)
{
	spin_lock_init(&lruvec->lru_lock);
	INIT_LIST_HEAD(&lruvec->inactive_file);
	INIT_LIST_HEAD(&lruvec->active_file);
	lruvec->nr_inactive = lruvec->nr_active = 0;
	lab_page_lruvec = lruvec;
}

/* filemap_add_folio() and folio_add_lru(), in one. */
int lab_filemap_add_folio(struct address_space *mapping, unsigned long index, int active)
{
	struct lab_lruvec *lruvec = lab_page_lruvec;
	struct folio *folio = kzalloc(sizeof(*folio), GFP_KERNEL);
	void *old;

	if (!folio)
		return -ENOMEM;
	folio->mapping = mapping;
	folio->index = index;
	folio->active = active;
	xa_lock_irq(&mapping->i_pages);
	old = __xa_store(&mapping->i_pages, index, folio, GFP_KERNEL);
	if (!xa_is_err(old))
		mapping->nrpages++;
	xa_unlock_irq(&mapping->i_pages);
	if (xa_is_err(old) || WARN_ON(old)) {
		kfree(folio);
		return -ENOMEM;
	}
	spin_lock_irq(&lruvec->lru_lock);
	if (active) {
		list_add(&folio->lru, &lruvec->active_file);
		lruvec->nr_active++;
	} else {
		list_add(&folio->lru, &lruvec->inactive_file);
		lruvec->nr_inactive++;
	}
	spin_unlock_irq(&lruvec->lru_lock);
	return 0;
}

/* mm/vmscan.c __remove_mapping() for a clean, unmapped file folio. */
static void remove_mapping(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;

	spin_lock(&mapping->host->i_lock);
	xa_lock_irq(&mapping->i_pages);
	__xa_erase(&mapping->i_pages, folio->index);
	mapping->nrpages--;
	xa_unlock_irq(&mapping->i_pages);
	if (lab_mapping_shrinkable(mapping))
		inode_add_lru(mapping->host);
	spin_unlock(&mapping->host->i_lock);
}

/*
 * shrink_inactive_list(): isolate up to nr_to_scan folios from the tail
 * under lru_lock, then reclaim each: every one is clean, unmapped and
 * used once (the streaming reader's), so every one goes.
 */
unsigned long lab_shrink_inactive_list(unsigned long nr_to_scan)
{
	struct lab_lruvec *lruvec = lab_page_lruvec;
	LIST_HEAD(folio_list);
	unsigned long nr = 0;
	struct folio *folio, *next;

	spin_lock_irq(&lruvec->lru_lock);
	while (nr < nr_to_scan && !list_empty(&lruvec->inactive_file)) {
		folio = list_last_entry(&lruvec->inactive_file, struct folio, lru);
		list_move(&folio->lru, &folio_list);
		lruvec->nr_inactive--;
		nr++;
	}
	spin_unlock_irq(&lruvec->lru_lock);

	list_for_each_entry_safe(folio, next, &folio_list, lru) {
		list_del(&folio->lru);
		remove_mapping(folio);
		if (lruvec->reclaim_ns)
			sim_busy_ns(lruvec->reclaim_ns, SIM_SITE());
		kfree(folio);
	}
	return nr;
}

/* A folio off its file LRU list, under lru_lock. */
static void folio_off_lru(struct lab_lruvec *lruvec, struct folio *folio)
{
	spin_lock_irq(&lruvec->lru_lock);
	list_del(&folio->lru);
	if (folio->active)
		lruvec->nr_active--;
	else
		lruvec->nr_inactive--;
	spin_unlock_irq(&lruvec->lru_lock);
}

/* truncate_inode_pages_final(): every page of the mapping, from either list. */
void lab_truncate_inode_pages(struct address_space *mapping)
{
	struct lab_lruvec *lruvec = lab_page_lruvec;
	struct folio *folio;
	unsigned long index;

	xa_for_each(&mapping->i_pages, index, folio) {
		folio_off_lru(lruvec, folio);
		xa_lock_irq(&mapping->i_pages);
		__xa_erase(&mapping->i_pages, index);
		mapping->nrpages--;
		xa_unlock_irq(&mapping->i_pages);
		kfree(folio);
	}
}

/*
 * truncate_inode_pages_range() from index start to the end, for clean,
 * unlocked pages: the folios deleted in one batch, then v6.12
 * mm/filemap.c delete_from_page_cache_batch()'s end: under the inode's
 * i_lock, inode_add_lru() if the mapping is now shrinkable; nothing if
 * no page was deleted (truncate_inode_pages_range() returns early on an
 * empty mapping, and delete_from_page_cache_batch() on an empty batch).
 */
void lab_truncate_inode_pages_from(struct address_space *mapping, unsigned long start)
{
	struct lab_lruvec *lruvec = lab_page_lruvec;
	struct folio *folio;
	unsigned long index, nr = 0;

	/* off the file LRU first (the kernel's truncate finds them isolated or not at all) */
	xa_for_each_start(&mapping->i_pages, index, folio, start) {
		folio_off_lru(lruvec, folio);
	}
	spin_lock(&mapping->host->i_lock);
	xa_lock_irq(&mapping->i_pages);
	xa_for_each_start(&mapping->i_pages, index, folio, start) {
		__xa_erase(&mapping->i_pages, index);
		mapping->nrpages--;
		kfree(folio);
		nr++;
	}
	xa_unlock_irq(&mapping->i_pages);
	if (nr && lab_mapping_shrinkable(mapping))
		inode_add_lru(mapping->host);
	spin_unlock(&mapping->host->i_lock);
}
