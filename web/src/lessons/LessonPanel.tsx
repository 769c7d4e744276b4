// SPDX-License-Identifier: GPL-2.0-only
// A lesson beside its scene: the text, the goals ticked as the run meets
// them (up to the step shown), hints one at a time, the solution, and at
// the end the real patch: branch, file and lines, and the series' cover
// letter on lore.
import { useEffect, useMemo, useState } from 'react';
import type { EventLog } from '../engine/log';
import { findSeries, loreUrl } from '../engine/manifest';
import { LESSON_INDEX, metGoals, type Lesson, type LessonStart } from './lessons';
import { loadProgress, recordGoals, solutionShown, startedOver } from './progress';
import { GoalList, LessonActions, LessonHead, PatchLines } from './LessonParts';
import './lessons.css';

interface Props {
  lesson: Lesson;
  log: EventLog;
  variant: string;
  step: number;
  onSeek: (step: number) => void;
  onApply: (s: LessonStart) => void;
  /** A lesson's page (the app's links, app/url.ts). */
  lessonLink: (id: string) => string;
}

export function LessonPanel({ lesson, log, variant, step, onSeek, onApply, lessonLink }: Props) {
  const met = useMemo(() => metGoals(lesson, log, variant, step), [lesson, log, variant, step]);
  const [progress, setProgress] = useState(loadProgress);
  const done = lesson.goals.every((g) => g.id in met);
  const metIds = Object.keys(met).sort().join(' ');
  useEffect(() => {
    setProgress(recordGoals(lesson.id, metIds ? metIds.split(' ') : [], done));
  }, [metIds, done, lesson.id]);
  const bySolution = !!progress[lesson.id]?.solution;
  const series = lesson.patch.series ? findSeries(lesson.patch.series) : undefined;
  const next = LESSON_INDEX[LESSON_INDEX.findIndex((l) => l.id === lesson.id) + 1];
  return (
    <section className="lesson" aria-labelledby="lesson-title" data-testid="lesson">
      <LessonHead title={lesson.title} done={!!progress[lesson.id]?.done} text={lesson.text} />
      <GoalList goals={lesson.goals.map((g) => ({ ...g, note: g.variant && g.variant !== variant ? `on ${g.variant}` : undefined }))} met={met} unit="event" onSeek={onSeek} />
      <LessonActions
        key={lesson.id}
        hints={lesson.hints}
        onSolve={() => {
          setProgress(solutionShown(lesson.id));
          onApply(lesson.solution);
        }}
        onRestart={() => {
          setProgress(startedOver(lesson.id));
          onApply(lesson.start);
        }}
      />
      {done && (
        <div className="lesson-patch" role="status" data-testid="lesson.patch">
          {bySolution && !progress[lesson.id]?.done && (
            <p data-testid="lesson.by-solution">
              The solution met them, so the lesson is not marked done: Start over to find it yourself.
            </p>
          )}
          <PatchLines patch={lesson.patch} />
          {series && (
            <p>
              The series: <a href={loreUrl(series.cover)} target="_blank" rel="noreferrer">“{series.title}”</a>, {series.author}, cover letter{' '}
              <code data-testid="lesson.message-id">{series.cover}</code>.
            </p>
          )}
          {next && (
            <p>
              Next: <a href={lessonLink(next.id)}>{next.title}</a>
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The list of lessons, for the header (the landing view's list, LESSON_INDEX): opening one reloads the page on its start state.
 * open: the page at a lesson's link, or at the landing view (null); the app makes the link (app/url.ts).
 */
export function LessonPicker({ current, open }: { current: string | null; open: (lesson: string | null) => void }) {
  const progress = useMemo(loadProgress, []);
  return (
    <span className="lesson-picker">
      <label>
        Lesson{' '}
        <select
          value={current ?? ''}
          onChange={(e) => {
            open(e.target.value || null);
          }}
          data-testid="lesson.picker"
        >
          <option value="">none: explore</option>
          {LESSON_INDEX.map((l, i) => (
            <option key={l.id} value={l.id}>
              {i + 1}. {l.title}
              {progress[l.id]?.done ? ' ✔' : ''}
            </option>
          ))}
        </select>
      </label>
      <a href="./#landing-lessons" data-testid="lesson.index">
        all lessons
      </a>
    </span>
  );
}
