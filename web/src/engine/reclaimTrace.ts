// SPDX-License-Identifier: GPL-2.0-only
// A real kernel's reclaim trace (ftrace.ts) as what a scene draws: each
// shrinker, by its scan function and address, with every do_shrink_slab()
// pass (mm_shrink_slab_start and its _end), and each CPU's reclaim episodes
// (kswapd from wake to sleep, direct and memcg reclaim from begin to end).
// And the reading of a large file in chunks, with progress and Cancel, for
// a worker.
import { FtraceParser, type ParsedTrace, type ShrinkSlabEnd, type ShrinkSlabStart, type VmscanEvent } from './ftrace';

/** One do_shrink_slab() call: its start and end tracepoints (mm/shrinker.c). */
export interface ShrinkPass {
  cpu: number;
  pid: number;
  comm: string;
  start: number; // ns
  end: number;
  startLine: number;
  endLine: number;
  nid: number | null;
  /** nr_deferred taken at the start ("objects to shrink"): what earlier passes left undone. */
  nrObjectsToShrink: number;
  /** The reclaim context's gfp_mask as the tracepoint printed it: a pass without __GFP_FS may defer all its work. */
  gfp: string;
  cacheItems: number; // freeable
  delta: number;
  totalScan: number;
  priority: number | null;
  unusedScan: number;
  /** nr_deferred after the pass ("new scan count"). */
  newScan: number;
  retval: number; // freed
}

export interface ShrinkerRow {
  /** The scan function and the shrinker's address: two superblocks share super_cache_scan. */
  key: string;
  func: string;
  module: string | null;
  shr: string;
  passes: ShrinkPass[];
  maxDeferred: number;
}

export type EpisodeKind = 'kswapd' | 'direct' | 'memcg';

export interface Episode {
  kind: EpisodeKind;
  cpu: number; // where it began
  pid: number;
  comm: string;
  start: number;
  end: number | null; // null: the trace ends first
  startLine: number;
  endLine: number | null;
  nrReclaimed: number | null; // direct and memcg reclaim's end says
}

export interface ReclaimTrace {
  shrinkers: ShrinkerRow[];
  episodes: Episode[];
  /** Starts with no end, ends with no start (the buffer dropped events, or the trace was cut). */
  unpaired: { line: number; why: string }[];
  start: number;
  end: number;
}

const BEGIN: Partial<Record<VmscanEvent['event'], EpisodeKind>> = {
  mm_vmscan_kswapd_wake: 'kswapd',
  mm_vmscan_direct_reclaim_begin: 'direct',
  mm_vmscan_memcg_reclaim_begin: 'memcg',
};
const END: Partial<Record<VmscanEvent['event'], EpisodeKind>> = {
  mm_vmscan_kswapd_sleep: 'kswapd',
  mm_vmscan_direct_reclaim_end: 'direct',
  mm_vmscan_memcg_reclaim_end: 'memcg',
};

export function buildReclaimTrace(p: ParsedTrace): ReclaimTrace {
  const rows = new Map<string, ShrinkerRow>();
  const episodes: Episode[] = [];
  const unpaired: ReclaimTrace['unpaired'] = [];
  // A pass runs in one task, which trace_mm_shrink_slab_start/_end name with the shrinker.
  const openPass = new Map<string, ShrinkSlabStart>();
  const openEpisode = new Map<string, Episode>();
  let start = Infinity;
  let end = -Infinity;

  for (const e of p.events) {
    start = Math.min(start, e.ts);
    end = Math.max(end, e.ts);
    if (e.event === 'mm_shrink_slab_start') {
      const k = `${e.pid}:${e.shr}`;
      const prev = openPass.get(k);
      if (prev) unpaired.push({ line: prev.line, why: `mm_shrink_slab_start with no end before the next start (line ${e.line})` });
      openPass.set(k, e);
    } else if (e.event === 'mm_shrink_slab_end') {
      const k = `${e.pid}:${e.shr}`;
      const s = openPass.get(k);
      if (!s) {
        unpaired.push({ line: e.line, why: 'mm_shrink_slab_end with no start' });
        continue;
      }
      openPass.delete(k);
      addPass(rows, s, e);
    } else if (BEGIN[e.event]) {
      const kind = BEGIN[e.event]!;
      const k = `${kind}:${e.pid}`;
      const prev = openEpisode.get(k);
      if (prev) unpaired.push({ line: prev.startLine, why: `${e.event} again before its end (line ${e.line})` });
      const ep: Episode = { kind, cpu: e.cpu, pid: e.pid, comm: e.comm, start: e.ts, end: null, startLine: e.line, endLine: null, nrReclaimed: null };
      openEpisode.set(k, ep);
      episodes.push(ep);
    } else if (END[e.event]) {
      const kind = END[e.event]!;
      const ep = openEpisode.get(`${kind}:${e.pid}`);
      if (!ep) {
        unpaired.push({ line: e.line, why: `${e.event} with no begin` });
        continue;
      }
      openEpisode.delete(`${kind}:${e.pid}`);
      ep.end = e.ts;
      ep.endLine = e.line;
      if ('fields' in e && typeof e.fields.nr_reclaimed === 'number') ep.nrReclaimed = e.fields.nr_reclaimed;
    }
  }
  for (const s of openPass.values()) unpaired.push({ line: s.line, why: 'mm_shrink_slab_start with no end' });
  unpaired.sort((a, b) => a.line - b.line);
  const shrinkers = [...rows.values()].sort((a, b) => b.maxDeferred - a.maxDeferred || a.key.localeCompare(b.key));
  return { shrinkers, episodes, unpaired, start: Number.isFinite(start) ? start : 0, end: Number.isFinite(end) ? end : 0 };
}

function addPass(rows: Map<string, ShrinkerRow>, s: ShrinkSlabStart, e: ShrinkSlabEnd) {
  const key = `${s.shrink.func} ${s.shr}`;
  let row = rows.get(key);
  if (!row) rows.set(key, (row = { key, func: s.shrink.func, module: s.shrink.module, shr: s.shr, passes: [], maxDeferred: 0 }));
  row.passes.push({
    cpu: s.cpu,
    pid: s.pid,
    comm: s.comm,
    start: s.ts,
    end: e.ts,
    startLine: s.line,
    endLine: e.line,
    nid: s.nid,
    nrObjectsToShrink: s.nrObjectsToShrink,
    gfp: s.gfpFlags,
    cacheItems: s.cacheItems,
    delta: s.delta,
    totalScan: s.totalScan,
    priority: s.priority,
    unusedScan: e.unusedScan,
    newScan: e.newScan,
    retval: e.retval,
  });
  row.maxDeferred = Math.max(row.maxDeferred, e.newScan, s.nrObjectsToShrink);
}

/** Thrown when the reading is cancelled. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/**
 * Reads a trace file (a File is a Blob) in chunks: UTF-8 decoded across
 * chunk boundaries, lines fed to the parser, progress after each chunk,
 * and a check of the signal between chunks.
 */
export async function readTrace(
  blob: Blob,
  opts: { chunkBytes?: number; onProgress?: (bytes: number, total: number, lines: number) => void; signal?: AbortSignal } = {},
): Promise<ParsedTrace> {
  const chunk = opts.chunkBytes ?? 4 << 20;
  const parser = new FtraceParser();
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for (let at = 0; at < blob.size; at += chunk) {
    if (opts.signal?.aborted) throw new Cancelled();
    const buf = await blob.slice(at, Math.min(blob.size, at + chunk)).arrayBuffer();
    const text = rest + decoder.decode(buf, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const l of lines) parser.line(l);
    opts.onProgress?.(Math.min(blob.size, at + chunk), blob.size, parser.result().lines);
  }
  rest += decoder.decode();
  if (rest) parser.line(rest);
  if (opts.signal?.aborted) throw new Cancelled();
  return parser.result();
}
