// SPDX-License-Identifier: GPL-2.0-only
// The permalink: scene, seed and step live in the URL, so opening it again
// reproduces the same state.

import { DEFAULT_WORD_SIZE, PAGE_WORD_SIZE } from '../engine/wordsize';
import { POLICIES, type PolicyName } from '../engine/generated/events';
import type { RunState } from '../engine/runState';

// The scheduling policies, generated from the runtime's (wasm/runtime/runtime.h).
export { POLICIES, type PolicyName };

/** Every parameter the page reads (params.ts checks them), in the order permalinks write them. */
export const PARAMS = ['lesson', 'deck', 'talk', 'slide', 'embed', 'scene', 'variant', 'compare', 'bits', 'seed', 'policy', 'memory', 'sched', 'prog', 'step'] as const;
/** Every parameter the trace page (?import) reads, in the order its permalinks write them. */
export const IMPORT_PARAMS = ['lesson', 'import', 'step'] as const;

export interface UrlState extends Omit<RunState, 'variant'> {
  scene: string | null;
  variant: string | null; // null: the scene's default kernel
  compare: string | null; // a second kernel run beside the first, in lock-step
  step: number;
  lesson: string | null; // the lesson shown beside the scene
  talk: string | null; // talk mode: 'presenter', or any other value for the audience
  deck?: string | null; // the talk shown (talks/README.md): a file of talks/, or one kept in this browser
  slide?: number; // the talk's slide on screen
  embed?: boolean; // the scene alone, for an iframe
}

export const MAX_SEED = 2 ** 32 - 1;

/**
 * The longest link the page makes, in characters: servers refuse longer request lines (nginx's and Apache's
 * default limits are about 8 KB; Node's http, which scripts/serve.mjs runs on, 16 KB for the whole header).
 */
export const LINK_MAX = 8000;
/** The most characters of a schedule or a program a link holds, as the link writes them: two and the rest stay under LINK_MAX. */
export const LINK_VALUE_MAX = 3500;
/** A schedule or program's length as a link writes it (percent-encoded). */
export const linkLength = (value: string) => new URLSearchParams({ v: value }).toString().length - 2;
/** Whether a link can hold this schedule or program: past LINK_VALUE_MAX the page's links leave it out and say so where it is made. */
export const fitsLink = (value: string) => linkLength(value) <= LINK_VALUE_MAX;

/** What a person is told where a schedule or program too long for a link is made (''  : it fits). */
export function tooLongForLink(what: 'schedule' | 'program', value: string): string {
  if (fitsLink(value)) return '';
  return `This ${what} is ${linkLength(value).toLocaleString('en')} characters as a link writes it, past the ${LINK_VALUE_MAX.toLocaleString('en')} a link holds: the page's address and links leave it out, so a reload ${what === 'schedule' ? 'lets the policy decide' : "runs the scene's default"}.`;
}

/** The permalink (`?…`), every schedule or program a link cannot hold left out: at most LINK_MAX characters. */
export function formatUrl(s: UrlState): string {
  return formatWhole({ ...s, sched: fitsLink(s.sched) ? s.sched : '', prog: fitsLink(s.prog) ? s.prog : '' });
}

/** A search string as a link: its schedule and program left out where a link cannot hold them. */
export function linkOf(search: string): string {
  const q = new URLSearchParams(search);
  for (const k of ['sched', 'prog']) if (!fitsLink(q.get(k) ?? '')) q.delete(k);
  return `?${q.toString()}`;
}

/** The state as a search string, whatever its length: for the page to open in place (start.tsx's navigate), never a link. */
export function formatWhole(s: UrlState): string {
  const q = new URLSearchParams();
  if (s.lesson) q.set('lesson', s.lesson);
  if (s.deck) q.set('deck', s.deck);
  if (s.talk) q.set('talk', s.talk);
  if (s.talk && s.slide) q.set('slide', String(s.slide));
  if (s.embed) q.set('embed', '1');
  if (s.scene) q.set('scene', s.scene);
  if (s.variant) q.set('variant', s.variant);
  if (s.compare) q.set('compare', s.compare);
  // The machine's word size is the page's (a change reloads it): kept while it is not the default.
  if (PAGE_WORD_SIZE !== DEFAULT_WORD_SIZE) q.set('bits', String(PAGE_WORD_SIZE));
  q.set('seed', String(s.seed));
  if (s.policy !== 'timed') q.set('policy', s.policy);
  if (s.memory && s.memory !== 'sc') q.set('memory', s.memory);
  if (s.sched) q.set('sched', s.sched);
  if (s.prog) q.set('prog', s.prog);
  q.set('step', String(s.step));
  return `?${q.toString()}`;
}

export function isValidSeed(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= MAX_SEED;
}

/** The trace page's permalink: a lesson (which names its trace) or a trace by name or URL, and the pass shown. */
export function formatImportUrl(s: { lesson: string | null; source: string | null; step: number }): string {
  if (!s.lesson && !s.source) return '?import';
  const q = new URLSearchParams();
  if (s.lesson) q.set('lesson', s.lesson);
  else q.set('import', s.source!);
  q.set('step', String(s.step));
  return `?${q.toString()}`;
}
