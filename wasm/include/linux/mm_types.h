/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: of include/linux/mm_types.h, struct page and struct folio
 * as the branch has them, and the encoded-page helpers, extracted with
 * their line numbers (wasm/extract/lru-mm-types-h.txt); the types they
 * point to are only declared. No mm_struct or vm_area_struct: the
 * simulated machine runs no user space, and its faults are the
 * scenario's (wasm/scenarios/lru_batch.c).
 */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/mmdebug.h>
#include <linux/page-flags-layout.h>

struct address_space;
struct mm_struct;
struct mem_cgroup;
struct page_pool;
struct dev_pagemap;

#include <linux/mm_types-extract.h>

#endif /* _LINUX_MM_TYPES_H */
