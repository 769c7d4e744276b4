// SPDX-License-Identifier: GPL-2.0-only
// The permalink: scene, seed and step live in the URL, so opening it again
// reproduces the same state.
export interface UrlState {
  scene: string | null;
  seed: number;
  step: number;
}

const MAX_SEED = 2 ** 32 - 1;

export function parseUrl(search: string): UrlState & { errors: string[] } {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const num = (key: string, dflt: number, max: number) => {
    const raw = q.get(key);
    if (raw === null || raw === '') return dflt;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < 0 || v > max) {
      errors.push(`Ignored ${key}=${raw}: expected a whole number from 0 to ${max}.`);
      return dflt;
    }
    return v;
  };
  return { scene: q.get('scene'), seed: num('seed', 1, MAX_SEED), step: num('step', 0, 1e9), errors };
}

export function formatUrl(s: UrlState): string {
  const q = new URLSearchParams();
  if (s.scene) q.set('scene', s.scene);
  q.set('seed', String(s.seed));
  q.set('step', String(s.step));
  return `?${q.toString()}`;
}

export function isValidSeed(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= MAX_SEED;
}
