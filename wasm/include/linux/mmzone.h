/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: of include/linux/mmzone.h, the LRU lists, struct lruvec,
 * the zone and node counters and where a page's flags keep its zone and
 * node are the branch's own, extracted with their line numbers
 * (wasm/extract/lru-mmzone-h.txt). struct zone and struct pglist_data are
 * the project's: the fields the LRU code reads, a node and its two zones
 * per simulated NUMA node (wasm/glue/lru/mm.c); no free lists, no
 * watermarks, no kswapd. Counters are exact at every read (the kernel's
 * are per-CPU and folded later).
 */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/numa.h>
#include <linux/cache.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/pagevec.h>
#include <generated/bounds.h>

struct pglist_data;
struct lruvec;

/* include/linux/zswap.h without CONFIG_ZSWAP */
struct zswap_lruvec_state {};

#include <linux/mmzone-extract.h>

/* include/linux/zswap.h without CONFIG_ZSWAP */
static inline void zswap_lruvec_state_init(struct lruvec *lruvec) {}

struct zone {
	struct pglist_data	*zone_pgdat;
	const char		*name;
	atomic_long_t		vm_stat[NR_VM_ZONE_STAT_ITEMS];
};

enum pgdat_flags {
	PGDAT_DIRTY,			/* reclaim scanning has recently found many dirty file pages */
	PGDAT_WRITEBACK,		/* reclaim scanning has recently found many pages under writeback */
	PGDAT_RECLAIM_LOCKED,		/* prevents concurrent reclaim */
};

typedef struct pglist_data {
	struct zone		node_zones[MAX_NR_ZONES];
	int			node_id;
	struct lruvec		__lruvec;	/* unused with CONFIG_MEMCG, as in the kernel */
	unsigned long		flags;
	atomic_long_t		vm_stat[NR_VM_NODE_STAT_ITEMS];
} pg_data_t;

extern struct pglist_data sim_node_data[MAX_NUMNODES];
#define NODE_DATA(nid)		(&sim_node_data[nid])

void lruvec_init(struct lruvec *lruvec);

#endif /* _LINUX_MMZONE_H */
