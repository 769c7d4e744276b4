/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the constants kernel/bounds.c generates (a kernel build
 * writes this file), for the shim's configuration: with CONFIG_MMU and
 * neither CONFIG_MEMORY_FAILURE nor CONFIG_PAGE_IDLE_FLAG, enum pageflags
 * ends at PG_mlocked; the zones are ZONE_NORMAL and ZONE_MOVABLE (no
 * ZONE_DMA, ZONE_DMA32, ZONE_HIGHMEM or ZONE_DEVICE); CONFIG_LRU_GEN off.
 * wasm/glue/lru/mm.c checks the first two against the enums they count.
 */
#ifndef __LINUX_BOUNDS_H__
#define __LINUX_BOUNDS_H__

#define NR_PAGEFLAGS 20
#define MAX_NR_ZONES 2
#define NR_CPUS_BITS 6
#define SPINLOCK_SIZE 4
#define LRU_GEN_WIDTH 0
#define __LRU_REFS_WIDTH 0

#endif /* __LINUX_BOUNDS_H__ */
