// SPDX-License-Identifier: GPL-2.0-only
// The series facts, read from kernel-tree/manifest.json: the one place
// they are kept.
import manifest from '../../../kernel-tree/manifest.json';

export interface Series {
  id: string;
  title: string;
  author: string;
  cover: string;
  final?: string;
  version: string;
  posted: string;
  base: string;
  fate: { status: 'merged' | 'reverted' | 'never-merged'; release: string | null; note?: string; commits?: string[] };
  code: {
    kind: 'upstream' | 'project-port';
    branch: string;
    base?: string;
    available: boolean;
    files?: (string | { path: string; symbols?: string[] })[];
  };
}

/** A project patch on a released tree: a guarantee removed (breaks) or a design left out (without). */
export interface PatchedBranch {
  branch: string;
  base: string;
  title: string;
}

export const SERIES: Series[] = manifest.series as Series[];
export const TREES: { branch: string }[] = manifest.trees;
export const PATCHED: PatchedBranch[] = [...(manifest.breaks ?? []), ...(manifest.without ?? [])] as PatchedBranch[];

export function findSeries(id: string): Series | undefined {
  return SERIES.find((s) => s.id === id);
}

export function loreUrl(messageId: string): string {
  return `https://lore.kernel.org/r/${encodeURIComponent(messageId)}`;
}
