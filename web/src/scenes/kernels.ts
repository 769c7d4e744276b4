// SPDX-License-Identifier: GPL-2.0-only
// Each scene's kernels, the first its default: generated from the registry
// (kernel-tree/manifest.json "kernels", docs/adding-a-kernel.md) into
// engine/generated/kernels.ts, read by each scene's definition
// (SceneDef.variants) and by the page's first script (main.tsx), which
// compiles the run's kernel before the rest of the page's code is loaded,
// and so cannot import the scenes.
import { KERNELS, SCENE_KERNELS, SCENE_SCENARIOS } from '../engine/generated/kernels';

export { SCENE_KERNELS };

/** A scene's kernels, for its definition. */
export function kernelsOf(scene: string): string[] {
  const k = SCENE_KERNELS[scene];
  if (!k) throw new Error(`kernel-tree/manifest.json names no kernel of scene ${scene}`);
  return [...k];
}

/** The scenario a scene runs (the registry's "scenes"; kernel-tree/kernels.py finds a scene by it too). */
export function scenarioOf(scene: string): string {
  const s = SCENE_SCENARIOS[scene];
  if (!s) throw new Error(`kernel-tree/manifest.json names no scenario of scene ${scene}`);
  return s;
}

/** The What changed comparisons of a scene's kernels made from patches (each against its base). */
export function comparisonsOf(scene: string): string[] {
  return kernelsOf(scene).flatMap((v) => {
    const k = KERNELS.find((x) => x.name === v);
    return k && k.base !== null && k.comparison ? [k.comparison] : [];
  });
}

/** Whether the registry says a kernel does this differently (its "traits"). */
export function hasTrait(variant: string, trait: string): boolean {
  return KERNELS.find((k) => k.name === variant)?.traits.includes(trait) ?? false;
}
