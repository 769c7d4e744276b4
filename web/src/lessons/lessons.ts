// SPDX-License-Identifier: GPL-2.0-only
// Lessons (lessons/*.json, described in lessons/README.md): their shape,
// and their goals checked against a run's log up to a step.
import { EVENT_KINDS, EventKind } from '../engine/generated/events';
import type { EventLog } from '../engine/log';
import type { RunState } from '../engine/runState';
import { SCENES } from '../scenes/registry';
import { unknownParts } from '../scenes/parts';

/** Where a lesson starts: a run, and the step it opens at. */
export interface LessonStart extends RunState {
  step?: number;
}

export type GoalCheck =
  | { event: { kind: string; func?: string; args?: Record<string, number | string> } }
  | { report: number }
  | { figure: { name: string; atLeast?: number; atMost?: number } };

export interface Goal {
  id: string;
  text: string;
  check: GoalCheck;
  variant?: string; // counts only on this kernel
}

export interface Lesson {
  id: string;
  title: string;
  scene: string;
  start: LessonStart;
  text: string[];
  goals: Goal[];
  hints: string[];
  solution: LessonStart;
  patch: { series: string | null; branch: string; file: string; lines: [number, number]; note: string };
  /** The parts of the page its steps use, shown open beside its text (LESSON_OPENS). */
  opens?: LessonOpen[];
}

/** What a lesson can open beside its text: the next-decision panel, which says where each CPU is and takes the next step on another. */
export const LESSON_OPENS = ['scheduler'] as const;
export type LessonOpen = (typeof LESSON_OPENS)[number];

const files = import.meta.glob('../../../lessons/*.json', { eager: true, import: 'default' }) as Record<string, Lesson | { trace: unknown }>;

/** Every lesson file, in the order of their names: a scene's lesson, or a trace's (traceLessons.ts). */
export const LESSON_FILES = Object.keys(files)
  .sort()
  .map((k) => files[k]);

/** Every lesson on a scene, in the order of their file names. */
export const LESSONS: Lesson[] = LESSON_FILES.filter((l): l is Lesson => !('trace' in l));

/** A lesson as the lists name it: the one list the header's picker and the landing view show, in file order. */
export interface LessonEntry {
  id: string;
  title: string;
  goals: { id: string }[];
  /** What it is read over: its scene's title, or a real kernel's trace. */
  where: string;
  /** Whether it has slides (a lesson on a scene has a run to present; one on a trace has none). */
  slides: boolean;
}

/** Every lesson, on a scene or on a trace, in the order of their file names. */
export const LESSON_INDEX: LessonEntry[] = LESSON_FILES.map((f) => {
  const l = f as { id: string; title: string; goals: { id: string }[]; scene?: string };
  const trace = 'trace' in f;
  return { id: l.id, title: l.title, goals: l.goals, where: trace ? "a real kernel's trace" : (SCENES.find((s) => s.id === l.scene)?.title ?? l.scene ?? ''), slides: !trace };
});

export function findLesson(id: string | null): Lesson | null {
  return LESSONS.find((l) => l.id === id) ?? null;
}

/** The scene whose `figures` names this figure. */
export function figureScene(name: string) {
  return SCENES.find((s) => s.figures?.[name]) ?? null;
}

/** What is wrong with a slide's parts of a scene (scenes/parts.ts): '' when the scene has them all. */
export function partsProblem(sceneId: string, names: readonly string[]): string {
  const scene = SCENES.find((s) => s.id === sceneId);
  return scene ? unknownParts(scene, names) : `there is no scene ${sceneId}`;
}

const figureCache = new WeakMap<EventLog, Map<string, number>>();

/** A scene's figure read off its state at the end of the run (one fold per log and figure). */
export function figureAtEnd(log: EventLog, name: string): number {
  let cache = figureCache.get(log);
  if (!cache) figureCache.set(log, (cache = new Map()));
  let v = cache.get(name);
  if (v === undefined) {
    const scene = figureScene(name);
    if (!scene) throw new Error(`no scene has a figure ${name}`);
    const s = scene.reducer.init(log);
    for (let i = 0; i < log.length; i++) scene.reducer.apply(s, log, i);
    cache.set(name, (v = scene.figures![name](s)));
  }
  return v;
}

/** The first event at or before `upTo` that meets the check, or -1. A figure is read at the run's last event. */
export function goalStep(log: EventLog, check: GoalCheck, upTo = log.length - 1): number {
  if ('figure' in check) {
    const last = log.length - 1;
    if (last < 0 || upTo < last) return -1;
    const v = figureAtEnd(log, check.figure.name);
    const { atLeast = -Infinity, atMost = Infinity } = check.figure;
    return v >= atLeast && v <= atMost ? last : -1;
  }
  if ('report' in check) {
    for (let i = 0; i <= upTo && i < log.length; i++) if (log.kind[i] === EventKind.REPORT && log.arg(i, 0) === check.report) return i;
    return -1;
  }
  const kind = EVENT_KINDS.findIndex((k) => k.name === check.event.kind);
  if (kind < 0) throw new Error(`no event kind ${check.event.kind}`);
  for (let i = 0; i <= upTo && i < log.length; i++) {
    if (log.kind[i] !== kind) continue;
    if (check.event.func && log.siteOf(i)?.func !== check.event.func) continue;
    const args = check.event.args;
    if (args) {
      const named = log.namedArgs(i);
      if (!Object.entries(args).every(([k, v]) => named[k] === v)) continue;
    }
    return i;
  }
  return -1;
}

/** Which goals a run on `variant` has met by `step`: goal id -> the event that met it. */
export function metGoals(lesson: Lesson, log: EventLog, variant: string, step: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of lesson.goals) {
    if (g.variant && g.variant !== variant) continue;
    const at = goalStep(log, g.check, step);
    if (at >= 0) out[g.id] = at;
  }
  return out;
}
