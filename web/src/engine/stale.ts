// SPDX-License-Identifier: GPL-2.0-only
// A stale load (MM_STALE, tso and relaxed only): a load that read an older
// value than the newest store to its bytes, and the store it missed — its
// CPU, where in the log it was made, and its line when the machine knows it.
//
// A marked store (WRITE_ONCE(), an atomic, a bitop, a release) carries its
// own kernel line; a plain one (l->nr_items++) has none, and the model
// records the line of its CPU's last event before it instead
// (wasm/runtime/memmodel/). So the store's line is named as its own only
// when it differs from the line of its CPU's last event before it; else the
// store is placed by that event: "made after its event N at file:line".
import { EventKind } from './generated/events';
import type { EventLog } from './log';
import type { Site } from './meta';

export interface StaleRead {
  /** The load's line (the event's own site). */
  load: Site | null;
  /** The newest store to the bytes it read, which this CPU had not yet seen: its CPU. */
  storeCpu: number;
  /** The store was made when the log held this many events. */
  storeBefore: number;
  /** The store's CPU's last event before it (-1: none). */
  after: number;
  /** The store's own line, when the machine knows it (a marked store's), else null. */
  store: Site | null;
  obj: number;
}

export function staleRead(log: EventLog, i: number): StaleRead | null {
  if (log.kind[i] !== EventKind.MM_STALE) return null;
  const storeCpu = log.arg(i, 2);
  const storeBefore = log.arg(i, 3);
  let after = Math.min(storeBefore, log.length) - 1;
  while (after >= 0 && log.cpu[after] !== storeCpu) after--;
  const id = log.arg(i, 1);
  const s = log.meta.sites?.[id];
  const own = !!s && !!s.tree && (after < 0 || log.site[after] !== id);
  return { load: log.siteOf(i), storeCpu, storeBefore, after, store: own ? s! : null, obj: log.arg(i, 0) };
}

const at = (s: Site) => `${s.file}:${s.line} (${s.func}())`;

/** "CPU1's store at mm/list_lru.c:125 (list_lru_add())", or "CPU1's store, made after its event 227 at …". */
export function storeWords(log: EventLog, r: StaleRead): string {
  if (r.store) return `CPU${r.storeCpu}'s store at ${at(r.store)}`;
  if (r.after < 0) return `CPU${r.storeCpu}'s store, made before event ${r.storeBefore}`;
  const s = log.siteOf(r.after);
  return `CPU${r.storeCpu}'s store, made after its event ${r.after}${s ? ` at ${at(s)}` : ''}`;
}

/** The event to go to for the store: its CPU's last before it (or the last before it at all). */
export function storeStep(log: EventLog, r: StaleRead): number {
  return Math.max(0, Math.min(log.length - 1, r.after >= 0 ? r.after : r.storeBefore - 1));
}
