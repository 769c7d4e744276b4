/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stubbed: stands in for the real mm/slab.h, which mm/list_lru.c includes
 * but takes nothing from that the shim's <linux/slab.h> does not give.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H
#include <linux/slab.h>
#endif
