// SPDX-License-Identifier: GPL-2.0-only
// The patch slide's code: the hunks of the branch diffs (kernel-tree/diffs.py,
// served as kernel/diffs.json) that touch the lines a lesson ends at, cut to
// those lines, each line marked as the diff marks it.
import type { Comparison, DiffLine, Diffs, Side } from '../ui/diff';

export interface LessonPatch {
  branch: string;
  file: string;
  lines: [number, number];
}

export interface PatchHunk {
  comparison: Comparison;
  /** The side of the hunk that is on the lesson's branch. */
  side: Side;
  func: string;
  lines: DiffLine[];
}

/** Lines of context kept around the lesson's range. */
const AROUND = 2;

/**
 * The hunks of one comparison whose side on the patch's branch and file
 * overlaps its lines, cut to them: of the first comparison with the other
 * side on a branch of `prefer` (the lesson's kernel, the series' base), or
 * else of the first in diffs.json that has any. Empty: no diff touches them.
 */
export function patchHunks(diffs: Diffs, patch: LessonPatch, prefer: string[] = []): PatchHunk[] {
  const all = allPatchHunks(diffs, patch);
  for (const branch of prefer) {
    if (branch === patch.branch) continue;
    const of = all.filter((h) => h.comparison.from === branch || h.comparison.to === branch);
    if (of.length) return of;
  }
  return all.filter((h) => h.comparison === all[0]?.comparison);
}

/** Every hunk, in every comparison, whose side on the patch's branch and file overlaps its lines, cut to them. */
export function allPatchHunks(diffs: Diffs, patch: LessonPatch): PatchHunk[] {
  const [first, last] = patch.lines;
  const out: PatchHunk[] = [];
  for (const comparison of diffs.comparisons) {
    for (const hunk of comparison.hunks) {
      for (const side of ['old', 'new'] as const) {
        const s = hunk[side];
        if (s.tree !== patch.branch || s.file !== patch.file || s.count === 0) continue;
        if (s.start > last || s.start + s.count - 1 < first) continue;
        const k = side === 'old' ? 1 : 2;
        // Keep the lines of this side in range, and the other side's lines between them.
        const inRange = (n: number | null) => n !== null && n >= first - AROUND && n <= last + AROUND;
        const from = hunk.lines.findIndex((l) => inRange(l[k]));
        let to = -1;
        hunk.lines.forEach((l, i) => {
          if (inRange(l[k])) to = i;
        });
        if (from < 0) continue;
        // The other side's lines right after the last kept one belong to it (a replaced line).
        while (to + 1 < hunk.lines.length && hunk.lines[to + 1][k] === null) to++;
        const lines = hunk.lines.slice(from, to + 1);
        if (!lines.some((l) => l[0] !== ' ')) continue;
        out.push({ comparison, side, func: hunk.func, lines });
      }
    }
  }
  return out;
}
