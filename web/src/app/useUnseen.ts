// SPDX-License-Identifier: GPL-2.0-only
// What each CPU has not yet seen at the step shown (engine/unseen.ts), for
// the CPU cards, under tso and relaxed: a window of events around the step,
// asked of the worker once the step rests there, kept while the step stays
// inside it.
import { useEffect, useMemo, useState } from 'react';
import { sharedClient } from '../engine/client';
import { Unseen, type UnseenAt } from '../engine/unseen';
import type { SceneDef } from '../scenes/types';
import { mainRunRequest, type Run } from './useRuns';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyScene = SceneDef<any>;

/**
 * Events a window reaches on each side of the step; a run of twice as many or fewer is asked for whole. A lru-batch
 * run of 8 CPUs under relaxed makes some 25 to 55 records an event (56 bytes each): a window of 2,000 events is 3 to
 * 6 MB (docs/memory-model.md).
 */
export const UNSEEN_REACH = 1000;
/** How long the step must rest before a window is asked for, in ms (play and scrubbing go through many). */
const REST_MS = 150;

/** The window of events around `step` that a run of `length` events asks for. */
export function unseenWindow(step: number, length: number): { from: number; to: number } {
  if (length <= 2 * UNSEEN_REACH) return { from: 0, to: length };
  const from = Math.max(0, step - UNSEEN_REACH);
  return { from, to: Math.min(length, from + 2 * UNSEEN_REACH) };
}

/** shown: whether the cards are drawn (folded cards closed ask for nothing). */
export function useUnseen(scene: AnyScene, run: Run, step: number, shown = true): UnseenAt {
  const off = !run.memory || run.memory === 'sc';
  const [win, setWin] = useState<{ run: Run; unseen: Unseen } | { run: Run; error: string } | null>(null);
  const have = win && win.run === run && 'unseen' in win && win.unseen.covers(step) ? win.unseen : null;
  useEffect(() => {
    if (off || have || step < 0 || !shown) return;
    let live = true;
    const timer = setTimeout(() => {
      const { from, to } = unseenWindow(step, run.log.length);
      const [scenario, seed, opts] = mainRunRequest(scene, run);
      sharedClient()
        .unseen(scenario, seed, opts, from, to)
        .then(
          (w) => live && setWin({ run, unseen: new Unseen(w) }),
          (e: Error) => live && setWin({ run, error: e.message }),
        );
    }, REST_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [off, have, step, run, scene, shown]);
  const cpus = useMemo(() => (have ? have.at(step) : null), [have, step]);
  if (off) return { status: 'off' };
  if (win && win.run === run && 'error' in win) return { status: 'failed', message: win.error };
  return cpus ? { status: 'ready', cpus } : { status: 'working' };
}
