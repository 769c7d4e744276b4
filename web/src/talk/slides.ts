// SPDX-License-Identifier: GPL-2.0-only
// A lesson as slides, for talk mode: its title, each paragraph, the live
// demo (the scene itself, stepped from the presenter window), its goals,
// and the real patch it ends at. Speaker notes are the lesson's hints.
import type { Lesson } from '../lessons/lessons';

export type Slide =
  | { kind: 'title'; title: string; notes: string[] }
  | { kind: 'text'; text: string; notes: string[] }
  | { kind: 'demo'; notes: string[] }
  | { kind: 'goals'; notes: string[] }
  | { kind: 'patch'; notes: string[] };

export function slidesOf(lesson: Lesson): Slide[] {
  return [
    { kind: 'title', title: lesson.title, notes: [`Scene ${lesson.scene}, kernel ${lesson.start.variant}, seed ${lesson.start.seed}.`] },
    ...lesson.text.map((text) => ({ kind: 'text' as const, text, notes: [] })),
    { kind: 'demo', notes: [...lesson.hints, 'Step the demo here with . and , (Shift: ten at a time) or the controls; the projector follows.'] },
    { kind: 'goals', notes: lesson.goals.map((g) => `Goal: ${g.text}`) },
    { kind: 'patch', notes: [lesson.patch.note] },
  ];
}

export function slideLabel(s: Slide): string {
  switch (s.kind) {
    case 'title':
      return s.title;
    case 'text':
      return s.text.length > 70 ? `${s.text.slice(0, 70)}…` : s.text;
    case 'demo':
      return 'Live demo';
    case 'goals':
      return 'Goals';
    case 'patch':
      return 'The real patch';
  }
}

/** What the speaker shows besides the demo's run: the slide, the code pane zoomed on the lit line, the screen blacked out. */
export interface TalkView {
  slide: number;
  zoom: boolean;
  black: boolean;
}

/** What the two windows share, posted on every change. */
export interface TalkState extends TalkView {
  step: number;
  variant: string;
  seed: number;
  policy: string;
  sched: string;
  prog: string;
}

export const sameTalk = (a: TalkState, b: TalkState) =>
  a.slide === b.slide &&
  a.zoom === b.zoom &&
  a.black === b.black &&
  a.step === b.step &&
  a.variant === b.variant &&
  a.seed === b.seed &&
  a.policy === b.policy &&
  a.sched === b.sched &&
  a.prog === b.prog;
