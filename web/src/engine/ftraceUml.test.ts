// SPDX-License-Identifier: GPL-2.0-only
// The vmscan trace parser on traces the real kernel made: the tracefs
// "trace" files User-Mode Linux printed for the KUnit cases of v6.12
// (wasm/tests/fixtures/uml-v6.12-ftrace-*.txt, written by make kunit; see
// the README there), parsed with no malformed line; and the simulation's
// own trace of the same scenarios (labrun --ftrace, the wasm build), whose
// shrink_slab events of the scenario's shrinkers must read as the
// kernel's, field by field.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFtrace, type ShrinkSlabEnd, type ShrinkSlabStart, type VmscanEvent } from './ftrace';

const DIR = join('wasm', 'tests', 'fixtures');
const LABRUN = join('build', 'wasm', 'v6.12', 'labrun.cjs');
const fixtures = readdirSync(DIR)
  .map((f) => /^uml-v6\.12-ftrace-(kunit-[a-z-]+)\.txt$/.exec(f))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ scenario: m[1], text: readFileSync(join(DIR, m[0]), 'utf8') }));

type Shrink = ShrinkSlabStart | ShrinkSlabEnd;
const isShrink = (e: VmscanEvent): e is Shrink => e.event === 'mm_shrink_slab_start' || e.event === 'mm_shrink_slab_end';

/** The fields both machines print alike: not the task, time, address or the symbol's size. */
function comparable(e: Shrink) {
  const { line, comm, pid, cpu, ts, shr, shrink, ...fields } = e;
  void line, comm, pid, cpu, ts, shr;
  return { func: shrink.func, offset: shrink.offset, ...fields };
}

function simulated(scenario: string) {
  if (!existsSync(LABRUN)) throw new Error(`${LABRUN} is missing: make builds it`);
  return execFileSync('node', ['--no-experimental-fetch', LABRUN, '--scenario', scenario, '--ftrace'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
}

describe('traces made by User-Mode Linux (v6.12, tracefs)', () => {
  it('has the fixtures', () => {
    expect(fixtures.map((f) => f.scenario).sort()).toEqual(['kunit-deferred', 'kunit-lifetime', 'kunit-offline', 'kunit-reuse', 'kunit-runaway']);
  });

  for (const { scenario, text } of fixtures) {
    it(`${scenario}: every line parses, every event is read`, () => {
      const t = parseFtrace(text);
      expect(t.malformed).toEqual([]);
      expect(t.unknown).toEqual({});
      expect(t.tools).toEqual(['ftrace']);
      expect(t.clock).toBe('seconds');
      expect(t.lost).toBe(0);
      const eventLines = text.split('\n').filter((l) => /: mm_shrink_slab_(start|end): /.test(l));
      expect(t.events.length).toBe(eventLines.length);
      // the header's count is the kernel's own
      const header = /entries-in-buffer\/entries-written: (\d+)\/(\d+)/.exec(text);
      expect(Number(header?.[1])).toBe(t.events.length);
      // each start is followed by its end, for the same shrinker
      const ev = t.events.filter(isShrink);
      for (let i = 0; i < ev.length; i += 2) {
        expect(ev[i].event, `line ${ev[i].line}`).toBe('mm_shrink_slab_start');
        expect(ev[i + 1].event, `line ${ev[i + 1].line}`).toBe('mm_shrink_slab_end');
        expect(ev[i + 1].shr).toBe(ev[i].shr);
      }
      for (const e of ev) {
        expect(e.shrink.offset).toBe(0);
        expect(e.shrink.size).toBeGreaterThan(0);
        expect(e.shrink.module).toBeNull();
        expect(e.nid).toBe(0);
        expect(e.comm).toBe('kunit_try_catch');
      }
      expect(ev.some((e) => e.shrink.func === 'rl_scan')).toBe(true);
    });

    it(`${scenario}: the simulation's trace reads as the kernel's`, () => {
      const sim = parseFtrace(simulated(scenario));
      expect(sim.malformed).toEqual([]);
      const ours = (events: VmscanEvent[]) => events.filter(isShrink).filter((e) => e.shrink.func === 'rl_scan').map(comparable);
      const uml = ours(parseFtrace(text).events);
      expect(uml.length).toBeGreaterThan(0);
      expect(ours(sim.events)).toEqual(uml);
    });
  }

  it('kunit-deferred: the deferred count one pass leaves is what the next one takes', () => {
    const t = parseFtrace(fixtures.find((f) => f.scenario === 'kunit-deferred')!.text);
    const ev = t.events.filter(isShrink).filter((e) => e.shrink.func === 'rl_scan');
    // the global shrinker: the first of ours; nr_deferred is one count for it
    const global = ev.filter((e) => e.shr === ev[0].shr);
    let deferred = 0;
    for (const e of global) {
      if (e.event === 'mm_shrink_slab_start') {
        expect(e.nrObjectsToShrink, `line ${e.line}`).toBe(deferred);
      } else {
        deferred = e.newScan;
      }
    }
    expect(global.length).toBeGreaterThanOrEqual(20);
    expect(Math.max(...global.filter((e): e is ShrinkSlabEnd => e.event === 'mm_shrink_slab_end').map((e) => e.newScan))).toBeGreaterThan(100);
  });
});
