/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (include/linux/gfp.h): helpers the files use. */
#ifndef __LINUX_GFP_H
#define __LINUX_GFP_H

#include <linux/gfp_types.h>

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

#endif /* __LINUX_GFP_H */
