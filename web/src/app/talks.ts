// SPDX-License-Identifier: GPL-2.0-only
// The one loader of talks: a file of talks/, a talk kept in this browser
// (built in the page, or imported), or a lesson (a talk whose slides are
// made from its parts, talk/slides.ts). Live slides are read by the page's
// own URL reader, so a talk's permalink is checked as the page checks one.
import { runOf } from '../engine/runState';
import { findLesson } from '../lessons/lessons';
import { talkOfLesson, type LiveState, type TalkDef } from '../talk/slides';
import { BUILT, IMPORTED, loadStored, parseTalk, parseTalkText, TALK_FILES } from '../talk/talks';
import { readUrl } from './params';
import { firstOf, LIVE_PARAMS, readLink } from './url';

/** A live slide's permalink (`?scene=…&seed=…`, or a whole URL of the page) as the state the page shows for it. */
export function readLive(permalink: string): LiveState {
  const at = permalink.indexOf('?');
  if (at < 0) throw new Error(`a permalink of the page is expected (?scene=…&seed=…&step=…), not "${permalink}"`);
  const search = permalink.slice(at);
  const link = readLink(search);
  for (const k of link.keys())
    if (!(LIVE_PARAMS as readonly string[]).includes(k)) throw new Error(`a live state takes ${LIVE_PARAMS.join(', ')}; "${k}" is not one of them`);
  if (!firstOf(link, 'scene')) throw new Error('the permalink names no scene');
  const { settings, notices } = readUrl(search);
  if (notices.length) throw new Error(`${notices[0].param}=${notices[0].value}: ${notices[0].problem}`);
  return { scene: settings.scene.id, ...runOf(settings), step: settings.step };
}

let parsed: TalkDef[] | null = null;
/** Every talk of talks/, checked (a bad file throws its TalkError, naming it). */
export function registryTalks(): TalkDef[] {
  parsed ??= TALK_FILES.map((f) => parseTalk(f.data, f.file, f.id, readLive));
  return parsed;
}

/** A talk file's text (an import), checked. */
export const readTalkText = (text: string, file: string, id: string) => parseTalkText(text, file, id, readLive);

/** A talk by its id in the URL (deck=): a file of talks/, or one kept in this browser. Throws TalkError if it is not a talk; null if there is none. */
export function findTalk(id: string): TalkDef | null {
  if (id === BUILT || id === IMPORTED) {
    const s = typeof localStorage === 'undefined' ? null : loadStored(id);
    return s ? parseTalk(s.talk, s.name, id, readLive) : null;
  }
  const f = TALK_FILES.find((t) => t.id === id);
  return f ? parseTalk(f.data, f.file, f.id, readLive) : null;
}

/** The one loader: a talk (deck=<id>) or a lesson (lesson=<id>) as a talk. */
export function loadTalk(by: { deck: string } | { lesson: string }): TalkDef | null {
  if ('deck' in by) return findTalk(by.deck);
  const l = findLesson(by.lesson);
  return l ? talkOfLesson(l) : null;
}
