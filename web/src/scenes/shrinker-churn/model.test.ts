// SPDX-License-Identifier: GPL-2.0-only
// The churn model over real runs of the three designs (the Node builds of
// the wasm, as the page runs them), checked against the runs' own statistics.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../../engine/log';
import type { RunMeta } from '../../engine/meta';
import { History } from '../../engine/history';
import { churnReducer, type ChurnState } from './model';

function run(variant: string, seed: number): EventLog {
  const dir = mkdtempSync(join(tmpdir(), 'churn-'));
  execFileSync(`build/native/${variant}/labrun`, ['--scenario', 'shrinker-churn', '--seed', String(seed), '--dump', dir], {
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
  const events = readFileSync(join(dir, 'events.bin'));
  return new EventLog(events.buffer.slice(events.byteOffset, events.byteOffset + events.byteLength), meta);
}

function final(log: EventLog): ChurnState {
  return new History(log, churnReducer).at(log.length - 1);
}

describe('shrinker-churn model', () => {
  it('counts what the statistics count, on every design', () => {
    for (const variant of ['v6.1', 'srcu', 'v6.12']) {
      const log = run(variant, 2);
      const s = final(log);
      const stat = (name: string) => log.meta.stats.calls.find((c) => c.name === name)!;
      expect(s.ops).toBe(stat('ramfs_op').returns);
      expect(s.shrinkCalls).toBe(stat('shrink_slab').calls);
      const rwsem = log.meta.stats.locks.find((l) => l.name === 'shrinker_rwsem');
      expect(s.bailouts).toBe(rwsem ? rwsem.tryfail + rwsem.let_go : 0);
      // Every shrinker is gone at the end, and no lock is left held.
      expect(s.shrinkers.every((x) => x.phase === 'freed')).toBe(true);
      for (const l of Object.values(s.locks)) {
        expect(l.writer).toBeNull();
        expect(l.readers).toEqual([]);
      }
    }
  });

  it('sees v6.1 readers give way and SRCU grace periods hold unregistering', () => {
    const v61 = run('v6.1', 1);
    const h = new History(v61, churnReducer);
    let sawWriterWaiting = false;
    for (let i = 0; i < v61.length && !sawWriterWaiting; i++) {
      const l = h.at(i).locks.shrinker_rwsem;
      sawWriterWaiting = !!l && l.waitingWriters.length > 0 && l.readers.length > 0;
    }
    expect(sawWriterWaiting).toBe(true);
    expect(final(v61).bailouts).toBeGreaterThan(0);

    const srcu = final(run('srcu', 1));
    expect(srcu.srcu?.gps).toBeGreaterThan(0);
    expect(srcu.bailouts).toBe(0);
  });
});
