// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import type { RunMeta } from './meta';
import { ending, REPORT_HUNG_TASK, REPORT_LOCKDEP } from './ending';
import { labrunCommand, PAGE_MAX_EVENTS } from './client';
import { Policy } from './generated/events';
import { wordSizeFor } from './wordsize';

/** The meta of a real native run. */
function meta(variant: string, args: string[]): RunMeta {
  const r = spawnSync(`build/native/${variant}/labrun`, [...args, '--meta'], { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(r.stdout) as RunMeta;
}

describe('how a run ended', () => {
  it('done', () => {
    const m = meta('v6.12', ['--scenario', 'shrinker-lifetime', '--seed', '1']);
    expect(ending(m, '').label).toBe('done');
  });

  it('a BUG stops the machine, and is not called the deadlock that follows', () => {
    // No scene of the lab's kernels hits a BUG today (the RFC's, past release_pages()'s bitmap, cannot happen
    // on 6.12's folio batches): a real deadlocked run, with the BUG report a stopped CPU would have left first.
    const m = meta('v6.12', ['--scenario', 'planted-bugs', '--planted', '1']);
    expect(m.status).toBe('deadlock');
    expect(ending(m, '').label).not.toMatch(/BUG/);
    const bug = { ...m.reports[0], type: 2, event: 7, title: 'kernel BUG at mm/swap.c:1000 folios_put_refs()' };
    const e = ending({ ...m, reports: [bug, ...m.reports] }, '');
    expect(e.label).toBe('BUG (machine stopped)');
    expect(e.detail).toMatch(/^kernel BUG at mm\/swap\.c:1000 .*the other tasks can no longer finish/);
    expect(e.event).toBe(7);
  });

  it('KASAN with kasan.fault=panic', () => {
    const m = meta('break-no-wait', ['--scenario', 'shrinker-lifetime', '--seed', '1', '--slow-ns', '3000']);
    expect(m.status).toBe('panic');
    const e = ending(m, '');
    expect(e.label).toBe('KASAN panic');
    expect(e.detail).toMatch(/use-after-free/);
  });

  it('the event limit: what was cut, not a leak, and the command for the whole run', () => {
    const opts = { variant: 'lru-batch', tasks: 64, objects: 512, rounds: 4, policy: Policy.timed, schedule: '' };
    // The page cuts at PAGE_MAX_EVENTS; a lower limit cuts the same way, quicker.
    const m = meta('lru-batch', ['--scenario', 'lru-batch', '--tasks', '64', '--objects', '512', '--rounds', '4', '--max-events', '5000']);
    expect(m.status).toBe('event-limit');
    const cmd = `${labrunCommand('lru-batch', 1, opts)} --max-events 0 --summary`;
    // At the word size the page runs the variant at: build/native64 on the default 64-bit machine.
    const dir = wordSizeFor('lru-batch') === 64 ? 'native64' : 'native';
    expect(cmd).toBe(`build/${dir}/lru-batch/labrun --scenario lru-batch --seed 1 --rounds 4 --objects 512 --tasks 64 --max-events 0 --summary`);
    const e = ending(m, cmd);
    expect(e.label).toBe('event limit reached');
    expect(e.detail).toContain('keeps 5000 events');
    expect(PAGE_MAX_EVENTS).toBeGreaterThan(5000);
    expect(e.detail).toContain('not leaked');
    expect(e.detail).toContain(cmd);
    expect(e.event).toBeNull();
    // A hung task before the cut (64 tasks keep init waiting past the timeout): still the event limit, the report named after.
    const hung = { type: REPORT_HUNG_TASK, event: 42, title: 'Task init:64 blocked for more than 1000000 ns', text: '' };
    const h = ending({ ...m, reports: [hung] }, cmd);
    expect(h.kind).toBe('event-limit');
    expect(h.label).toBe('event limit reached');
    expect(h.detail).toContain('at event 42: Task init:64 blocked');
    expect(h.event).toBe(42);
  });

  it('a deadlock, after the lockdep report that predicted it (planted-bugs --planted 1)', () => {
    const m = meta('v6.12', ['--scenario', 'planted-bugs', '--planted', '1']);
    expect(m.status).toBe('deadlock');
    const e = ending(m, '');
    expect(e.label).toBe('deadlock');
    expect(e.detail).toContain('nothing left can release');
    expect(e.detail).toContain('lockdep reported the inversion');
    expect(e.event).toBe(m.reports.find((r) => r.type === REPORT_LOCKDEP)!.event);
  });

  it('a hung task that went on later (planted-bugs --planted 2)', () => {
    const m = meta('v6.12', ['--scenario', 'planted-bugs', '--planted', '2']);
    expect(m.status).toBe('done');
    const e = ending(m, '');
    expect(e.label).toBe('hung task');
    expect(e.detail).toMatch(/^task reader:\d+ blocked for more than/);
    expect(e.detail).toContain('the run finished');
    expect(e.event).toBe(m.reports[0].event);
  });

  it('stuck, as the runtime reports it', () => {
    // No scene's run ends this way within the page's limits: the meta as wasm/runtime writes it.
    const base = meta('v6.12', ['--scenario', 'shrinker-lifetime', '--seed', '1']);
    expect(ending({ ...base, status: 'stuck' }, '').label).toMatch(/^stuck/);
  });
});
