// SPDX-License-Identifier: GPL-2.0-only
// The runs behind the page: the main run and the kernel compared beside it,
// each made in the worker whenever its settings change.
import { useEffect, useRef, useState } from 'react';
import { sharedClient, type SimClient, type RunOptions } from '../engine/client';
import type { Decisions } from '../engine/decisions';
import { MEMORY_MODELS, Policy } from '../engine/generated/events';
import { History, type Reducer } from '../engine/history';
import { timePeaks } from '../engine/lockstep';
import type { EventLog } from '../engine/log';
import { buildTimeline, type Timeline } from '../engine/machine';
import { collectLabels, type Labels } from '../engine/narrate';
import { shownSiteAt } from '../engine/codesite';
import { fetchSource, sourceIfRead } from '../engine/sources';
import type { SceneDef } from '../scenes/types';
import type { RunState } from '../engine/runState';
import type { Settings } from './settings';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyScene = SceneDef<any>;

export interface Run extends RunState {
  log: EventLog;
  decisions: Decisions;
  history: History<unknown>;
  timeline: Timeline;
  labels: Labels;
  peaks: Float64Array; // for lock-step (engine/lockstep.ts)
  wallMs: number;
  /** Where loading the run went, in ms, in order (RunOutcome.phases, then the page's own: its model, and the first frame drawn). */
  phases: Record<string, number>;
}

export interface Compared {
  variant: string;
  log: EventLog;
  history: History<unknown>;
  timeline: Timeline;
  labels: Labels;
  peaks: Float64Array;
}

/**
 * A run's timeline, in one pass over the log with the machine's state alone, and its checkpoints:
 * `deferred`, none folded yet (the scene's reducer costs most of the pass, and the first frame needs
 * only the state at the step shown): the caller gives the fold time (foldInSlices), and any step
 * asked for takes it as far as it needs.
 */
export function foldRun(log: EventLog, scene: AnyScene, deferred = false): { history: History<unknown>; timeline: Timeline } {
  const timeline = buildTimeline(log);
  const history = new History(log, scene.reducer as Reducer<unknown>, { deferred });
  return { history, timeline };
}

/** How long a slice of a deferred fold holds the main thread, in ms: well under a frame's budget while playing. */
export const FOLD_SLICE_MS = 12;

/** Folds a deferred history on between frames (a task a slice) until it is done, or `live()` turns false. */
export function foldInSlices(history: History<unknown>, live: () => boolean) {
  const slice = () => {
    if (live() && !history.foldFor(FOLD_SLICE_MS)) setTimeout(slice);
  };
  setTimeout(slice);
}

/** How long the first frame of a run waits for the code pane's file, in ms, if it is not read by then. */
export const SOURCE_WAIT_MS = 100;

/** Where to stand once the next run is in: a step, or a step found in its log. */
export type StepTarget = number | ((log: EventLog) => number);

export function resolveStep(target: StepTarget, log: EventLog): number {
  return Math.max(0, Math.min(typeof target === 'function' ? target(log) : target, log.length - 1));
}


/** What a scene's program text asks of a run: its bytes, and any settings it carries. Throws with what is wrong. */
export function programOptions(scene: AnyScene, prog: string): RunOptions {
  if (!scene.program) return {};
  return { program: prog ? scene.program.toBytes(prog) : [], ...scene.program.options?.(prog) };
}

/** The run parameter for a memory model: none for sc, the default (so that an sc run's request is what it always was). */
export function memoryOption(memory: RunState['memory']): RunOptions {
  return memory && memory !== 'sc' ? { memory: MEMORY_MODELS.indexOf(memory) } : {};
}

/** The main run's request as its settings give it: scenario, seed and options. Throws with what is wrong in the program. */
export function mainRunRequest(scene: AnyScene, s: RunState): [string, number, RunOptions] {
  const setup = programOptions(scene, s.prog);
  return [scene.scenario, s.seed, { variant: s.variant, policy: Policy[s.policy], schedule: s.sched, slowNs: scene.slowNs?.(s.variant) ?? 0, ...memoryOption(s.memory), ...setup }];
}

/**
 * The page's first run, asked for before React mounts (app/start.tsx): the
 * simulation goes on while the page's code loads and its first render
 * happens; useMainRun's request with the same settings gets it.
 */
export function startFirstRun(scene: AnyScene, s: RunState) {
  try {
    sharedClient().start(...mainRunRequest(scene, s));
  } catch {
    // A program the scene refuses: useMainRun says so.
  }
}

/**
 * The main run: made again whenever a run setting changes. Once it is in,
 * the step moves to `landing` (the permalink's step at first), which then
 * falls back to the start.
 */
export function useMainRun(
  client: SimClient,
  scene: AnyScene,
  s: Settings,
  initialStep: number,
  setStep: (n: number) => void,
  /** The run refused the hand schedule or the program: the caller drops it (and says so); the run is made again. */
  onRefused: (what: 'sched' | 'prog', value: string, message: string) => void,
) {
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<string | null>(null);
  const landing = useRef<StepTarget>(initialStep);
  const { variant, seed, policy, sched, prog, memory } = s;
  useEffect(() => {
    let live = true;
    setError(null);
    let request: [string, number, RunOptions];
    try {
      request = mainRunRequest(scene, { variant, seed, policy, sched, prog, memory });
    } catch (e) {
      onRefused('prog', prog, (e as Error).message);
      return;
    }
    client.run(...request).then(
      ({ log, decisions, wallMs, phases }) => {
        if (!live) return;
        if (log.length === 0) {
          setError('The simulation produced no events.');
          return;
        }
        let t = performance.now();
        const lap = (name: string) => {
          const now = performance.now();
          phases[name] = now - t;
          t = now;
        };
        const target = landing.current;
        landing.current = 0;
        const at = resolveStep(target, log);
        // The file the code pane opens on, read while the timeline is built, so that the first frame shows it.
        const first = shownSiteAt(log, at)?.site;
        const source = first?.tree ? fetchSource(first.tree, first.file).catch(() => null) : null; // the pane reports a failure
        const { history, timeline } = foldRun(log, scene, true);
        history.at(at); // the checkpoints up to the step shown first (none past it yet)
        lap('timeline');
        const labels = collectLabels(log);
        const peaks = timePeaks(log.time);
        lap('labels');
        const show = () => {
          if (!live) return;
          // A step asked for while the first frame waited for the file (a talk's other window stepped, the run not
          // drawn here yet: App's useTalkSync) is where the run opens, not the one resolved before the wait.
          const asked = landing.current;
          landing.current = 0;
          const open = asked ? resolveStep(asked, log) : at;
          lap('source');
          setRun({ variant, seed, policy, sched, prog, memory, log, decisions, history, timeline, labels, peaks, wallMs, phases });
          // The first frame with the run: React's render and commit, then layout and paint; then the rest of the
          // checkpoints, between frames.
          requestAnimationFrame(() =>
            setTimeout(() => {
              lap('draw');
              foldInSlices(history, () => live);
            }),
          );
          setStep(open);
        };
        // The code pane's file is usually read by now (its response waits behind this task): the first frame waits
        // for it, SOURCE_WAIT_MS at most, rather than draw the pane empty and the whole page again a moment later.
        if (!source || sourceIfRead(first!.tree, first!.file)) show();
        else void Promise.race([source, new Promise((r) => setTimeout(r, SOURCE_WAIT_MS))]).then(show);
      },
      (e: Error) => {
        if (!live) return;
        // Never a scene that does not get ready: a refused schedule or program is dropped and the run made again.
        if (sched) onRefused('sched', sched, e.message);
        else if (prog) onRefused('prog', prog, e.message);
        else setError(e.message);
      },
    );
    return () => {
      live = false;
    };
  }, [client, scene, variant, seed, policy, sched, prog, memory, setStep, onRefused]);
  return { run, error, landing };
}

/** The compared kernel: same scenario, seed, policy and program, no hand-made schedule. */
export function useComparedRun(client: SimClient, scene: AnyScene, s: Settings) {
  const [compared, setCompared] = useState<Compared | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { compare, variant, seed, policy, prog, memory } = s;
  useEffect(() => {
    let live = true;
    setCompared(null);
    setError(null);
    if (!compare || compare === variant) return;
    let setup: RunOptions;
    try {
      setup = programOptions(scene, prog);
    } catch {
      return; // the main run reports it
    }
    client.run(scene.scenario, seed, { variant: compare, policy: Policy[policy], slowNs: scene.slowNs?.(compare) ?? 0, ...memoryOption(memory), ...setup }).then(
      ({ log }) => {
        if (!live || log.length === 0) return;
        const { history, timeline } = foldRun(log, scene, true);
        foldInSlices(history, () => live);
        setCompared({
          variant: compare,
          log,
          history,
          timeline,
          labels: collectLabels(log),
          peaks: timePeaks(log.time),
        });
      },
      (e: Error) => live && setError(`${compare}: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, [client, scene, compare, variant, seed, policy, prog, memory]);
  return { compared, error };
}
