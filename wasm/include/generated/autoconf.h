/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the kernel configuration the shimmed files are built with.
 * (In a kernel build, Kconfig generates this file.)
 */
#ifndef __LINUX_AUTOCONF_H
#define __LINUX_AUTOCONF_H

#if __SIZEOF_LONG__ == 8
#define CONFIG_64BIT 1		/* clang -m64: a 64-bit kernel (BITS_PER_LONG 64) */
#endif
#define CONFIG_SMP 1
#define CONFIG_NUMA 1
#define CONFIG_NODES_SHIFT 3
#define CONFIG_MEMCG 1
#define CONFIG_MEMCG_KMEM 1	/* 6.1 still has it (always on with MEMCG since 6.10) */
#define CONFIG_MMU 1
#define CONFIG_PREEMPT_NONE 1
#define CONFIG_NR_CPUS 64
#define CONFIG_BASE_SMALL 0	/* 6.1 reads it as a number */
#define CONFIG_DEBUG_LIST 1	/* the real lib/list_debug.c checks every list operation */
#define CONFIG_LIST_HARDENED 1	/* selected by CONFIG_DEBUG_LIST */
/* CONFIG_SHRINKER_DEBUG, CONFIG_LOCKDEP (the runtime has its own), other CONFIG_DEBUG_*: not set */

#endif /* __LINUX_AUTOCONF_H */
