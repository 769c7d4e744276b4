// SPDX-License-Identifier: GPL-2.0-only
// Each scene's kernels (wasm/build.mk VARIANTS), the first its default: the
// one list, read by each scene's definition (SceneDef.variants) and by the
// page's first script (main.tsx), which compiles the run's kernel before
// the rest of the page's code is loaded, and so cannot import the scenes.
export const SCENE_KERNELS: Readonly<Record<string, readonly string[]>> = {
  'shrinker-lifetime': ['v6.12', 'break-no-tryget', 'break-no-wait'],
  'shrinker-churn': ['v6.1', 'srcu', 'v6.12', 'break-no-wait'],
  'memcg-bitmap': ['v6.12', 'no-shrinker-bitmap', 'break-no-recheck'],
  'lru-batch': ['v6.12', 'lru-batch', 'lru-splice'],
  'inode-lru': ['inode', 'inode-before', 'inode-rotate'],
  'planted-bugs': ['v6.12', 'v6.1', 'srcu'],
};

/** A scene's kernels, for its definition. */
export function kernelsOf(scene: string): string[] {
  const k = SCENE_KERNELS[scene];
  if (!k) throw new Error(`scenes/kernels.ts lists no kernels for scene ${scene}`);
  return [...k];
}
