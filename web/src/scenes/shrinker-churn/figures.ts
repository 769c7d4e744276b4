// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-churn figures from a run's statistics (meta.stats, read off
// the event log by wasm/runtime/stats.c): the same arithmetic as the
// native test wasm/tests/test_shrinker_churn.c.
import type { RunMeta } from '../../engine/meta';

/** The kernel function each design unregisters a shrinker with (wasm/glue/<variant>/api.c). */
const UNREGISTER_FNS = ['unregister_shrinker', 'shrinker_free'];

export interface ChurnFigures {
  ops: number; // ramfs operations (mount, fill, unmount) that returned
  opsPerSecond: number; // per virtual second, from the first start to the last return
  unregisterNs: number; // mean time in the unregistering function
  unregisterAsleepNs: number; // of which asleep
  shrinkCalls: number; // shrink_slab() calls
  bailouts: number; // of which gave up: failed down_read_trylock or rwsem_is_contended()
}

export function churnFigures(meta: RunMeta): ChurnFigures {
  const call = (name: string) => meta.stats.calls.find((c) => c.name === name);
  const op = call('ramfs_op');
  const unreg = UNREGISTER_FNS.map(call).find((c) => c !== undefined);
  const shrink = call('shrink_slab');
  if (!op || !unreg || !shrink || op.returns === 0 || op.last <= op.first) {
    throw new Error('this run has no shrinker-churn statistics');
  }
  const rwsem = meta.stats.locks.find((l) => l.name === 'shrinker_rwsem');
  return {
    ops: op.returns,
    opsPerSecond: (op.returns * 1e9) / (op.last - op.first),
    unregisterNs: unreg.total_ns / unreg.returns,
    unregisterAsleepNs: unreg.asleep_ns / unreg.returns,
    shrinkCalls: shrink.returns,
    bailouts: rwsem ? rwsem.tryfail + rwsem.let_go : 0,
  };
}

/** Mean of the figures over runs (seeds). */
export function meanFigures(all: ChurnFigures[]): ChurnFigures {
  const n = all.length;
  const sum = (k: keyof ChurnFigures) => all.reduce((s, f) => s + f[k], 0);
  return {
    ops: sum('ops'),
    opsPerSecond: sum('opsPerSecond') / n,
    unregisterNs: sum('unregisterNs') / n,
    unregisterAsleepNs: sum('unregisterAsleepNs') / n,
    shrinkCalls: sum('shrinkCalls'),
    bailouts: sum('bailouts'),
  };
}
