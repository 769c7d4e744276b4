// SPDX-License-Identifier: GPL-2.0-only
// The figures a lesson's text states as measured in this simulator are the
// ones the runs give now: each is measured again here, natively, the way
// the text says (on the page's default machine, native64), and looked for
// in the text as it is written there. (In
// app/: it joins a lesson and a scene's figures, which only the app may.)
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { RunMeta } from '../engine/meta';
import { churnFigures, meanFigures } from '../scenes/shrinker-churn/figures';
import { figureAtEnd, findLesson } from '../lessons/lessons';
import { nativeLabrun, replayNative } from '../lessons/replay';

const textOf = (id: string) => findLesson(id)!.text.join('\n');
const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

describe('inode-lru states the shares it measures', () => {
  const share = (variant: string, prog: string) =>
    figureAtEnd(replayNative('inode-lru', { variant, seed: 1, policy: 'timed', sched: '', prog }), 'slab-share');
  const sizes = [['', '12 × 4 pages'], ['n24.p2', '24 × 2'], ['n48.p1', '48 × 1']];

  it('v6.12 flat, the before kernel climbing with the inodes, LRU_ROTATE_NODEFER the same to the hundredth', () => {
    const text = textOf('inode-lru');
    const flat = sizes.map(([prog]) => share('inode', prog));
    expect(text).toContain(`v6.12 stays at ${Math.min(...flat).toFixed(1)} to ${Math.max(...flat).toFixed(1)}%`);
    for (const [prog, label] of sizes) {
      const before = share('inode-before', prog);
      expect(text).toContain(`${before.toFixed(1)}% at ${label}`);
      expect(share('inode-rotate', prog).toFixed(2)).toBe(before.toFixed(2));
    }
  });
});

describe('srcu-unregister states the stress figures it measures', () => {
  const seeds = [1, 2, 3, 4, 5];
  const stress = (variant: string) =>
    meanFigures(
      seeds.map((seed) => {
        const args = ['--scenario', 'shrinker-churn', '--seed', String(seed), '--policy', 'timed', '--stress', '--rounds', '10', '--meta'];
        const r = spawnSync(nativeLabrun(variant), args, { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8', maxBuffer: 1 << 26 });
        expect(r.status, r.stderr).toBe(0);
        return churnFigures(JSON.parse(r.stdout) as RunMeta);
      }),
    );

  it('operations per virtual second on the three kernels, the drop, and what an unregister costs', () => {
    const text = textOf('srcu-unregister');
    const [rwsem, srcu, rcu] = ['v6.1', 'srcu', 'v6.12'].map(stress);
    const drop = ((srcu.opsPerSecond - rwsem.opsPerSecond) / rwsem.opsPerSecond) * 100;
    expect(text).toContain(`v6.1 does ${n(rwsem.opsPerSecond)} ramfs operations per virtual second, the srcu kernel ${n(srcu.opsPerSecond)}, that is −${Math.abs(drop).toFixed(1)}%, and v6.12 ${n(rcu.opsPerSecond)}`);
    expect(text).toContain(`An unregister takes ${(rwsem.unregisterNs / 1000).toFixed(1)} µs on v6.1 and ${(srcu.unregisterNs / 1e6).toFixed(2)} ms on the srcu kernel, ${(srcu.unregisterAsleepNs / 1e6).toFixed(2)} ms of it asleep`);
  });
});
