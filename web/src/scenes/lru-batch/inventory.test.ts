// SPDX-License-Identifier: GPL-2.0-only
// The page's reading of docs/lru.md: every function the inventory says a
// kernel's run entered, under the heading of whose it is, as many as the
// inventory's own counts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runsOf } from './inventory';

const text = readFileSync('docs/lru.md', 'utf8');

describe('the lru-batch inventory', () => {
  for (const kernel of ['v6.12', 'lru-batch', 'lru-splice'])
    it(`lists what ${kernel} runs, as many as its counts`, () => {
      const r = runsOf(kernel, text)!;
      expect(r).not.toBeNull();
      for (const w of ['upstream', 'patched', 'port', 'shim'] as const)
        expect(r.items.filter((x) => x.whose === w).length, w).toBe(r.counts[w]);
      expect(r.total).toBe(r.counts.upstream + r.counts.patched + r.counts.port + r.counts.shim + r.counts.other);
      expect(r.items.map((x) => x.name)).toContain('folio_add_lru()');
      expect(r.items.find((x) => x.name === 'folios_put_refs()')?.whose).toBe(kernel === 'v6.12' ? 'upstream' : 'patched');
    });

  it('has no run of a kernel the scene does not run', () => {
    expect(runsOf('v6.1', text)).toBeNull();
  });
});
