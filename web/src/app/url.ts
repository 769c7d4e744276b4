// SPDX-License-Identifier: GPL-2.0-only
// The link format and the page's address. Every parameter of the page's
// links is named once here (PARAMS, in the order links write them), and
// every parameter of a run once (RUN_PARAMS: how it is written, read back
// and checked); every link the page makes is made here, within the limits a
// link keeps to; and this is the one module that reads the address or
// changes it. params.ts gives what a link asks for its meaning against the
// scenes, lessons and talks. It imports only the engine: the page's first
// script (main.tsx) reads the link with it before the rest of the page loads.
import { isScheduleText } from '../engine/decisions';
import { MEMORY_MODELS, POLICIES, type PolicyName } from '../engine/generated/events';
import { RUN_FIELDS, runOf, type MemoryModel, type RunState } from '../engine/runState';
import { DEFAULT_WORD_SIZE, PAGE_WORD_SIZE, type WordSize } from '../engine/wordsize';

// The scheduling policies, generated from the runtime's (wasm/runtime/runtime.h).
export { POLICIES, type PolicyName };

/** Every parameter the page reads (params.ts checks them), in the order permalinks write them. */
export const PARAMS = ['lesson', 'deck', 'talk', 'slide', 'embed', 'scene', 'variant', 'compare', 'bits', 'seed', 'policy', 'memory', 'sched', 'prog', 'step'] as const;
export type Param = (typeof PARAMS)[number];
/** Every parameter the trace page (?import) reads, in the order its permalinks write them. */
export const IMPORT_PARAMS = ['lesson', 'import', 'step'] as const;

export const MAX_SEED = 2 ** 32 - 1;
export const DEFAULT_SEED = 1;
export const MAX_STEP = 1e9;

export function isValidSeed(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= MAX_SEED;
}

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

// ---- The parameters of a run ----

/** What a run parameter is checked against: a scene's kernels and program (a SceneDef is one). */
export interface SceneLike {
  id: string;
  variants: readonly string[];
  program?: { toBytes(text: string): unknown; options?(text: string): unknown };
}

/** A value of a link read back: what it means, or what is wrong with it and what the page did instead (a notice's words). */
export type ParamRead<T> = { value: T } | { problem: string; used: string };

/** One parameter of what makes a run (RunState): the page's controls, its links and a talk's live slides all carry it. */
export interface RunParam<T> {
  /** What a link without it runs: the scene's default, or the start of the lesson or talk slide the link opens. */
  fallback(scene: SceneLike, start: Partial<RunState> | undefined): T;
  /** As a link writes it ('' : left out, since a link that starts nowhere falls back to it). */
  write(v: T): string;
  /** A value as a link gives it (never empty: an empty one is the fallback), for this scene. */
  read(raw: string, scene: SceneLike, fallback: T): ParamRead<T>;
  /** A value a link may not hold whole (fitsLink): run, but left out of the page's links and addresses. */
  long?: boolean;
}

/** What is wrong with a scene's program text (null: nothing). */
export function programProblem(scene: SceneLike, prog: string): string | null {
  if (!scene.program) return `${scene.id} takes no program`;
  try {
    scene.program.toBytes(prog);
    scene.program.options?.(prog);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Every parameter of a run, in the order links write them (PARAMS has each in its place): the type makes a new
 * field of RunState an entry here, and params.ts, the links, the talk's live slides and their tests follow it.
 */
export const RUN_PARAMS: { [K in keyof RunState]-?: RunParam<RunState[K]> } = {
  variant: {
    fallback: (scene, start) => start?.variant ?? scene.variants[0],
    write: (v) => v,
    read: (v, scene, fallback) => (scene.variants.includes(v) ? { value: v } : { problem: `${scene.id} runs on ${scene.variants.join(', ')}`, used: `used ${fallback}` }),
  },
  seed: {
    fallback: (_scene, start) => start?.seed ?? DEFAULT_SEED,
    write: (v) => String(v),
    read: (raw, _scene, fallback) => {
      const v = Number(raw);
      return /^\d+$/.test(raw.trim()) && Number.isInteger(v) && v <= MAX_SEED ? { value: v } : { problem: `expected a whole number from 0 to ${MAX_SEED}`, used: `used ${fallback}` };
    },
  },
  policy: {
    fallback: (_scene, start) => start?.policy ?? 'timed',
    write: (v) => (v === 'timed' ? '' : v),
    read: (p, _scene, fallback) =>
      (POLICIES as readonly string[]).includes(p) ? { value: p as PolicyName } : { problem: `expected one of ${POLICIES.join(', ')}`, used: `used ${fallback}` },
  },
  memory: {
    // absent: sc, the default (a run that names none is sc's)
    fallback: (_scene, start) => start?.memory,
    write: (v) => (!v || v === 'sc' ? '' : v),
    read: (m, _scene, fallback) =>
      (MEMORY_MODELS as readonly string[]).includes(m) ? { value: m as MemoryModel } : { problem: `expected one of ${MEMORY_MODELS.join(', ')}`, used: `used ${fallback ?? 'sc'}` },
  },
  sched: {
    fallback: (_scene, start) => start?.sched ?? '',
    write: (v) => v,
    read: (s, _scene, fallback) =>
      isScheduleText(s) ? { value: s } : { problem: 'a schedule is runs of CPU numbers like 0x12.1.0x3', used: fallback ? `used the lesson's, ${fallback}` : 'let the policy decide' },
    long: true,
  },
  prog: {
    fallback: (scene, start) => (scene.program ? (start?.prog ?? '') : ''),
    write: (v) => v,
    read: (p, scene, fallback) => {
      const problem = programProblem(scene, p);
      return problem === null ? { value: p } : { problem, used: fallback ? `used the lesson's, ${fallback}` : `ran ${scene.id}'s default` };
    },
    long: true,
  },
};
/** The run's parameters, in the order links write them. */
export const RUN_KEYS = RUN_FIELDS;
/** What a talk's live slide names (talks/README.md): the scene, its run and the step; never the page's layout. */
export const LIVE_PARAMS = ['scene', ...RUN_KEYS, 'step'] as const;

// ---- Writing links ----

/** What a permalink holds. */
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

/** A search string of these parameters in PARAMS order, each left out where its value is empty. */
function write(fields: Partial<Record<Param, string>>): string {
  const q = new URLSearchParams();
  for (const name of PARAMS) {
    const v = fields[name];
    if (v) q.set(name, v);
  }
  return `?${q.toString()}`;
}

/** A run's parameters as a link writes them. */
function runFields(r: RunState): Partial<Record<Param, string>> {
  const out: Partial<Record<Param, string>> = {};
  for (const k of RUN_KEYS) (out as Record<string, string>)[k] = (RUN_PARAMS[k] as RunParam<unknown>).write(r[k]);
  return out;
}

/** The state as a search string, whatever its length: for the page to open in place (start.tsx's navigate), never a link. */
export function formatWhole(s: UrlState): string {
  return write({
    lesson: s.lesson ?? '',
    deck: s.deck ?? '',
    talk: s.talk ?? '',
    slide: s.talk && s.slide ? String(s.slide + 1) : '', // counted from 1, as the slide's corner counts
    embed: s.embed ? '1' : '',
    scene: s.scene ?? '',
    ...runFields({ ...s, variant: s.variant ?? '' }),
    compare: s.compare ?? '',
    // The machine's word size is the page's (a change reloads it): kept while it is not the default.
    bits: PAGE_WORD_SIZE !== DEFAULT_WORD_SIZE ? String(PAGE_WORD_SIZE) : '',
    step: String(s.step),
  });
}

/** The permalink (`?…`), every schedule or program a link cannot hold left out: at most LINK_MAX characters. */
export function formatUrl(s: UrlState): string {
  return formatWhole({ ...s, sched: fitsLink(s.sched) ? s.sched : '', prog: fitsLink(s.prog) ? s.prog : '' });
}

/** A search string as a link: its schedule and program left out where a link cannot hold them. */
export function linkOf(search: string): string {
  const q = new URLSearchParams(search);
  for (const k of RUN_KEYS) if (RUN_PARAMS[k].long && !fitsLink(q.get(k) ?? '')) q.delete(k);
  return `?${q.toString()}`;
}

/** What the page opened (params.ts UrlSettings), as its permalink needs it: fixed for the page's life. */
export interface Opened {
  scene: { id: string; variants: readonly string[] };
  lesson: { id: string } | null;
  deck: { id: string } | null;
  talk: string | null;
  embed: boolean;
}

/** The page's permalink at a run and step: the scene's default kernel left out. */
export function permalinkOf(o: Opened, run: RunState, at: { compare: string | null; step: number; slide: number }): string {
  return formatUrl({
    lesson: o.lesson?.id ?? null,
    deck: o.lesson ? null : (o.deck?.id ?? null),
    talk: o.talk,
    slide: at.slide,
    embed: o.embed,
    scene: o.scene.id,
    ...run,
    variant: run.variant === o.scene.variants[0] ? null : run.variant,
    compare: at.compare,
    step: at.step,
  });
}

/** A state of a scene as a talk's live slide names it (LIVE_PARAMS), the kernel always named: "Present this state". */
export function liveLink(scene: string, run: RunState, step: number): string {
  return write({ scene, ...runFields(run), step: String(step) });
}

/** A talk's page at a slide whose live state is another scene's: the page opens it in place (never a link). */
export function talkLink(where: { lesson: string | null; deck: string | null; talk: string }, slide: number, s: RunState & { scene: string; step: number }): string {
  return formatWhole({ ...where, slide, scene: s.scene, ...runOf(s), compare: null, step: s.step });
}

/** The explorer's link to a schedule it found, at a step (null: too long for a link). */
export function exploreLink(where: { scene: string; lesson: string | null }, r: Pick<RunState, 'variant' | 'seed' | 'sched' | 'prog' | 'memory'>, step: number): string | null {
  if (!fitsLink(r.sched)) return null;
  return formatUrl({ ...where, ...r, compare: null, policy: 'timed', step, talk: null });
}

/** Pairs in this order as a search string. */
const pairs = (...p: [string, string][]) => `?${new URLSearchParams(p).toString()}`;

/** A scene's page at its start. */
export const sceneLink = (scene: string) => pairs(['scene', scene]);
/** A lesson beside its scene, or as slides. */
export const lessonLink = (lesson: string, asSlides = false) => (asSlides ? pairs(['lesson', lesson], ['talk', '1']) : pairs(['lesson', lesson]));
/** A talk (talks/README.md), in the audience's window or the presenter's. */
export const deckLink = (deck: string, presenter = false) => (presenter ? pairs(['deck', deck], ['talk', 'presenter']) : pairs(['deck', deck]));
/** The trace page: with no trace, or a bundled one by name. */
export const importLink = (name?: string) => (name ? pairs(['import', name]) : '?import');
/** A live slide's state in a few words, read from its link (the talk being built lists its slides so). */
export function liveWords(permalink: string): string {
  const link = readLink(permalink.slice(permalink.indexOf('?')));
  const get = (k: string) => firstOf(link, k);
  return `${get('scene')}, kernel ${get('variant') ?? 'default'}, seed ${get('seed') ?? DEFAULT_SEED}, event ${get('step') ?? 0}${get('sched') ? ', schedule by hand' : ''}`;
}

/** Where a notice's "Start clean" goes: the lesson, or the scene (in the embed, still the embed). */
export function cleanLink(o: { scene: string; lesson?: string | null; embed?: boolean }): string {
  if (o.embed) return pairs(['scene', o.scene], ['embed', '1']);
  return o.lesson ? lessonLink(o.lesson) : sceneLink(o.scene);
}

/** The trace page's permalink: a lesson (which names its trace) or a trace by name or URL, and the pass shown. */
export function formatImportUrl(s: { lesson: string | null; source: string | null; step: number }): string {
  if (!s.lesson && !s.source) return '?import';
  return s.lesson ? pairs(['lesson', s.lesson], ['step', String(s.step)]) : pairs(['import', s.source!], ['step', String(s.step)]);
}

// ---- Reading links ----

/** A link's parameters: each name once, in the order the link first gives it, with every value it gives it. */
export type LinkParams = Map<string, string[]>;

/** The parameters of a search string (`?…`, or a whole address's part after its `?`). */
export function readLink(search: string): LinkParams {
  const out: LinkParams = new Map();
  for (const [k, v] of new URLSearchParams(search)) {
    const values = out.get(k);
    if (values) values.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/** A parameter's first value ('' : given empty; null: not given). */
export const firstOf = (link: LinkParams, name: string): string | null => link.get(name)?.[0] ?? null;

/** The word size a link asks for: bits=32 or bits=64 (anything else: the default, with a notice from params.ts). */
export function askedWordSize(link: LinkParams): WordSize {
  const b = firstOf(link, 'bits');
  return b === '32' ? 32 : b === '64' ? 64 : DEFAULT_WORD_SIZE;
}

// ---- The page's address: read and changed here alone ----

/** The page's address, its search string (`?…`, '' for the landing view). */
export const pageSearch = () => window.location.search;
/** The page's whole address (a trace by URL is read from its origin only). */
export const pageHref = () => window.location.href;

/** The page's own load: its search string, and the HTTP status the page came with (431: sent alone by scripts/serve.mjs). */
const LOADED = typeof window === 'undefined' ? null : {
  search: window.location.search,
  status: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStatus,
};
/** The status the page was loaded with, if `search` is the link it was loaded at. */
export const loadStatus = (search: string) => (LOADED && LOADED.search === search ? LOADED.status : undefined);

/** The address at this search string, without a new history entry (the permalink follows what is shown). */
export function replaceAddress(search: string) {
  if (search !== window.location.search) window.history.replaceState(null, '', search);
}

/** The page opened at a search string, a new entry in the history ('' : the landing view). */
export function openAddress(search: string) {
  window.location.assign(search || window.location.pathname);
}

/** The page at a lesson's start, or the landing view (null): the header's list of lessons. */
export function openLesson(id: string | null) {
  openAddress(id ? lessonLink(id) : '');
}

/** The page at another word size (a module per word size: it reloads). */
export function openAtWordSize(bits: WordSize) {
  const q = new URLSearchParams(pageSearch());
  if (bits === DEFAULT_WORD_SIZE) q.delete('bits');
  else q.set('bits', String(bits));
  openAddress(`?${q.toString()}`);
}

/** The embed's way out: this state in the whole page. */
export function openInLabLink(): string {
  const q = new URLSearchParams(pageSearch());
  q.delete('embed');
  return `?${q.toString()}`;
}

/** A talk's presenter window opened at this slide (named, so a second `p` brings the same window back). */
export function openPresenter(name: string) {
  const q = new URLSearchParams(pageSearch());
  q.set('talk', 'presenter');
  window.open(`?${q.toString()}`, name);
}
