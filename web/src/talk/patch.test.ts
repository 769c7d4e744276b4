// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import type { Comparison, Diffs, Hunk } from '../ui/diff';
import { patchHunks } from './patch';

const hunk = (tree: [string, string], start: number, lines: Hunk['lines']): Hunk => ({
  func: 'f',
  old: { tree: tree[0], file: 'mm/a.c', start, count: lines.filter((l) => l[1] !== null).length },
  new: { tree: tree[1], file: 'mm/a.c', start, count: lines.filter((l) => l[2] !== null).length },
  lines,
});
const cmp = (from: string, to: string, hunks: Hunk[]): Comparison => ({ id: `${from}..${to}`, from, to, title: '', kind: 'git-diff', command: '', unchanged: [], hunks });

// v6.12 lines 10..16; the break branch drops 13 and 14, the other replaces 12.
const diffs: Diffs = {
  variants: { brk: 'break', old: 'v6.1' },
  comparisons: [
    cmp('v6.1', 'v6.12', [hunk(['v6.1', 'v6.12'], 10, [[' ', 10, 10, 'a'], ['-', 11, null, 'old'], ['+', null, 11, 'b'], ['+', null, 12, 'c'], [' ', 12, 13, 'd']])]),
    cmp('v6.12', 'break', [
      hunk(['v6.12', 'break'], 10, [[' ', 10, 10, 'a'], [' ', 11, 11, 'b'], [' ', 12, 12, 'c'], ['-', 13, null, 'd'], ['-', 14, null, 'e'], [' ', 15, 13, 'f'], [' ', 16, 14, 'g']]),
    ]),
  ],
};

describe('patchHunks', () => {
  it("takes the comparison with the lesson's kernel first, cut to the lines with two of context", () => {
    const h = patchHunks(diffs, { branch: 'v6.12', file: 'mm/a.c', lines: [14, 14] }, ['break']);
    expect(h).toHaveLength(1);
    expect(h[0].comparison.id).toBe('v6.12..break');
    expect(h[0].side).toBe('old');
    expect(h[0].lines.map((l) => l[1])).toEqual([12, 13, 14, 15, 16]);
  });
  it('falls back to the first comparison that touches the lines', () => {
    const h = patchHunks(diffs, { branch: 'v6.12', file: 'mm/a.c', lines: [11, 12] }, ['elsewhere']);
    expect(h[0].comparison.id).toBe('v6.1..v6.12');
    expect(h[0].side).toBe('new');
    // A removed line sits between kept lines of the other side: it stays.
    expect(h[0].lines.map((l) => l[0]).join('')).toBe(' -++ ');
  });
  it('finds nothing where no hunk changes a line in range', () => {
    expect(patchHunks(diffs, { branch: 'v6.12', file: 'mm/a.c', lines: [40, 50] })).toEqual([]);
    expect(patchHunks(diffs, { branch: 'v6.12', file: 'mm/b.c', lines: [10, 16] })).toEqual([]);
  });
});
