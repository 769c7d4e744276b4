// SPDX-License-Identifier: GPL-2.0-only
// A scene's set-up in its permalink form (prog=) when it is all run
// parameters: comma-separated settings, each a letter and a number
// ("r1,o1,s0"). '' is none: the scenario's own run.
import type { RunOptions } from './client';

/** One setting: the run parameter it gives, its name in errors, its range. */
export interface Setting {
  key: keyof RunOptions & string;
  name: string;
  min: number;
  max: number;
}

/** The run parameters a set-up text gives by table (letter to setting). Throws with what is wrong. */
export function parseSettings(text: string, table: Readonly<Record<string, Setting>>): RunOptions {
  const o: Record<string, number> = {};
  if (!text) return o;
  const letters = Object.keys(table);
  for (const tok of text.split(',')) {
    const m = /^([a-z])(\d{1,7})$/.exec(tok);
    const s = m ? table[m[1]] : undefined;
    if (!m || !s) {
      const names = letters.map((l) => `${l} ${table[l].name}`).join(', ');
      throw new Error(`"${tok}" is not a setting (a letter and a number: ${names})`);
    }
    const v = Number(m[2]);
    if (v < s.min || v > s.max) throw new Error(`${s.name} must be ${s.min} to ${s.max}, not ${v}`);
    o[s.key] = v;
  }
  return o as RunOptions;
}
