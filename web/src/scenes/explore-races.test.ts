// SPDX-License-Identifier: GPL-2.0-only
// The explorer's small races (wasm/explore.json): make explore runs each
// with labrun's flags, the page's Explore panel with the scene's permalink
// form of the same set-up. Both must be the same run.
import { describe, expect, it } from 'vitest';
import { EXPLORE_RACES, findScene } from './registry';
import { RUN_PARAMS, packRunParams, pickRunParams, type RunParams } from '../engine/generated/params';

/** labrun's flags as run parameters and program bytes; throws on a flag that is neither. */
function fromArgs(args: string[]): { params: RunParams; program: number[] } {
  const params: Record<string, number | boolean> = {};
  let program: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i].replace(/^--/, '');
    if (flag === 'program') {
      program = args[++i].split(',').map(Number);
      continue;
    }
    const p = RUN_PARAMS.find((r) => r.flag === flag);
    if (!p) throw new Error(`${args[i]} is not a run parameter`);
    params[p.key] = p.type === 'number' ? Number(args[++i]) : true;
  }
  return { params: params as RunParams, program };
}

describe("the explorer's small races", () => {
  it.each(EXPLORE_RACES.map((r) => [r.id, r] as const))('%s: the panel runs what make explore runs', (_, race) => {
    const scene = findScene(race.scene ?? null);
    expect(scene, `scene ${race.scene}`).not.toBeNull();
    expect(scene!.scenario).toBe(race.scenario);
    expect(scene!.explores?.map((e) => e.prog)).toContain(race.prog);
    const want = fromArgs(race.args);
    const program = scene!.program?.toBytes(race.prog) ?? [];
    expect(program).toEqual(want.program);
    for (const v of Object.keys(race.kernels)) {
      expect(scene!.variants).toContain(v);
      // As the page's shell hands the panel its parameters (web/src/app/App.tsx).
      const params = pickRunParams({ slowNs: scene!.slowNs?.(v) ?? 0, ...scene!.program?.options?.(race.prog) });
      expect(Array.from(packRunParams(params)), v).toEqual(Array.from(packRunParams(want.params)));
    }
    expect(race.defaultBound).toBeLessThanOrEqual(race.maxBound);
    expect(race.bound).toBeLessThanOrEqual(race.maxBound);
  });
});
