// SPDX-License-Identifier: GPL-2.0-only
// make test's summary reads each suite's counts as its tests print them,
// names every skip with its reason and command, counts a suite that never
// ran or crashed as failed, and ends with "N passed, N failed, N skipped".
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { tempTree } from './tempTree';
import { PARSERS, readResults, summary } from './test-summary.mjs';

const ok = { status: 0 };

describe('test-summary', () => {
  it('reads the counts each kind of suite prints', () => {
    expect(PARSERS.ctest('ok   a.x\nruntime: 12 passed, 0 failed\nFAIL b.y\nkernel: 3 passed, 1 failed\n', ok, null)).toMatchObject({ passed: 15, failed: 1 });
    const det = 'determinism: v6.12 shrinker-lifetime: 20 of 20 seeds (policies ...) give the same log\ndeterminism: v6.12 fuzz-ops: 19 of 20 seeds give\nexplore: v6.12 --bound 1: the same 3 summaries natively and in wasm (x)\n';
    expect(PARSERS.determinism(det, ok, null)).toMatchObject({ passed: 2, failed: 1 });
    // Each seed under sc, the first ones under tso and relaxed too: counted in runs.
    const models = 'determinism: v6.12 memcg-bitmap: 24 of 24 runs (20 seeds under sc, 2 under tso and relaxed; ...) give the same log\ndeterminism: v6.12 fuzz-ops: 23 of 24 runs (...)\n';
    expect(PARSERS.determinism(models, ok, null)).toMatchObject({ passed: 1, failed: 1 });
    expect(PARSERS.selftest('selftest-xarray: 6782044 passed, 0 failed (native 1 s)\nselftest-ida: 5 passed, 2 failed (x)\n', ok, null)).toMatchObject({ passed: 1, failed: 1 });
    const kunit = PARSERS.kunit('test-kunit: v6.12: UML = native = wasm\ntest-kunit: skipped v6.1: no User-Mode Linux build of it yet (make kunit builds one)\n', ok, null);
    expect(kunit).toMatchObject({ passed: 1, skipped: 1 });
    expect(kunit.skips[0]).toEqual(['the referee on v6.1', 'no User-Mode Linux build of it yet (make kunit builds one)', 'make kunit (then make test compares it too)']);
    expect(PARSERS.variant('test-variant: ok: a\ntest-variant: ok: b\ntest-variant: FAIL: c\n', ok, null)).toMatchObject({ passed: 2, failed: 1 });
    expect(PARSERS.one('', { status: 2 }, null)).toMatchObject({ passed: 0, failed: 1 });
  });

  it('names a skipped end-to-end test with its reason and the command it names', () => {
    const report = {
      suites: [{ suites: [{ specs: [
        { title: 'runs', file: 'a.spec.ts', line: 3, tests: [{ status: 'expected', annotations: [] }] },
        { title: 'the variant', file: 'variant.spec.ts', line: 12, tests: [{ status: 'skipped', annotations: [{ type: 'skip', description: 'no reviewer variant named (make test-variant makes one)' }] }] },
        { title: 'no reason', file: 'b.spec.ts', line: 7, tests: [{ status: 'skipped', annotations: [] }] },
        { title: 'breaks', file: 'c.spec.ts', line: 9, tests: [{ status: 'unexpected', annotations: [] }] },
      ] }] }],
    };
    const c = PARSERS.playwright('', ok, report);
    expect(c).toMatchObject({ passed: 1, failed: 1, skipped: 2 });
    expect(c.skips).toEqual([
      ['variant.spec.ts: the variant', 'no reviewer variant named (make test-variant makes one)', 'make test-variant'],
      ['b.spec.ts: no reason', 'skipped, no reason given', 'npx playwright test b.spec.ts:7'],
    ]);
  });

  it('groups parts, fails a suite that never reported or crashed, and ends with the totals', () => {
    const dir = tempTree('results-', {
      'test-native@a.json': JSON.stringify({ name: 'test-native/a', kind: 'ctest', status: 0, wall: 10, cpu: 9 }),
      'test-native@a.log': 'a: 4 passed, 0 failed\n',
      'test-native@b.json': JSON.stringify({ name: 'test-native/b', kind: 'ctest', status: 139, wall: 30, cpu: 25 }),
      'test-native@b.log': 'ok   b.one\n',
      'test-kunit.json': JSON.stringify({ name: 'test-kunit', kind: 'kunit', status: 0, wall: 1, cpu: 1 }),
      'test-kunit.log': 'test-kunit: skipped v6.12: no User-Mode Linux build of it yet (make kunit builds one)\n',
    });
    try {
      const groups = readResults(dir, ['lint', 'test-native', 'test-kunit']);
      expect(groups.get('test-native')).toMatchObject({ parts: 2, passed: 4, failed: 1, wall: 30, cpu: 34 });
      const { lines, ok: allOk } = summary(groups, 2, 'make kunit');
      expect(allOk).toBe(false);
      expect(lines.find((l) => l.includes('lint'))).toMatch(/not run/);
      expect(lines.find((l) => l.includes('test-kunit') && l.includes('skipped 0 passed'))).toBeDefined();
      expect(lines).toContain('  the referee on v6.12: no User-Mode Linux build of it yet (make kunit builds one); runs with: make kunit (then make test compares it too)');
      expect(lines.at(-1)).toBe('4 passed, 2 failed, 1 skipped');
      expect(summary(readResults(dir, ['test-kunit'])).lines.at(-1)).toBe('4 passed, 1 failed, 1 skipped');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
