// SPDX-License-Identifier: GPL-2.0-only
// A lesson on a real kernel's trace, beside the trace page: its text, its
// goals ticked as the pass shown meets them (a goal once met stays met),
// hints one at a time, the solution (the page goes to each of its passes),
// and at the end the lines of the kernel tree and the series it is about.
import { useEffect, useState } from 'react';
import type { ReclaimTrace } from '../engine/reclaimTrace';
import type { TraceStep } from '../engine/traceSteps';
import { loadProgress, recordGoals, solutionShown, startedOver } from './progress';
import { traceGoalsAt, type TraceLesson } from './traceLessons';
import { GoalList, LessonActions, LessonHead, PatchLines } from './LessonParts';
import './lessons.css';

interface Props {
  lesson: TraceLesson;
  model: ReclaimTrace;
  steps: TraceStep[];
  step: number;
  onSeek: (step: number) => void;
}

export function TraceLessonPanel({ lesson, model, steps, step, onSeek }: Props) {
  // goal id -> the step it was met at
  const [met, setMet] = useState<Record<string, number>>({});
  const [progress, setProgress] = useState(loadProgress);
  const [bySolution, setBySolution] = useState(false);
  useEffect(() => {
    const now = traceGoalsAt(lesson, model, steps, step).filter((id) => !(id in met));
    if (now.length) setMet((m) => Object.fromEntries([...Object.entries(m), ...now.map((id) => [id, step])]));
  }, [lesson, model, steps, step, met]);
  const done = lesson.goals.every((g) => g.id in met);
  const metIds = Object.keys(met).sort().join(' ');
  useEffect(() => {
    if (!bySolution) setProgress(recordGoals(lesson.id, metIds ? metIds.split(' ') : [], done));
  }, [metIds, done, lesson.id, bySolution]);
  return (
    <section className="lesson" aria-labelledby="lesson-title" data-testid="lesson">
      <LessonHead title={lesson.title} done={!!progress[lesson.id]?.done} text={lesson.text} />
      <GoalList goals={lesson.goals} met={met} unit="pass" onSeek={onSeek} />
      <LessonActions
        key={lesson.id}
        hints={lesson.hints}
        onSolve={() => {
          setProgress(solutionShown(lesson.id));
          setBySolution(true);
          const sol = lesson.trace.solution;
          setMet((m) => {
            const out = { ...m };
            for (const s of sol) for (const id of traceGoalsAt(lesson, model, steps, s)) out[id] ??= s;
            return out;
          });
          onSeek(sol[sol.length - 1]);
        }}
        onRestart={() => {
          setProgress(startedOver(lesson.id));
          setBySolution(false);
          setMet({});
          onSeek(lesson.trace.start);
        }}
      />
      {done && (
        <div className="lesson-patch" role="status" data-testid="lesson.patch">
          {bySolution && (
            <p data-testid="lesson.by-solution">The solution met them, so the lesson is not marked done: Start over to find it yourself.</p>
          )}
          <PatchLines patch={lesson.patch} />
          <p data-testid="lesson.credit">{lesson.credit}</p>
        </div>
      )}
    </section>
  );
}
