// SPDX-License-Identifier: GPL-2.0-only
// The steps of a real kernel's reclaim trace (reclaimTrace.ts), as the
// trace page steps through them: every do_shrink_slab() pass of every
// shrinker, in the order the passes ended. And the page's search, which
// names the steps a query matches: a scan function or shrinker, a CPU, an
// event name, or any text of the pass as the tracepoints printed it.
import { VMSCAN_EVENTS, type VmscanEventName } from './ftrace';
import type { EpisodeKind, ReclaimTrace, ShrinkerRow, ShrinkPass } from './reclaimTrace';

export interface TraceStep {
  row: ShrinkerRow;
  pass: ShrinkPass;
}

/**
 * Every pass of every shrinker, by the time it ended, then by its line: a
 * coarse trace clock, as User-Mode Linux's, gives many passes one timestamp.
 */
export function traceSteps(model: ReclaimTrace): TraceStep[] {
  return model.shrinkers
    .flatMap((row) => row.passes.map((pass) => ({ row, pass })))
    .sort((a, b) => a.pass.end - b.pass.end || a.pass.endLine - b.pass.endLine);
}

/** The deferred count of a shrinker at a step: the new scan count of its last pass up to that step, in the steps' order. */
export function deferredAt(row: ShrinkerRow, at: ShrinkPass): number | null {
  let v: number | null = null;
  for (const p of row.passes) if (p.end < at.end || (p.end === at.end && p.endLine <= at.endLine)) v = p.newScan;
  return v;
}

/** For each shrinker, the first step at which its deferred count is at its largest: one walk over the steps. */
export function peakSteps(steps: TraceStep[]): Map<ShrinkerRow, number> {
  const best = new Map<ShrinkerRow, number>();
  steps.forEach((s, i) => {
    const b = best.get(s.row);
    if (b === undefined || s.pass.newScan > steps[b].pass.newScan) best.set(s.row, i);
  });
  return best;
}

/** A pass as its two tracepoint lines say it, for the text search. */
function passText(s: TraceStep): string {
  const p = s.pass;
  return [
    `${s.row.func}${s.row.module ? ` [${s.row.module}]` : ''} ${s.row.shr}`,
    `${p.comm}-${p.pid} cpu${p.cpu}`,
    p.nid !== null ? `nid: ${p.nid}` : '',
    `objects to shrink ${p.nrObjectsToShrink} gfp_flags ${p.gfp} cache items ${p.cacheItems} delta ${p.delta} total_scan ${p.totalScan}`,
    p.priority !== null ? `priority ${p.priority}` : '',
    `unused scan count ${p.unusedScan} new scan count ${p.newScan} last shrinker return val ${p.retval}`,
  ].join(' ').toLowerCase();
}

const EPISODE_EVENTS: Partial<Record<VmscanEventName, { kind: EpisodeKind; at: 'start' | 'end' }>> = {
  mm_vmscan_kswapd_wake: { kind: 'kswapd', at: 'start' },
  mm_vmscan_kswapd_sleep: { kind: 'kswapd', at: 'end' },
  mm_vmscan_direct_reclaim_begin: { kind: 'direct', at: 'start' },
  mm_vmscan_direct_reclaim_end: { kind: 'direct', at: 'end' },
  mm_vmscan_memcg_reclaim_begin: { kind: 'memcg', at: 'start' },
  mm_vmscan_memcg_reclaim_end: { kind: 'memcg', at: 'end' },
};

export interface SearchResult {
  /** The steps that match, in order. */
  steps: number[];
  /** How the query was read, for the page to say. */
  as: string;
}

/**
 * The steps a query matches (case does not matter):
 *   "cpu 2", "CPU2", "cpu:2"   passes run on that CPU;
 *   a vmscan event name        mm_shrink_slab_start/_end: every pass; an
 *                              episode's begin or end (kswapd wake/sleep,
 *                              direct or memcg reclaim): the first pass after
 *                              each such line; "mm_vmscan_lru_shrink_inactive"
 *                              is no step and matches none;
 *   any other text             passes whose scan function, module, shrinker
 *                              address, task, gfp flags or numbers, written as
 *                              the tracepoints write them, contain it.
 */
export function searchSteps(model: ReclaimTrace, steps: TraceStep[], query: string): SearchResult {
  const q = query.trim().toLowerCase();
  if (!q) return { steps: [], as: '' };
  const cpu = /^cpu\s*:?\s*(\d+)$/.exec(q);
  if (cpu) {
    const n = Number(cpu[1]);
    return { steps: indices(steps, (s) => s.pass.cpu === n), as: `passes on CPU${n}` };
  }
  const event = (VMSCAN_EVENTS as readonly string[]).includes(q) ? (q as VmscanEventName) : null;
  if (event === 'mm_shrink_slab_start' || event === 'mm_shrink_slab_end') return { steps: steps.map((_, i) => i), as: 'every pass (each is a start and its end)' };
  if (event) {
    const ep = EPISODE_EVENTS[event];
    if (!ep) return { steps: [], as: `${event} events are not steps` };
    const lines = model.episodes.filter((e) => e.kind === ep.kind).map((e) => (ep.at === 'start' ? e.startLine : e.endLine)).filter((l): l is number => l !== null);
    return { steps: firstStepsAfter(steps, lines), as: `the first pass after each ${event}` };
  }
  let texts = TEXTS.get(steps);
  if (!texts) TEXTS.set(steps, (texts = steps.map(passText)));
  const t = texts;
  return { steps: indices(steps, (_, i) => t[i].includes(q)), as: 'passes whose text contains it' };
}

// The passes' texts, made once per trace and kept while its steps are: each keystroke of a search reads them again.
const TEXTS = new WeakMap<TraceStep[], string[]>();

function indices(steps: TraceStep[], f: (s: TraceStep, i: number) => boolean): number[] {
  const out: number[] = [];
  steps.forEach((s, i) => f(s, i) && out.push(i));
  return out;
}

/** For each line, the first step whose pass started after it (by line): binary search over the steps sorted by start line. */
function firstStepsAfter(steps: TraceStep[], lines: number[]): number[] {
  const byLine = steps.map((s, i) => ({ line: s.pass.startLine, i })).sort((a, b) => a.line - b.line);
  const out = new Set<number>();
  for (const l of lines) {
    let lo = 0;
    let hi = byLine.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byLine[mid].line > l) hi = mid;
      else lo = mid + 1;
    }
    if (lo < byLine.length) out.add(byLine[lo].i);
  }
  return [...out].sort((a, b) => a - b);
}

/** The match after (dir 1) or before (dir -1) the step, wrapping around; null when nothing matches. */
export function nextMatch(matches: number[], step: number, dir: 1 | -1): number | null {
  if (!matches.length) return null;
  if (dir > 0) return matches.find((m) => m > step) ?? matches[0];
  for (let i = matches.length - 1; i >= 0; i--) if (matches[i] < step) return matches[i];
  return matches[matches.length - 1];
}
