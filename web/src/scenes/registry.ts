// SPDX-License-Identifier: GPL-2.0-only
// Every scene, one line each. The first is the one the app opens.
import type { ExploreRace, ExploreSetup, SceneDef } from './types';
import { baseOf, withReviewed } from '../engine/manifest';
import { shrinkerLifetime } from './shrinker-lifetime';
import { plantedBugs } from './planted-bugs';
import { shrinkerChurn } from './shrinker-churn';
import { memcgBitmap } from './memcg-bitmap';
import { lruBatch } from './lru-batch';
import { inodeLru } from './inode-lru';
import { EXPLORE_EXPECT } from '../engine/generated/kernels';
import exploreSet from '../../../wasm/explore.json';

/** The explorer's small races (wasm/explore.json, the one list make explore runs too), each with what the
 * registry's kernels expect of it (kernel-tree/manifest.json "explore"). */
export const EXPLORE_RACES: readonly ExploreRace[] = exploreSet.races.map((r) => ({ ...r, kernels: EXPLORE_EXPECT[r.id] ?? {} }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const SCENES: SceneDef<any>[] = [shrinkerLifetime, shrinkerChurn, memcgBitmap, lruBatch, inodeLru, plantedBugs]
  .map(withExplore)
  .map(withReviewedKernels);

/**
 * A scene with a small race in the list gets the Explore panel on it: one
 * set-up per prog, in the list's order (the races of one set-up under
 * other memory models are the same search under the run's model).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withExplore(scene: SceneDef<any>): SceneDef<any> {
  const explores: ExploreSetup[] = [];
  for (const r of EXPLORE_RACES) {
    if (r.scene !== scene.id || explores.some((e) => e.prog === r.prog)) continue;
    const { prog, race, maxBound, defaultBound, maxExecutions } = r;
    explores.push({ prog, race, title: r.title ?? r.id, maxBound, defaultBound, maxExecutions });
  }
  return explores.length ? { ...scene, explores } : scene;
}

/** A scene runs the reviewer's variants (make variant) of its kernels too,
 * each as its base: the same series card and fault injection. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withReviewedKernels(scene: SceneDef<any>): SceneDef<any> {
  const variants = withReviewed(scene.variants);
  if (variants.length === scene.variants.length) return scene;
  const { series, slowNs } = scene;
  return {
    ...scene,
    variants,
    series: typeof series === 'function' ? (v: string) => series(baseOf(v)) : series,
    slowNs: slowNs && ((v: string) => slowNs(baseOf(v))),
  };
}

export function findScene(id: string | null) {
  return SCENES.find((s) => s.id === id) ?? null;
}
