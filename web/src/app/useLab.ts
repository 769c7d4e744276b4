// SPDX-License-Identifier: GPL-2.0-only
// The page's state, whatever the layout: what the person chose (settings.ts),
// the runs made of it (useRuns.ts), the step, playback, and what the page
// says about the URL it was given. The layouts (layouts/) draw from it and
// act through it; none of them holds a run's state of its own.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import { sharedClient, type SimClient } from '../engine/client';
import { stepAtTime } from '../engine/lockstep';
import type { EventLog } from '../engine/log';
import type { LessonStart } from '../lessons/lessons';
import { refusedNotice, stepNotice, type Notice, type UrlSettings } from './params';
import { runKey, runOf, sameRun, type RunState } from '../engine/runState';
import { settingsReducer, type Settings, type SettingsAction } from './settings';
import { usePlayback, useReadingStep } from './usePlayback';
import { programOptions, resolveStep, useComparedRun, useMainRun, type Compared, type Run, type StepTarget } from './useRuns';

export interface Lab {
  /** What the URL asked for, checked (params.ts): the scene, lesson, talk and layout are fixed for the page's life. */
  initial: UrlSettings;
  settings: Settings;
  dispatch: Dispatch<SettingsAction>;
  notices: Notice[];
  client: SimClient;
  run: Run | null;
  compared: Compared | null;
  error: string | null;
  /** Where the next run opens (useMainRun): a step, or one found in its log. */
  landing: MutableRefObject<StepTarget>;
  step: number;
  setStep: (n: number) => void;
  /** The step the panes a person reads show: the step, or while playing the step at a reader's rate. */
  reading: number;
  last: number;
  seek: (s: number) => void;
  /** The scene's state at the step, and the compared run's at the same virtual time. */
  state: unknown;
  step2: number;
  state2: unknown;
  playing: boolean;
  setPlaying: Dispatch<SetStateAction<boolean>>;
  speed: number;
  setSpeed: (s: number) => void;
  /** Run these settings, then stand at target; if they are the ones already run, move now. */
  start: (s: RunState, target: StepTarget) => void;
  /** A lesson's start or solution: kernel, seed, policy, schedule and program, then its step (or the end). */
  applyStart: (s: LessonStart) => void;
  /** Replace the scene's program and run again (absent for a scene that takes none). */
  onProgram?: (text: string) => void;
  /** The run's slow shrinkers: the scene's for its kernel, unless its set-up (prog) says otherwise. */
  slowNs: number;
}

export function useLab(initial: UrlSettings, urlNotices: Notice[]): Lab {
  const { scene } = initial;
  const [settings, dispatch] = useReducer(settingsReducer, null, (): Settings => {
    return { ...runOf(initial), compare: initial.compare };
  });
  const [notices, setNotices] = useState<Notice[]>(urlNotices);
  const addNotice = useCallback(
    (n: Notice) => setNotices((ns) => (ns.some((x) => x.param === n.param && x.value === n.value) ? ns : [...ns, n])),
    [],
  );
  const onRefused = useCallback(
    (what: 'sched' | 'prog', value: string, message: string) => {
      addNotice(refusedNotice(what, value, message, scene.id));
      if (what === 'sched') dispatch({ type: 'sched', sched: '' });
      else dispatch({ type: 'program', prog: '' });
    },
    [addNotice, scene.id],
  );
  const client = useMemo(sharedClient, []);
  const [step, setStep] = useState(initial.step);
  const { run, error: runError, landing } = useMainRun(client, scene, settings, initial.step, setStep, onRefused);
  // The permalink's step, once the first run says how many events there are.
  const firstRun = useRef(true);
  useEffect(() => {
    if (!run || !firstRun.current) return;
    firstRun.current = false;
    if (initial.step > run.log.length - 1) addNotice(stepNotice(initial.step, run.log.length - 1));
  }, [run, initial, addNotice]);
  const { compared, error: comparedError } = useComparedRun(client, scene, settings);
  const error = runError ?? comparedError;
  const last = run ? run.log.length - 1 : 0;
  const { playing, setPlaying, speed, setSpeed, readTick, readNow } = usePlayback(last, setStep, runKey(settings), !!run);
  const reading = useReadingStep(step, playing, readTick);
  const seek = useCallback(
    (s: number) => {
      setStep(Math.max(0, Math.min(last, s)));
      readNow();
    },
    [last, readNow],
  );

  const state = run ? run.history.at(step) : null;
  const step2 = run && compared ? stepAtTime(compared.peaks, run.log.time[step] ?? 0) : 0;
  const state2 = compared ? compared.history.at(step2) : null;

  const start = (s: RunState, target: StepTarget) => {
    landing.current = target;
    dispatch({ type: 'start', run: s });
    if (run && sameRun(run, s)) {
      landing.current = 0;
      seek(resolveStep(target, run.log));
    }
  };
  const applyStart = (s: LessonStart) => {
    if (!scene.variants.includes(s.variant)) return;
    const { step: at, ...r } = s;
    start({ ...r, prog: scene.program ? r.prog : '' }, at !== undefined ? at : (l: EventLog) => l.length - 1);
  };
  const programDef = scene.program;
  // One function per scene, so that a setup panel drawn once per run is not drawn again at every step.
  const onProgramText = useCallback(
    (text: string) => {
      if (!programDef) return;
      const n = text ? programDef.length(text) : 0;
      landing.current = n > 0 ? (l: EventLog) => programDef.stepAfter(l, n) : 0;
      dispatch({ type: 'program', prog: text });
    },
    [programDef, landing],
  );
  const slowNs = run ? ({ slowNs: scene.slowNs?.(run.variant) ?? 0, ...programOptions(scene, run.prog) }.slowNs ?? 0) : 0;

  return {
    initial, settings, dispatch, notices, client, run, compared, error, landing, step, setStep, reading, last, seek,
    state, step2, state2, playing, setPlaying, speed, setSpeed, start, applyStart,
    onProgram: programDef ? onProgramText : undefined,
    slowNs,
  };
}
