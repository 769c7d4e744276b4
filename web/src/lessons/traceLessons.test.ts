// SPDX-License-Identifier: GPL-2.0-only
// Every lesson on a trace: its fixture is a trace the real kernel made
// (bundled by the page), its solution's passes meet every goal and its start meets none,
// and the lines of mm/shrinker.c its text and patch name are those lines
// in the kernel tree.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFtrace } from '../engine/ftrace';
import { buildReclaimTrace } from '../engine/reclaimTrace';
import { traceSteps } from '../engine/traceSteps';
import { passMeets, TRACE_LESSONS, traceGoalsAt } from './traceLessons';

// What each line the runaway-deferred lesson cites holds on its branch.
const CITED: Record<string, Record<number, string>> = {
  'runaway-deferred': {
    345: 'static long xchg_nr_deferred(',
    402: 'nr = xchg_nr_deferred(shrinker, shrinkctl);',
    404: 'if (shrinker->seeks) {',
    417: 'total_scan = nr >> priority;',
    419: 'total_scan = min(total_scan, (2 * freeable));',
    439: 'while (total_scan >= batch_size ||',
    464: 'next_deferred = max_t(long, (nr + delta - scanned), 0);',
    465: 'next_deferred = min(next_deferred, (2 * freeable));',
    471: 'new_nr = add_nr_deferred(next_deferred, shrinker, shrinkctl);',
    473: 'trace_mm_shrink_slab_end(',
  },
};

describe('lessons on a trace', () => {
  it('exist', () => {
    expect(TRACE_LESSONS.map((l) => l.id)).toContain('runaway-deferred');
  });

  for (const lesson of TRACE_LESSONS) {
    describe(lesson.id, () => {
      // a bundled trace (app/traceFixtures.ts bundles these files; importUrl.test.ts opens the lesson's by name)
      const file = `wasm/tests/fixtures/${lesson.trace.fixture}.txt`;
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      const parsed = parseFtrace(text);
      const model = buildReclaimTrace(parsed);
      const steps = traceSteps(model);

      it('reads a bundled trace that parses whole', () => {
        expect(existsSync(file), file).toBe(true);
        expect(lesson.trace.fixture).toMatch(/^uml-[^/]+-ftrace-[^/]+$/);
        expect(parsed.malformed).toEqual([]);
        expect(steps.length).toBeGreaterThan(0);
        expect(lesson.hints.length).toBeGreaterThan(0);
      });

      it('is solved by its solution\'s passes, and nothing is met at its start', () => {
        for (const s of lesson.trace.solution) expect(s).toBeLessThan(steps.length);
        const met = new Set(lesson.trace.solution.flatMap((s) => traceGoalsAt(lesson, model, steps, s)));
        expect([...met].sort()).toEqual(lesson.goals.map((g) => g.id).sort());
        expect(traceGoalsAt(lesson, model, steps, lesson.trace.start)).toEqual([]);
      });

      it('names real lines of the kernel tree', () => {
        const src = execFileSync('git', ['-C', 'kernel-tree/linux', 'show', `${lesson.patch.branch}:${lesson.patch.file}`], { encoding: 'utf8', maxBuffer: 1 << 26 }).split('\n');
        const [first, last] = lesson.patch.lines;
        expect(first).toBeGreaterThan(0);
        expect(last).toBeGreaterThanOrEqual(first);
        expect(last).toBeLessThanOrEqual(src.length);
        for (const [n, code] of Object.entries(CITED[lesson.id] ?? {})) expect(src[Number(n) - 1].trim(), `line ${n}`).toContain(code);
        // every "line N" or "lines N to M" of the text is one CITED checks, or lies between two it checks
        const cited = Object.keys(CITED[lesson.id] ?? {}).map(Number);
        for (const m of lesson.text.join(' ').matchAll(/lines? (\d+)(?: to (\d+))?/g)) {
          const n = Number(m[1]);
          expect(cited.includes(n) || (m[2] !== undefined && cited.some((c) => c >= n && c <= Number(m[2]))), `line ${n} is checked`).toBe(true);
        }
      });
    });
  }
});

describe('the runaway-deferred lesson on its trace', () => {
  const text = readFileSync('wasm/tests/fixtures/uml-v6.12-ftrace-kunit-runaway.txt', 'utf8');
  const model = buildReclaimTrace(parseFtrace(text));
  const steps = traceSteps(model);
  const runaway = model.shrinkers[0];

  it('has two shrinkers of one scan function, one of which runs to twice its cache', () => {
    expect(model.shrinkers.map((s) => s.func)).toEqual(['rl_scan', 'rl_scan']);
    expect(runaway.maxDeferred).toBe(2 * runaway.passes[0].cacheItems);
    expect(model.shrinkers[1].maxDeferred).toBeLessThan(runaway.maxDeferred / 4);
    // every pass without __GFP_FS scanned nothing and left nr + delta, up to the clamp
    for (const p of runaway.passes.filter((x) => x.gfp === 'GFP_NOFS')) {
      expect(p.retval).toBe(0);
      expect(p.newScan).toBe(Math.min(p.nrObjectsToShrink + p.delta, 2 * p.cacheItems));
    }
  });

  it('meets no goal at a pass of the other shrinker, or at the runaway one below its peak', () => {
    const peak = { runaway: true, peak: true };
    steps.forEach((s, i) => {
      if (s.row !== runaway || s.pass.newScan < runaway.maxDeferred) expect(passMeets(model, steps, i, peak), `pass ${i}`).toBe(false);
    });
  });
});
