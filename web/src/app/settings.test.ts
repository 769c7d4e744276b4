// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { sameRun, settingsReducer, type Settings } from './settings';

const base: Settings = { variant: 'v6.12', seed: 1, policy: 'timed', sched: '0x3.1', prog: 'p', compare: 'before' };

describe('settingsReducer', () => {
  it('drops the hand schedule when seed, kernel, policy or program change', () => {
    expect(settingsReducer(base, { type: 'seed', seed: 2 }).sched).toBe('');
    expect(settingsReducer(base, { type: 'variant', variant: 'other' }).sched).toBe('');
    expect(settingsReducer(base, { type: 'policy', policy: 'rr' }).sched).toBe('');
    expect(settingsReducer(base, { type: 'program', prog: 'q' })).toEqual({ ...base, prog: 'q', sched: '' });
  });
  it('keeps everything when the same seed is asked for again', () => {
    expect(settingsReducer(base, { type: 'seed', seed: 1 })).toBe(base);
  });
  it('stops comparing a kernel with itself', () => {
    expect(settingsReducer(base, { type: 'variant', variant: 'before' }).compare).toBeNull();
    expect(settingsReducer(base, { type: 'variant', variant: 'other' }).compare).toBe('before');
  });
  it('a start replaces the run settings and ends the comparison', () => {
    const run = { variant: 'x', seed: 9, policy: 'random' as const, sched: '', prog: '' };
    const s = settingsReducer(base, { type: 'start', run });
    expect(s).toEqual({ ...run, compare: null });
    expect(sameRun(s, run)).toBe(true);
    expect(sameRun(s, base)).toBe(false);
  });
  it('another memory model drops the hand schedule (its choices were the old model\'s) and is another run', () => {
    const relaxed = settingsReducer(base, { type: 'memory', memory: 'relaxed' });
    expect(relaxed).toEqual({ ...base, memory: 'relaxed', sched: '' });
    expect(settingsReducer(base, { type: 'memory', memory: 'sc' })).toBe(base); // sc is the default
    expect(sameRun(relaxed, { ...base, sched: '' })).toBe(false);
    expect(sameRun({ ...base, memory: 'sc' }, base)).toBe(true);
  });
  it('a hand schedule keeps the rest', () => {
    expect(settingsReducer(base, { type: 'sched', sched: '1' })).toEqual({ ...base, sched: '1' });
  });
});
