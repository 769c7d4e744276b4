/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: stands in for the real mm/internal.h next to the compiled
 * files. Holds only what mm/shrinker.c and mm/list_lru.c use from it,
 * duplicated from v6.12's mm/internal.h: the shrinker debugfs hooks as they
 * are with CONFIG_SHRINKER_DEBUG=n, and GFP_RECLAIM_MASK.
 */
#ifndef __MM_INTERNAL_H
#define __MM_INTERNAL_H

#include <linux/gfp.h>
#include <linux/stdarg.h>

struct shrinker;
struct dentry;

#define GFP_RECLAIM_MASK (__GFP_RECLAIM|__GFP_HIGH|__GFP_IO|__GFP_FS|\
			__GFP_NOWARN|__GFP_RETRY_MAYFAIL|__GFP_NOFAIL|\
			__GFP_NORETRY|__GFP_MEMALLOC|__GFP_NOMEMALLOC)

static inline int shrinker_debugfs_name_alloc(struct shrinker *shrinker,
					      const char *fmt, va_list ap)
{
	return 0;
}
static inline void shrinker_debugfs_name_free(struct shrinker *shrinker)
{
}
static inline int shrinker_debugfs_add(struct shrinker *shrinker)
{
	return 0;
}
static inline struct dentry *shrinker_debugfs_detach(struct shrinker *shrinker,
						     int *debugfs_id)
{
	*debugfs_id = -1;
	return NULL;
}
static inline void shrinker_debugfs_remove(struct dentry *debugfs_entry,
					   int debugfs_id)
{
}

#endif /* __MM_INTERNAL_H */
