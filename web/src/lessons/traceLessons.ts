// SPDX-License-Identifier: GPL-2.0-only
// Lessons on a real kernel's trace (lessons/README.md): read on the trace
// page (?import) over a bundled fixture, their goals checked against the
// pass shown, as the page steps through the trace.
import type { ReclaimTrace } from '../engine/reclaimTrace';
import type { TraceStep } from '../engine/traceSteps';
import { LESSON_FILES } from './lessons';

/** What the pass shown must be. Every field given must hold. */
export interface PassCheck {
  /** A pass of the shrinker whose deferred count grows largest in the trace. */
  runaway?: boolean;
  /** Its new scan count is the largest that shrinker's count reaches. */
  peak?: boolean;
  /** The gfp flags the tracepoint printed, exactly ("GFP_NOFS", "GFP_KERNEL"). */
  gfp?: string;
  /** It took more deferred work (objects to shrink) than its own share (delta). */
  fromDeferred?: boolean;
}

export interface TraceGoal {
  id: string;
  text: string;
  check: { pass: PassCheck };
}

export interface TraceLesson {
  id: string;
  title: string;
  /** The bundled fixture (traceFixtures.ts), the step it opens at, and steps that meet every goal between them. */
  trace: { fixture: string; start: number; solution: number[] };
  text: string[];
  goals: TraceGoal[];
  hints: string[];
  patch: { series: string | null; branch: string; file: string; lines: [number, number]; note: string };
  /** The series the lesson is about, credited in words (it is not one of the manifest's). */
  credit: string;
}

export const TRACE_LESSONS = LESSON_FILES.filter((l): l is TraceLesson => 'trace' in l);

export function findTraceLesson(id: string | null): TraceLesson | null {
  return TRACE_LESSONS.find((l) => l.id === id) ?? null;
}

/** Whether the pass at `step` meets the check. */
export function passMeets(model: ReclaimTrace, steps: TraceStep[], step: number, c: PassCheck): boolean {
  const s = steps[step];
  if (!s) return false;
  const runaway = model.shrinkers[0]; // the largest deferred count first
  if (c.runaway && s.row !== runaway) return false;
  if (c.peak && s.pass.newScan !== s.row.maxDeferred) return false;
  if (c.gfp !== undefined && s.pass.gfp !== c.gfp) return false;
  if (c.fromDeferred && !(s.pass.nrObjectsToShrink > s.pass.delta)) return false;
  return true;
}

/** The goals the pass at `step` meets. */
export function traceGoalsAt(lesson: TraceLesson, model: ReclaimTrace, steps: TraceStep[], step: number): string[] {
  return lesson.goals.filter((g) => passMeets(model, steps, step, g.check.pass)).map((g) => g.id);
}
