// SPDX-License-Identifier: GPL-2.0-only
// Every URL parameter, read and checked in one place. Whatever is
// corrected, clamped or ignored (unknown parameters included) becomes a
// notice naming the parameter, the bad value and what was used instead;
// what only a run can tell (a step past the end, a schedule or program the
// kernel refuses) becomes one after the run, with the same words.
import { SCENES, findScene } from '../scenes/registry';
import type { SceneDef } from '../scenes/types';
import { findLesson, type Lesson } from '../lessons/lessons';
import { liveSlideFor, type LiveState, type TalkDef } from '../talk/slides';
import { TALK_FILES } from '../talk/talks';
import { loadTalk } from './talks';
import { DEFAULT_WORD_SIZE } from '../engine/wordsize';
import {
  firstOf, fitsLink, IMPORT_PARAMS, LINK_MAX, LINK_VALUE_MAX, linkLength, loadStatus, MAX_STEP, PARAMS, readLink, RUN_KEYS, RUN_PARAMS,
  type LinkParams, type RunParam,
} from './url';
import type { RunState } from '../engine/runState';
import { findTraceLesson, TRACE_LESSONS, type TraceLesson } from '../lessons/traceLessons';
import { findTraceFixture, TRACE_FIXTURES } from './traceFixtures';

export { programProblem } from './url';

export interface Notice {
  param: string;
  value: string;
  /** What is wrong with it. */
  problem: string;
  /** What the page used instead. */
  used: string;
  /** The notice in words of its own, for what is not one value ignored (a link too long). */
  sentence?: string;
}

/** How many characters of a value a notice quotes: a bad value can be any length, and a notice stays a line or two. */
export const QUOTE_MAX = 40;

/** A value as a notice quotes it: at most QUOTE_MAX characters, with the length of the whole when it is cut. */
export function quote(v: string): string {
  return v.length <= QUOTE_MAX ? v : `${v.slice(0, QUOTE_MAX - 10)}… (${v.length.toLocaleString('en')} characters)`;
}

export function noticeText(n: Notice): string {
  if (n.sentence) return n.sentence;
  // What is wrong may quote the value or the name (a program's error names its bad word): quoted as the notice quotes them.
  let problem = n.problem;
  for (const v of [n.value, n.param]) if (v.length > QUOTE_MAX) problem = problem.split(v).join(quote(v));
  const cut = (t: string) => t.replace(/\S{64,}/g, (w) => quote(w));
  return `Ignored ${quote(n.param)}=${quote(n.value)}: ${cut(problem)}; ${cut(n.used)}.`;
}

/**
 * What the page says of a link too long for the page's own links (LINK_MAX), and of one too long for the server: it
 * answers HTTP 431 with the page, which reads the link from the address bar (scripts/serve.mjs).
 */
export function linkNotice(search: string, status: number | undefined): Notice | null {
  if (search.length <= LINK_MAX && status !== 431) return null;
  const n = search.length.toLocaleString('en');
  const server = status === 431 ? 'The server refused it (HTTP 431: its request is past the server\'s limit) and sent the page alone, which read the link from the address bar. ' : '';
  return {
    param: 'link',
    value: `${n} characters`,
    problem: '',
    used: '',
    sentence: `This link is ${n} characters long. ${server}The page makes no link past ${LINK_MAX.toLocaleString('en')} characters (servers refuse longer ones): its address now holds what a link can.`,
  };
}

/** A schedule or program the URL gave, run, but too long for the page's links (url.ts fitsLink). */
function unlinkedNotice(param: string, value: string): Notice {
  return {
    param,
    value,
    problem: '',
    used: '',
    sentence: `Ran ${param}=${quote(value)}, but left it out of the page's address: it is ${linkLength(value).toLocaleString('en')} characters as a link writes it, past the ${LINK_VALUE_MAX.toLocaleString('en')} a link holds.`,
  };
}

/** What the URL asks for, checked: every field is one the page can run. */
export interface UrlSettings extends RunState {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  scene: SceneDef<any>;
  lesson: Lesson | null;
  /** The talk shown in talk mode (a lesson's, or a file's), its slide, and the live slide whose state the run starts from. */
  deck: TalkDef | null;
  slide: number;
  live: number;
  talk: 'presenter' | 'audience' | null;
  embed: boolean;
  compare: string | null;
  step: number;
}

/** Words people type for a parameter that has another name here. */
const SYNONYMS: Record<string, string> = { kernel: 'variant', tree: 'variant', branch: 'variant', schedule: 'sched', program: 'prog', event: 'step' };


/** ?import, or a lesson on a trace, opens the page for a real kernel's reclaim trace (TraceImport.tsx). */
export function isImportView(search: string): boolean {
  const link = readLink(search);
  return link.has('import') || findTraceLesson(firstOf(link, 'lesson')) !== null;
}

/** Where the trace page reads its trace: a bundled fixture by name, or a file on the page's own site by URL. */
export type ImportSource = { kind: 'fixture'; name: string; url: string } | { kind: 'url'; value: string; url: string };

export interface ImportSettings {
  source: ImportSource | null;
  lesson: TraceLesson | null;
  step: number;
}

/**
 * The trace page's parameters (IMPORT_PARAMS): import=<fixture name> or
 * import=<a path or URL on this site>, lesson=<a lesson on a trace> (it
 * names its fixture), step=<a pass, from 0>. `here` is the page's own URL:
 * a trace by URL must be on its origin.
 */
/** Every parameter the link has but the page does not read, and every one given more than once, in the link's order. */
function oddParams(link: LinkParams, names: readonly string[], unknown: (key: string) => string, bad: (param: string, value: string, problem: string, used: string) => void) {
  for (const [key, values] of link) {
    if (!names.includes(key)) bad(key, values[0], unknown(key), 'left it out');
    else if (values.length > 1) bad(key, values.slice(1).join(`&${key}=`), `${key} is given ${values.length} times`, `used the first, ${key}=${values[0]}`);
  }
}

export function readImportUrl(search: string, here: string): { settings: ImportSettings; notices: Notice[] } {
  const link = readLink(search);
  const get = (k: string) => firstOf(link, k);
  const notices: Notice[] = [];
  const bad = (param: string, value: string, problem: string, used: string) => notices.push({ param, value, problem, used });
  const tooLong = linkNotice(search, loadStatus(search));
  if (tooLong) notices.push(tooLong);
  oddParams(link, IMPORT_PARAMS, (key) => `the trace page has no parameter "${key}"; it reads ${IMPORT_PARAMS.join(', ')}`, bad);
  const lessonId = get('lesson');
  const lesson = lessonId !== null ? findTraceLesson(lessonId) : null;
  if (lessonId !== null && !lesson) bad('lesson', lessonId, `there is no lesson on a trace of that name (they are: ${TRACE_LESSONS.map((l) => l.id).join(', ')})`, 'showing the trace page without one');
  let source: ImportSource | null = null;
  if (lesson) {
    const f = findTraceFixture(lesson.trace.fixture);
    if (f) source = { kind: 'fixture', name: f.name, url: f.url };
  }
  const value = get('import') ?? '';
  if (value && lesson && value !== lesson.trace.fixture) bad('import', value, `lesson ${lesson.id} reads ${lesson.trace.fixture}`, `opened ${lesson.trace.fixture}`);
  else if (value && !lesson) {
    const f = findTraceFixture(value);
    const names = TRACE_FIXTURES.map((x) => x.name).join(', ');
    if (f) source = { kind: 'fixture', name: f.name, url: f.url };
    else if (!/[/.]/.test(value)) bad('import', value, `there is no bundled trace of that name (they are: ${names})`, 'opened none');
    else {
      let url: URL | null = null;
      try {
        url = new URL(value, here);
      } catch {
        url = null;
      }
      if (!url || url.origin !== new URL(here).origin) bad('import', value, `a trace by URL must be on this site (${new URL(here).origin}): the page sends nothing to, and reads nothing from, another`, 'opened none');
      else source = { kind: 'url', value, url: url.href };
    }
  }
  let step = lesson?.trace.start ?? 0;
  if (get('step')) {
    const raw = get('step')!;
    if (!source) bad('step', raw, 'no trace is named by the link (a file opened from the disk has no link)', 'left it out');
    else if (!/^\d+$/.test(raw.trim()) || Number(raw) > MAX_STEP) bad('step', raw, `expected a whole number from 0 to ${MAX_STEP}`, `used ${step}`);
    else step = Number(raw);
  }
  return { settings: { source, lesson, step }, notices };
}

/** After the trace is read: a step past its last pass. */
export function importStepNotice(asked: number, last: number): Notice {
  return { param: 'step', value: String(asked), problem: `the trace has passes 0 to ${last}`, used: `showing pass ${last}, the last` };
}

export function readUrl(search: string): { settings: UrlSettings; notices: Notice[] } {
  const link = readLink(search);
  /** A parameter's value, if the link gives it one (given empty: not given). */
  const given = (k: string) => firstOf(link, k) || null;
  const notices: Notice[] = [];
  const bad = (param: string, value: string, problem: string, used: string) => notices.push({ param, value, problem, used });
  const tooLong = linkNotice(search, loadStatus(search));
  if (tooLong) notices.push(tooLong);
  oddParams(link, PARAMS, (key) => {
    const alt = SYNONYMS[key.toLowerCase()];
    return `the page has no parameter "${key}"${alt ? ` (did you mean ${alt}=?)` : ''}; it reads ${PARAMS.join(', ')}`;
  }, bad);

  // The machine's word size (engine/wordsize.ts holds the page's): 32 or 64.
  const bits = firstOf(link, 'bits');
  if (bits !== null && bits !== '32' && bits !== '64') bad('bits', bits, 'the machine is 32-bit (bits=32) or 64-bit (bits=64)', `running the ${DEFAULT_WORD_SIZE}-bit machine`);

  // The lesson (it names its scene and start state) or the scene.
  const lessonId = firstOf(link, 'lesson');
  const lesson = lessonId !== null ? findLesson(lessonId) : null;
  if (lessonId !== null && !lesson) bad('lesson', lessonId, 'there is no such lesson', 'showing the scene without one');
  // A talk file (talks/README.md): its slide, and the live state that slide shows (the last live slide up to it).
  const deckId = firstOf(link, 'deck');
  let deck: TalkDef | null = null;
  if (deckId !== null) {
    if (lesson) bad('deck', deckId, `lesson ${lesson.id} is open, and is the talk`, 'showing the lesson');
    else {
      try {
        deck = loadTalk({ deck: deckId });
        if (!deck) bad('deck', deckId, `there is no such talk (the talks: ${TALK_FILES.map((t) => t.id).join(', ')}, and those built or imported in this browser)`, 'showing the scene');
      } catch (e) {
        bad('deck', deckId, (e as Error).message, 'showing the scene');
      }
    }
  }
  if (lesson) deck = loadTalk({ lesson: lesson.id });
  const slides = deck?.slides ?? [];
  let slide = 0;
  const rawSlide = given('slide');
  if (rawSlide !== null) {
    if (!deck) bad('slide', rawSlide, 'no talk is open', 'left it out');
    // Counted from 1, as the slide's corner shows it ("7 / 21" is slide=7).
    else if (!/^\d+$/.test(rawSlide) || Number(rawSlide) < 1 || Number(rawSlide) > slides.length) bad('slide', rawSlide, `the talk has slides 1 to ${slides.length}`, 'showing slide 1');
    else slide = Number(rawSlide) - 1;
  }
  const live = liveSlideFor(slides, slide);
  const liveState: LiveState | undefined = live >= 0 ? (slides[live] as { state: LiveState }).state : undefined;
  const sceneId = firstOf(link, 'scene');
  const fixed = lesson?.scene ?? (deck && !sceneId ? liveState?.scene : undefined);
  const scene = findScene(fixed ?? sceneId) ?? SCENES[0];
  if (sceneId !== null && !findScene(sceneId)) {
    bad('scene', sceneId, `there is no such scene (the scenes: ${SCENES.map((s) => s.id).join(', ')})`, `showing ${scene.id}`);
  } else if (lesson && sceneId !== null && sceneId !== lesson.scene) {
    bad('scene', sceneId, `lesson ${lesson.id} runs on ${lesson.scene}`, `showing ${lesson.scene}`);
  }
  // A lesson starts where it says; a talk file, at its live slide's state unless the URL gives one.
  const start = lesson?.start ?? (liveState && liveState.scene === scene.id ? liveState : undefined);

  // What makes the run: each parameter as url.ts RUN_PARAMS reads it, its fallback the start's or the scene's.
  const runParam = <K extends keyof RunState>(k: K): RunState[K] => {
    const p = RUN_PARAMS[k] as RunParam<RunState[K]>;
    const fallback = p.fallback(scene, start);
    const raw = given(k);
    if (raw === null) return fallback;
    const r = p.read(raw, scene, fallback);
    if ('problem' in r) {
      bad(k, raw, r.problem, r.used);
      return fallback;
    }
    if (p.long && !fitsLink(raw)) notices.push(unlinkedNotice(k, raw));
    return r.value;
  };
  const run = Object.fromEntries(RUN_KEYS.map((k) => [k, runParam(k)])) as unknown as RunState;
  let compare: string | null = null;
  const c = given('compare');
  if (c !== null) {
    if (c === run.variant) bad('compare', c, 'that is the kernel already running', 'compared with nothing');
    else if (scene.variants.includes(c)) compare = c;
    else bad('compare', c, `${scene.id} compares ${scene.variants.join(', ')}`, 'compared with nothing');
  }
  let step = start?.step ?? 0;
  const rawStep = given('step');
  if (rawStep !== null) {
    if (/^\d+$/.test(rawStep.trim()) && Number(rawStep) <= MAX_STEP) step = Number(rawStep);
    else bad('step', rawStep, `expected a whole number from 0 to ${MAX_STEP}`, `used ${step}`);
  }

  let talk: UrlSettings['talk'] = null;
  const t = firstOf(link, 'talk');
  if (t !== null) {
    if (!deck) bad('talk', t, 'talk mode shows a lesson or a talk (deck=), and none is open', 'showing the scene');
    else talk = t === 'presenter' ? 'presenter' : 'audience';
  } else if (deck && !lesson) talk = 'audience'; // a talk file is shown in talk mode

  let embed = false;
  const e = firstOf(link, 'embed');
  if (e !== null) {
    if (e === '1') embed = true;
    else bad('embed', e, 'expected embed=1', 'showing the whole page');
  }
  return { settings: { scene, lesson, deck: talk ? deck : null, slide, live, talk, embed, ...run, compare, step }, notices };
}

/** After the run: a step past its end. */
export function stepNotice(asked: number, last: number): Notice {
  return { param: 'step', value: String(asked), problem: `the run has events 0 to ${last}`, used: `showing event ${last}, the last` };
}

/** After the run: the kernel refused a schedule or program the URL gave (the run was made again without it). */
export function refusedNotice(param: 'sched' | 'prog', value: string, message: string, sceneId: string): Notice {
  return { param, value, problem: `the run refused it (${message})`, used: param === 'sched' ? 'let the policy decide' : `ran ${sceneId}'s default` };
}
