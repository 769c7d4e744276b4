// SPDX-License-Identifier: GPL-2.0-only
// Talk files (talks/README.md): their format, checked (a file that is not a
// talk is refused with the file and the field at fault), the registry (the
// folder itself, read at build time), and the talks kept in this browser
// (the one a speaker builds in the page, the one imported from a file).
// The one loader, for these and the lessons alike, is app/talks.ts: it
// reads live states with the page's own URL reader.
import { EVENT_KINDS } from '../engine/generated/events';
import { findSeries } from '../engine/manifest';
import { figureScene, partsProblem, type Goal } from '../lessons/lessons';
import type { LiveState, Slide, SlidePatch, TalkDef } from './slides';

/** A talk file as it is written (talks/README.md). */
export interface TalkFile {
  title: string;
  slides: TalkFileSlide[];
}

export interface TalkFileSlide {
  title?: string;
  subtitle?: string;
  text?: string;
  live?: string;
  /** A live slide's parts of the scene (scenes/parts.ts); absent: the scene's talk default. */
  parts?: string[];
  patch?: SlidePatch;
  goals?: Goal[];
  notes?: string | string[];
}

/** A file that is not a talk: the message names the file and the field. */
export class TalkError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
  }
}

/**
 * Reads a live slide's permalink into the state the page would show for it,
 * or throws an Error saying what is wrong with it. The page's own URL
 * reader does this (app/talks.ts), so a talk file is checked as the page
 * checks a URL.
 */
export type LiveReader = (permalink: string) => LiveState;

function liveOf(read: LiveReader, permalink: string, file: string, field: string): LiveState {
  try {
    return read(permalink);
  } catch (e) {
    throw new TalkError(file, field, (e as Error).message);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(v: unknown, file: string, field: string, optional = false): string | undefined {
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string' || !v.trim()) throw new TalkError(file, field, `a text is expected, not ${JSON.stringify(v) ?? 'nothing'}`);
  return v;
}

function notesOf(v: unknown, file: string, field: string): string[] {
  if (v === undefined) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((n) => typeof n === 'string')) return v as string[];
  throw new TalkError(file, field, 'notes are a text or a list of texts');
}

function patchOf(v: unknown, file: string, field: string): SlidePatch {
  if (!isObject(v)) throw new TalkError(file, field, 'a patch is {series, branch, file, lines: [first, last], note}');
  const series = v.series === null || v.series === undefined ? null : str(v.series, file, `${field}.series`)!;
  if (series && !findSeries(series)) throw new TalkError(file, `${field}.series`, `kernel-tree/manifest.json has no series "${series}"`);
  const lines = v.lines;
  if (!Array.isArray(lines) || lines.length !== 2 || !lines.every((n) => Number.isInteger(n) && n > 0) || lines[0] > lines[1])
    throw new TalkError(file, `${field}.lines`, `[first, last] line numbers are expected, not ${JSON.stringify(lines)}`);
  const against = str(v.against, file, `${field}.against`, true);
  return { series, branch: str(v.branch, file, `${field}.branch`)!, file: str(v.file, file, `${field}.file`)!, lines: lines as [number, number], note: str(v.note, file, `${field}.note`, true) ?? '', ...(against ? { against } : {}) };
}

function goalsOf(v: unknown, file: string, field: string): Goal[] {
  if (!Array.isArray(v) || !v.length) throw new TalkError(file, field, 'a list of goals is expected (lessons/README.md)');
  return v.map((g, i) => {
    const f = `${field}[${i}]`;
    if (!isObject(g)) throw new TalkError(file, f, 'a goal is {id, text, check}');
    const check = g.check;
    if (isObject(check) && typeof check.report === 'number') return g as unknown as Goal;
    if (isObject(check) && isObject(check.figure)) {
      const name = check.figure.name;
      if (typeof name !== 'string' || !figureScene(name)) throw new TalkError(file, `${f}.check.figure.name`, `no scene has a figure ${JSON.stringify(name)}`);
      return g as unknown as Goal;
    }
    if (!isObject(check) || !isObject(check.event) || typeof check.event.kind !== 'string')
      throw new TalkError(file, `${f}.check`, 'a check is {"event": {"kind": …}}, {"report": N} or {"figure": {"name": …}}');
    const kind = check.event.kind;
    if (!EVENT_KINDS.some((k) => k.name === kind)) throw new TalkError(file, `${f}.check.event.kind`, `there is no event kind ${kind}`);
    str(g.id, file, `${f}.id`);
    str(g.text, file, `${f}.text`);
    return g as unknown as Goal;
  });
}

/** A live slide's parts: names of its scene's parts (scenes/parts.ts), each at most once. */
function partsOf(v: unknown, sceneId: string, file: string, field: string): string[] {
  if (!Array.isArray(v) || !v.length || !v.every((p) => typeof p === 'string'))
    throw new TalkError(file, field, `a non-empty list of part names is expected, not ${JSON.stringify(v)}`);
  const bad = partsProblem(sceneId, v);
  if (bad) throw new TalkError(file, field, bad);
  if (new Set(v).size !== v.length) throw new TalkError(file, field, `a part is named twice in ${JSON.stringify(v)}`);
  return v;
}

const SLIDE_KINDS = ['text', 'live', 'patch', 'goals'] as const;

/** A talk file's contents, checked: the talk, or a TalkError naming the file and the field. */
export function parseTalk(data: unknown, file: string, id: string, read: LiveReader): TalkDef {
  if (!isObject(data)) throw new TalkError(file, '(top)', 'a talk is a JSON object {title, slides}');
  const title = str(data.title, file, 'title')!;
  if (!Array.isArray(data.slides) || !data.slides.length) throw new TalkError(file, 'slides', 'a non-empty list of slides is expected');
  for (const k of Object.keys(data)) if (k !== 'title' && k !== 'slides') throw new TalkError(file, k, 'a talk has only a title and slides');
  const slides = data.slides.map((s: unknown, i: number): Slide => {
    const f = `slides[${i}]`;
    if (!isObject(s)) throw new TalkError(file, f, 'a slide is an object');
    for (const k of Object.keys(s))
      if (!['title', 'subtitle', 'notes', 'parts', ...SLIDE_KINDS].includes(k)) throw new TalkError(file, `${f}.${k}`, `a slide has title, subtitle, notes and one of ${SLIDE_KINDS.join(', ')}`);
    const kinds = SLIDE_KINDS.filter((k) => s[k] !== undefined);
    if (kinds.length > 1) throw new TalkError(file, f, `a slide is one of ${SLIDE_KINDS.join(', ')}; this one has ${kinds.join(' and ')}`);
    const notes = notesOf(s.notes, file, `${f}.notes`);
    const slideTitle = str(s.title, file, `${f}.title`, true);
    if (s.parts !== undefined && kinds[0] !== 'live') throw new TalkError(file, `${f}.parts`, 'only a live slide shows parts of a scene');
    switch (kinds[0]) {
      case 'text':
        return { kind: 'text', title: slideTitle, text: str(s.text, file, `${f}.text`)!, notes };
      case 'live': {
        const state = liveOf(read, str(s.live, file, `${f}.live`)!, file, `${f}.live`);
        return { kind: 'demo', title: slideTitle, state, notes, ...(s.parts !== undefined ? { parts: partsOf(s.parts, state.scene, file, `${f}.parts`) } : {}) };
      }
      case 'patch':
        return { kind: 'patch', patch: patchOf(s.patch, file, `${f}.patch`), notes };
      case 'goals':
        return { kind: 'goals', goals: goalsOf(s.goals, file, `${f}.goals`), notes };
      default:
        if (!slideTitle) throw new TalkError(file, f, `a slide with none of ${SLIDE_KINDS.join(', ')} is a title slide, and needs a title`);
        return { kind: 'title', title: slideTitle, subtitle: str(s.subtitle, file, `${f}.subtitle`, true), notes };
    }
  });
  return { id, title, source: file, slides };
}

/** A talk file as JSON text (an import), parsed and checked. */
export function parseTalkText(text: string, file: string, id: string, read: LiveReader): TalkDef {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new TalkError(file, '(top)', `not JSON: ${(e as Error).message}`);
  }
  return parseTalk(data, file, id, read);
}

// The registry: every file of talks/, in the order of their names; its id is the name without .json.
const files = import.meta.glob('../../../talks/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;
export const TALK_FILES: { id: string; file: string; data: unknown }[] = Object.keys(files)
  .sort()
  .map((k) => ({ id: k.replace(/^.*\//, '').replace(/\.json$/, ''), file: `talks/${k.replace(/^.*\//, '')}`, data: files[k] }));

/** The ids of the talks kept in this browser: the one being built, the one imported last. */
export const BUILT = 'built';
export const IMPORTED = 'imported';
export const STORE_KEY: Record<typeof BUILT | typeof IMPORTED, string> = { built: 'reclaim-lab.talk.built.v1', imported: 'reclaim-lab.talk.imported.v1' };

/** A talk kept in this browser: the file's contents and its name. */
export interface StoredTalk {
  name: string;
  talk: TalkFile;
}

export function loadStored(which: typeof BUILT | typeof IMPORTED): StoredTalk | null {
  try {
    const raw = localStorage.getItem(STORE_KEY[which]);
    return raw ? (JSON.parse(raw) as StoredTalk) : null;
  } catch {
    return null;
  }
}

export function saveStored(which: typeof BUILT | typeof IMPORTED, s: StoredTalk | null) {
  if (s) localStorage.setItem(STORE_KEY[which], JSON.stringify(s));
  else localStorage.removeItem(STORE_KEY[which]);
}

