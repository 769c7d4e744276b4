// SPDX-License-Identifier: GPL-2.0-only
// The simulated machine's word size: 32 or 64 bits, asked for by the URL's
// bits= (DEFAULT_WORD_SIZE without it; the page's first script, main.tsx,
// reads it from the link and sets it here), run wherever the build has the
// variant's module at that size (wasm/build.mk: browser_module and
// browser_module64, for every variant of the registry).
import type { WordSize } from './bridge';

export type { WordSize };

/** The variants with a 64-bit module in this build, from the modules themselves. */
const BUILT64 = new Set(
  Object.keys(import.meta.glob('./generated/reclaimlab64-*.mjs')).map((k) => /reclaimlab64-(.+)\.mjs$/.exec(k)![1]),
);

/**
 * The word size without bits= in the URL: 64, as the kernels people run
 * (x86-64, arm64) and User-Mode Linux, so BITS_PER_LONG, SHRINKER_UNIT_BITS
 * and the counts a long holds are theirs; bits=32 runs the 32-bit machine.
 */
export const DEFAULT_WORD_SIZE: WordSize = 64;

/** The word size this page was opened at (a change of it reloads the page): set once, before the first run. */
export let PAGE_WORD_SIZE: WordSize = DEFAULT_WORD_SIZE;

/** The page's word size, as its link asks (main.tsx, before anything runs: a change reloads the page). */
export function setPageWordSize(bits: WordSize) {
  PAGE_WORD_SIZE = bits;
}

/** Whether the build has a variant's 64-bit module. */
export function has64(variant: string): boolean {
  return BUILT64.has(variant);
}

/** The word size a variant runs at: the one asked for, if the build has that module. */
export function wordSizeFor(variant: string, asked: WordSize = PAGE_WORD_SIZE): WordSize {
  return asked === 64 && BUILT64.has(variant) ? 64 : 32;
}
