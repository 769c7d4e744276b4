// SPDX-License-Identifier: GPL-2.0-only
// The pool of simulation workers: never more runs at once than workers,
// every run answered with its own outcome whatever order they end in, a
// failed run leaves its worker free, and dispose() terminates every worker
// and fails the runs still queued.
import { describe, expect, it, vi } from 'vitest';
import type { RunOutcome, SimClient } from './client';
import { SimPool, poolSize } from './pool';

/** A stand-in worker: each run ends when the test says, with the seed it was given. */
class FakeWorker {
  static running = 0;
  static most = 0;
  disposed = false;
  prepared: string[] = [];
  waiting: { seed: number; variant?: string; done: () => void; fail: (e: Error) => void }[] = [];
  prepare(variant: string): Promise<void> {
    this.prepared.push(variant);
    return Promise.resolve();
  }
  run(_scenario: string, seed: number, opts: { variant?: string } = {}): Promise<RunOutcome> {
    FakeWorker.running++;
    FakeWorker.most = Math.max(FakeWorker.most, FakeWorker.running);
    return new Promise((resolve, reject) => {
      const end = () => FakeWorker.running--;
      this.waiting.push({
        seed,
        variant: opts.variant,
        done: () => (end(), resolve({ wallMs: seed } as unknown as RunOutcome)),
        fail: (e) => (end(), reject(e)),
      });
    });
  }
  dispose() {
    this.disposed = true;
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('SimPool', () => {
  it('runs at most its size at once, and answers each run with its own outcome', async () => {
    FakeWorker.running = FakeWorker.most = 0;
    const workers: FakeWorker[] = [];
    const pool = new SimPool(3, () => (workers.push(new FakeWorker()), workers.at(-1) as unknown as SimClient));
    const runs = [1, 2, 3, 4, 5, 6, 7].map((seed) => pool.run('x', seed));
    await tick();
    expect(pool.workers).toBe(3);
    expect(FakeWorker.running).toBe(3);
    // End the runs in an order of their own: the last started first.
    while (workers.some((w) => w.waiting.length)) {
      const w = workers.filter((x) => x.waiting.length).at(-1)!;
      w.waiting.shift()!.done();
      await tick();
    }
    expect((await Promise.all(runs)).map((r) => r.wallMs)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(FakeWorker.most).toBe(3);
    expect(workers.length).toBe(3);
  });

  it('frees the worker of a failed run, and dispose() terminates every worker and fails what is queued', async () => {
    const workers: FakeWorker[] = [];
    const pool = new SimPool(2, () => (workers.push(new FakeWorker()), workers.at(-1) as unknown as SimClient));
    const a = pool.run('x', 1);
    const b = pool.run('x', 2);
    const c = pool.run('x', 3);
    await tick();
    workers[0].waiting.shift()!.fail(new Error('ended livelock'));
    await expect(a).rejects.toThrow('ended livelock');
    await tick();
    expect(workers[0].waiting.map((w) => w.seed)).toEqual([3]); // the freed worker took the queued run
    const d = pool.run('x', 4);
    pool.dispose();
    expect(workers.every((w) => w.disposed)).toBe(true);
    await expect(d).rejects.toThrow('cancelled');
    await expect(pool.run('x', 5)).rejects.toThrow('cancelled');
    void b;
    void c;
  });

  it('warms a worker per kernel ahead of the runs, and gives each run the worker that has its kernel', async () => {
    const workers: FakeWorker[] = [];
    const pool = new SimPool(2, () => (workers.push(new FakeWorker()), workers.at(-1) as unknown as SimClient));
    await pool.warm(['v6.12', 'no-shrinker-bitmap', 'v6.1']); // two workers: the pool's size
    expect(workers.map((w) => w.prepared)).toEqual([['v6.12'], ['no-shrinker-bitmap']]);
    // Each run goes to the worker that compiled its module (the last free one would be the other).
    const b = pool.run('x', 2, { variant: 'v6.12' });
    const a = pool.run('x', 1, { variant: 'no-shrinker-bitmap' });
    await tick();
    expect(workers.map((w) => w.waiting.map((r) => r.variant))).toEqual([['v6.12'], ['no-shrinker-bitmap']]);
    expect(pool.workers).toBe(2);
    // A kernel no worker has takes any free one.
    workers[0].waiting.shift()!.done();
    await b;
    const c = pool.run('x', 3, { variant: 'v6.1' });
    await tick();
    expect(workers[0].waiting.map((r) => r.variant)).toEqual(['v6.1']);
    pool.dispose();
    void a;
    void c;
  });

  it('takes one worker per core the browser reports, within the cap', () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 12 });
    expect(poolSize(64)).toBe(12);
    expect(poolSize(8)).toBe(8);
    vi.stubGlobal('navigator', { hardwareConcurrency: 0 }); // not reported
    expect(poolSize(8)).toBe(1);
    vi.unstubAllGlobals();
  });
});
