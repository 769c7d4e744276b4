// SPDX-License-Identifier: GPL-2.0-only
// A talk as talk mode shows it: a title and a sequence of slides. Talks come
// from two places through one loader (talks.ts): the files of talks/, and the
// lessons, each of which is a talk whose slides are made from its parts here
// (its title, each paragraph, its start state as the live demo, its goals,
// and the real patch it ends at; the speaker notes are its hints).
import type { Goal, Lesson } from '../lessons/lessons';
import { sameRun, type RunState } from '../engine/runState';

/** A live state of the app: what a permalink reproduces. */
export interface LiveState extends RunState {
  scene: string;
  step: number;
}

export interface SlidePatch {
  series: string | null;
  branch: string;
  file: string;
  lines: [number, number];
  note: string;
  /** The branch to show the hunk against, when the tree has several diffs over these lines. */
  against?: string;
}

export type Slide =
  | { kind: 'title'; title: string; subtitle?: string; notes: string[] }
  | { kind: 'text'; title?: string; text: string; notes: string[] }
  | { kind: 'demo'; title?: string; state: LiveState; notes: string[]; /** The scene's parts it shows (scenes/parts.ts); absent: the scene's talk default. */ parts?: string[] }
  | { kind: 'goals'; goals: Goal[]; notes: string[] }
  | { kind: 'patch'; patch: SlidePatch; notes: string[] };

export interface TalkDef {
  /** The talk's id in the URL: deck=<id> for a file, lesson=<id> for a lesson. */
  id: string;
  title: string;
  /** Where it was read from, for messages: a file name, or the lesson's. */
  source: string;
  slides: Slide[];
  /** The lesson it is, if it is one. */
  lesson?: Lesson;
}

export function talkOfLesson(lesson: Lesson): TalkDef {
  const state: LiveState = { ...lesson.start, scene: lesson.scene, step: lesson.start.step ?? 0 };
  return {
    id: lesson.id,
    title: lesson.title,
    source: `lessons/${lesson.id}`,
    lesson,
    slides: [
      { kind: 'title', title: lesson.title, notes: [`Scene ${lesson.scene}, kernel ${lesson.start.variant}, seed ${lesson.start.seed}.`] },
      ...lesson.text.map((text) => ({ kind: 'text' as const, text, notes: [] })),
      { kind: 'demo', state, notes: [...lesson.hints, 'Step the demo here with . and , (Shift: ten at a time) or the controls; the projector follows.'] },
      { kind: 'goals', goals: lesson.goals, notes: lesson.goals.map((g) => `Goal: ${g.text}`) },
      { kind: 'patch', patch: lesson.patch, notes: [lesson.patch.note] },
    ],
  };
}

/** Every lesson's slides (kept for callers that count them). */
export const slidesOf = (lesson: Lesson): Slide[] => talkOfLesson(lesson).slides;

/**
 * The live slide whose state the demo shows when slide `at` is on screen:
 * the last live slide at or before it, else the first of the talk (-1: none).
 */
export function liveSlideFor(slides: Slide[], at: number): number {
  for (let i = Math.min(at, slides.length - 1); i >= 0; i--) if (slides[i].kind === 'demo') return i;
  return slides.findIndex((s) => s.kind === 'demo');
}

export function slideLabel(s: Slide): string {
  const cut = (t: string) => (t.length > 70 ? `${t.slice(0, 70)}…` : t);
  switch (s.kind) {
    case 'title':
      return s.title;
    case 'text':
      return cut(s.title ?? s.text);
    case 'demo':
      return s.title ? `Live: ${cut(s.title)}` : 'Live demo';
    case 'goals':
      return 'Goals';
    case 'patch':
      return 'The real patch';
  }
}

/** What the speaker shows besides the demo's run: the slide, the live slide whose state is loaded, the code pane zoomed on the lit line, the screen blacked out. */
export interface TalkView {
  slide: number;
  live: number;
  zoom: boolean;
  black: boolean;
}

/** What the two windows share, posted on every change. */
export interface TalkState extends TalkView, RunState {
  scene: string;
  step: number;
}

export const sameTalk = (a: TalkState, b: TalkState) =>
  a.slide === b.slide &&
  a.live === b.live &&
  a.zoom === b.zoom &&
  a.black === b.black &&
  a.scene === b.scene &&
  a.step === b.step &&
  sameRun(a, b);
