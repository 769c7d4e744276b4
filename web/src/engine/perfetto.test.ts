// SPDX-License-Identifier: GPL-2.0-only
// The Perfetto export of a real run (shrinker-lifetime, seed 1, v6.12):
// valid trace-event JSON, and every track, flow and counter the log calls for.
// Every scene's runs are checked in scenes/trace-export.test.ts.
import { describe, expect, it } from 'vitest';
import { EventKind } from './generated/events';
import { buildTrace, toUs, traceJson } from './perfetto';
import { checkTrace } from './testing/traceFormat';
import { loadRun } from './testing/fixtures';

const log = loadRun('shrinker-lifetime', 1);
const count = (k: EventKind) => Array.from(log.kind).filter((x) => x === k).length;

describe('Perfetto export', () => {
  const text = traceJson(log, { title: 'shrinker-lifetime seed 1' });
  const t = checkTrace(JSON.parse(text));

  it('is valid by the format rules it relies on', () => {
    expect(t.problems).toEqual([]);
  });

  it('has a thread per simulated CPU, with tasks, calls and kernel functions as slices', () => {
    for (let c = 0; c < log.meta.cpus; c++) expect(t.threads.get(`1:${c + 1}`)).toBe(`CPU${c}`);
    const names = new Set(t.slices.filter((s) => s.pid === 1).map((s) => s.name));
    for (const task of ['kswapd0', 'mount']) expect(names).toContain(task);
    expect(names).toContain('shrink_slab()');
    expect(names).toContain('shrinker_free()');
    // Kernel functions of v6.12's mm/shrinker.c, nested in the calls.
    for (const fn of ['do_shrink_slab', 'shrinker_free']) {
      const s = t.slices.find((x) => x.name === fn && x.cat === 'kernel');
      expect(s, fn).toBeDefined();
      expect(s!.depth).toBeGreaterThanOrEqual(2);
    }
    // A slice lies within the run, in its clock.
    for (const s of t.slices) {
      expect(s.end).toBeGreaterThanOrEqual(s.ts);
      expect(s.end).toBeLessThanOrEqual(toUs(log.endTime));
    }
  });

  it('has a flow from each call_rcu() to its callback, and from wake-ups to the woken task', () => {
    const rcu = t.flows.filter((f) => f.cat === 'rcu');
    expect(rcu.length).toBe(count(EventKind.RCU_CALLBACK));
    expect(rcu.length).toBeGreaterThan(0);
    for (const f of rcu) expect(f.to.slice).toMatch(/\(\)$/); // the callback's slice
    const wakes = t.flows.filter((f) => f.cat === 'sched');
    expect(wakes.length).toBeGreaterThan(0);
    expect(wakes.length).toBeLessThanOrEqual(count(EventKind.TASK_WAKE));
    // shrinker_put() wakes the task sleeping in shrinker_free(): mount.
    expect(wakes.some((f) => f.from.slice === 'shrinker_put' && f.to.slice === 'mount')).toBe(true);
  });

  it('has grace periods as async slices', () => {
    const gps = t.asyncSlices.filter((s) => s.cat === 'rcu');
    expect(gps.length).toBe(count(EventKind.RCU_GP_START));
    for (const g of gps) expect(g.end).toBeGreaterThan(g.ts);
  });

  it('has lock holds on each lock\'s own track', () => {
    const lockThreads = [...t.threads].filter(([k]) => k.startsWith('4:'));
    expect(lockThreads.length).toBeGreaterThan(0);
    const holds = t.slices.filter((s) => s.pid === 4 && s.name.startsWith('held by'));
    expect(holds.length).toBe(count(EventKind.LOCK_ACQUIRE));
  });

  it('has counters for refcounts, nr_deferred and list_lru counts, with the log\'s values', () => {
    const series = [...t.counters.keys()];
    expect(series.some((s) => s.endsWith(' refcount'))).toBe(true);
    expect(series.some((s) => s.endsWith(' nr_deferred'))).toBe(true);
    expect(series.some((s) => s.startsWith('list_lru of '))).toBe(true);
    const refcounts = series.filter((s) => s.endsWith(' refcount')).reduce((n, s) => n + t.counters.get(s)!.length, 0);
    expect(refcounts).toBe(count(EventKind.REFCOUNT));
    const deferred = series.filter((s) => s.endsWith(' nr_deferred')).reduce((n, s) => n + t.counters.get(s)!.length, 0);
    expect(deferred).toBe(count(EventKind.SHRINK_END));
  });

  it('carries the title and says what clock it uses', () => {
    const f = buildTrace(log, { title: 'x' });
    expect(f.otherData.title).toBe('x');
    expect('displayTimeUnit' in f).toBe(false);
    // The events first: Perfetto's tokenizer stops at a top-level key it does not know.
    expect(traceJson(log).startsWith('{"traceEvents":[')).toBe(true);
    expect(String(f.otherData.clock)).toMatch(/virtual ns/);
  });
});

describe('the format checker fails what breaks the rules', () => {
  const good = buildTrace(log);
  const broken = (edit: (ev: ReturnType<typeof buildTrace>['traceEvents']) => void) => {
    const ev = structuredClone(good.traceEvents);
    edit(ev);
    return checkTrace({ traceEvents: ev }).problems;
  };
  it('a B without its E', () => {
    expect(broken((ev) => ev.splice(ev.findIndex((e) => e.ph === 'E'), 1))).not.toEqual([]);
  });
  it('time going back on a thread', () => {
    expect(broken((ev) => {
      const k = ev.map((e) => e.ph === 'B' && e.ts! > 1).lastIndexOf(true);
      ev[k].ts = 0;
    }).join('\n')).toMatch(/goes back/);
  });
  it('a flow that does not pair', () => {
    expect(broken((ev) => ev.splice(ev.findIndex((e) => e.ph === 'f'), 1)).join('\n')).toMatch(/never ends/);
  });
  it('a counter that is not a number', () => {
    expect(broken((ev) => {
      ev.find((e) => e.ph === 'C')!.args = { refcount: 'one' };
    }).join('\n')).toMatch(/not a number/);
  });
  it('a displayTimeUnit, which Perfetto takes for the unit of ts', () => {
    expect(checkTrace({ ...good, displayTimeUnit: 'ns' }).problems.join('\n')).toMatch(/displayTimeUnit/);
  });
  it('an async slice that never ends', () => {
    expect(broken((ev) => ev.splice(ev.findIndex((e) => e.ph === 'e'), 1)).join('\n')).toMatch(/never ends/);
  });
});
