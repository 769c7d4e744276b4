// SPDX-License-Identifier: GPL-2.0-only
// Every scene names its parts once, and a slide shows some by default: the
// talk layout (web/e2e/talk-layout.spec.ts) checks that what it shows fits.
import { describe, expect, it } from 'vitest';
import { SCENES } from './registry';
import { shows, slideParts, unknownParts } from './parts';

describe('scene parts', () => {
  it('each scene names its parts once, and shows at least one on a slide', () => {
    for (const s of SCENES) {
      const ids = s.parts.map((p) => p.id);
      expect(new Set(ids).size, s.id).toBe(ids.length);
      expect(ids.every((id) => /^[a-z][a-z-]*$/.test(id)), s.id).toBe(true);
      expect(slideParts(s).size, s.id).toBeGreaterThan(0);
    }
  });

  it('a slide shows the parts it names, else the talk default; the page shows all', () => {
    const bitmap = SCENES.find((s) => s.id === 'memcg-bitmap')!;
    expect([...slideParts(bitmap)]).toEqual(bitmap.parts.filter((p) => p.talk).map((p) => p.id));
    expect([...slideParts(bitmap, ['cpus'])]).toEqual(['cpus']);
    expect(shows(undefined, 'cpus')).toBe(true);
    expect(shows(new Set(['matrix']), 'cpus')).toBe(false);
    expect(unknownParts(bitmap, ['matrix'])).toBe('');
    expect(unknownParts(bitmap, ['nope'])).toMatch(/^scene memcg-bitmap has no part "nope"; its parts are cpus/);
  });
});
