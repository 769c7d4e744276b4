// SPDX-License-Identifier: GPL-2.0-only
// A scene's parts on a slide: the view draws the parts it is given (all of
// them on the page); a slide names the ones it shows, or gets the scene's
// talk default (each part's `talk`, in the scene's definition).
import type { SceneDef } from './types';

export { shows } from './types';

/** The names in `names` the scene has no part of, with what it does have: '' when all are known. */
export function unknownParts(scene: Pick<SceneDef<never>, 'id' | 'parts'>, names: readonly string[]): string {
  const bad = names.filter((n) => !scene.parts.some((p) => p.id === n));
  if (!bad.length) return '';
  return `scene ${scene.id} has no part ${bad.map((n) => JSON.stringify(n)).join(', ')}; its parts are ${scene.parts.map((p) => `${p.id} (${p.what})`).join(', ')}`;
}

/** The parts a slide draws: those it names, else the scene's talk default. */
export function slideParts(scene: Pick<SceneDef<never>, 'parts'>, named?: readonly string[]): ReadonlySet<string> {
  return new Set(named ?? scene.parts.filter((p) => p.talk).map((p) => p.id));
}
