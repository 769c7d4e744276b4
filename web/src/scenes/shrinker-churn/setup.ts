// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-churn scene's set-up in its permalink form (prog=): how many
// tasks race (t2: kswapd0 against one mounter, beside one resident cache;
// otherwise the scene's four), mount/unmount rounds and objects per
// filesystem. "t2,r1,o1" is the explorer's small race: one register and
// one unregister against one shrink_slab() reader. '' is the scene's own
// run. All of it goes to the scenario as run parameters
// (wasm/scenarios/shrinker_churn.c); nothing is a program of operations.
import type { RunOptions } from '../../engine/client';
import { parseSettings } from '../../engine/settings';

const SETTINGS = {
  t: { key: 'tasks', name: 'racing tasks (2: one reclaimer, one mounter; without t, the scene’s four)', min: 2, max: 2 },
  r: { key: 'rounds', name: 'mount/unmount rounds', min: 1, max: 8 },
  o: { key: 'objects', name: 'objects per filesystem', min: 1, max: 64 },
} as const;

/** The run parameters a set-up text gives ('' : none, the scene's own run). Throws with what is wrong. */
export function churnSetup(text: string): RunOptions {
  return parseSettings(text, SETTINGS);
}
