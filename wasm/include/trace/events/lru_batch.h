/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the tracepoints of the lru-batch port (mm/lru_batch.c on
 * branch lru-batch-locks) become LRU_ADD / LRU_DEL / LRU_SENTINEL events
 * at the line that fires them. Pages are named by their id; the pseudo
 * page at the list head is -1.
 */
#ifndef _TRACE_LRU_BATCH_H
#define _TRACE_LRU_BATCH_H

#include <linux/lru_batch.h>
#include <sim.h>

static inline int sim_lru_page_id(const struct lb_page *page)
{
	return page->lru_batch == LRU_BATCH_HEAD_TAG ? -1 : (int)page->id;
}

#define trace_lru_batch_add_enabled()	1
#define trace_lru_batch_add(page, prev) \
	sim_event(SIM_EV_LRU_ADD, SIM_SITE(), sim_lru_page_id(page), sim_lru_page_id(prev), \
		  (int)(page)->lru_batch, (page)->lru_sentinel)
#define trace_lru_batch_del(page) \
	sim_event(SIM_EV_LRU_DEL, SIM_SITE(), sim_lru_page_id(page), (int)(page)->lru_batch, \
		  (page)->lru_sentinel, 0)
#define trace_lru_batch_sentinel(page) \
	sim_event(SIM_EV_LRU_SENTINEL, SIM_SITE(), sim_lru_page_id(page), (int)(page)->lru_batch, \
		  (page)->lru_sentinel, 0)

#endif /* _TRACE_LRU_BATCH_H */
