// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { SCENE_KERNELS } from './kernels';
import { SCENES } from './registry';
import { baseOf } from '../engine/manifest';

describe('scenes/kernels.ts', () => {
  it('lists the kernels of every scene in the registry, and of no other', () => {
    expect(Object.keys(SCENE_KERNELS).sort()).toEqual(SCENES.map((s) => s.id).sort());
    // The registry adds the reviewer's variants (make variant) after a scene's own.
    for (const s of SCENES) expect(s.variants.slice(0, SCENE_KERNELS[s.id].length), s.id).toEqual(SCENE_KERNELS[s.id]);
    for (const s of SCENES) expect(s.variants.every((v) => SCENE_KERNELS[s.id].includes(baseOf(v))), s.id).toBe(true);
  });
});
