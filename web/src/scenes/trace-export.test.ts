// SPDX-License-Identifier: GPL-2.0-only
// Every registered scene's default run on each of its kernels, exported for
// Perfetto (engine/perfetto.ts) and checked: valid trace-event JSON, and the
// tracks, flows, async slices, counters and reports its own log calls for.
import { describe, expect, it } from 'vitest';
import { PAGE_MAX_EVENTS, type RunOptions } from '../engine/client';
import { EventKind, Policy } from '../engine/generated/events';
import { EventLog } from '../engine/log';
import { traceJson } from '../engine/perfetto';
import { runNative } from '../engine/testing/fixtures';
import { checkTrace } from '../engine/testing/traceFormat';
import { SCENES } from './registry';

/** The run the page makes for a scene on a kernel with nothing chosen (seed 1), natively. */
function defaultRun(scene: (typeof SCENES)[number], variant: string, policy = Policy.timed, seed = 1): EventLog {
  const opts: RunOptions = { variant, policy, slowNs: scene.slowNs?.(variant) ?? 0, maxEvents: PAGE_MAX_EVENTS, ...scene.program?.options?.('') };
  return runNative(scene.scenario, seed, opts);
}

const seen = { timeBack: 0, rcuFlows: 0, wakeFlows: 0, gps: 0, srcu: 0, locks: 0, refcount: 0, deferred: 0, listLru: 0, reports: 0 };

describe.each(SCENES.flatMap((s) => s.variants.map((v) => [s.id, v, s] as const)))('%s on %s', (_id, variant, scene) => {
  it('exports a valid trace with what its log holds', () => {
    const log = defaultRun(scene, variant);
    const n = (k: EventKind) => Array.from(log.kind).filter((x) => x === k).length;
    const t = checkTrace(JSON.parse(traceJson(log)));
    expect(t.problems.slice(0, 10)).toEqual([]);

    for (let c = 0; c < log.meta.cpus; c++) expect(t.threads.get(`1:${c + 1}`)).toBe(`CPU${c}`);
    // Each task that ran has slices on a CPU's track.
    const ran = new Set(Array.from(log.task).filter((x) => x >= 0));
    const sliceNames = new Set(t.slices.filter((s) => s.cat === 'task').map((s) => s.name));
    for (const task of ran) expect(sliceNames).toContain(log.taskName(task));

    const rcuFlows = t.flows.filter((f) => f.cat === 'rcu').length;
    expect(rcuFlows).toBe(n(EventKind.RCU_CALLBACK));
    const wakeFlows = t.flows.filter((f) => f.cat === 'sched').length;
    if (n(EventKind.TASK_WAKE)) expect(wakeFlows).toBeGreaterThan(0);
    expect(t.asyncSlices.filter((s) => s.cat === 'rcu').length).toBe(n(EventKind.RCU_GP_START));
    expect(t.asyncSlices.filter((s) => s.cat === 'srcu').length).toBe(n(EventKind.SRCU_GP_START));
    expect(t.slices.filter((s) => s.pid === 4 && /held by/.test(s.name)).length).toBe(n(EventKind.LOCK_ACQUIRE));
    const series = [...t.counters.keys()];
    const points = (suffix: string) => series.filter((s) => s.endsWith(suffix)).reduce((k, s) => k + t.counters.get(s)!.length, 0);
    expect(points(' refcount')).toBe(n(EventKind.REFCOUNT));
    expect(points(' nr_deferred')).toBe(n(EventKind.SHRINK_END));
    expect(series.filter((s) => s.startsWith('list_lru of ')).reduce((k, s) => k + t.counters.get(s)!.length, 0)).toBe(n(EventKind.SHRINKER_COUNT));
    // Every report is an instant event carrying its text, at its event's time.
    const reports = t.instants.filter((x) => x.cat === 'report');
    expect(reports.length).toBe(log.meta.reports.length);
    log.meta.reports.forEach((r, k) => {
      expect(reports[k].name).toBe(r.title);
      expect(reports[k].args.text).toBe(r.text);
      expect(reports[k].ts).toBe(Math.round(log.time[r.event]) / 1000);
    });

    seen.rcuFlows += rcuFlows;
    seen.wakeFlows += wakeFlows;
    seen.gps += n(EventKind.RCU_GP_START);
    seen.srcu += n(EventKind.SRCU_GP_START);
    seen.locks += n(EventKind.LOCK_ACQUIRE);
    seen.refcount += n(EventKind.REFCOUNT);
    seen.deferred += n(EventKind.SHRINK_END);
    seen.listLru += n(EventKind.SHRINKER_COUNT);
    seen.reports += reports.length;
  });
});

// The random policy runs CPUs out of their clocks' order: the log's times go back and forth.
describe.each(SCENES.map((s) => [s.id, s] as const))('%s under the random policy', (_id, scene) => {
  it('exports a valid trace all the same', () => {
    const log = defaultRun(scene, scene.variants[0], Policy.random, 3);
    const t = checkTrace(JSON.parse(traceJson(log)));
    expect(t.problems.slice(0, 10)).toEqual([]);
    let back = 0;
    for (let i = 1; i < log.length; i++) if (log.time[i] < log.time[i - 1]) back++;
    seen.timeBack += back;
  });
});

describe('over every scene', () => {
  it('each kind of track, flow and counter was checked somewhere', () => {
    for (const [what, k] of Object.entries(seen)) expect(k, what).toBeGreaterThan(0);
  });
});
