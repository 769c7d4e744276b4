// SPDX-License-Identifier: GPL-2.0-only
// The "What changed" panel's model: real diffs between the branches of
// kernel-tree/linux, as kernel-tree/diffs.py writes them into
// web/public/kernel/diffs.json (the shape is documented at the top of that
// script), and the link from the kernel line a scene is at to the hunk that
// holds it.

/** One side of a hunk: lines start .. start + count - 1 of file on branch
 * tree. count 0: this side has no lines (start is the line before). */
export interface HunkSide {
  tree: string;
  file: string;
  start: number;
  count: number;
}

/** [op, old line, new line, text]: " " on both sides, "-" old only, "+" new only. */
export type DiffLine = [' ' | '-' | '+', number | null, number | null, string];

export interface Hunk {
  /** The function the hunk's first change is in, "struct NAME" or "file scope". */
  func: string;
  old: HunkSide;
  new: HunkSide;
  lines: DiffLine[];
}

export interface Comparison {
  id: string; // "v6.1..srcu-shrinkers"
  from: string; // branch of kernel-tree/linux
  to: string;
  title: string;
  /** git-diff: `git diff from to`; per-function: function texts diffed one by one. */
  kind: 'git-diff' | 'per-function';
  command: string;
  /** Functions of a per-function comparison whose text is the same on both sides. */
  unchanged: { func: string; old: HunkSide; new: HunkSide }[];
  hunks: Hunk[];
}

export interface Diffs {
  /** Each variant's branch of kernel-tree/linux (wasm/build.mk <variant>_BRANCH). */
  variants: Record<string, string>;
  comparisons: Comparison[];
}

/** The kernel line the current event is at (a Site, or its tree/file/line). */
export interface DiffSite {
  tree: string;
  file: string;
  line: number;
}

/** The branch of kernel-tree/linux a variant is built from, as diffs.json
 * says (a name it does not know is taken for a branch). */
export function variantBranch(diffs: Diffs, variant: string): string {
  return diffs.variants?.[variant] ?? variant;
}

/** The comparisons that involve a variant's branch, in file order: v6.1 has
 * v6.1..srcu-shrinkers and v6.1..v6.12, v6.12 has v6.1..v6.12 and its
 * breaks, and a branch built on another has its own. */
export function comparisonsFor(diffs: Diffs, variant: string): Comparison[] {
  const branch = variantBranch(diffs, variant);
  return diffs.comparisons.filter((c) => c.from === branch || c.to === branch);
}

export type Side = 'old' | 'new';

/** The hunk of a comparison whose old or new side covers the site's line on
 * the site's tree and file, and which side: index -1 when none does. */
export function hunkAt(comparison: Comparison, site: DiffSite | null): { index: number; side: Side | null } {
  if (site) {
    for (const side of ['old', 'new'] as const) {
      const index = comparison.hunks.findIndex((h) => covers(h[side], site));
      if (index >= 0) return { index, side };
    }
  }
  return { index: -1, side: null };
}

function covers(s: HunkSide, site: DiffSite): boolean {
  return (
    s.tree === site.tree && s.file === site.file && s.count > 0 && site.line >= s.start && site.line < s.start + s.count
  );
}

/** The index, in hunk.lines, of the line that is the site's line on a side, or -1. */
export function lineAt(hunk: Hunk, side: Side, line: number): number {
  const k = side === 'old' ? 1 : 2;
  return hunk.lines.findIndex((l) => l[k] === line);
}

const ADDR = `kernel/diffs.json`;
let cached: Promise<Diffs> | null = null;

export function diffsUrl(): string {
  return `${import.meta.env.BASE_URL}${ADDR}`;
}

/** diffs.json, fetched once (a failed fetch is tried again next time). */
export function fetchDiffs(): Promise<Diffs> {
  if (!cached) {
    const p = fetch(diffsUrl()).then(async (r) => {
      if (!r.ok) throw new Error(`kernel/diffs.json is not available (HTTP ${r.status}): make builds it from kernel-tree/linux`);
      return (await r.json()) as Diffs;
    });
    cached = p;
    p.catch(() => {
      if (cached === p) cached = null;
    });
  }
  return cached;
}
