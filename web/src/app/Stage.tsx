// SPDX-License-Identifier: GPL-2.0-only
// The scene at the step: one element for every layout (full page, embed,
// talk). The stage draws the frame every scene shares (the time axis, its
// key of tasks, the CPU cards) and the scene's view its subject inside it.
// With a compared run, the two kernels side by side in lock-step.
import { memo, useState, type ReactNode } from 'react';
import { stepAtTime } from '../engine/lockstep';
import type { EventLog } from '../engine/log';
import type { MachineState, Timeline as RunTimeline } from '../engine/machine';
import type { Labels } from '../engine/narrate';
import { shownContext, shownSiteAt } from '../engine/codesite';
import { staleRead, storeWords } from '../engine/stale';
import { shows, type SceneDef } from '../scenes/types';
import { CodePane } from '../ui/CodePane';
import { CpuCards, CpuCardsFolded } from '../ui/CpuCards';
import type { UnseenAt } from '../engine/unseen';
import { useUnseen } from './useUnseen';
import { TaskLegend } from '../ui/TaskLegend';
import { Timeline } from '../ui/Timeline';
import { WhileSeen } from '../ui/WhileSeen';
import type { Compared, Run } from './useRuns';
import './Stage.css';

interface Props {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  scene: SceneDef<any>;
  run: Run;
  state: unknown;
  step: number;
  onSeek: (step: number) => void;
  /** Replace the program and run again (absent where the viewer only watches). */
  onProgram?: (text: string) => void;
  /** The compared run and its step at the same virtual time. */
  compared?: { run: Compared; step: number; state: unknown } | null;
  /** The layout draws the time axis apart (talk mode: StageAxis, across the slide). */
  timelineApart?: boolean;
  /** The parts of the scene to draw (a slide's); absent: all. */
  parts?: ReadonlySet<string>;
}

/** The time axis and its key: the frame's top, drawn across the slide by a talk (timelineApart). */
export function StageAxis({ log, timeline, step, onSeek, tasks = true }: { log: EventLog; timeline: RunTimeline; step: number; onSeek: (step: number) => void; tasks?: boolean }) {
  return (
    <>
      <Timeline log={log} timeline={timeline} step={step} onSeek={onSeek} />
      {tasks && <TaskLegend log={log} timeline={timeline} />}
    </>
  );
}

interface FramedProps {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  scene: SceneDef<any>;
  log: EventLog;
  timeline: RunTimeline;
  labels: Labels;
  state: unknown;
  step: number;
  onSeek: (step: number) => void;
  variant: string;
  program?: string;
  onProgram?: (text: string) => void;
  timelineApart?: boolean;
  parts?: ReadonlySet<string>;
  /** What each CPU has not yet seen (the main run's, under tso and relaxed). */
  unseen?: UnseenAt;
  /** Folded CPU cards opened or closed. */
  onCardsOpen?: (open: boolean) => void;
}

/** One run's scene: the frame (the scene's SceneFrame says how it differs) around the view. */
function Framed({ scene, log, timeline, state, step, onSeek, timelineApart, parts, unseen, onCardsOpen, ...rest }: FramedProps) {
  const View = scene.View;
  const frame = scene.frame ?? {};
  const view = <View log={log} timeline={timeline} state={state} step={step} onSeek={onSeek} parts={parts} {...rest} />;
  const machine = (state as { machine: MachineState }).machine;
  const cpu = step >= 0 ? log.cpu[step] : 0;
  const cpus = shows(parts, 'cpus');
  const stale = unseen && step >= 0 && step < log.length ? staleRead(log, step) : null;
  const focus = stale ? { cpu, obj: stale.obj, name: log.siteOf(step)?.expr ?? null } : null;
  return (
    <div className="scene">
      {frame.viewFirst && view}
      {!timelineApart && <StageAxis log={log} timeline={timeline} step={step} onSeek={onSeek} tasks={frame.tasks !== false} />}
      {cpus && frame.cpus !== 'folded' && <CpuCards log={log} machine={machine} cpu={cpu} unseen={unseen} labels={rest.labels} focus={focus} />}
      {!frame.viewFirst && view}
      {/* Below the fold on most screens: held while out of view during play (ui/WhileSeen.tsx). */}
      {cpus && frame.cpus === 'folded' && (
        <WhileSeen>
          <CpuCardsFolded log={log} machine={machine} cpu={cpu} unseen={unseen} labels={rest.labels} focus={focus} onOpen={onCardsOpen} />
        </WhileSeen>
      )}
    </div>
  );
}

export function Stage({ scene, run, state, step, onSeek, onProgram, compared, timelineApart, parts }: Props): ReactNode {
  const program = scene.program ? { program: run.prog, ...(onProgram ? { onProgram } : {}) } : {};
  const [cardsOpen, setCardsOpen] = useState(false);
  const unseen = useUnseen(scene, run, step, shows(parts, 'cpus') && (scene.frame?.cpus !== 'folded' || cardsOpen));
  const main = (
    <Framed scene={scene} log={run.log} timeline={run.timeline} labels={run.labels} state={state} step={step} onSeek={onSeek} variant={run.variant} timelineApart={timelineApart} parts={parts} unseen={unseen} onCardsOpen={setCardsOpen} {...program} />
  );
  if (!compared || compared.state == null) return main;
  const other = compared.run;
  const step2 = compared.step;
  return (
    <div className="side-by-side" data-testid="compare">
      <section aria-label={`kernel ${run.variant}`}>
        <h2 className="side-title">{run.variant}</h2>
        {main}
      </section>
      <section aria-label={`kernel ${other.variant}, in lock-step`} data-testid="compare.other">
        <h2 className="side-title">
          {other.variant}{' '}
          <span className="muted">
            event {step2} of 0–{other.log.length - 1}, at the same virtual time ({(other.log.time[step2] / 1000).toFixed(1)} µs)
          </span>
        </h2>
        <Framed
          scene={scene}
          log={other.log}
          timeline={other.timeline}
          labels={other.labels}
          state={compared.state}
          step={step2}
          onSeek={(s2) => {
            // Seeking in the compared run moves the main run to the same virtual time.
            const t = other.log.time[Math.max(0, Math.min(s2, other.log.length - 1))];
            onSeek(stepAtTime(run.peaks, t));
          }}
          variant={other.variant}
          program={run.prog}
        />
      </section>
    </div>
  );
}

/** The code pane at a step: never blank (engine/codesite.ts). Drawn again only when its step or log changes. wrap: a slide's (CodePane). */
export const StageCode = memo(function StageCode({ log, step, wrap }: { log: EventLog; step: number; wrap?: boolean }) {
  const shown = shownSiteAt(log, step);
  return <CodePane site={shown?.site ?? null} context={shownContext(log, step, shown)} shown={shown?.how} wrap={wrap} also={staleStoreLine(log, step)} />;
});

/** At a stale load, the newer store it missed: its line lit too when the machine knows it and it is in the load's file. */
function staleStoreLine(log: EventLog, step: number): { line: number; words: string } | null {
  const r = step >= 0 && step < log.length ? staleRead(log, step) : null;
  if (!r) return null;
  const same = !!r.store && !!r.load && r.store.tree === r.load.tree && r.store.file === r.load.file;
  return { line: same ? r.store!.line : 0, words: `CPU${log.cpu[step]} has not yet seen ${storeWords(log, r)}` };
}
