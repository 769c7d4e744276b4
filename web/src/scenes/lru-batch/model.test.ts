// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch model over real runs of the port (the native build, as the
// lessons test runs it): the list rebuilt from the port's tracepoints must
// keep the locking scheme's rules wherever the kernel's own check passed.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../../engine/log';
import { EventKind } from '../../engine/generated/events';
import type { RunMeta } from '../../engine/meta';
import { contention, listHash, listProblem, listText, lockMap, lruOrder, lruReducer, LRU_LOCK, type LruState } from './model';
import { formatSetup, LIMITS, parseSetup, runOptions } from './setup';
import { RUN_PARAMS } from '../../engine/generated/params';

function run(args: string[]): EventLog {
  const dir = mkdtempSync(join(tmpdir(), 'lru-'));
  // A run that ends in a BUG exits non-zero; its dump is still whole.
  spawnSync('build/native/lru-batch/labrun', ['--scenario', 'lru-batch', ...args, '--dump', dir], {
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
  const events = readFileSync(join(dir, 'events.bin'));
  return new EventLog(events.buffer.slice(events.byteOffset, events.byteOffset + events.byteLength), meta);
}

/**
 * Folds the whole log, checking the list where the scenario's whole-list
 * check runs: once lru_lock_all() has taken lru_lock, the last of its
 * locks, no other CPU is half-way through changing the list.
 */
function replay(log: EventLog): { state: LruState; checks: number; hashes: number } {
  const s = lruReducer.init(log);
  const lruLock = lockMap(log).byIndex.get(LRU_LOCK);
  let checks = 0;
  let hashes = 0;
  for (let i = 0; i < log.length; i++) {
    lruReducer.apply(s, log, i);
    // The real list, as the scenario hashed it under every lock: the model must be the same list.
    const printed = log.kind[i] === EventKind.PRINTK && /^lru-batch: (\d+) pages on the list, order hash ([0-9a-f]{8})/.exec(log.name(log.arg(i, 0)));
    if (printed) {
      expect(s.lru.length, `event ${i}`).toBe(Number(printed[1]));
      expect(listHash(s).toString(16).padStart(8, '0'), `event ${i}: ${listText(s)}`).toBe(printed[2]);
      hashes++;
    }
    const checking = s.doing[log.task[i]] === 'lru_lock_all';
    if (checking && log.kind[i] === EventKind.LOCK_ACQUIRE && log.arg(i, 0) === lruLock) {
      expect(listProblem(s), `after event ${i}: ${listText(s)}`).toBeNull();
      expect(s.lru.length).toBe(s.added - s.removed);
      expect(lruOrder(s).length).toBe(s.lru.length);
      checks++;
    }
  }
  return { state: s, checks, hashes };
}

describe('lru-batch model', () => {
  it('rebuilds a list that keeps the rules, in every mode and policy', () => {
    for (const mode of ['0', '1', '2'])
      for (const policy of ['timed', 'rr', 'random'])
        for (const seed of ['1', '7']) {
          const log = run(['--tasks', '6', '--objects', '30', '--rounds', '2', '--lru-mode', mode, '--policy', policy, '--seed', seed]);
          expect(log.meta.status).toBe('done');
          const { state, checks, hashes } = replay(log);
          expect(checks).toBe(2 + 1); // the first task once a round, init at the end
          expect(hashes).toBe(checks);
          expect(state.added).toBe(6 * 30 * 2);
          expect(state.removed).toBe(state.added);
          expect(lruOrder(state)).toEqual([]);
          expect(state.lru.length).toBe(0);
          expect(Object.keys(state.holder)).toEqual([]);
        }
  });

  it('names lru_lock and the 32 batch locks', () => {
    const log = run(['--tasks', '2', '--objects', '14', '--rounds', '1', '--lru-mode', '1']);
    const m = lockMap(log);
    expect(m.byIndex.size).toBe(33);
    expect(m.byIndex.has(LRU_LOCK)).toBe(true);
  });

  it('counts spinning as the run’s statistics count contention', () => {
    const log = run(['--tasks', '16', '--objects', '28', '--rounds', '2', '--lru-mode', '1']);
    const heat = contention(log, 40);
    const contended = log.meta.stats.locks.reduce((n, l) => n + l.contended, 0);
    expect(contended).toBeGreaterThan(0);
    expect(heat.locks.length).toBeGreaterThan(0);
    for (const idx of heat.locks) {
      const sum = heat.spin.get(idx)!.reduce((a, b) => a + b, 0);
      expect(Math.abs(sum - heat.totalSpin.get(idx)!)).toBeLessThan(1e-6 * Math.max(1, sum));
      // Every slice with spinning leads to a contention on that lock, at or before the slice's end.
      const first = heat.firstStep.get(idx)!;
      heat.spin.get(idx)!.forEach((v, b) => {
        if (v <= 0) return;
        const i = first[b];
        expect(i, `slice ${b}`).toBeGreaterThanOrEqual(0);
        expect(log.kind[i]).toBe(EventKind.LOCK_CONTEND);
        expect(lockMap(log).index.get(log.arg(i, 0))).toBe(idx);
        expect(log.time[i]).toBeLessThanOrEqual(heat.t0 + ((b + 1) * (heat.t1 - heat.t0)) / heat.buckets);
      });
    }
  });

  it('stands on the VM_BUG_ON when release_pages() gets 537 pages, and not with the fix', () => {
    const bug = run(['--tasks', '1', '--objects', '537', '--rounds', '1', '--lru-mode', '1', '--lru-release-all']);
    const s = replay(bug).state;
    expect(s.bug?.text).toBe('nr > 512');
    const fixed = run(['--tasks', '1', '--objects', '537', '--rounds', '1', '--lru-mode', '1', '--lru-release-all', '--lru-fixed']);
    expect(fixed.meta.status).toBe('done');
    expect(replay(fixed).state.bug).toBeNull();
  });
});

describe('lru-batch setup', () => {
  it('reads what it writes, and the default is empty', () => {
    expect(formatSetup(parseSetup(''))).toBe('');
    for (const t of ['splice,t64,p128,r3', 'batch,t1,p537,r1,all', 'batch,t1,p537,r1,all,fix', 'lock,t4,p14,r1,f800,u50'])
      expect(formatSetup(parseSetup(t))).toBe(t);
    expect(runOptions(parseSetup('splice,t3,p9,r2,all,f10,u20'))).toEqual({
      tasks: 3, objects: 9, rounds: 2, lruMode: 2, lruReleaseAll: true, lruFixed: false, slowNs: 10, munmapNs: 20,
    });
  });

  it('says what is wrong', () => {
    expect(() => parseSetup('t0')).toThrow(/tasks must be 1 to 64/);
    expect(() => parseSetup('t65')).toThrow(/tasks/);
    expect(() => parseSetup('batch,x3')).toThrow(/"x3" is not a setting/);
    expect(() => parseSetup('p20000')).toThrow(/pages per task/);
  });

  it("offers each number up to its run parameter's limit (params.def), and no further", () => {
    const params = { t: 'tasks', p: 'objects', r: 'rounds', f: 'slowNs', u: 'munmapNs' } as const;
    for (const [k, key] of Object.entries(params) as [keyof typeof LIMITS, (typeof params)[keyof typeof params]][]) {
      const max = RUN_PARAMS.find((r) => r.key === key)!.max;
      expect(LIMITS[k].max, key).toBe(max);
      expect(runOptions(parseSetup(`${k}${max}`))[key], key).toBe(max);
      expect(() => parseSetup(`${k}${max + 1}`), key).toThrow(`${LIMITS[k].name} must be ${LIMITS[k].min} to ${max}, not ${max + 1}`);
    }
  });
});
