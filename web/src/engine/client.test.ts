// SPDX-License-Identifier: GPL-2.0-only
// The page's first run is started before React mounts (app/start.tsx): the run
// asked for later with the same arguments is that one, not a second run in
// the worker; a run asked for with other arguments is its own, and the
// early one is not handed out after it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MsgType, type Request } from './protocol';

/** A stand-in for the simulation worker: it keeps what it is asked, and answers when the test says. */
class FakeWorker {
  static last: FakeWorker | null = null;
  asked: Request[] = [];
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(req: Request) {
    this.asked.push(req);
  }
  /** Fails request `id` with a message naming its seed, so the test can tell the runs apart. */
  answer(id: number) {
    const req = this.asked.find((r) => r.id === id) as Extract<Request, { type: MsgType.Run }>;
    this.onmessage?.({ data: { type: MsgType.Error, id, message: `seed ${req.seed}` } } as MessageEvent);
  }
  terminate() {}
}

async function client() {
  vi.stubGlobal('Worker', FakeWorker);
  const { SimClient } = await import('./client');
  const c = new SimClient();
  return { c, w: FakeWorker.last! };
}

afterEach(() => vi.unstubAllGlobals());

describe('SimClient.start', () => {
  it('the run asked for with the same arguments is the one started', async () => {
    const { c, w } = await client();
    c.start('lru-batch', 1, { variant: 'lru-batch', tasks: 64 });
    const run = c.run('lru-batch', 1, { variant: 'lru-batch', tasks: 64 });
    expect(w.asked).toHaveLength(1);
    w.answer(w.asked[0].id);
    await expect(run).rejects.toThrow('seed 1');
  });

  it('other arguments make their own run, and the early one is not handed out after it', async () => {
    const { c, w } = await client();
    c.start('lru-batch', 1, { variant: 'lru-batch', tasks: 64 });
    const other = c.run('lru-batch', 2, { variant: 'lru-batch', tasks: 64 });
    const again = c.run('lru-batch', 1, { variant: 'lru-batch', tasks: 64 });
    expect(w.asked.map((r) => (r as Extract<Request, { type: MsgType.Run }>).seed)).toEqual([1, 2, 1]);
    w.asked.forEach((r) => w.answer(r.id));
    await expect(other).rejects.toThrow('seed 2');
    await expect(again).rejects.toThrow('seed 1');
  });

  it('an early run that fails fails the run that takes it, and nothing before', async () => {
    const { c, w } = await client();
    c.start('shrinker-lifetime', 3, { schedule: '9' });
    w.answer(w.asked[0].id); // fails before anyone asked: no unhandled rejection
    await new Promise((r) => setTimeout(r));
    await expect(c.run('shrinker-lifetime', 3, { schedule: '9' })).rejects.toThrow('seed 3');
    expect(w.asked).toHaveLength(1);
  });
});
