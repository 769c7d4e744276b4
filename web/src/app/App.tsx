// SPDX-License-Identifier: GPL-2.0-only
// The shell: reads the permalink, composes the settings, the runs, the
// playback and the keys, and lays out the scene (Stage) in the full page,
// the embed or the talk.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { kernelBranch, shownSiteAt } from '../engine/codesite';
import { stepAtTime, timePeaks } from '../engine/lockstep';
import type { EventLog } from '../engine/log';
import type { RunState } from '../engine/runState';
import { narrate } from '../engine/narrate';
import { PAGE_WORD_SIZE } from '../engine/wordsize';
import type { SceneDef } from '../scenes/types';
import { DiffPanel } from '../ui/DiffPanel';
import { KeyHelp } from '../ui/KeyHelp';
import { stepBindings, useKeyMap, type KeyBinding } from '../ui/keymap';
import { EventPanel } from '../ui/EventPanel';
import { NextStep, whereCpu } from '../ui/NextStep';
import { ReportsPanel } from '../ui/ReportsPanel';
import { TraceExport } from '../ui/TraceExport';
import { PlayingContext, WhileSeen } from '../ui/WhileSeen';
import { Controls } from './Controls';
import { SeriesCard } from './SeriesCard';
import { fitsLink, formatUrl, formatWhole, linkOf, tooLongForLink, type PolicyName } from './url';
import { readUrl, refusedNotice, stepNotice, type Notice } from './params';
import { Notices, RunEnd } from './Notices';
import { ScenePicker } from './Landing';
import type { LessonStart } from '../lessons/lessons';
import { LessonPanel, LessonPicker } from '../lessons/LessonPanel';
import { Talk, useTalkSync } from '../talk/Talk';
import { TalkBuilder } from '../talk/TalkBuilder';
import { LIVE_PARAMS } from '../talk/talks';
import { readTalkText } from './talks';
import type { LiveState, TalkState, TalkView } from '../talk/slides';
import { Timeline } from '../ui/Timeline';
import { TaskLegend } from '../ui/TaskLegend';
import { sameRun, settingsReducer, type Settings } from './settings';
import { Stage, StageCode } from './Stage';
import { useTestHandle } from './testHandle';
import { usePlayback, useReadingStep } from './usePlayback';
import { memoryOption, programOptions, resolveStep, useComparedRun, useMainRun, type Run } from './useRuns';
import { sharedClient } from '../engine/client';
import { pickRunParams } from '../engine/generated/params';
import { ExplorePanel } from '../explore/ExplorePanel';
import { slideParts } from '../scenes/parts';

/** Focus back on the scene (Escape), from any control; before the scene is drawn, off the control at least. */
function leaveControl(stage: HTMLElement | null) {
  if (stage) stage.focus();
  else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

/** "next function »": a CPU following its steps by hand (NextStep), the schedule and step its last choice opens at. */
interface Follow {
  cpu: number;
  /** The function it was in: it stops in another. */
  func: string;
  sched: string;
  at: number;
  /** Choices made so far. */
  n: number;
}
/** The most choices one "next function »" makes. */
const FOLLOW_MAX = 400;

/** How many decisions a schedule text holds. */
function scheduleLength(text: string): number {
  return text.split('.').reduce((n, run) => n + (run.includes('x') ? Number(run.split('x')[1]) : 1), 0);
}

/** The exported trace's file name: what makes the run, as the permalink has it. */
function traceFileName(scene: string, run: RunState): string {
  const parts = ['reclaim-lab', scene, run.variant, `seed${run.seed}`];
  if (run.policy !== 'timed') parts.push(run.policy);
  if (run.memory && run.memory !== 'sc') parts.push(run.memory);
  if (run.sched) parts.push('schedule');
  if (run.prog) parts.push('program');
  return `${parts.join('-')}.json`;
}

/** The series a scene is about on a kernel (null: none). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function seriesOf(scene: SceneDef<any>, variant: string): string | null {
  return typeof scene.series === 'function' ? scene.series(variant) : scene.series;
}

/**
 * search: the permalink the page opens at. navigate: open another one in
 * place (a talk's slide whose live state is another scene's).
 */
export function App({ search, navigate }: { search: string; navigate: (search: string) => void }) {
  // Every URL parameter, read and checked in one place (params.ts).
  const initial = useMemo(() => readUrl(search), [search]);
  const { scene, lesson, talk, embed, deck } = initial.settings;
  const [talkView, setTalkView] = useState<TalkView>({ slide: initial.settings.slide, live: initial.settings.live, zoom: false, black: false });
  const [settings, dispatch] = useReducer(settingsReducer, null, (): Settings => {
    const { variant, seed, policy, memory, sched, prog, compare } = initial.settings;
    return { variant, seed, policy, memory, sched, prog, compare };
  });
  const { variant, compare } = settings;
  const [notices, setNotices] = useState<Notice[]>(initial.notices);
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
  const [step, setStep] = useState(initial.settings.step);
  const { run, error: runError, landing } = useMainRun(client, scene, settings, initial.settings.step, setStep, onRefused);
  // The permalink's step, once the first run says how many events there are.
  const firstRun = useRef(true);
  useEffect(() => {
    if (!run || !firstRun.current) return;
    firstRun.current = false;
    if (initial.settings.step > run.log.length - 1) addNotice(stepNotice(initial.settings.step, run.log.length - 1));
  }, [run, initial, addNotice]);
  const { compared, error: comparedError } = useComparedRun(client, scene, settings);
  const error = runError ?? comparedError;
  const last = run ? run.log.length - 1 : 0;
  const runKey = `${settings.variant} ${settings.seed} ${settings.policy} ${settings.memory ?? 'sc'} ${settings.sched} ${settings.prog}`;
  const { playing, setPlaying, speed, setSpeed, readTick, readNow } = usePlayback(last, setStep, runKey, !!run);
  // The step the panes a person reads show: the step, or while playing the step at a reader's rate (usePlayback.ts).
  const reading = useReadingStep(step, playing, readTick);
  const seek = useCallback(
    (s: number) => {
      setStep(Math.max(0, Math.min(last, s)));
      readNow();
    },
    [last, readNow],
  );

  // The permalink follows the state; while playing, once play stops (replaceState at every frame costs frames).
  useEffect(() => {
    if (!run || playing) return;
    const url = formatUrl({
      lesson: lesson?.id ?? null,
      deck: lesson ? null : (deck?.id ?? null),
      talk: talk,
      slide: talkView.slide,
      embed,
      scene: scene.id,
      variant: run.variant === scene.variants[0] ? null : run.variant,
      compare,
      seed: run.seed,
      policy: run.policy,
      memory: run.memory,
      sched: run.sched,
      prog: run.prog,
      step,
    });
    if (url !== window.location.search) window.history.replaceState(null, '', url);
  }, [run, scene, step, compare, lesson, deck, talk, talkView.slide, embed, playing]);

  // The page's keys, whatever has focus except a text field (ui/keymap.ts); `?` lists them.
  const [help, setHelp] = useState(false);
  const [building, setBuilding] = useState(false);
  const stageRef = useRef<HTMLElement>(null);
  const keys: KeyBinding[] = [
    ...stepBindings('event', step, last, seek, () => setPlaying((p) => !p)),
    { keys: ['t'], shown: 't', what: 'present this state: add it to the talk being built', run: () => run && !embed && setBuilding(true) },
    { keys: ['?'], shown: '?', what: 'this list of keys', run: () => setHelp((h) => !h) },
    {
      keys: ['Escape'],
      shown: 'Esc',
      what: 'close this list or dialog; back to the scene from any control',
      run: () => {
        setHelp(false);
        setBuilding(false);
        leaveControl(stageRef.current);
      },
    },
  ];
  useKeyMap(talk ? null : keys); // talk mode has its own keys

  const state = run ? run.history.at(step) : null;
  const step2 = run && compared ? stepAtTime(compared.peaks, run.log.time[step] ?? 0) : 0;
  const state2 = compared ? compared.history.at(step2) : null;
  useTestHandle({ scene: scene.id, settings, run, error, step, state, seek, compared, step2, state2, traceTitle: `${scene.title}, kernel ${run?.variant ?? variant}, seed ${run?.seed ?? settings.seed}` });

  /** Run these settings, then stand at target; if they are the ones already run, move now. */
  const start = (s: Omit<Settings, 'compare'>, target: number | ((l: EventLog) => number)) => {
    landing.current = target;
    dispatch({ type: 'start', run: s });
    if (run && sameRun(run, s)) {
      landing.current = 0;
      seek(resolveStep(target, run.log));
    }
  };
  // A lesson's start or solution: kernel, seed, policy, schedule and program, then its step (or the end).
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
  const onProgram = programDef ? onProgramText : undefined;

  // Talk mode: every window of the talk shows the same slide and the same demo state.
  const shown = run ?? settings;
  const talkState: TalkState = {
    ...talkView,
    scene: scene.id,
    step,
    variant: shown.variant,
    seed: shown.seed,
    policy: shown.policy,
    sched: shown.sched,
    prog: shown.prog,
  };
  const settled = !!run && sameRun(run, settings);
  // A talk's URL at a slide showing a live state of another scene: the page opens it in place.
  const talkUrl = (v: TalkView, s: LiveState) =>
    formatWhole({ lesson: lesson?.id ?? null, deck: lesson ? null : (deck?.id ?? null), talk, slide: v.slide, scene: s.scene, variant: s.variant, compare: null, seed: s.seed, policy: s.policy, sched: s.sched, prog: s.prog, step: s.step });
  useTalkSync(talk && deck ? `${lesson ? 'lesson' : 'deck'}-${deck.id}` : null, talkState, settled, (t) => {
    const s = { variant: t.variant, seed: t.seed, policy: t.policy as PolicyName, sched: t.sched, prog: t.prog };
    if (t.scene !== scene.id) {
      navigate(talkUrl(t, { ...s, scene: t.scene, step: t.step }));
      return;
    }
    setTalkView({ slide: t.slide, live: t.live, zoom: t.zoom, black: t.black });
    if (run && sameRun(run, s)) {
      setStep(Math.max(0, Math.min(t.step, run.log.length - 1)));
      return;
    }
    // A run of these settings may be on its way, or already in but not yet drawn (its landing used up): both.
    landing.current = t.step;
    if (sameRun(settings, s)) {
      setStep(t.step);
      return;
    }
    dispatch({ type: 'start', run: s });
  });

  const controls = (tools?: ReactNode) => (
    <Controls
      tools={tools}
      disabled={!run}
      playing={playing}
      onPlay={() => setPlaying((p) => !p)}
      step={step}
      shown={reading}
      last={last}
      onSeek={seek}
      speed={speed}
      onSpeed={setSpeed}
      seed={settings.seed}
      onSeed={(s) => {
        if (s === settings.seed) return;
        landing.current = 0;
        dispatch({ type: 'seed', seed: s });
      }}
      variants={scene.variants}
      variant={variant}
      onVariant={(v) => {
        // The new kernel's run opens at the same virtual time (as lock-step compare does).
        const t = run ? run.peaks[step] : 0;
        landing.current = (l: EventLog) => stepAtTime(timePeaks(l.time), t);
        dispatch({ type: 'variant', variant: v });
      }}
      compare={compare}
      onCompare={(c) => dispatch({ type: 'compare', compare: c })}
      policy={settings.policy}
      onPolicy={(p) => {
        landing.current = 0;
        dispatch({ type: 'policy', policy: p });
      }}
      memory={settings.memory ?? 'sc'}
      onMemory={(m) => {
        landing.current = 0;
        dispatch({ type: 'memory', memory: m });
      }}
    />
  );
  // Each step in words, for screen readers; quiet while playing, which would flood it.
  const narration = (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="narration">
      {run && !playing ? narrate(run.log, step, run.labels) : ''}
    </p>
  );
  const ready = run && state != null;
  // The run's slow shrinkers: the scene's for its kernel, unless its set-up (prog) says otherwise.
  const slowNs = run ? ({ slowNs: scene.slowNs?.(run.variant) ?? 0, ...programOptions(scene, run.prog) }.slowNs ?? 0) : 0;
  // A choice at a decision: the policy's own is a step to it; another CPU's, a run of the schedule up to it and that
  // choice, which opens at the decision. What the run then shown has: its schedule and step.
  const choose = useCallback(
    (r: Run, d: number, cpu: number): { sched: string; at: number } => {
      const at = r.decisions.event[d];
      if (cpu === r.decisions.cpu[d]) {
        seek(at);
        return { sched: r.sched, at };
      }
      const sched = r.decisions.schedule(d, cpu);
      landing.current = at;
      dispatch({ type: 'sched', sched });
      return { sched, at };
    },
    [seek, landing],
  );
  // "next function »" in the next-decision panel: one CPU takes the next steps, a decision at a time, until it is in another function
  // (or cannot run, or FOLLOW_MAX choices are made); any other move stops it.
  const [follow, setFollow] = useState<Follow | null>(null);
  useEffect(() => {
    if (!follow || !run) return;
    if (run.sched !== follow.sched) {
      if (settings.sched !== follow.sched) setFollow(null); // another schedule was asked for
      return; // its run is on its way
    }
    if (step !== follow.at) {
      setFollow(null); // the person moved
      return;
    }
    const d = run.decisions.nextAfter(step);
    const here = whereCpu(run.log, run.labels, follow.cpu, step).short;
    if (d < 0 || !run.decisions.runnableCpus(d).includes(follow.cpu) || here !== follow.func || follow.n >= FOLLOW_MAX) {
      setFollow(null);
      return;
    }
    setFollow({ ...follow, ...choose(run, d, follow.cpu), n: follow.n + 1 });
  }, [follow, run, step, settings.sched, choose]);
  // The scheduler's next decision and the choice of another CPU: the page's, and the presenter's in a talk.
  // Made again only when its step or run changes: between the reading ticks of play, React leaves it be.
  const nextStep = useMemo(() => run && (
    <NextStep
      log={run.log}
      decisions={run.decisions}
      labels={run.labels}
      step={reading}
      handChoices={run.sched ? scheduleLength(run.sched) : 0}
      unlinked={tooLongForLink('schedule', run.sched)}
      following={follow && { cpu: follow.cpu, func: follow.func, n: follow.n }}
      onChoose={(d, cpu) => {
        setFollow(null);
        choose(run, d, cpu);
      }}
      onFollow={(d, cpu) => {
        const func = whereCpu(run.log, run.labels, cpu, reading).short;
        setFollow({ cpu, func, n: 1, ...choose(run, d, cpu) });
      }}
      onStop={() => setFollow(null)}
      onClear={() => {
        setFollow(null);
        landing.current = reading;
        dispatch({ type: 'sched', sched: '' });
      }}
    />
  ), [run, reading, landing, follow, choose]);
  const closeHelp = () => {
    setHelp(false);
    stageRef.current?.focus();
  };
  const helpDialog = help && <KeyHelp bindings={keys} onClose={closeHelp} />;
  // The state on screen as a talk's live slide (talks/README.md): the permalink's state parameters alone, the kernel always named.
  const livePermalink = () => {
    if (!run) return '';
    const v: Record<(typeof LIVE_PARAMS)[number], string> = { scene: scene.id, variant: run.variant, seed: String(run.seed), policy: run.policy === 'timed' ? '' : run.policy, sched: run.sched, prog: run.prog, step: String(step) };
    const q = new URLSearchParams();
    for (const k of LIVE_PARAMS) if (v[k]) q.set(k, v[k]);
    return `?${q.toString()}`;
  };
  const builderDialog = building && run && (
    <TalkBuilder
      permalink={livePermalink()}
      label={`${scene.title}, kernel ${run.variant}, seed ${run.seed}, event ${step}`}
      read={(text, name) => readTalkText(text, name, 'imported')}
      onClose={() => {
        setBuilding(false);
        stageRef.current?.focus();
      }}
    />
  );

  // What is the run's, not the step's, is built once per run: playing re-draws only what a step changes.
  const header = useMemo(
    () => (
      <header className="app-head">
        <h1>
          <a href="./" className="home" title="All scenes and lessons">
            Reclaim Lab
          </a>{' '}
          <span className="scene-title">{scene.title}</span>{' '}
          <span className="scene-kernel" data-testid="scene.kernel">
            kernel {run?.variant ?? variant}
            {compare && compare !== (run?.variant ?? variant) ? `, beside it ${compare}` : ''}
          </span>
        </h1>
        <SeriesCard seriesId={seriesOf(scene, run?.variant ?? variant)} branch={run ? kernelBranch(run.log) : null} />
        {compared && seriesOf(scene, compared.variant) && (
          <SeriesCard seriesId={seriesOf(scene, compared.variant)} branch={kernelBranch(compared.log)} beside={compared.variant} />
        )}
        <div className="pickers">
          <ScenePicker current={scene.id} />
          <LessonPicker current={lesson?.id ?? null} />
        </div>
      </header>
    ),
    [scene, run, variant, compare, compared, lesson],
  );
  // What the page does with the run, at the end of its controls (where the seed's row has room): the run as a trace,
  // this state on a slide, the keys. Not in an embed or a talk.
  const runTools = (
    <>
      {run && <TraceExport log={run.log} labels={run.labels} fileName={traceFileName(scene.id, run)} title={`${scene.title}, kernel ${run.variant}, seed ${run.seed}`} />}
      <button type="button" className="keys-button" onClick={() => setBuilding((b) => !b)} disabled={!run} aria-expanded={building} data-testid="builder.open">
        Present this state <kbd>t</kbd>
      </button>
      <button type="button" className="keys-button" onClick={() => setHelp((h) => !h)} aria-expanded={help} data-testid="keys.open">
        Keys <kbd>?</kbd>
      </button>
    </>
  );
  const runParts = useMemo(() => {
    if (!run) return null;
    const log = run.log;
    return (
      <>
        {scene.Measure && <scene.Measure sim={client} />}
        {scene.explore && (
          <ExplorePanel setup={scene.explore} scenario={scene.scenario} variant={run.variant} seed={run.seed}
            params={pickRunParams({ slowNs: scene.slowNs?.(run.variant) ?? 0, ...memoryOption(run.memory), ...programOptions(scene, scene.explore.prog) })}
            program={scene.program?.toBytes(scene.explore.prog) ?? []}
            linkTo={(sched, at) => !fitsLink(sched) ? null : formatUrl({ scene: scene.id, variant: run.variant, compare: null, seed: run.seed, policy: 'timed',
              memory: run.memory, sched, prog: scene.explore!.prog, step: at, lesson: lesson?.id ?? null, talk: null })} />
        )}
        <RunEnd scene={scene} run={run} onSeek={seek} />
        <p className="run-facts" data-testid="run.facts">
          Kernel {run.variant} on the {log.meta.bits}-bit machine{log.meta.bits !== PAGE_WORD_SIZE ? ` (this build has no ${PAGE_WORD_SIZE}-bit module of it)` : ''}, seed {run.seed}, {log.meta.policy} policy, memory model {run.memory ?? 'sc'}{run.sched ? ' after the schedule in the URL' : ''}
          {slowNs ? `, slow shrinkers (count_objects sleeps ${slowNs / 1000} µs)` : ''}: events 0–{log.length - 1} ({log.length}) over {(log.endTime / 1000).toFixed(1)} µs of virtual time on {log.meta.cpus} CPUs; simulated in {run.wallMs.toFixed(0)} ms.
          Virtual time follows the cost model in wasm/runtime/costs.c.
        </p>
      </>
    );
  }, [scene, run, client, lesson, slowNs, seek]);

  // A lesson that has the learner play the scheduler shows the next-decision panel under its text, not under the scene.
  const schedulerInLesson = !!lesson?.opens?.includes('scheduler');
  // The event panels under the scene: what a person reads, so at the reading step (made again only when it moves).
  const readingPanels = useMemo(
    () =>
      run && (
        <WhileSeen>
          {!schedulerInLesson && nextStep}
          <EventPanel log={run.log} step={reading} labels={run.labels} onSeek={seek} />
          <ReportsPanel log={run.log} step={reading} onSeek={seek} reveal />
        </WhileSeen>
      ),
    [run, nextStep, reading, seek, schedulerInLesson],
  );

  if (embed) {
    const full = new URLSearchParams(window.location.search);
    full.delete('embed');
    return (
      <div className="app embed" data-testid={run ? 'scene.ready' : 'scene.loading'}>
        <Notices notices={notices} clean={`?scene=${scene.id}&embed=1`} />
        {controls()}
        {error && (
          <p className="error" role="alert" data-testid="scene.error">
            {error}
          </p>
        )}
        {ready && (
          <main className="layout stage" tabIndex={-1} ref={stageRef} aria-label="The scene" data-testid="stage">
            <div className="left">
              <Stage scene={scene} run={run} state={state} step={step} onSeek={seek} onProgram={onProgram} />
            </div>
            <div className="right">
              <StageCode log={run.log} step={reading} />
            </div>
          </main>
        )}
        <div className="embed-foot muted">
          <a href={`?${full.toString()}`} target="_blank" rel="noreferrer" data-testid="embed.open">
            Open in Reclaim Lab
          </a>{' '}
          — {scene.title}, kernel {run?.variant ?? variant}
          <ScenePicker current={scene.id} target="_blank" />
        </div>
        {narration}
        {helpDialog}
      </div>
    );
  }

  // A new slide: a live one whose state is not the one loaded loads it (in place, or as the page of its scene).
  const onTalkView = (v: TalkView) => {
    const target = deck?.slides[v.slide];
    if (v.slide === talkView.slide || target?.kind !== 'demo' || v.live === v.slide) {
      setTalkView(v);
      return;
    }
    const st = target.state;
    if (st.scene !== scene.id) {
      navigate(talkUrl(v, st));
      return;
    }
    setTalkView({ ...v, live: v.slide });
    const { step: at, scene: _scene, ...r } = st;
    start(r, at);
  };

  if (talk && deck) {
    // The parts of the scene the live slide shows: those it names, else the scene's talk default.
    const live = deck.slides[talkView.live];
    const parts = slideParts(scene, live?.kind === 'demo' ? live.parts : undefined);
    return (
      <div className={`app app-talk app-talk-${talk}`} data-testid={run ? 'scene.ready' : 'scene.loading'}>
        <Talk
          role={talk}
          talk={deck}
          view={talkView}
          onView={onTalkView}
          onStep={(d) => seek(step + d)}
          controls={
            <>
              {controls()}
              {nextStep}
            </>
          }
          menu={
            <>
              <ScenePicker current={scene.id} />
              <LessonPicker current={null} />
              {run && (
                <a href={linkOf(livePermalink())} data-testid="talk.leave">
                  This state in the page
                </a>
              )}
            </>
          }
          run={run}
          step={step}
          variant={run?.variant ?? variant}
          loading={error ?? 'Running the real kernel code on simulated CPUs in a worker…'}
          // The demo once the run is the one asked for (a live slide's state, a seed changed): never a stale run.
          demo={
            ready && settled
              ? {
                  timeline: (
                    <>
                      <Timeline log={run.log} timeline={run.timeline} step={step} onSeek={seek} />
                      <TaskLegend log={run.log} timeline={run.timeline} />
                    </>
                  ),
                  // The slide is the same in both windows; the form that changes the run is the presenter's, beside it.
                  scene: (
                    <>
                      <Stage scene={scene} run={run} state={state} step={step} onSeek={seek} timelineApart parts={parts} />
                      <ReportsPanel log={run.log} step={reading} onSeek={seek} />
                    </>
                  ),
                  code: <StageCode log={run.log} step={reading} wrap />,
                  caption: narrate(run.log, reading, run.labels),
                  form: talk === 'presenter' && scene.program?.Form && onProgram ? <scene.program.Form program={run.prog} onProgram={onProgram} /> : undefined,
                }
              : null
          }
        />
        {narration}
      </div>
    );
  }

  const log = run?.log;
  return (
    <PlayingContext.Provider value={playing}>
      <div className="app" data-testid={run ? 'scene.ready' : 'scene.loading'}>
        {header}
        <Notices notices={notices} clean={lesson ? `?lesson=${lesson.id}` : `?scene=${scene.id}`} />
        {controls(runTools)}
        {narration}
        {helpDialog}
        {builderDialog}
        {/* The scene in a few sentences, across the page (the left column made it twice as tall), while it runs too. */}
        {!lesson && <p className="blurb">{scene.blurb}</p>}
        {error && (
          <p className="error" role="alert" data-testid="scene.error">
            {error}
          </p>
        )}
        {!run && !error && (
          <p className="loading" role="status">
            Running the real kernel code on simulated CPUs in a worker…
          </p>
        )}
        {ready && log && (
          <main className="layout stage" tabIndex={-1} ref={stageRef} aria-label="The scene" data-testid="stage">
            <div className="left">
              {lesson ? (
                <>
                  <LessonPanel lesson={lesson} log={log} variant={run.variant} step={step} onSeek={seek} onApply={applyStart} />
                  {/* The parts its steps use, open under its text (lessons/README.md, opens). */}
                  {schedulerInLesson && nextStep}
                </>
              ) : null}
              {run.prog && !fitsLink(run.prog) && (
                <p className="note" role="status" data-testid="prog.unlinked">
                  {tooLongForLink('program', run.prog)}
                </p>
              )}
              <Stage
                scene={scene}
                run={run}
                state={state}
                step={step}
                onSeek={seek}
                onProgram={onProgram}
                compared={compared ? { run: compared, step: step2, state: state2 } : null}
              />
              {compare && !compared && <p className="loading" role="status">Running {compare} beside it…</p>}
              {readingPanels}
              {runParts}
            </div>
            <div className="right">
              <StageCode log={log} step={reading} />
              {/* What changed compares kernel branches: not for a scene about no series (planted bugs in project code). */}
              {scene.series !== null && <DiffPanel variant={run.variant} site={shownSiteAt(log, reading)?.site ?? null} prefer={scene.diffs} />}
            </div>
          </main>
        )}
      </div>
    </PlayingContext.Provider>
  );
}
