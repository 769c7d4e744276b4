// SPDX-License-Identifier: GPL-2.0-only
// The pool's runs are the command line's: the same output for the same
// arguments, whichever worker and in whatever order they ran, a worker of
// their own or one kept for many; a run that fails is named with its
// standard error, and the others still finish.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CJS = 'build/wasm/v6.12/labrun.cjs';
const POOL = 'wasm/tools/labrun-pool.mjs';

function cli(args: string[]): string {
  const r = spawnSync('node', ['--no-experimental-fetch', CJS, ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

// Each test starts Node processes: on a loaded machine they take seconds.
describe('labrun-pool', { timeout: 60_000 }, () => {
  it('prints what labrun prints for each run, and names the run that failed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labrun-pool-'));
    try {
      const runs = [1, 2, 3].map((seed) => ['--scenario', 'shrinker-lifetime', '--seed', String(seed), '--rounds', '30', '--summary']);
      const lines = [...runs, ['--scenario', 'no-such-scene']].map((a, i) => [join(dir, `${i}.out`), join(dir, `${i}.s`), CJS, ...a].join('\t'));
      const r = spawnSync('node', [POOL, '--jobs', '2'], { input: lines.join('\n') + '\n', encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/--scenario no-such-scene: exit 2\n.*no scenario 'no-such-scene'/);
      runs.forEach((a, i) => {
        const out = readFileSync(join(dir, `${i}.out`), 'utf8');
        expect(out).toMatch(/shrinker-lifetime seed \d: done/);
        expect(out).toBe(cli(a));
        expect(Number(readFileSync(join(dir, `${i}.s`), 'utf8'))).toBeGreaterThan(0);
      });
      // Seeds differ, so the runs do: each output is its own run's.
      expect(new Set(runs.map((_, i) => readFileSync(join(dir, `${i}.out`), 'utf8'))).size).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with --keep-workers, runs one after another in a worker: each a fresh boot, a trap named and the worker used again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labrun-pool-'));
    try {
      const run = (seed: number) => ['--scenario', 'shrinker-lifetime', '--seed', String(seed), '--rounds', '30', '--summary'];
      // Under relaxed, this run calls a count_objects its CPU has not seen (NULL): wasm traps.
      const trap = ['--scenario', 'shrinker-lifetime', '--seed', '1', '--policy', 'rr', '--memory', 'relaxed', '--hash'];
      const jobs = [run(1), run(2), trap, run(1), run(3), ['--scenario', 'no-such-scene']];
      const input = jobs.map((a, i) => [join(dir, `${i}.out`), join(dir, `${i}.s`), CJS, ...a].join('\t')).join('\n') + '\n';
      const r = spawnSync('node', [POOL, '--jobs', '1', '--keep-workers'], { input, encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/--memory relaxed --hash: exit 1\n[^]*RuntimeError/);
      expect(r.stderr).toMatch(/--scenario no-such-scene: exit 2\n.*no scenario 'no-such-scene'/);
      // The runs after the trap are the command line's too: nothing of one run is left for the next.
      for (const i of [0, 1, 3, 4]) expect(readFileSync(join(dir, `${i}.out`), 'utf8')).toBe(cli(jobs[i]));
      expect(readFileSync(join(dir, '3.out'), 'utf8')).toBe(readFileSync(join(dir, '0.out'), 'utf8'));
      // --ok 1 accepts the trap's status: only the missing scenario is named.
      const ok = spawnSync('node', [POOL, '--jobs', '1', '--keep-workers', '--ok', '1'], { input, encoding: 'utf8' });
      expect(ok.status).toBe(1);
      expect(ok.stderr).not.toMatch(/--memory relaxed/);
      expect(ok.stderr).toMatch(/no-such-scene: exit 2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an option it cannot read', () => {
    for (const args of [['--ok', 'x'], ['--jobs', '0'], ['--keep']]) {
      const r = spawnSync('node', [POOL, ...args], { input: '', encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^usage: node wasm\/tools\/labrun-pool.mjs/);
    }
  });

  it('refuses a line it cannot read, and a module that is not built', () => {
    for (const [input, msg] of [
      ['garbage\n', /line 1: expected out<TAB>seconds<TAB>labrun.cjs/],
      ['a\tb\tbuild/wasm/none/labrun.cjs\t--summary\n', /line 1: build\/wasm\/none\/labrun.cjs is missing/],
    ] as const) {
      const r = spawnSync('node', [POOL], { input, encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
  });
});
