// SPDX-License-Identifier: GPL-2.0-only
// The full page: the header, the controls, the scene (or a lesson beside
// it) with the panels a person reads under it, and the code pane and what
// changed on the right.
import { memo, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SimClient } from '../../engine/client';
import { kernelBranch, shownSiteAt } from '../../engine/codesite';
import { pickRunParams } from '../../engine/generated/params';
import type { RunState } from '../../engine/runState';
import { PAGE_WORD_SIZE } from '../../engine/wordsize';
import { ExplorePanel } from '../../explore/ExplorePanel';
import type { Lesson } from '../../lessons/lessons';
import { LessonPanel, LessonPicker } from '../../lessons/LessonPanel';
import type { SceneDef } from '../../scenes/types';
import { TalkBuilder } from '../../talk/TalkBuilder';
import { DiffPanel } from '../../ui/DiffPanel';
import { EventPanel } from '../../ui/EventPanel';
import { ReportsPanel } from '../../ui/ReportsPanel';
import { TraceExport } from '../../ui/TraceExport';
import { PlayingContext, WhileSeen } from '../../ui/WhileSeen';
import { ScenePicker } from '../Landing';
import { Notices, RunEnd } from '../Notices';
import { SeriesCard } from '../SeriesCard';
import { Stage, StageCode } from '../Stage';
import { readTalkText } from '../talks';
import type { Lab } from '../useLab';
import type { Compared, Run } from '../useRuns';
import { memoryOption, programOptions } from '../useRuns';
import { BUILT, IMPORTED } from '../../talk/talks';
import { cleanLink, deckLink, exploreLink, fitsLink, lessonLink, liveLink, liveWords, openAddress, openLesson, tooLongForLink } from '../url';
import { Narration, RunControls, usePageKeys } from './shared';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyScene = SceneDef<any>;

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
function seriesOf(scene: AnyScene, variant: string): string | null {
  return typeof scene.series === 'function' ? scene.series(variant) : scene.series;
}

/** The page's title line, the series cards and the pickers: the run's, not the step's (drawn once per run). */
const Header = memo(function Header({ scene, run, variant, compare, compared, lesson }: { scene: AnyScene; run: Run | null; variant: string; compare: string | null; compared: Compared | null; lesson: Lesson | null }) {
  return (
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
        <LessonPicker current={lesson?.id ?? null} open={openLesson} />
      </div>
    </header>
  );
});

/** What is the run's under the panels: the scene's measurement, the explorer, how the run ended, its facts. */
const RunParts = memo(function RunParts({ scene, run, client, lesson, slowNs, seek }: { scene: AnyScene; run: Run; client: SimClient; lesson: Lesson | null; slowNs: number; seek: (s: number) => void }) {
  const log = run.log;
  const explores = scene.explores ?? [];
  // The set-up the run is of, when it is one (a link from a search opens on its race), else the first.
  const ofRun = explores.findIndex((e) => e.prog === run.prog);
  const [which, setWhich] = useState(() => Math.max(0, ofRun));
  // A run of another race's set-up (the setup's controls, a link) brings its race up.
  useEffect(() => { if (ofRun >= 0) setWhich(ofRun); }, [ofRun]);
  const setup = explores[Math.min(which, explores.length - 1)];
  return (
    <>
      {scene.Measure && <scene.Measure sim={client} />}
      {explores.length > 1 && (
        <label className="explore-race-pick" data-testid="explore.race">
          Race to explore{' '}
          <select value={which} onChange={(e) => setWhich(Number(e.target.value))}>
            {explores.map((e, i) => <option key={e.prog} value={i}>{e.title} (prog={e.prog})</option>)}
          </select>
        </label>
      )}
      {setup && (
        <ExplorePanel key={setup.prog} setup={setup} scenario={scene.scenario} variant={run.variant} seed={run.seed}
          params={pickRunParams({ slowNs: scene.slowNs?.(run.variant) ?? 0, ...memoryOption(run.memory), ...programOptions(scene, setup.prog) })}
          program={scene.program?.toBytes(setup.prog) ?? []}
          linkTo={(sched, at) => exploreLink({ scene: scene.id, lesson: lesson?.id ?? null }, { variant: run.variant, seed: run.seed, sched, prog: setup.prog, memory: run.memory }, at)} />
      )}
      <RunEnd scene={scene} run={run} onSeek={seek} />
      <p className="run-facts" data-testid="run.facts">
        Kernel {run.variant} on the {log.meta.bits}-bit machine{log.meta.bits !== PAGE_WORD_SIZE ? ` (this build has no ${PAGE_WORD_SIZE}-bit module of it)` : ''}, seed {run.seed}, {log.meta.policy} policy, memory model {run.memory ?? 'sc'}{run.sched ? ' after the schedule in the URL' : ''}
        {slowNs ? `, slow shrinkers (count_objects sleeps ${slowNs / 1000} µs)` : ''}: events 0–{log.length - 1} ({log.length}) over {(log.endTime / 1000).toFixed(1)} µs of virtual time on {log.meta.cpus} CPUs; simulated in {run.wallMs.toFixed(0)} ms.
        Virtual time follows the cost model in wasm/runtime/costs.c.
      </p>
    </>
  );
});

export function PageLayout({ lab, nextStep }: { lab: Lab; nextStep: ReactNode }) {
  const { initial: { scene, lesson }, settings, run, compared, error, state, step, step2, state2, reading, seek, playing, client, slowNs, onProgram, applyStart, notices } = lab;
  const { variant, compare } = settings;
  const { stageRef, help, setHelp, building, setBuilding, helpDialog, backToStage } = usePageKeys(lab);

  const builderDialog = building && run && (
    <TalkBuilder
      permalink={liveLink(scene.id, run, step)}
      label={`${scene.title}, kernel ${run.variant}, seed ${run.seed}, event ${step}`}
      read={(text, name) => readTalkText(text, name, IMPORTED)}
      liveWords={liveWords}
      presentLink={deckLink(BUILT)}
      openImported={() => openAddress(deckLink(IMPORTED))}
      onClose={() => {
        setBuilding(false);
        backToStage();
      }}
    />
  );
  // What the page does with the run, at the end of its controls (where the seed's row has room): the run as a trace,
  // this state on a slide, the keys.
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

  const log = run?.log;
  return (
    <PlayingContext.Provider value={playing}>
      <div className="app" data-testid={run ? 'scene.ready' : 'scene.loading'}>
        <Header scene={scene} run={run} variant={variant} compare={compare} compared={compared} lesson={lesson} />
        <Notices notices={notices} clean={cleanLink({ scene: scene.id, lesson: lesson?.id ?? null })} />
        <RunControls lab={lab} tools={runTools} />
        <Narration lab={lab} />
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
        {run && state != null && log && (
          <main className="layout stage" tabIndex={-1} ref={stageRef} aria-label="The scene" data-testid="stage">
            <div className="left">
              {lesson ? (
                <>
                  <LessonPanel lesson={lesson} log={log} variant={run.variant} step={step} onSeek={seek} onApply={applyStart} lessonLink={lessonLink} />
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
              <RunParts scene={scene} run={run} client={client} lesson={lesson} slowNs={slowNs} seek={seek} />
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
