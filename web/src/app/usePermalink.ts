// SPDX-License-Identifier: GPL-2.0-only
// The permalink hook: the page's address follows what is on screen (the
// scene, the run, the step, the lesson or talk and its slide), so that a
// reload or a copied address opens the same state. url.ts writes it.
import { useEffect } from 'react';
import type { UrlSettings } from './params';
import type { Run } from './useRuns';
import { permalinkOf, replaceAddress } from './url';

interface Shown {
  /** What the URL opened: the scene, lesson, talk and layout, fixed for the page's life. */
  initial: UrlSettings;
  run: Run | null;
  compare: string | null;
  step: number;
  /** The talk's slide on screen (0 outside talk mode). */
  slide: number;
  playing: boolean;
}

/** Keeps the address at the state; while playing, once play stops (replaceState at every frame costs frames). */
export function usePermalink({ initial, run, compare, step, slide, playing }: Shown) {
  useEffect(() => {
    if (!run || playing) return;
    replaceAddress(permalinkOf(initial, run, { compare, step, slide }));
  }, [initial, run, step, compare, slide, playing]);
}
