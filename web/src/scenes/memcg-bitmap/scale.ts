// SPDX-License-Identifier: GPL-2.0-only
// Reading a memcg-bitmap scale run: the do_shrink_slab() calls of each
// global pass (the scenario's global_reclaim_pass RETURN carries them),
// the wall-clock time of each pass and drop_caches echo in this browser
// (the scenario's wall marks), and the bits set before the first pass
// (its "bit" calls: memcg index, shrinker id).
import { EventKind } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';

export interface ScaleFigures {
  passCalls: number[]; // per global pass
  passMs: number[]; // wall time of each pass
  passVirtualNs: number; // all passes, under the cost model
  echoCalls: number[]; // per drop_caches echo (empty for a single pass)
  echoMs: number[];
  bits: [number, number][]; // [memcg index, shrinker id] set before the first pass
  totalMs: number; // the whole run, set-up included
}

/** Pairs "<name> start" / "<name> end" marks into durations, in order. */
export function spans(marks: { name: string; ms: number }[], name: string): number[] {
  const out: number[] = [];
  let start: number | null = null;
  for (const m of marks) {
    if (m.name === `${name} start`) start = m.ms;
    else if (m.name === `${name} end` && start !== null) {
      out.push(m.ms - start);
      start = null;
    }
  }
  return out;
}

export function scaleFigures(log: EventLog): ScaleFigures {
  const passCalls: number[] = [];
  const echoCalls: number[] = [];
  const bits: [number, number][] = [];
  let sinceEcho = 0;
  for (let i = 0; i < log.length; i++) {
    const k = log.kind[i];
    if (k !== EventKind.CALL && k !== EventKind.RETURN) continue;
    const fn = log.name(log.arg(i, 0));
    if (k === EventKind.CALL && fn === 'bit') bits.push([log.arg(i, 1), log.arg(i, 2)]);
    if (k === EventKind.RETURN && fn === 'global_reclaim_pass') {
      passCalls.push(log.arg(i, 1));
      sinceEcho += log.arg(i, 1);
    }
    if (k === EventKind.RETURN && fn === 'drop_caches') {
      echoCalls.push(sinceEcho);
      sinceEcho = 0;
    }
  }
  const pass = log.meta.stats.calls.find((c) => c.name === 'global_reclaim_pass');
  const marks = log.meta.wall_marks;
  return {
    passCalls,
    passMs: spans(marks, 'pass'),
    passVirtualNs: pass ? pass.total_ns : 0,
    echoCalls,
    echoMs: spans(marks, 'drop_caches'),
    bits,
    totalMs: 0,
  };
}
