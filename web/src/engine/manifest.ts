// SPDX-License-Identifier: GPL-2.0-only
// The series facts, read from kernel-tree/manifest.json: the one place
// they are kept.
import manifest from '../../../kernel-tree/manifest.json';
import { REVIEWED, type Reviewed } from 'virtual:review-variants';

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
    on?: string; // what a port is built on, where that is the kernel's real code ("6.12’s real LRU")
    files?: (string | { path: string; symbols?: string[] })[];
  };
}

/**
 * The project-port series a branch holds: the series' code branch, or the
 * branch of a registry kernel that ports it (the RFC's: batch locks, and
 * batch locks with splicing, each a branch).
 */
export function portOf(tree: string): Series | undefined {
  const kernel = manifest.kernels.find((k) => k.branch === tree && k.kind === 'port');
  return SERIES.find((s) => s.code.kind === 'project-port' && (s.code.branch === tree || s.id === kernel?.series));
}

/** A project patch on a released tree: a guarantee removed (breaks) or a design left out (without). */
export interface PatchedBranch {
  branch: string;
  base: string;
  title: string;
}

export const SERIES: Series[] = manifest.series as Series[];
export const TREES: { branch: string }[] = manifest.trees;
export const PATCHED: PatchedBranch[] = manifest.kernels
  .filter((k) => k.kind === 'break' || k.kind === 'without')
  .map((k) => ({ branch: k.branch, base: k.base ?? '', title: k.title ?? '' }));

export function findSeries(id: string): Series | undefined {
  return SERIES.find((s) => s.id === id);
}

export function loreUrl(messageId: string): string {
  return `https://lore.kernel.org/r/${encodeURIComponent(messageId)}`;
}

/** The reviewer's variants (make variant): a patch series on a variant of the lab. */
export const REVIEW_VARIANTS: Reviewed[] = REVIEWED;

export function findReviewed(variant: string): Reviewed | undefined {
  return REVIEW_VARIANTS.find((r) => r.name === variant);
}

/** The lab's variant a kernel is built as: a reviewer's variant's base, or itself. */
export function baseOf(variant: string): string {
  return findReviewed(variant)?.base ?? variant;
}

/** A scene's kernels with the reviewer's variants built on any of them, each after its base. */
export function withReviewed(variants: string[]): string[] {
  return variants.flatMap((v) => [v, ...REVIEW_VARIANTS.filter((r) => r.base === v).map((r) => r.name)]);
}

/** How the kernel picker names a kernel. */
export function kernelLabel(variant: string): string {
  const r = findReviewed(variant);
  return r ? `${r.name} (your patch on ${r.base})` : variant;
}
