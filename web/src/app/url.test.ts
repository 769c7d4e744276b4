// SPDX-License-Identifier: GPL-2.0-only
// The page's links (url.ts): never past LINK_MAX, a schedule or program a
// link cannot hold left out; a notice quotes a few dozen characters of a value.
import { describe, expect, it } from 'vitest';
import { noticeText, QUOTE_MAX, readUrl } from './params';
import { fitsLink, formatUrl, LINK_MAX, LINK_VALUE_MAX, linkOf, type UrlState } from './url';

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
  });

  it('carry the memory model unless it is sc, and a model that is none is a notice', () => {
    expect(new URLSearchParams(formatUrl(state({ memory: 'relaxed' }))).get('memory')).toBe('relaxed');
    expect(formatUrl(state({ memory: 'sc' }))).not.toContain('memory');
    expect(readUrl('?scene=shrinker-lifetime&memory=tso').settings.memory).toBe('tso');
    const bad = readUrl('?scene=shrinker-lifetime&memory=arm');
    expect(bad.settings.memory).toBe('sc');
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
