// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-lifetime scene's set-up in its permalink form (prog=): how
// many mount/unmount rounds, objects per cache, and how long the slow
// shrinkers' count_objects sleeps. "r1,o1,s0" is the explorer's small
// race: one mount, one object, no slow shrinkers. '' is the scene's own
// run. All of it goes to the scenario as run parameters
// (wasm/scenarios/shrinker_lifetime.c); nothing is a program of operations.
import type { RunOptions } from '../../engine/client';

const SETTINGS = {
  r: { key: 'rounds', name: 'mount/unmount rounds', min: 1, max: 8 },
  o: { key: 'objects', name: 'objects per cache', min: 1, max: 64 },
  s: { key: 'slowNs', name: 'the slow shrinkers’ sleep (ns)', min: 0, max: 100_000 },
} as const;

/** The run parameters a set-up text gives ('' : none, the scene's own run). Throws with what is wrong. */
export function lifetimeSetup(text: string): RunOptions {
  const o: RunOptions = {};
  if (!text) return o;
  for (const tok of text.split(',')) {
    const m = /^([ros])(\d{1,6})$/.exec(tok);
    if (!m) throw new Error(`"${tok}" is not a setting (r, o or s and a number: rounds, objects, slow shrinkers' ns)`);
    const s = SETTINGS[m[1] as keyof typeof SETTINGS];
    const v = Number(m[2]);
    if (v < s.min || v > s.max) throw new Error(`${s.name} must be ${s.min} to ${s.max}, not ${v}`);
    o[s.key] = v;
  }
  return o;
}
