// SPDX-License-Identifier: GPL-2.0-only
import { afterEach, describe, expect, it, vi } from 'vitest';
import { comparisonsFor, fetchDiffs, hunkAt, lineAt, variantBranch, type Diffs } from './diff';

// A small hand-written diffs.json (not the generated one): made-up line
// numbers, the shape kernel-tree/diffs.py writes.
const side = (tree: string, file: string, start: number, count: number) => ({ tree, file, start, count });
const FIXTURE: Diffs = {
  variants: { 'v6.1': 'v6.1', 'v6.12': 'v6.12', srcu: 'srcu-shrinkers', 'break-no-tryget': 'break-no-tryget' },
  comparisons: [
    {
      id: 'v6.1..srcu-shrinkers',
      from: 'v6.1',
      to: 'srcu-shrinkers',
      title: 'the SRCU series',
      kind: 'git-diff',
      command: 'git diff v6.1 srcu-shrinkers',
      unchanged: [],
      hunks: [
        {
          func: 'shrink_slab',
          old: side('v6.1', 'mm/vmscan.c', 100, 4),
          new: side('srcu-shrinkers', 'mm/vmscan.c', 110, 5),
          lines: [
            [' ', 100, 110, 'a'],
            ['-', 101, null, 'b'],
            ['+', null, 111, 'B'],
            ['+', null, 112, 'C'],
            [' ', 102, 113, 'd'],
            [' ', 103, 114, 'e'],
          ],
        },
        {
          func: 'file scope',
          old: side('v6.1', 'mm/vmscan.c', 200, 0),
          new: side('srcu-shrinkers', 'mm/vmscan.c', 211, 1),
          lines: [['+', null, 211, 'x']],
        },
      ],
    },
    {
      id: 'v6.1..v6.12',
      from: 'v6.1',
      to: 'v6.12',
      title: 'rwsem to refcount + RCU',
      kind: 'per-function',
      command: 'difflib',
      unchanged: [],
      hunks: [
        {
          func: 'shrink_slab',
          old: side('v6.1', 'mm/vmscan.c', 986, 3),
          new: side('v6.12', 'mm/shrinker.c', 623, 2),
          lines: [
            [' ', 986, 623, 'a'],
            ['-', 987, null, 'b'],
            [' ', 988, 624, 'c'],
          ],
        },
      ],
    },
    {
      id: 'v6.12..break-no-tryget',
      from: 'v6.12',
      to: 'break-no-tryget',
      title: 'no tryget',
      kind: 'git-diff',
      command: 'git diff v6.12 break-no-tryget',
      unchanged: [],
      hunks: [
        {
          func: 'shrink_slab',
          old: side('v6.12', 'mm/shrinker.c', 665, 3),
          new: side('break-no-tryget', 'mm/shrinker.c', 665, 1),
          lines: [
            ['-', 665, null, 'if (!shrinker_try_get(shrinker))'],
            ['-', 666, null, '\tcontinue;'],
            [' ', 667, 665, 'rcu_read_unlock();'],
          ],
        },
      ],
    },
    {
      id: 'v6.12..break-no-wait',
      from: 'v6.12',
      to: 'break-no-wait',
      title: 'no wait',
      kind: 'git-diff',
      command: 'git diff v6.12 break-no-wait',
      unchanged: [],
      hunks: [],
    },
  ],
};
const [srcu, moved, tryget] = FIXTURE.comparisons;

describe('comparisonsFor', () => {
  const ids = (v: string) => comparisonsFor(FIXTURE, v).map((c) => c.id);
  it('gives each variant the comparisons its branch is in', () => {
    expect(ids('v6.1')).toEqual(['v6.1..srcu-shrinkers', 'v6.1..v6.12']);
    expect(ids('v6.12')).toEqual(['v6.1..v6.12', 'v6.12..break-no-tryget', 'v6.12..break-no-wait']);
    expect(ids('break-no-tryget')).toEqual(['v6.12..break-no-tryget']);
    expect(ids('break-no-wait')).toEqual(['v6.12..break-no-wait']);
    expect(ids('nothing')).toEqual([]);
  });
  it('knows the srcu variant is built from branch srcu-shrinkers', () => {
    expect(variantBranch(FIXTURE, 'srcu')).toBe('srcu-shrinkers');
    expect(variantBranch(FIXTURE, 'v6.12')).toBe('v6.12');
    expect(ids('srcu')).toEqual(['v6.1..srcu-shrinkers']);
    expect(ids('srcu-shrinkers')).toEqual(['v6.1..srcu-shrinkers']);
  });
});

describe('hunkAt', () => {
  it('finds a line on the old side', () => {
    expect(hunkAt(srcu, { tree: 'v6.1', file: 'mm/vmscan.c', line: 100 })).toEqual({ index: 0, side: 'old' });
    expect(hunkAt(srcu, { tree: 'v6.1', file: 'mm/vmscan.c', line: 103 })).toEqual({ index: 0, side: 'old' });
    expect(hunkAt(moved, { tree: 'v6.1', file: 'mm/vmscan.c', line: 987 })).toEqual({ index: 0, side: 'old' });
    expect(hunkAt(tryget, { tree: 'v6.12', file: 'mm/shrinker.c', line: 666 })).toEqual({ index: 0, side: 'old' });
  });
  it('finds a line on the new side', () => {
    expect(hunkAt(srcu, { tree: 'srcu-shrinkers', file: 'mm/vmscan.c', line: 114 })).toEqual({ index: 0, side: 'new' });
    expect(hunkAt(srcu, { tree: 'srcu-shrinkers', file: 'mm/vmscan.c', line: 211 })).toEqual({ index: 1, side: 'new' });
    expect(hunkAt(moved, { tree: 'v6.12', file: 'mm/shrinker.c', line: 624 })).toEqual({ index: 0, side: 'new' });
    expect(hunkAt(tryget, { tree: 'break-no-tryget', file: 'mm/shrinker.c', line: 665 })).toEqual({
      index: 0,
      side: 'new',
    });
  });
  it('finds nothing outside every hunk', () => {
    const none = { index: -1, side: null };
    expect(hunkAt(srcu, { tree: 'v6.1', file: 'mm/vmscan.c', line: 99 })).toEqual(none);
    expect(hunkAt(srcu, { tree: 'v6.1', file: 'mm/vmscan.c', line: 104 })).toEqual(none);
    // An empty side covers no line, not even the one it sits after.
    expect(hunkAt(srcu, { tree: 'v6.1', file: 'mm/vmscan.c', line: 200 })).toEqual(none);
    // The right line on another file, or on another tree.
    expect(hunkAt(srcu, { tree: 'v6.1', file: 'mm/shrinker_debug.c', line: 101 })).toEqual(none);
    expect(hunkAt(srcu, { tree: 'v6.12', file: 'mm/vmscan.c', line: 101 })).toEqual(none);
    expect(hunkAt(moved, { tree: 'project', file: 'wasm/glue/memcg.c', line: 987 })).toEqual(none);
    expect(hunkAt(srcu, null)).toEqual(none);
  });
});

describe('lineAt', () => {
  it('finds the row of a line on each side', () => {
    const h = srcu.hunks[0];
    expect(lineAt(h, 'old', 101)).toBe(1);
    expect(lineAt(h, 'new', 112)).toBe(3);
    expect(lineAt(h, 'new', 113)).toBe(4);
    expect(lineAt(h, 'old', 113)).toBe(-1);
  });
});

describe('fetchDiffs', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('fetches once, and again after a failure', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('not here', { status: 404 }))
      .mockResolvedValueOnce(new Response(JSON.stringify(FIXTURE), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchDiffs()).rejects.toThrow(/HTTP 404/);
    const d = await fetchDiffs();
    expect(d.comparisons).toHaveLength(4);
    expect(await fetchDiffs()).toBe(d);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(String(fetchMock.mock.calls[0][0])).toMatch(/kernel\/diffs\.json$/);
  });
});
