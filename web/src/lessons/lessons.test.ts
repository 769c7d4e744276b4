// SPDX-License-Identifier: GPL-2.0-only
// Every lesson: its start is a real scene state, its patch names real lines
// of the kernel tree and a series of the manifest, and replaying its
// solution (the native CLI, the scene's own parameters) meets every goal.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../engine/log';
import type { RunMeta } from '../engine/meta';
import { runParamArgs } from '../engine/generated/params';
import { findScene, SCENES } from '../scenes/registry';
import { LESSONS, metGoals, type Lesson, type LessonStart } from './lessons';

const manifest = JSON.parse(readFileSync('kernel-tree/manifest.json', 'utf8')) as { series: { id: string }[] };

function run(lesson: Lesson, s: LessonStart): EventLog {
  const scene = findScene(lesson.scene)!;
  const dir = mkdtempSync(join(tmpdir(), `lesson-${lesson.id}-`));
  try {
    const args = ['--scenario', scene.scenario, '--seed', String(s.seed), '--policy', s.policy, '--dump', dir];
    if (s.sched) args.push('--schedule', s.sched);
    const slow = scene.slowNs?.(s.variant) ?? 0;
    if (slow) args.push('--slow-ns', String(slow));
    const bytes = s.prog ? scene.program!.toBytes(s.prog) : [];
    if (bytes.length) args.push('--program', bytes.join(','));
    if (scene.program?.options) args.push(...runParamArgs(scene.program.options(s.prog)));
    // Exit 1 is a run that did not end cleanly (a KASAN panic, say): lessons may want that.
    const r = spawnSync(`build/native/${s.variant}/labrun`, args, { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8' });
    if (r.status !== 0 && r.status !== 1) throw new Error(`labrun ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    const b = readFileSync(join(dir, 'events.bin'));
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
    return new EventLog(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, meta);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('lessons', () => {
  it('exist, one per registered scene at least, with unique ids', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    // Scenes whose lesson is still to be written: named here so that a new
    // scene without one fails, and taken off when its lesson arrives.
    const waiting = new Set(['inode-lru']);
    for (const scene of SCENES) {
      const has = LESSONS.some((l) => l.scene === scene.id);
      expect(has, `scene ${scene.id}: ${waiting.has(scene.id) ? 'has a lesson now: take it off the waiting list' : 'has no lesson'}`).toBe(!waiting.has(scene.id));
    }
  });

  for (const lesson of LESSONS) {
    describe(lesson.id, () => {
      it('starts in a real scene state and ends at real lines of a manifest series', () => {
        const scene = findScene(lesson.scene);
        expect(scene, `scene ${lesson.scene}`).not.toBeNull();
        for (const s of [lesson.start, lesson.solution]) {
          expect(scene!.variants).toContain(s.variant);
          if (s.prog) expect(() => scene!.program!.toBytes(s.prog)).not.toThrow();
        }
        expect(lesson.goals.length).toBeGreaterThan(0);
        expect(lesson.hints.length).toBeGreaterThan(0);
        if (lesson.patch.series) expect(manifest.series.map((x) => x.id)).toContain(lesson.patch.series);
        const text = execFileSync('git', ['-C', 'kernel-tree/linux', 'show', `${lesson.patch.branch}:${lesson.patch.file}`], {
          encoding: 'utf8', maxBuffer: 1 << 26,
        }).split('\n');
        const [first, last] = lesson.patch.lines;
        expect(first).toBeGreaterThan(0);
        expect(last).toBeGreaterThanOrEqual(first);
        expect(last).toBeLessThanOrEqual(text.length);
      });

      it('is solved by its solution, and not already at its start', () => {
        const log = run(lesson, lesson.solution);
        const met = metGoals(lesson, log, lesson.solution.variant, log.length - 1);
        expect(Object.keys(met).sort()).toEqual(lesson.goals.map((g) => g.id).sort());
        // The learner has something to do: at the start step nothing is met yet.
        const start = run(lesson, lesson.start);
        expect(metGoals(lesson, start, lesson.start.variant, lesson.start.step ?? 0)).toEqual({});
      });
    });
  }
});
