// SPDX-License-Identifier: GPL-2.0-only
// The trace page's parameters (params.ts readImportUrl) and its permalink
// (url.ts formatImportUrl): a bundled trace by name, a file of the page's
// own site by URL, a lesson on a trace, the pass; every bad value a notice.
import { describe, expect, it } from 'vitest';
import { importStepNotice, isImportView, noticeText, readImportUrl } from './params';
import { TRACE_FIXTURES } from './traceFixtures';
import { formatImportUrl } from './url';
import { TRACE_LESSONS } from '../lessons/traceLessons';

const HERE = 'http://lab.example:4173/app/?import';
const read = (search: string) => readImportUrl(search, HERE);

describe('the trace page\'s URL', () => {
  it('bundles the traces User-Mode Linux made, by their file names', () => {
    const names = TRACE_FIXTURES.map((f) => f.name);
    expect(names).toContain('uml-v6.12-ftrace-kunit-deferred');
    expect(names).toContain('uml-v6.12-ftrace-kunit-runaway');
  });

  it('opens a bundled trace at a pass, and writes the same link back', () => {
    const { settings, notices } = read('?import=uml-v6.12-ftrace-kunit-deferred&step=7');
    expect(notices).toEqual([]);
    expect(settings.source).toMatchObject({ kind: 'fixture', name: 'uml-v6.12-ftrace-kunit-deferred' });
    expect(settings.step).toBe(7);
    expect(formatImportUrl({ lesson: null, source: 'uml-v6.12-ftrace-kunit-deferred', step: 7 })).toBe('?import=uml-v6.12-ftrace-kunit-deferred&step=7');
    expect(isImportView('?import=uml-v6.12-ftrace-kunit-deferred&step=7')).toBe(true);
    expect(isImportView('?import')).toBe(true);
    expect(isImportView('?scene=shrinker-lifetime')).toBe(false);
  });

  it('opens a file of its own site by URL, and refuses another site', () => {
    const ok = read('?import=/traces/mine.txt&step=3');
    expect(ok.notices).toEqual([]);
    expect(ok.settings.source).toEqual({ kind: 'url', value: '/traces/mine.txt', url: 'http://lab.example:4173/traces/mine.txt' });
    expect(read('?import=./mine.txt').settings.source).toMatchObject({ url: 'http://lab.example:4173/app/mine.txt' });
    expect(formatImportUrl({ lesson: null, source: '/traces/mine.txt', step: 3 })).toBe('?import=%2Ftraces%2Fmine.txt&step=3');
    const other = read('?import=https://elsewhere.example/t.txt&step=2');
    expect(other.settings.source).toBeNull();
    expect(other.notices.map((n) => n.param)).toEqual(['import', 'step']);
    expect(noticeText(other.notices[0])).toMatch(/^Ignored import=https:\/\/elsewhere\.example\/t\.txt: a trace by URL must be on this site \(http:\/\/lab\.example:4173\)/);
  });

  it('names every bad value in a notice, and what it used instead', () => {
    const r = read('?import=no-such-trace&step=x&seed=3');
    expect(r.settings).toMatchObject({ source: null, step: 0, lesson: null });
    expect(r.notices.map((n) => n.param)).toEqual(['seed', 'import', 'step']);
    expect(noticeText(r.notices[0])).toBe('Ignored seed=3: the trace page has no parameter "seed"; it reads lesson, import, step; left it out.');
    expect(r.notices[1].problem).toMatch(/^there is no bundled trace of that name \(they are: .*uml-v6\.12-ftrace-kunit-deferred/);
    const s = read('?import=uml-v6.12-ftrace-kunit-deferred&step=-1');
    expect(s.notices).toEqual([{ param: 'step', value: '-1', problem: 'expected a whole number from 0 to 1000000000', used: 'used 0' }]);
    expect(read('?import=uml-v6.12-ftrace-kunit-deferred&step=1&step=2').notices[0]).toMatchObject({ param: 'step', problem: 'step is given 2 times' });
    expect(noticeText(importStepNotice(900, 35))).toBe('Ignored step=900: the trace has passes 0 to 35; showing pass 35, the last.');
    expect(formatImportUrl({ lesson: null, source: null, step: 4 })).toBe('?import');
  });

  it('opens a lesson on a trace at its start, on its fixture', () => {
    const l = TRACE_LESSONS[0];
    expect(isImportView(`?lesson=${l.id}`)).toBe(true);
    const r = read(`?lesson=${l.id}`);
    expect(r.notices).toEqual([]);
    expect(r.settings.lesson?.id).toBe(l.id);
    expect(r.settings.source).toMatchObject({ kind: 'fixture', name: l.trace.fixture });
    expect(r.settings.step).toBe(l.trace.start);
    const other = read(`?lesson=${l.id}&import=uml-v6.12-ftrace-kunit-reuse&step=4`);
    expect(other.settings.source).toMatchObject({ name: l.trace.fixture });
    expect(other.settings.step).toBe(4);
    expect(other.notices[0]).toMatchObject({ param: 'import', problem: `lesson ${l.id} reads ${l.trace.fixture}` });
    expect(formatImportUrl({ lesson: l.id, source: l.trace.fixture, step: 4 })).toBe(`?lesson=${l.id}&step=4`);
    expect(read('?lesson=no-such&import').notices[0]).toMatchObject({ param: 'lesson' });
  });
});
