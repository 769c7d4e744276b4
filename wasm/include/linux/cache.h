/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/linux/cache.h), with a 64-byte line.
 * Without these, "struct x ____cacheline_aligned_in_smp;" silently declares
 * a global variable of that name (-fno-common catches it).
 */
#ifndef __LINUX_CACHE_H
#define __LINUX_CACHE_H

#define L1_CACHE_SHIFT		6
#define L1_CACHE_BYTES		(1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES		L1_CACHE_BYTES
#define ____cacheline_aligned	__attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp	____cacheline_aligned
#define __cacheline_aligned	____cacheline_aligned
#define __cacheline_aligned_in_smp	____cacheline_aligned
/* include/linux/cache.h: padding that keeps hot fields on their own line */
#define ____cacheline_internodealigned_in_smp	____cacheline_aligned
struct cacheline_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define CACHELINE_PADDING(name)		struct cacheline_padding name
#define __read_mostly
#define __ro_after_init

#endif /* __LINUX_CACHE_H */
