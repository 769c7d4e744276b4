// SPDX-License-Identifier: GPL-2.0-only
// Every scene, one line each. The first is the one the app opens.
import type { SceneDef } from './types';
import { shrinkerLifetime } from './shrinker-lifetime';
import { plantedBugs } from './planted-bugs';
import { shrinkerChurn } from './shrinker-churn';
import { memcgBitmap } from './memcg-bitmap';
import { lruBatch } from './lru-batch';
import { inodeLru } from './inode-lru';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const SCENES: SceneDef<any>[] = [shrinkerLifetime, shrinkerChurn, memcgBitmap, lruBatch, inodeLru, plantedBugs];

export function findScene(id: string | null) {
  return SCENES.find((s) => s.id === id) ?? null;
}
