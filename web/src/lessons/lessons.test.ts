// SPDX-License-Identifier: GPL-2.0-only
// Every lesson: its start is a real scene state, its patch names real lines
// of the kernel tree and a series of the manifest, and replaying its
// solution (the native CLI, the scene's own parameters) meets every goal.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventLog } from '../engine/log';
import { findScene, SCENES } from '../scenes/registry';
import { figureAtEnd, figureScene, goalStep, LESSON_OPENS, LESSONS, metGoals, type GoalCheck, type Lesson, type LessonStart } from './lessons';
import { replayNative } from './replay';

const manifest = JSON.parse(readFileSync('kernel-tree/manifest.json', 'utf8')) as { series: { id: string }[] };

const run = (lesson: Lesson, s: LessonStart): EventLog => replayNative(lesson.scene, s);

describe('lessons', () => {
  it('exist, one per registered scene at least, with unique ids', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    // Scenes whose lesson is still to be written: named here so that a new
    // scene without one fails, and taken off when its lesson arrives.
    const waiting = new Set<string>([]);
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
        for (const g of lesson.goals) if ('figure' in g.check) expect(figureScene(g.check.figure.name)?.id, `figure ${g.check.figure.name}`).toBe(lesson.scene);
        expect(lesson.hints.length).toBeGreaterThan(0);
        for (const o of lesson.opens ?? []) expect(LESSON_OPENS, `opens ${o}`).toContain(o);
        // A lesson that has the learner play the scheduler by hand opens the panel that does it.
        if ([...lesson.text, ...lesson.hints].some((t) => /next-decision|scheduler by hand/.test(t))) expect(lesson.opens ?? [], 'opens').toContain('scheduler');
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

describe('figure goals', () => {
  it('read the scene\'s figure at the run\'s last event only, within their bounds', () => {
    const log = replayNative('inode-lru', { variant: 'inode-before', seed: 1, policy: 'timed', sched: '', prog: '' });
    const share = figureAtEnd(log, 'slab-share');
    expect(share).toBeGreaterThan(1);
    const atLeast = (x: number): GoalCheck => ({ figure: { name: 'slab-share', atLeast: x } });
    expect(goalStep(log, atLeast(share - 0.5))).toBe(log.length - 1);
    expect(goalStep(log, atLeast(share - 0.5), log.length - 2)).toBe(-1);
    expect(goalStep(log, atLeast(share + 0.5))).toBe(-1);
    expect(goalStep(log, { figure: { name: 'slab-share', atMost: share - 0.5 } })).toBe(-1);
    expect(() => goalStep(log, { figure: { name: 'no-such-figure' } })).toThrow(/no scene has a figure/);
  });
});
