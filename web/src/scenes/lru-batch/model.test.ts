// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch model over real runs (the native build, as the lessons
// test runs it): on v6.12, the list rebuilt from the kernel's own list
// operations must be the list the scenario hashes under lru_lock, and
// every change to it made under that lock; on the model of the port, the
// list must keep the locking scheme's rules wherever its own check passed.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../../engine/log';
import { EventKind } from '../../engine/generated/events';
import type { RunMeta } from '../../engine/meta';
import { contention, listHash, listProblem, listText, lockMap, lruOrder, lruReducer, lruShape, LRU_LOCK, type LruState } from './model';
import { formatSetup, LIMITS, parseSetup, runOptions } from './setup';
import { RUN_PARAMS } from '../../engine/generated/params';

function run(variant: string, args: string[]): EventLog {
  const dir = mkdtempSync(join(tmpdir(), 'lru-'));
  // A run that ends in a BUG exits non-zero; its dump is still whole.
  spawnSync(`build/native/${variant}/labrun`, ['--scenario', 'lru-batch', ...args, '--dump', dir], {
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
  const events = readFileSync(join(dir, 'events.bin'));
  return new EventLog(events.buffer.slice(events.byteOffset, events.byteOffset + events.byteLength), meta);
}

/**
 * Folds the whole log. Where the scenario prints its list's hash, the
 * model's list must be that list. On the model of the port, the list is
 * checked where its whole-list check runs: once lru_lock_all() has taken
 * lru_lock, the last of its locks, no other CPU is half-way through
 * changing the list. Returns how many changes to the list were made
 * without lru_lock held by the task making them.
 */
function replay(log: EventLog): { state: LruState; checks: number; hashes: number; unlocked: number } {
  const s = lruReducer.init(log);
  const lruLock = lockMap(log).byIndex.get(LRU_LOCK);
  const shown = lruShape(log).list;
  let checks = 0;
  let hashes = 0;
  let unlocked = 0;
  const walked = new Map<number, { length: number; hash: string; text: string }>(); // task -> the list as its check walked it
  for (let i = 0; i < log.length; i++) {
    const k = log.kind[i];
    if ((k === EventKind.LRU_ADD && log.arg(i, 2) === shown) || (k === EventKind.LRU_DEL && log.arg(i, 1) === shown))
      if (s.holder[LRU_LOCK] !== log.task[i]) unlocked++;
    lruReducer.apply(s, log, i);
    // Where the check takes lru_lock, its last lock, the list is still until it lets go: the model's list then
    // must be the list it walks, and prints after it lets go.
    const checking = s.doing[log.task[i]] === 'check_list';
    if (checking && k === EventKind.LOCK_ACQUIRE && log.arg(i, 0) === lruLock) {
      expect(listProblem(s), `after event ${i}: ${listText(s)}`).toBeNull();
      expect(s.lru.length).toBe(s.added - s.removed);
      expect(lruOrder(s).length).toBe(s.lru.length);
      walked.set(log.task[i], { length: s.lru.length, hash: listHash(s).toString(16).padStart(8, '0'), text: listText(s) });
      checks++;
    }
    // The real list, as the scenario hashed it under its locks: the model must be the same list.
    const printed = k === EventKind.PRINTK && /^lru-batch: (\d+) (?:pages|folios) on the list, order hash ([0-9a-f]{8})/.exec(log.name(log.arg(i, 0)));
    if (printed) {
      const w = walked.get(log.task[i]);
      expect(w, `event ${i}: a hash printed without the walk under lru_lock`).toBeDefined();
      expect(w!.length, `event ${i}`).toBe(Number(printed[1]));
      expect(w!.hash, `event ${i}: ${w!.text}`).toBe(printed[2]);
      walked.delete(log.task[i]);
      hashes++;
    }
  }
  return { state: s, checks, hashes, unlocked };
}

// Each case spawns native runs: minutes of CPU on a loaded machine are not a failure (vitest's 5 s would be).
const RUNS = { timeout: 120_000 };

describe('lru-batch model on v6.12', RUNS, () => {
  it('rebuilds the list the kernel keeps, changed only under lru_lock, on every policy', () => {
    for (const policy of ['timed', 'rr', 'random'])
      for (const seed of ['1', '7']) {
        const log = run('v6.12', ['--tasks', '6', '--objects', '30', '--rounds', '2', '--policy', policy, '--seed', seed]);
        expect(log.meta.status).toBe('done');
        expect(lruShape(log).batches).toBe(false);
        const { state, hashes, unlocked } = replay(log);
        expect(hashes).toBe(2 + 1); // the first task once a round, init at the end
        expect(unlocked).toBe(0);
        expect(state.added).toBe(6 * 30 * 2); // every folio faulted in goes on the list once
        expect(state.removed).toBe(state.added);
        expect(lruOrder(state)).toEqual([]);
        expect(Object.keys(state.holder)).toEqual([]);
        expect(listProblem(state)).toBeNull();
      }
  });

  it('names one lock, lru_lock, and counts spinning on it as the run’s statistics do', () => {
    const log = run('v6.12', ['--tasks', '16', '--objects', '40', '--rounds', '2']);
    expect([...lockMap(log).byIndex.keys()]).toEqual([LRU_LOCK]);
    const heat = contention(log, 40);
    const contended = log.meta.stats.locks.filter((l) => /lru_lock/.test(l.name)).reduce((n, l) => n + l.contended, 0);
    expect(contended).toBeGreaterThan(0);
    expect(heat.locks).toEqual([LRU_LOCK]);
    const s = replay(log).state;
    expect(s.collisions).toBeGreaterThan(0);
    expect(Object.values(s.collisionsBy).reduce((a, b) => a + b, 0)).toBe(s.collisions);
  });

  it('releases 537 folios at once without a bound to overrun', () => {
    const log = run('v6.12', ['--tasks', '1', '--objects', '537', '--rounds', '1', '--lru-release-all']);
    expect(log.meta.status).toBe('done');
    expect(replay(log).state.bug).toBeNull();
  });
});

for (const variant of ['lru-batch', 'lru-splice'])
  describe(`lru-batch model on the RFC's port (${variant})`, RUNS, () => {
    it('rebuilds the list the kernel keeps, batches and sentinels as its rules ask, on every policy', () => {
      for (const policy of ['timed', 'rr', 'random'])
        for (const seed of ['1', '7']) {
          const log = run(variant, ['--tasks', '6', '--objects', '30', '--rounds', '2', '--policy', policy, '--seed', seed]);
          expect(log.meta.status).toBe('done');
          expect(lruShape(log).batches).toBe(true);
          const { state, checks, hashes } = replay(log);
          expect(hashes).toBe(2 + 1); // the first task once a round, init at the end
          expect(checks).toBeGreaterThanOrEqual(hashes); // lru_lock_all() before each hash, and the list kept the rules there
          expect(state.added).toBe(6 * 30 * 2);
          expect(state.removed).toBe(state.added);
          expect(lruOrder(state)).toEqual([]);
          expect(state.lru.length).toBe(0);
          expect(Object.keys(state.holder)).toEqual([]);
        }
    });

    it('keeps the list with compaction’s migrate scanner isolating folios by pfn and putting them back', () => {
      for (const policy of ['timed', 'random'])
        for (const seed of ['1', '3']) {
          const log = run(variant, ['--tasks', '3', '--objects', '20', '--rounds', '2', '--lru-isolate', '--policy', policy, '--seed', seed]);
          expect(log.meta.status).toBe('done');
          expect(log.meta.stats.calls.find((c) => c.name === 'isolate_migratepages')?.returns).toBe(2);
          const { state, hashes } = replay(log);
          expect(hashes).toBe(2 + 1);
          expect(state.removed).toBe(state.added);
          expect(state.added).toBeGreaterThan(3 * 20 * 2); // the scanner's putbacks go on again
          expect(state.lru.length).toBe(0);
        }
    });

    it('names lru_lock and the 32 batch locks', () => {
      const log = run(variant, ['--tasks', '2', '--objects', '14', '--rounds', '1']);
      const m = lockMap(log);
      expect(m.byIndex.size).toBe(33);
      expect(m.byIndex.has(LRU_LOCK)).toBe(true);
    });

    it('counts spinning as the run’s statistics count contention', () => {
      const log = run(variant, ['--tasks', '16', '--objects', '28', '--rounds', '2']);
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

    it('releases 537 folios at once: folios_put_refs() takes PAGEVEC_SIZE at a time, the RFC’s bitmap cannot overrun', () => {
      const log = run(variant, ['--tasks', '1', '--objects', '537', '--rounds', '1', '--lru-release-all']);
      expect(log.meta.status).toBe('done');
      const s = replay(log).state;
      expect(s.bug).toBeNull();
      expect(s.removed).toBe(537);
    });
  });

describe('lru-batch setup', () => {
  it('reads what it writes, and the default is empty', () => {
    expect(formatSetup(parseSetup(''))).toBe('');
    for (const t of ['t64,p128,r3', 't1,p537,r1,all', 't4,p14,r1,f800,u50'])
      expect(formatSetup(parseSetup(t))).toBe(t);
    // the locking of old links is the kernel's now, and the model's fix gone: read, and dropped
    expect(formatSetup(parseSetup('batch,t2,p7,r1'))).toBe('t2,p7,r1');
    expect(formatSetup(parseSetup('t1,p537,r1,all,fix'))).toBe('t1,p537,r1,all');
    expect(runOptions(parseSetup('splice,t3,p9,r2,all,f10,u20'))).toEqual({
      tasks: 3, objects: 9, rounds: 2, lruReleaseAll: true, lruIsolate: false, slowNs: 10, munmapNs: 20,
    });
    expect(formatSetup(parseSetup('t1,p7,r1,iso'))).toBe('t1,p7,r1,iso');
    expect(runOptions(parseSetup('t1,p7,r1,iso')).lruIsolate).toBe(true);
  });

  it('says what is wrong', () => {
    expect(() => parseSetup('t0')).toThrow(/tasks must be 1 to 64/);
    expect(() => parseSetup('t65')).toThrow(/tasks/);
    expect(() => parseSetup('t2,x3')).toThrow(/"x3" is not a setting/);
    expect(() => parseSetup('p20000')).toThrow(/pages per task/);
    // the migrate scanner takes a CPU of its own, as the scenario refuses otherwise
    expect(() => parseSetup('t64,iso')).toThrow(/at most 63 tasks, not 64/);
    expect(formatSetup(parseSetup('t63,iso'))).toBe('t63,p28,r2,iso');
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
