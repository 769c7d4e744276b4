/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: stands in for v6.1's mm/internal.h next to the compiled
 * files, with only what mm/list_lru.c and the extracted shrinker code use
 * from it: GFP_RECLAIM_MASK, duplicated from v6.1's mm/internal.h.
 */
#ifndef __MM_INTERNAL_H
#define __MM_INTERNAL_H

#include <linux/gfp.h>

#define GFP_RECLAIM_MASK (__GFP_RECLAIM|__GFP_HIGH|__GFP_IO|__GFP_FS|\
			__GFP_NOWARN|__GFP_RETRY_MAYFAIL|__GFP_NOFAIL|\
			__GFP_NORETRY|__GFP_MEMALLOC|__GFP_NOMEMALLOC)

#endif /* __MM_INTERNAL_H */
