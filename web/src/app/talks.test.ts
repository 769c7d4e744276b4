// SPDX-License-Identifier: GPL-2.0-only
// The talks: every file of talks/ is a talk, and every live state in it runs
// natively (native64: the page's default machine) to at least its step, as
// long as its notes say; the loader refuses a bad file with the file
// and the field at fault.
import { describe, expect, it } from 'vitest';
import { loadTalk, readLive, registryTalks } from './talks';
import { replayNative } from '../lessons/replay';
import { LESSONS } from '../lessons/lessons';
import { parseTalk, parseTalkText, TALK_FILES, TalkError } from '../talk/talks';

const bad = (data: unknown) => {
  try {
    parseTalk(data, 'talks/bad.json', 'bad', readLive);
  } catch (e) {
    expect(e).toBeInstanceOf(TalkError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};
const ok = { title: 'T', slides: [{ title: 'Hello' }] };

describe('the talk loader', () => {
  it('reads every kind of slide', () => {
    const t = parseTalk(
      {
        title: 'T',
        slides: [
          { title: 'Hello', subtitle: 'sub', notes: 'n' },
          { text: 'a\n\n- b', notes: ['x', 'y'] },
          { title: 'Live', live: 'http://host/?scene=memcg-bitmap&variant=no-shrinker-bitmap&seed=4&step=9' },
          { patch: { series: 'memcg-shrinker-bitmap', branch: 'v6.12', file: 'mm/shrinker.c', lines: [205, 220], note: 'n' } },
          { goals: [{ id: 'g', text: 'g', check: { event: { kind: 'BIT' } } }] },
        ],
      },
      'talks/t.json',
      't',
      readLive,
    );
    expect(t.slides.map((s) => s.kind)).toEqual(['title', 'text', 'demo', 'patch', 'goals']);
    expect(t.slides[1].notes).toEqual(['x', 'y']);
    expect(t.slides[2]).toMatchObject({ state: { scene: 'memcg-bitmap', variant: 'no-shrinker-bitmap', seed: 4, step: 9, policy: 'timed', sched: '', prog: '' } });
  });

  it('names the file and the field of what is wrong', () => {
    expect(bad([])).toBe('talks/bad.json: (top): a talk is a JSON object {title, slides}');
    expect(bad({ slides: ok.slides })).toMatch(/^talks\/bad\.json: title: a text is expected/);
    expect(bad({ title: 'T', slides: [] })).toMatch(/^talks\/bad\.json: slides: a non-empty list/);
    expect(bad({ ...ok, extra: 1 })).toMatch(/^talks\/bad\.json: extra: /);
    expect(bad({ title: 'T', slides: [{ text: 'a', live: '?scene=lru-batch' }] })).toMatch(/slides\[0\]: a slide is one of .*this one has text and live/);
    expect(bad({ title: 'T', slides: [{ notes: 'n' }] })).toMatch(/slides\[0\]: .*title slide, and needs a title/);
    expect(bad({ title: 'T', slides: [ok.slides[0], { tetx: 'a' }] })).toMatch(/slides\[1\]\.tetx: a slide has/);
    expect(bad({ title: 'T', slides: [{ text: 'a', notes: 3 }] })).toMatch(/slides\[0\]\.notes: notes are/);
  });

  it('checks a live state as the page checks a permalink', () => {
    const live = (l: string) => bad({ title: 'T', slides: [{ live: l }] });
    expect(live('scene=lru-batch')).toMatch(/slides\[0\]\.live: a permalink of the page is expected/);
    expect(live('?seed=1')).toMatch(/slides\[0\]\.live: the permalink names no scene/);
    expect(live('?scene=nope')).toMatch(/slides\[0\]\.live: scene=nope: there is no such scene/);
    expect(live('?scene=lru-batch&variant=v6.1')).toMatch(/slides\[0\]\.live: variant=v6.1: lru-batch runs on lru-batch, v6.12, lru-splice/);
    expect(live('?scene=lru-batch&seed=-1')).toMatch(/slides\[0\]\.live: seed=-1: expected a whole number/);
    expect(live('?scene=lru-batch&sched=zz')).toMatch(/slides\[0\]\.live: sched=zz: a schedule is/);
    expect(live('?scene=lru-batch&lesson=x')).toMatch(/slides\[0\]\.live: a live state takes scene, .*"lesson" is not one/);
  });

  it('checks patches and goals as lessons have them', () => {
    const patch = (p: unknown) => bad({ title: 'T', slides: [{ patch: p }] });
    expect(patch({ series: 'nope', branch: 'v6.12', file: 'f', lines: [1, 2] })).toMatch(/slides\[0\]\.patch\.series: kernel-tree\/manifest\.json has no series "nope"/);
    expect(patch({ series: null, branch: 'v6.12', file: 'f', lines: [3, 2] })).toMatch(/slides\[0\]\.patch\.lines: /);
    expect(bad({ title: 'T', slides: [{ goals: [{ id: 'g', text: 't', check: { event: { kind: 'NOPE' } } }] }] })).toMatch(/slides\[0\]\.goals\[0\]\.check\.event\.kind: there is no event kind NOPE/);
  });

  it('checks the parts a live slide shows against its scene', () => {
    const live = '?scene=memcg-bitmap&variant=v6.12&seed=1&step=3';
    const t = parseTalk({ title: 'T', slides: [{ live, parts: ['matrix', 'counts'] }] }, 'talks/t.json', 't', readLive);
    expect(t.slides[0]).toMatchObject({ kind: 'demo', parts: ['matrix', 'counts'] });
    const parts = (p: unknown, slide: Record<string, unknown> = { live }) => bad({ title: 'T', slides: [{ ...slide, parts: p }] });
    expect(parts(['matrix', 'heat'])).toMatch(/^talks\/bad\.json: slides\[0\]\.parts: scene memcg-bitmap has no part "heat"; its parts are cpus \(.*\), matrix \(/);
    expect(parts([])).toMatch(/slides\[0\]\.parts: a non-empty list of part names/);
    expect(parts('matrix')).toMatch(/slides\[0\]\.parts: a non-empty list of part names/);
    expect(parts(['matrix', 'matrix'])).toMatch(/slides\[0\]\.parts: a part is named twice/);
    expect(parts(['matrix'], { text: 'a' })).toMatch(/slides\[0\]\.parts: only a live slide shows parts/);
  });

  it('refuses a file that is not JSON, naming it', () => {
    expect(() => parseTalkText('{', 'mine.json', 'imported', readLive)).toThrow(/^mine\.json: \(top\): not JSON/);
  });

  it('loads a lesson as a talk through the same loader', () => {
    for (const l of LESSONS) {
      const t = loadTalk({ lesson: l.id })!;
      expect(t.slides.filter((s) => s.kind === 'demo')).toHaveLength(1);
      expect(t.slides.length).toBe(l.text.length + 4);
    }
  });
});

describe('talks/', () => {
  it('has talks, each a talk', () => {
    expect(TALK_FILES.length).toBeGreaterThan(0);
    expect(registryTalks().map((t) => t.id)).toEqual(TALK_FILES.map((f) => f.id));
  });
  for (const t of TALK_FILES) {
    it(`${t.file}: every live state runs natively to its step`, () => {
      const talk = registryTalks().find((x) => x.id === t.id)!;
      for (const [i, s] of talk.slides.entries()) {
        if (s.kind !== 'demo') continue;
        const log = replayNative(s.state.scene, s.state);
        expect(s.state.step, `${t.file} slides[${i}]: step ${s.state.step} of a run of ${log.length} events`).toBeLessThan(log.length);
        // A note that counts the run's events ("takes 916 events") counts this run, on the page's default machine.
        for (const m of (s.notes ?? []).join('\n').matchAll(/\b(\d+) events\b/g)) {
          expect(Number(m[1]), `${t.file} slides[${i}]: "${m[0]}" in its notes`).toBe(log.length);
        }
      }
    });
  }
});
