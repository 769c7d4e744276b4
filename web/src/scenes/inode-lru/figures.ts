// SPDX-License-Identifier: GPL-2.0-only
// Seed 004's table: rows of inodes x active pages each, the seed's
// figures, the program that runs a row (the scenario's key/value records,
// wasm/scenarios/inode_lru.c), and reading a row's share off a quiet run.
import { EventKind } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';

export interface Row {
  inodes: number;
  pages: number;
  seed: number; // shrink_slab's share of kswapd's cycles in the thread's test (inodes rotated on the LRU), in percent
}

export const ROWS: Row[] = [
  { inodes: 1_000, pages: 3072, seed: 0.39 },
  { inodes: 10_000, pages: 307, seed: 0.39 },
  { inodes: 100_000, pages: 32, seed: 1.29 },
  { inodes: 500_000, pages: 6, seed: 11.36 },
  { inodes: 1_000_000, pages: 3, seed: 26.4 },
  { inodes: 1_500_000, pages: 2, seed: 42.97 },
  { inodes: 3_000_000, pages: 1, seed: 45.22 },
];

export const KERNELS = ['inode', 'inode-before', 'inode-rotate'] as const;

// The scenario's program keys (wasm/scenarios/inode_lru.c)
export const KEY = {
  inodes: 1, pages: 2, scaleShift: 3, modelInodes: 4, streamPages: 5, inactive: 6, filePages: 7,
} as const;

/** Key/value records: a key byte, then the value as 32 bits, little-endian. */
export function program(kv: [number, number][]): number[] {
  const out: number[] = [];
  for (const [k, v] of kv) out.push(k, v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255);
  return out;
}

/** A row of the table: auto scale (INODES 0), the inactive list from the memory model, large streaming files. */
export const rowProgram = (r: Row) =>
  program([[KEY.inodes, 0], [KEY.modelInodes, r.inodes], [KEY.pages, r.pages], [KEY.inactive, 0], [KEY.streamPages, 0], [KEY.filePages, 4096]]);

export interface RowResult {
  share: number; // percent
  slabMs: number; // kswapd's virtual CPU time in shrink_slab()
  pageMs: number; // and in shrink_inactive_list()
  shift: number; // the run's scale: 2^shift
  simInodes: number;
  visitNs: number;
}

/** shrink_slab()'s share of kswapd's reclaim CPU time (calls' time less time off CPU). */
export function rowResult(log: EventLog): RowResult {
  const meta = log.meta;
  const call = (n: string) => meta.stats.calls.find((c) => c.name === n);
  const cpu = (n: string) => {
    const c = call(n);
    return c ? c.total_ns - (c.off_cpu_ns ?? 0) : 0;
  };
  const slab = cpu('shrink_slab');
  const page = cpu('shrink_inactive_list');
  const r: RowResult = { share: slab + page > 0 ? (100 * slab) / (slab + page) : 0, slabMs: slab / 1e6, pageMs: page / 1e6, shift: 0, simInodes: 0, visitNs: 0 };
  // The scenario states its scale and visit cost in calls of its own.
  for (let i = 0; i < log.length; i++) {
    if (log.kind[i] !== EventKind.CALL) continue;
    const fn = log.name(log.arg(i, 0));
    if (fn === 'inode_lru_setup') r.simInodes = log.arg(i, 1);
    if (fn === 'inode_lru_model') {
      r.shift = log.arg(i, 1);
      r.visitNs = log.arg(i, 3);
      break;
    }
  }
  return r;
}
