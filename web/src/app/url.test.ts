// SPDX-License-Identifier: GPL-2.0-only
// The page's links (url.ts): never past LINK_MAX, a schedule or program a
// link cannot hold left out; a notice quotes a few dozen characters of a
// value; and what a link writes, the page reads back as the same state.
import { describe, expect, it } from 'vitest';
import { runOf, type RunState } from '../engine/runState';
import { LESSONS } from '../lessons/lessons';
import { SCENES } from '../scenes/registry';
import { noticeText, QUOTE_MAX, readUrl } from './params';
import { readLive } from './talks';
import {
  exploreLink, fitsLink, formatUrl, LINK_MAX, LINK_VALUE_MAX, linkOf, liveLink, liveWords, permalinkOf, POLICIES, readLink,
  talkLink, type Opened, type UrlState,
} from './url';

const state = (over: Partial<UrlState>): UrlState => ({ scene: 'lru-batch', variant: null, compare: null, seed: 1, step: 0, policy: 'timed', sched: '', prog: '', lesson: null, talk: null, ...over });

describe('the page\'s links', () => {
  it('hold a schedule or program up to LINK_VALUE_MAX characters as written, and leave a longer one out', () => {
    const fits = '0.1'.repeat(1000); // 2,999 characters
    const long = '0.1'.repeat(1200);
    expect(fitsLink(fits)).toBe(true);
    expect(fitsLink(long)).toBe(false);
    expect(new URLSearchParams(formatUrl(state({ sched: fits }))).get('sched')).toBe(fits);
    expect(new URLSearchParams(formatUrl(state({ sched: long }))).get('sched')).toBeNull();
    // A program's commas are written %2C: its length is counted as written.
    const commas = ','.repeat(LINK_VALUE_MAX / 3 + 1);
    expect(fitsLink(commas)).toBe(false);
  });

  it('are at most LINK_MAX characters, whatever they are given', () => {
    const url = formatUrl(state({ sched: '0.1'.repeat(20_000), prog: 'a0.0,'.repeat(20_000), lesson: 'sentinel-collision' }));
    expect(url.length).toBeLessThanOrEqual(LINK_MAX);
    expect(linkOf(`?scene=lru-batch&sched=${'0.1'.repeat(5000)}&step=3`)).toBe('?scene=lru-batch&step=3');
    expect(exploreLink({ scene: 'shrinker-lifetime', lesson: null }, { variant: 'v6.12', seed: 1, sched: '0.1'.repeat(1200), prog: '' }, 4)).toBeNull();
  });

  it('carry the memory model unless it is sc, and a model that is none is a notice', () => {
    expect(new URLSearchParams(formatUrl(state({ memory: 'relaxed' }))).get('memory')).toBe('relaxed');
    expect(formatUrl(state({ memory: 'sc' }))).not.toContain('memory');
    expect(readUrl('?scene=shrinker-lifetime&memory=tso').settings.memory).toBe('tso');
    const bad = readUrl('?scene=shrinker-lifetime&memory=arm');
    expect(bad.settings.memory ?? 'sc').toBe('sc');
    expect(bad.notices.map((n) => n.param)).toEqual(['memory']);
    expect(noticeText(bad.notices[0])).toContain('expected one of sc, tso, relaxed');
  });

  it('a notice quotes at most a few dozen characters of a value, its name and what is wrong', () => {
    const v = 'z'.repeat(5000);
    const text = noticeText({ param: 'q'.repeat(300), value: v, problem: `"${v}" is not a setting`, used: 'left it out' });
    expect(text.length).toBeLessThan(4 * QUOTE_MAX + 80);
    expect(text).toContain('(5,000 characters)');
    expect(text).toContain('(300 characters)');
    expect(text).not.toMatch(/z{41}|q{41}/);
  });
});


describe('a permalink read back', () => {
  const opened = (scene: (typeof SCENES)[number], lesson: string | null = null): Opened => ({ scene, lesson: lesson ? { id: lesson } : null, deck: null, talk: null, embed: false });

  it('is the run it was written from, on every kernel of every scene, under every policy', () => {
    let n = 0;
    for (const scene of SCENES)
      for (const variant of scene.variants)
        for (const policy of POLICIES) {
          const run: RunState = { variant, seed: 7 + n, policy, sched: '0x3.1.0', prog: '' };
          const link = permalinkOf(opened(scene), run, { compare: null, step: 12, slide: 0 });
          const { settings, notices } = readUrl(link);
          expect(notices, link).toEqual([]);
          expect(settings.scene.id).toBe(scene.id);
          expect(runOf(settings)).toEqual(run);
          expect(settings.step).toBe(12);
          // The scene's first kernel is its default: the link leaves it out.
          expect(readLink(link).has('variant')).toBe(variant !== scene.variants[0]);
          n++;
        }
    expect(n).toBeGreaterThan(SCENES.length * POLICIES.length);
  });

  it('is every lesson\'s start, its program and kernel compared included', () => {
    for (const lesson of LESSONS) {
      const scene = SCENES.find((s) => s.id === lesson.scene)!;
      const { step, ...start } = lesson.start;
      const compare = scene.variants.find((v) => v !== start.variant) ?? null;
      const link = permalinkOf(opened(scene, lesson.id), start, { compare, step: step ?? 0, slide: 0 });
      const { settings, notices } = readUrl(link);
      expect(notices, link).toEqual([]);
      expect(settings.lesson?.id).toBe(lesson.id);
      expect(runOf(settings)).toEqual(start);
      expect(settings.compare).toBe(compare);
    }
  });

  it('of a talk\'s live slide is the state it was made from, and is said in words', () => {
    const scene = SCENES.find((s) => s.program)!;
    const lesson = LESSONS.find((l) => l.scene === scene.id && l.start.prog)!;
    const run: RunState = { ...lesson.start, policy: 'random', sched: '1.0x2' };
    const link = liveLink(scene.id, run, 30);
    expect(readLink(link).get('variant')).toEqual([run.variant]); // always named
    expect(readLive(link)).toEqual({ scene: scene.id, ...runOf(run), step: 30 });
    expect(liveWords(link)).toBe(`${scene.id}, kernel ${run.variant}, seed ${run.seed}, event 30, schedule by hand`);
    const talk = talkLink({ lesson: null, deck: 'five-series', talk: 'presenter' }, 3, { scene: scene.id, ...run, step: 30 });
    expect(readLink(talk).get('slide')).toEqual(['4']); // the fourth slide, as its corner says: 4 / n
    expect(readLink(talk).get('prog')).toEqual([run.prog]);
  });

  it('count a talk\'s slides from 1, as the slide\'s corner does, and refuse 0 and past the last', () => {
    const shown = readUrl('?deck=five-series&slide=7');
    expect(shown.notices).toEqual([]);
    expect(shown.settings.slide).toBe(6); // the seventh slide, whose corner says 7 / n
    const back = readLink(formatUrl(state({ deck: 'five-series', talk: '1', slide: 6, scene: null })));
    expect(back.get('slide')).toEqual(['7']);
    for (const bad of ['0', '-1', 'x', '9999']) {
      const r = readUrl(`?deck=five-series&slide=${bad}`);
      expect(r.settings.slide).toBe(0);
      expect(r.notices.map(noticeText).join(' ')).toMatch(/the talk has slides 1 to \d+; showing slide 1/);
    }
  });
});
