// SPDX-License-Identifier: GPL-2.0-only
// The scene's sizes as a program in the URL: "n12.p4.f6" (inodes in the
// workingset, active pages each, pages per streaming file), turned into
// the scenario's key/value records (wasm/scenarios/inode_lru.c).
import { EventKind } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { KEY, program } from './figures';

export interface Sizes {
  inodes: number;
  pages: number;
  filePages: number;
}

export const DEFAULT_SIZES: Sizes = { inodes: 12, pages: 4, filePages: 6 }; // the scenario's defaults
export const LIMITS = { inodes: [1, 48], pages: [1, 32], filePages: [1, 32] } as const;
const LETTER: Record<keyof Sizes, string> = { inodes: 'n', pages: 'p', filePages: 'f' };

export function parseSizes(text: string): Sizes {
  const s = { ...DEFAULT_SIZES };
  if (!text) return s;
  for (const part of text.split('.')) {
    const m = /^([npf])(\d+)$/.exec(part);
    if (!m) throw new Error(`"${part}" is not n<inodes>, p<pages> or f<file pages>`);
    const key = (Object.keys(LETTER) as (keyof Sizes)[]).find((k) => LETTER[k] === m[1])!;
    const v = Number(m[2]);
    const [lo, hi] = LIMITS[key];
    if (v < lo || v > hi) throw new Error(`${m[1]}${v}: ${key} must be ${lo} to ${hi}`);
    s[key] = v;
  }
  return s;
}

export const formatSizes = (s: Sizes) => `n${s.inodes}.p${s.pages}.f${s.filePages}`;

export const sizesToBytes = (s: Sizes) =>
  program([[KEY.inodes, s.inodes], [KEY.pages, s.pages], [KEY.filePages, s.filePages]]);

/** Where to stand after a rerun with new sizes: where drop-behind starts. */
export function stepAtDropBehind(log: EventLog): number {
  for (let i = 0; i < log.length; i++) if (log.kind[i] === EventKind.CALL && log.name(log.arg(i, 0)) === 'drop_behind') return i;
  return 0;
}
