// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene's setup in its permalink form: how many
// page_fault1 tasks, pages and rounds, how munmap hands pages to
// release_pages(), and the cost of a fault and of an unmapped page.
// "t8,p28,r2" is the default; "t1,p537,r1,all" is the thread's bug;
// "iso" adds compaction's migrate scanner on a CPU of its own. The
// locking is the kernel's (the page's kernel control: v6.12's one
// lru_lock, or a kernel with batch locks). Everything goes to the
// scenario as parameters (wasm/scenarios/lru_batch.c); nothing is a
// program of operations.
import type { RunOptions } from '../../engine/client';
import { runParamMax } from '../../engine/generated/params';

/*
 * The locking once chose the model's mode, and 'fix' sized the model's
 * sentinel bitmap by nr; old links still carry them: read, and dropped.
 */
const LEGACY_TOKENS = ['lock', 'batch', 'splice', 'fix'];

/**
 * The RFC's three kernels, as the lab builds them: one lru_lock (v6.12
 * itself, the baseline), batch locks (the port, lru-batch-port), and
 * batch locks with splicing (lru-splice-port on it).
 */
export const LOCKINGS = [
  { id: 'lock', text: 'one lru_lock', variant: 'v6.12' },
  { id: 'batch', text: 'batch locks', variant: 'lru-batch' },
  { id: 'splice', text: 'batch locks + splicing', variant: 'lru-splice' },
] as const;
export type Locking = (typeof LOCKINGS)[number]['id'];

export interface Setup {
  tasks: number;
  pages: number; // per task
  rounds: number;
  releaseAll: boolean; // one release_pages() per munmap, however many pages
  isolate: boolean; // compaction's migrate scanner on one more CPU (folio_isolate_lru() by pfn)
  faultNs: number;
  munmapNs: number;
}

// The scenario's own stand-in costs (wasm/scenarios/lru_batch.c FAULT_NS, MUNMAP_NS).
export const FAULT_NS = 400;
export const MUNMAP_NS = 100;
export const LRU_BITMAP_SIZE = 512; // release_pages()'s sentinel bitmap in the RFC (on 4.15; the port's has PAGEVEC_SIZE bits)
export const PAGEVEC_SIZE = 31; // include/linux/pagevec.h: a folio_batch, a per-CPU lru_add batch
export const MAX_FREE = 512; // mm/mmu_gather.c MAX_NR_FOLIOS_PER_FREE: pages per free_pages_and_swap_cache()
export const BUG_PAGES = 537; // the thread: one munmap of 537 64K pages

export const DEFAULT_SETUP: Setup = {
  tasks: 8, pages: 28, rounds: 2, releaseAll: false, isolate: false, faultNs: FAULT_NS, munmapNs: MUNMAP_NS,
};

/** Each number of the setup: its run parameter, whose params.def limit is its largest value. */
export const LIMITS = {
  t: { name: 'tasks', min: 1, max: runParamMax('tasks') },
  p: { name: 'pages per task', min: 1, max: runParamMax('objects') },
  r: { name: 'rounds', min: 1, max: runParamMax('rounds') },
  f: { name: 'a fault’s cost (ns)', min: 1, max: runParamMax('slowNs') },
  u: { name: 'an unmapped page’s cost (ns)', min: 1, max: runParamMax('munmapNs') },
} as const;

/** Reads a setup; '' is the default. Throws with what is wrong. */
export function parseSetup(text: string): Setup {
  const s: Setup = { ...DEFAULT_SETUP };
  if (!text) return s;
  for (const tok of text.split(',')) {
    if (LEGACY_TOKENS.includes(tok)) continue;
    else if (tok === 'all') s.releaseAll = true;
    else if (tok === 'iso') s.isolate = true;
    else {
      const m = /^([tprfu])(\d{1,9})$/.exec(tok);
      if (!m) throw new Error(`"${tok}" is not a setting (all, iso, or t/p/r/f/u and a number)`);
      const lim = LIMITS[m[1] as keyof typeof LIMITS];
      const v = Number(m[2]);
      if (v < lim.min || v > lim.max) throw new Error(`${lim.name} must be ${lim.min} to ${lim.max}, not ${v}`);
      if (m[1] === 't') s.tasks = v;
      else if (m[1] === 'p') s.pages = v;
      else if (m[1] === 'r') s.rounds = v;
      else if (m[1] === 'f') s.faultNs = v;
      else s.munmapNs = v;
    }
  }
  if (s.isolate && s.tasks >= LIMITS.t.max)
    throw new Error(`with iso the migrate scanner takes a CPU of its own: at most ${LIMITS.t.max - 1} tasks, not ${s.tasks}`);
  return s;
}

/** The permalink form; '' for the default. */
export function formatSetup(s: Setup): string {
  const parts: string[] = [`t${s.tasks}`, `p${s.pages}`, `r${s.rounds}`];
  if (s.releaseAll) parts.push('all');
  if (s.isolate) parts.push('iso');
  if (s.faultNs !== FAULT_NS) parts.push(`f${s.faultNs}`);
  if (s.munmapNs !== MUNMAP_NS) parts.push(`u${s.munmapNs}`);
  const text = parts.join(',');
  return text === formatSetupDefault ? '' : text;
}
const formatSetupDefault = ['t8', 'p28', 'r2'].join(',');

export function runOptions(s: Setup): RunOptions {
  return {
    tasks: s.tasks,
    objects: s.pages,
    rounds: s.rounds,
    lruReleaseAll: s.releaseAll,
    lruIsolate: s.isolate,
    slowNs: s.faultNs,
    munmapNs: s.munmapNs,
  };
}

/** The largest release_pages() call a setup makes. */
export const largestRelease = (s: Setup) => (s.releaseAll ? s.pages : Math.min(s.pages, MAX_FREE));
