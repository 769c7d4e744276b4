// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import manifest from '../../../kernel-tree/manifest.json';
import { KERNELS, SCENE_SCENARIOS } from '../engine/generated/kernels';
import { SCENE_KERNELS, comparisonsOf, hasTrait, scenarioOf } from './kernels';
import { SCENES } from './registry';
import { baseOf } from '../engine/manifest';

type Entry = { name: string; branch: string; base?: string; kind: string; scenes?: string[]; opens?: string[]; traits?: string[] };
const registry = manifest.kernels as Entry[];

describe('scenes/kernels.ts, generated from the registry (kernel-tree/manifest.json "kernels")', () => {
  it('holds every kernel of the registry, in its order, with its branch, base and kind', () => {
    expect(KERNELS.map((k) => [k.name, k.branch, k.base, k.kind])).toEqual(
      registry.map((k) => [k.name, k.branch, k.base ?? null, k.kind]),
    );
  });

  it("gives each scene the kernels that name it, its default first", () => {
    for (const [scene, kernels] of Object.entries(SCENE_KERNELS)) {
      const named = registry.filter((k) => k.scenes?.includes(scene)).map((k) => k.name);
      expect([...kernels].sort(), scene).toEqual([...named].sort());
      const opener = registry.find((k) => k.opens?.includes(scene));
      expect(kernels[0], scene).toBe(opener ? opener.name : named[0]);
    }
    expect(Object.keys(SCENE_KERNELS).sort()).toEqual([...new Set(registry.flatMap((k) => k.scenes ?? []))].sort());
  });

  it('lists the kernels of every scene in the registry, and of no other', () => {
    expect(Object.keys(SCENE_KERNELS).sort()).toEqual(SCENES.map((s) => s.id).sort());
    // The registry adds the reviewer's variants (make variant) after a scene's own.
    for (const s of SCENES) expect(s.variants.slice(0, SCENE_KERNELS[s.id].length), s.id).toEqual(SCENE_KERNELS[s.id]);
    for (const s of SCENES) expect(s.variants.every((v) => SCENE_KERNELS[s.id].includes(baseOf(v))), s.id).toBe(true);
  });

  it('gives every scene of the page, and no other, its scenario', () => {
    expect(Object.keys(SCENE_SCENARIOS).sort()).toEqual(SCENES.map((s) => s.id).sort());
    for (const s of SCENES) expect(s.scenario, s.id).toBe((manifest.scenes as Record<string, { scenario: string }>)[s.id].scenario);
    expect(() => scenarioOf('no-such-scene')).toThrow(/names no scenario of scene no-such-scene/);
  });

  it("names a scene's comparisons: each patched kernel's branch against its base", () => {
    for (const scene of Object.keys(SCENE_KERNELS)) {
      const want = registry
        .filter((k) => k.scenes?.includes(scene) && k.base)
        .map((k) => `${k.base}..${k.branch}`);
      expect([...comparisonsOf(scene)].sort(), scene).toEqual(want.sort());
    }
  });

  it("answers the registry's traits", () => {
    for (const k of registry) for (const t of k.traits ?? []) expect(hasTrait(k.name, t)).toBe(true);
    expect(hasTrait(registry[0].name, 'no-such-trait')).toBe(false);
  });
});
