// SPDX-License-Identifier: GPL-2.0-only
/*
 * The branch's mm/swap.c, its folio LRU code extracted with its line
 * numbers (wasm/extract/lru-swap.txt): the per-CPU folio batches
 * (struct cpu_fbatches, one copy per CPU: linux/percpu.h), folio_add_lru(),
 * the drains, and the release path. Nothing of it is changed; lru.h
 * says what stands around it.
 */
#include "lru.h"

#include "mm/swap-extract.c"
