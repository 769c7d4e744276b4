// SPDX-License-Identifier: GPL-2.0-only
/*
 * The branch's mm/memcontrol.c, its lru_lock helpers and per-memcg LRU
 * sizes extracted with their line numbers (wasm/extract/lru-memcontrol.txt).
 */
#include "lru.h"

#include "mm/memcontrol-extract.c"
