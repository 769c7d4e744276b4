/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the IDR (Documentation/core-api/idr.rst) over the real
 * XArray's allocating mode, which is what the kernel's IDR is underneath
 * (an XArray with XA_FLAGS_ALLOC semantics reached through the radix-tree
 * API). Lookups under rcu_read_lock() are xa_load(), as idr_find() is.
 * The IDA is the kernel's own (below).
 */
#ifndef __IDR_H__
#define __IDR_H__

#include <linux/xarray.h>
#include <linux/limits.h>

struct idr {
	struct xarray idr_rt;
};

#define IDR_INIT(name)	{ .idr_rt = XARRAY_INIT(name.idr_rt, XA_FLAGS_ALLOC) }
#define DEFINE_IDR(name)	struct idr name = IDR_INIT(name)

static inline int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	u32 id;
	int err;

	if (start < 0)
		return -EINVAL;
	err = xa_alloc(&idr->idr_rt, &id, ptr,
		       XA_LIMIT(start, end > 0 ? end - 1 : INT_MAX), gfp);
	return err == -EBUSY ? -ENOSPC : err ? err : (int)id;
}

static inline void *idr_find(const struct idr *idr, unsigned long id)
{
	return xa_load((struct xarray *)&idr->idr_rt, id);
}

static inline void *idr_remove(struct idr *idr, unsigned long id)
{
	return xa_erase(&idr->idr_rt, id);
}

static inline void idr_destroy(struct idr *idr)
{
	xa_destroy(&idr->idr_rt);
}

/*
 * The IDA, as the kernel has it: include/linux/idr.h's IDA part extracted
 * with its line numbers (wasm/extract/selftest-idr-h.txt) by the variants
 * that compile lib/idr.c's IDA functions.
 */
#if __has_include(<linux/idr-extract.h>)
#include <linux/idr-extract.h>
#endif

#endif /* __IDR_H__ */
