// SPDX-License-Identifier: GPL-2.0-only
// Lesson progress: goals reached add up, a lesson is done when a run of the
// learner's meets every goal, and nothing counts while the solution is shown.
import { beforeEach, describe, expect, it } from 'vitest';
import { loadProgress, recordGoals, solutionShown, startedOver } from './progress';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
});

describe('lesson progress', () => {
  it('adds up the goals reached and marks the lesson done when one run meets them all', () => {
    recordGoals('l', ['a'], false);
    expect(loadProgress().l).toEqual({ met: ['a'] });
    recordGoals('l', ['b'], false);
    expect(loadProgress().l.met).toEqual(['a', 'b']);
    expect(loadProgress().l.done).toBeUndefined();
    recordGoals('l', ['a', 'b'], true);
    expect(loadProgress().l.done).toMatch(/^\d{4}-/);
  });
  it('counts nothing while the solution is shown, and again after Start over', () => {
    solutionShown('l');
    recordGoals('l', ['a', 'b'], true);
    expect(loadProgress().l.done).toBeUndefined();
    expect(loadProgress().l.met).toBeUndefined();
    startedOver('l');
    expect(loadProgress().l.solution).toBeUndefined();
    recordGoals('l', ['a', 'b'], true);
    expect(loadProgress().l.done).toBeDefined();
  });
  it('reads what earlier versions stored (done only)', () => {
    store.set('reclaim-lab.lessons.v1', JSON.stringify({ old: { done: '2026-01-01T00:00:00Z' } }));
    expect(loadProgress().old.done).toBe('2026-01-01T00:00:00Z');
    recordGoals('old', ['x'], false);
    expect(loadProgress().old).toEqual({ done: '2026-01-01T00:00:00Z', met: ['x'] });
  });
});
