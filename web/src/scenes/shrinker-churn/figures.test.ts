// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { churnFigures, meanFigures } from './figures';
import type { RunMeta } from '../../engine/meta';

function meta(calls: RunMeta['stats']['calls'], locks: RunMeta['stats']['locks'] = []): RunMeta {
  return { stats: { calls, locks } } as unknown as RunMeta;
}
const call = (name: string, returns: number, total: number, asleep: number, first: number, last: number) => ({
  name, calls: returns, returns, ret_sum: 0, total_ns: total, asleep_ns: asleep, first, last,
});

describe('churnFigures', () => {
  it('derives operations per virtual second, unregister time and bailouts', () => {
    const f = churnFigures(meta(
      [call('ramfs_op', 20, 0, 0, 1_000, 10_001_000), call('unregister_shrinker', 20, 4_000, 1_000, 0, 0), call('shrink_slab', 50, 0, 0, 0, 0)],
      [{ name: 'shrinker_rwsem', acquired: 9, contended: 1, tryfail: 3, let_go: 2 }],
    ));
    expect(f.opsPerSecond).toBeCloseTo(2000);
    expect(f.unregisterNs).toBe(200);
    expect(f.unregisterAsleepNs).toBe(50);
    expect(f.shrinkCalls).toBe(50);
    expect(f.bailouts).toBe(5);
  });

  it('finds v6.12 unregistering under shrinker_free and counts no bailouts without an rwsem', () => {
    const f = churnFigures(meta([call('ramfs_op', 2, 0, 0, 0, 1e6), call('shrinker_free', 2, 10, 0, 0, 0), call('shrink_slab', 1, 0, 0, 0, 0)]));
    expect(f.unregisterNs).toBe(5);
    expect(f.bailouts).toBe(0);
  });

  it('refuses a run of another scenario', () => {
    expect(() => churnFigures(meta([call('shrink_slab', 1, 0, 0, 0, 0)]))).toThrow(/no shrinker-churn statistics/);
  });

  it('averages rates and sums counts over seeds', () => {
    const a = churnFigures(meta([call('ramfs_op', 2, 0, 0, 0, 1e6), call('shrinker_free', 2, 10, 0, 0, 0), call('shrink_slab', 3, 0, 0, 0, 0)]));
    const b = churnFigures(meta([call('ramfs_op', 2, 0, 0, 0, 2e6), call('shrinker_free', 2, 30, 0, 0, 0), call('shrink_slab', 5, 0, 0, 0, 0)]));
    const m = meanFigures([a, b]);
    expect(m.opsPerSecond).toBeCloseTo(1500);
    expect(m.unregisterNs).toBe(10);
    expect(m.shrinkCalls).toBe(8);
  });
});
