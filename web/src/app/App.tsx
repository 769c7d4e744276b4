// SPDX-License-Identifier: GPL-2.0-only
// The shell: runs the scene's scenario in the worker, keeps the step, the
// controls and the permalink, and lays out the scene, the code pane and
// the event panel.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SimClient, type RunOptions } from '../engine/client';
import { History } from '../engine/history';
import { buildTimeline, type Timeline } from '../engine/machine';
import { kernelBranch, shownContext, shownSiteAt } from '../engine/codesite';
import { collectLabels, narrate, type Labels } from '../engine/narrate';
import type { EventLog } from '../engine/log';
import type { Decisions } from '../engine/decisions';
import { Policy } from '../engine/generated/events';
import { SCENES, findScene } from '../scenes/registry';
import type { SceneDef } from '../scenes/types';
import { CodePane } from '../ui/CodePane';
import { DiffPanel } from '../ui/DiffPanel';
import { EventPanel } from '../ui/EventPanel';
import { NextStep } from '../ui/NextStep';
import { ReportsPanel } from '../ui/ReportsPanel';
import { Controls } from './Controls';
import { SeriesCard } from './SeriesCard';
import { formatUrl, parseUrl, type PolicyName } from './url';
import { findLesson, type LessonStart } from '../lessons/lessons';
import { LessonPanel, LessonPicker } from '../lessons/LessonPanel';
import { Talk, useTalkSync, type TalkRole } from '../talk/Talk';
import type { TalkState } from '../talk/slides';

interface Run {
  variant: string;
  seed: number;
  policy: PolicyName;
  sched: string;
  prog: string;
  log: EventLog;
  decisions: Decisions;
  history: History<unknown>;
  timeline: Timeline;
  labels: Labels;
  wallMs: number;
}

declare global {
  interface Window {
    __lab?: unknown;
  }
}

/** How many decisions a schedule text holds. */
/** What a scene's program text asks of a run: its bytes, and any settings it carries. Throws with what is wrong. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function programOptions(scene: SceneDef<any>, prog: string): RunOptions {
  if (!scene.program) return {};
  return { program: prog ? scene.program.toBytes(prog) : [], ...scene.program.options?.(prog) };
}

/** The series a scene is about on a kernel (null: none). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function seriesOf(scene: SceneDef<any>, variant: string): string | null {
  return typeof scene.series === 'function' ? scene.series(variant) : scene.series;
}

function scheduleLength(text: string): number {
  return text.split('.').reduce((n, run) => n + (run.includes('x') ? Number(run.split('x')[1]) : 1), 0);
}

/** The compared run's step at the same virtual time as the main run's step (lock-step). */
function stepAtTime(log: EventLog, peak: Float64Array, t: number): number {
  // peak[i] = the latest time among events 0..i: monotonic even when a policy interleaves clocks.
  let lo = 0;
  let hi = log.length - 1;
  if (hi < 0 || peak[0] > t) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (peak[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function timePeaks(log: EventLog): Float64Array {
  const p = new Float64Array(log.length);
  for (let i = 0, m = 0; i < log.length; i++) p[i] = m = Math.max(m, log.time[i]);
  return p;
}

interface Compared {
  variant: string;
  log: EventLog;
  history: History<unknown>;
  timeline: Timeline;
  labels: Labels;
  peaks: Float64Array;
}

// One worker for the page's lifetime (effects may run twice in development).
let client: SimClient | null = null;
function sharedClient(): SimClient {
  client ??= new SimClient();
  return client;
}

export function App() {
  const initial = useMemo(() => {
    const u = parseUrl(window.location.search);
    const lesson = findLesson(u.lesson);
    if (!lesson) return { ...u, lessonFound: null };
    // A lesson opens on its start state; what the URL says explicitly wins (a permalink into a lesson).
    const q = new URLSearchParams(window.location.search);
    const s = lesson.start;
    return {
      ...u,
      scene: lesson.scene,
      variant: q.has('variant') ? u.variant : s.variant,
      seed: q.has('seed') ? u.seed : s.seed,
      policy: q.has('policy') ? u.policy : s.policy,
      sched: q.has('sched') ? u.sched : s.sched,
      prog: q.has('prog') ? u.prog : s.prog,
      step: q.has('step') ? u.step : (s.step ?? 0),
      lessonFound: lesson,
    };
  }, []);
  const lesson = initial.lessonFound;
  const talk: TalkRole | null = lesson && initial.talk ? (initial.talk === 'presenter' ? 'presenter' : 'audience') : null;
  const [slide, setSlide] = useState(0);
  // Embed mode (an iframe in slides or a blog post): the scene, its code and the controls only.
  const embed = !!initial.embed;
  const scene = findScene(initial.scene) ?? SCENES[0];
  const [variant, setVariant] = useState(
    initial.variant && scene.variants.includes(initial.variant) ? initial.variant : scene.variants[0],
  );
  const [seed, setSeed] = useState(initial.seed);
  const [policy, setPolicy] = useState<PolicyName>(initial.policy);
  const [sched, setSched] = useState(initial.sched);
  const [prog, setProg] = useState(scene.program ? initial.prog : '');
  const [compare, setCompare] = useState<string | null>(
    initial.compare && scene.variants.includes(initial.compare) ? initial.compare : null,
  );
  const [compared, setCompared] = useState<Compared | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const [step, setStep] = useState(initial.step);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(16);
  const [error, setError] = useState<string | null>(null);
  const [notes] = useState<string[]>(() => [
    ...initial.errors,
    ...(initial.scene && !findScene(initial.scene) ? [`There is no scene "${initial.scene}"; showing "${scene.title}".`] : []),
    ...(initial.variant && !scene.variants.includes(initial.variant)
      ? [`This scene does not run on "${initial.variant}"; showing ${scene.variants[0]}.`]
      : []),
    ...(initial.compare && !scene.variants.includes(initial.compare)
      ? [`This scene cannot compare with "${initial.compare}"; it runs on ${scene.variants.join(', ')}.`]
      : []),
    ...(initial.prog && !scene.program ? [`This scene takes no program; ignored prog=${initial.prog}.`] : []),
    ...(initial.lesson && !lesson ? [`There is no lesson "${initial.lesson}".`] : []),
  ]);
  const client = useMemo(sharedClient, []);
  // Where to stand once the next run is in: the permalink's step at first,
  // the start for a new seed or policy, the chosen step after a hand choice.
  const stepAfterRun = useRef<number | ((log: EventLog) => number)>(initial.step);

  // Run the scenario whenever seed, policy or schedule change (in the worker).
  useEffect(() => {
    let live = true;
    setError(null);
    setPlaying(false);
    let setup: RunOptions;
    try {
      setup = programOptions(scene, prog);
    } catch (e) {
      setError(`The program in the URL: ${(e as Error).message}`);
      return;
    }
    client.run(scene.scenario, seed, { variant, policy: Policy[policy], schedule: sched, slowNs: scene.slowNs?.(variant) ?? 0, ...setup }).then(
      ({ log, decisions, wallMs }) => {
        if (!live) return;
        if (log.length === 0) {
          setError('The simulation produced no events.');
          return;
        }
        const history = new History(log, scene.reducer);
        setRun({ variant, seed, policy, sched, prog, log, decisions, history, timeline: buildTimeline(log), labels: collectLabels(log), wallMs });
        const target = stepAfterRun.current;
        stepAfterRun.current = 0;
        setStep(Math.max(0, Math.min(typeof target === 'function' ? target(log) : target, log.length - 1)));
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [client, scene, variant, seed, policy, sched, prog]);

  // The compared kernel: same scenario, seed and policy, no hand-made schedule.
  useEffect(() => {
    let live = true;
    setCompared(null);
    if (!compare || compare === variant) return;
    let setup: RunOptions;
    try {
      setup = programOptions(scene, prog);
    } catch {
      return; // the main run reports it
    }
    client.run(scene.scenario, seed, { variant: compare, policy: Policy[policy], slowNs: scene.slowNs?.(compare) ?? 0, ...setup }).then(
      ({ log }) => {
        if (!live || log.length === 0) return;
        setCompared({
          variant: compare,
          log,
          history: new History(log, scene.reducer),
          timeline: buildTimeline(log),
          labels: collectLabels(log),
          peaks: timePeaks(log),
        });
      },
      (e: Error) => live && setError(`${compare}: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, [client, scene, compare, variant, seed, policy, prog]);

  const last = run ? run.log.length - 1 : 0;
  const seek = useCallback((s: number) => setStep(Math.max(0, Math.min(last, s))), [last]);

  // Play: advance `speed` events per second, in whole events per frame.
  useEffect(() => {
    if (!playing || !run) return;
    let raf = 0;
    let prev = performance.now();
    let acc = 0;
    const tick = (now: number) => {
      acc += ((now - prev) * speed) / 1000;
      prev = now;
      const n = Math.floor(acc);
      if (n > 0) {
        acc -= n;
        setStep((s) => {
          const next = Math.min(last, s + n);
          if (next >= last) setPlaying(false);
          return next;
        });
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, run, last]);

  // The permalink follows the state.
  useEffect(() => {
    if (!run) return;
    const url = formatUrl({
      lesson: lesson?.id ?? null,
      talk: talk,
      embed,
      scene: scene.id,
      variant: run.variant === scene.variants[0] ? null : run.variant,
      compare,
      seed: run.seed,
      policy: run.policy,
      sched: run.sched,
      prog: run.prog,
      step,
    });
    if (url !== window.location.search) window.history.replaceState(null, '', url);
  }, [run, scene, step, compare, lesson, talk, embed]);

  // Keyboard: space plays, arrows step, Home/End jump (not while typing).
  useEffect(() => {
    if (talk) return; // talk mode has its own keys
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('input, select, textarea') || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === ' ' && !t.closest('button')) {
        setPlaying((p) => !p);
      } else if (e.key === 'ArrowRight') {
        seek(step + (e.shiftKey ? 10 : 1));
      } else if (e.key === 'ArrowLeft') {
        seek(step - (e.shiftKey ? 10 : 1));
      } else if (e.key === 'Home') {
        seek(0);
      } else if (e.key === 'End') {
        seek(last);
      } else {
        return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [seek, step, last, talk]);

  const state = run ? run.history.at(step) : null;
  const step2 = run && compared ? stepAtTime(compared.log, compared.peaks, run.log.time[step] ?? 0) : 0;
  const state2 = compared ? compared.history.at(step2) : null;
  // Never a blank code pane: this event's line, else the last line its CPU ran, else the run's entry.
  const shown = run ? shownSiteAt(run.log, step) : null;
  const shownSite = shown?.site ?? null;
  const context = run ? shownContext(run.log, step, shown) : '';

  // The test handle: tests read state through it, not through pixels alone.
  useEffect(() => {
    window.__lab = {
      ready: !!run,
      error,
      scene: scene.id,
      scenes: SCENES.map((s) => s.id),
      sceneDefs: SCENES.map((s) => ({ id: s.id, title: s.title, variants: s.variants })),
      variant: run?.variant ?? variant,
      seed: run?.seed ?? seed,
      policy: run?.policy ?? policy,
      sched: run?.sched ?? sched,
      prog: run?.prog ?? prog,
      decisions: () => (run ? { length: run.decisions.length, schedule: run.log.meta.schedule } : null),
      step,
      length: run?.log.length ?? 0,
      event: () => (run ? { ...run.log.event(step), kindName: run.log.meta.kinds[run.log.kind[step]].name } : null),
      site: () => (run ? run.log.siteOf(step) : null),
      codeShown: () => (shown ? { how: shown.how, at: shown.at, ...shown.site } : null),
      narration: () => (run ? narrate(run.log, step, run.labels) : ''),
      state: () => state,
      meta: () => run?.log.meta ?? null,
      nextDecision: () => {
        if (!run) return null;
        const d = run.decisions.nextAfter(step);
        return d < 0 ? null : { index: d, event: run.decisions.event[d], cpu: run.decisions.cpu[d], runnable: run.decisions.runnableCpus(d) };
      },
      goTo: (s: number) => seek(s),
      /** The first event of a kind at or after step from (-1: none). */
      find: (kind: string, from: number) => {
        if (!run) return -1;
        const k = run.log.meta.kinds.findIndex((x) => x.name === kind);
        for (let i = Math.max(0, from); i < run.log.length; i++) if (run.log.kind[i] === k) return i;
        return -1;
      },
      compared: () =>
        compared ? { variant: compared.variant, step: step2, length: compared.log.length, state: state2, time: compared.log.time[step2] } : null,
    };
  }, [run, step, state, error, scene, variant, seed, policy, sched, seek, compared, step2, state2, shown]);

  const View = scene.View;
  const log = run?.log;
  // A lesson's start or solution: kernel, seed, policy, schedule and program, then its step (or the end).
  const applyStart = (s: LessonStart) => {
    if (!scene.variants.includes(s.variant)) return;
    stepAfterRun.current = s.step !== undefined ? s.step : (l: EventLog) => l.length - 1;
    setCompare(null);
    setVariant(s.variant);
    setSeed(s.seed);
    setPolicy(s.policy);
    setSched(s.sched);
    setProg(scene.program ? s.prog : '');
    // Nothing changed: no rerun will come, so move now.
    if (run && run.variant === s.variant && run.seed === s.seed && run.policy === s.policy && run.sched === s.sched && run.prog === (scene.program ? s.prog : '')) {
      const t = stepAfterRun.current;
      stepAfterRun.current = 0;
      seek(typeof t === 'function' ? t(run.log) : t);
    }
  };
  const programDef = scene.program;
  const programProps = programDef
    ? {
        program: run?.prog ?? prog,
        onProgram: (text: string) => {
          // A new program keeps seed, kernel and policy; the hand schedule belonged to the old one.
          const n = text ? programDef.length(text) : 0;
          stepAfterRun.current = n > 0 ? (l: EventLog) => programDef.stepAfter(l, n) : 0;
          setSched('');
          setProg(text);
        },
      }
    : {};

  // Talk mode: every window of the talk shows the same slide and the same demo state.
  const talkState: TalkState = {
    slide,
    step,
    variant: run?.variant ?? variant,
    seed: run?.seed ?? seed,
    policy: run?.policy ?? policy,
    sched: run?.sched ?? sched,
    prog: run?.prog ?? prog,
  };
  const settled = !!run && run.variant === variant && run.seed === seed && run.policy === policy && run.sched === sched && run.prog === prog;
  useTalkSync(talk ? lesson!.id : null, talkState, settled, (t) => {
    setSlide(t.slide);
    if (run && t.variant === run.variant && t.seed === run.seed && t.policy === run.policy && t.sched === run.sched && t.prog === run.prog) {
      setStep(Math.max(0, Math.min(t.step, run.log.length - 1)));
      return;
    }
    stepAfterRun.current = t.step;
    setCompare(null);
    setVariant(t.variant);
    setSeed(t.seed);
    setPolicy(t.policy as PolicyName);
    setSched(t.sched);
    setProg(t.prog);
  });

  const controlsEl = (
    <Controls
      disabled={!run}
      playing={playing}
      onPlay={() => setPlaying((p) => !p)}
      step={step}
      last={last}
      onSeek={seek}
      speed={speed}
      onSpeed={setSpeed}
      seed={seed}
      onSeed={(s) => {
        if (s === seed) return;
        stepAfterRun.current = 0;
        setSched('');
        setSeed(s);
      }}
      variants={scene.variants}
      variant={variant}
      onVariant={(v) => {
        stepAfterRun.current = 0;
        setSched('');
        setVariant(v);
        if (v === compare) setCompare(null);
      }}
      compare={compare}
      onCompare={setCompare}
      policy={policy}
      onPolicy={(p) => {
        stepAfterRun.current = 0;
        setSched('');
        setPolicy(p);
      }}
    />
  );

  if (embed) {
    const full = new URLSearchParams(window.location.search);
    full.delete('embed');
    return (
      <div className="app embed" data-testid={run ? 'scene.ready' : 'scene.loading'}>
        {controlsEl}
        {error && (
          <p className="error" role="alert" data-testid="scene.error">
            {error}
          </p>
        )}
        {run && log && state != null && (
          <main className="layout">
            <div className="left">
              <View log={log} timeline={run.timeline} labels={run.labels} state={state} step={step} onSeek={seek} variant={run.variant} {...programProps} />
            </div>
            <div className="right">
              <CodePane site={shownSite} context={context} shown={shown?.how} />
            </div>
          </main>
        )}
        <p className="embed-foot muted">
          <a href={`?${full.toString()}`} target="_blank" rel="noreferrer" data-testid="embed.open">
            Open in Reclaim Lab
          </a>{' '}
          — {scene.title}, kernel {run?.variant ?? variant}
        </p>
        <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="narration">
          {run && !playing ? narrate(run.log, step, run.labels) : ''}
        </p>
      </div>
    );
  }

  if (talk && lesson) {
    return (
      <div className="app" data-testid={run ? 'scene.ready' : 'scene.loading'}>
        <Talk
          role={talk}
          lesson={lesson}
          slide={slide}
          onSlide={setSlide}
          onStep={(d) => seek(step + d)}
          controls={controlsEl}
          demo={
            run && log && state != null ? (
              <div className="talk-demo">
                {/* The audience watches; actions are the presenter's. */}
                <View log={log} timeline={run.timeline} labels={run.labels} state={state} step={step} onSeek={seek} variant={run.variant}
                  {...(talk === 'presenter' ? programProps : { program: run.prog })} />
                <CodePane site={shownSite} context={context} shown={shown?.how} />
              </div>
            ) : (
              <p className="loading" role="status">
                {error ?? 'Running the real kernel code on simulated CPUs in a worker…'}
              </p>
            )
          }
        />
        <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="narration">
          {run && !playing ? narrate(run.log, step, run.labels) : ''}
        </p>
      </div>
    );
  }

  return (
    <div className="app" data-testid={run ? 'scene.ready' : 'scene.loading'}>
      <header className="app-head">
        <h1>
          Reclaim Lab <span className="scene-title">{scene.title}</span>{' '}
          <span className="scene-kernel" data-testid="scene.kernel">
            kernel {run?.variant ?? variant}
            {compare && compare !== (run?.variant ?? variant) ? `, beside it ${compare}` : ''}
          </span>
        </h1>
        <SeriesCard seriesId={seriesOf(scene, run?.variant ?? variant)} branch={run ? kernelBranch(run.log) : null} />
        {compared && seriesOf(scene, compared.variant) && (
          <SeriesCard seriesId={seriesOf(scene, compared.variant)} branch={kernelBranch(compared.log)} beside={compared.variant} />
        )}
        <LessonPicker current={lesson?.id ?? null} />
      </header>
      {notes.map((n) => (
        <p key={n} className="note" role="status">
          {n}
        </p>
      ))}
      {controlsEl}
      {/* Each step in words, for screen readers; quiet while playing, which would flood it. */}
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="narration">
        {run && !playing ? narrate(run.log, step, run.labels) : ''}
      </p>
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
      {run && log && state != null && (
        <main className="layout">
          <div className="left">
            {lesson ? (
              <LessonPanel
                lesson={lesson}
                log={log}
                variant={run.variant}
                step={step}
                onSeek={seek}
                onApply={applyStart}
              />
            ) : (
              <p className="blurb">{scene.blurb}</p>
            )}
            {compared && state2 != null ? (
              <div className="side-by-side" data-testid="compare">
                <section aria-label={`kernel ${run.variant}`}>
                  <h2 className="side-title">{run.variant}</h2>
                  <View log={log} timeline={run.timeline} labels={run.labels} state={state} step={step} onSeek={seek} variant={run.variant} {...programProps} />
                </section>
                <section aria-label={`kernel ${compared.variant}, in lock-step`} data-testid="compare.other">
                  <h2 className="side-title">
                    {compared.variant}{' '}
                    <span className="muted">
                      event {step2} of 0–{compared.log.length - 1}, at the same virtual time ({(compared.log.time[step2] / 1000).toFixed(1)} µs)
                    </span>
                  </h2>
                  <View
                    log={compared.log}
                    timeline={compared.timeline}
                    labels={compared.labels}
                    state={state2}
                    step={step2}
                    onSeek={(s2) => {
                      // Seeking in the compared run moves the main run to the same virtual time.
                      const t = compared.log.time[Math.max(0, Math.min(s2, compared.log.length - 1))];
                      seek(stepAtTime(run.log, timePeaks(run.log), t));
                    }}
                    variant={compared.variant}
                    program={run.prog}
                  />
                </section>
              </div>
            ) : (
              <View log={log} timeline={run.timeline} labels={run.labels} state={state} step={step} onSeek={seek} variant={run.variant} {...programProps} />
            )}
            {compare && !compared && <p className="loading" role="status">Running {compare} beside it…</p>}
            <NextStep
              log={log}
              decisions={run.decisions}
              step={step}
              handChoices={run.sched ? scheduleLength(run.sched) : 0}
              onChoose={(d, cpu) => {
                if (cpu === run.decisions.cpu[d]) {
                  seek(run.decisions.event[d]);
                  return;
                }
                stepAfterRun.current = run.decisions.event[d];
                setSched(run.decisions.schedule(d, cpu));
              }}
              onClear={() => {
                stepAfterRun.current = step;
                setSched('');
              }}
            />
            <EventPanel log={log} step={step} labels={run.labels} onSeek={seek} />
            <ReportsPanel log={log} step={step} onSeek={seek} />
            {scene.Measure && <scene.Measure sim={client} />}
            <p className="run-facts" data-testid="run.facts">
              Kernel {run.variant}, seed {run.seed}, {log.meta.policy} policy{run.sched ? ' after the schedule in the URL' : ''}
              {scene.slowNs?.(run.variant) ? `, slow shrinkers (count_objects sleeps ${scene.slowNs(run.variant) / 1000} µs)` : ''}: events 0–{log.length - 1} ({log.length}) over {(log.endTime / 1000).toFixed(1)} µs of virtual time on {log.meta.cpus} CPUs
              ({log.meta.status}, {log.meta.live_objects} objects left at teardown); simulated in {run.wallMs.toFixed(0)} ms.
              Virtual time follows the cost model in wasm/runtime/costs.c.
            </p>
          </div>
          <div className="right">
            <CodePane site={shownSite} context={context} shown={shown?.how} />
            {/* What changed compares kernel branches: not for a scene about no series (planted bugs in project code). */}
            {scene.series !== null && <DiffPanel variant={run.variant} site={shownSite} prefer={scene.diffs} />}
          </div>
        </main>
      )}
    </div>
  );
}
