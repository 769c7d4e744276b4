// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-lifetime scene's set-up in its permalink form (prog=): how
// many mount/unmount rounds, objects per cache, and how long the slow
// shrinkers' count_objects sleeps. "r1,o1,s0" is the explorer's small
// race: one mount, one object, no slow shrinkers. '' is the scene's own
// run. All of it goes to the scenario as run parameters
// (wasm/scenarios/shrinker_lifetime.c); nothing is a program of operations.
import type { RunOptions } from '../../engine/client';
import { parseSettings } from '../../engine/settings';

const SETTINGS = {
  r: { key: 'rounds', name: 'mount/unmount rounds', min: 1, max: 1000 }, // as wasm/runtime/params.def bounds them
  o: { key: 'objects', name: 'objects per cache', min: 1, max: 64 },
  s: { key: 'slowNs', name: 'the slow shrinkers’ sleep (ns)', min: 0, max: 100_000 },
} as const;

/** The run parameters a set-up text gives ('' : none, the scene's own run). Throws with what is wrong. */
export function lifetimeSetup(text: string): RunOptions {
  return parseSettings(text, SETTINGS);
}
