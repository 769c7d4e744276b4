// SPDX-License-Identifier: GPL-2.0-only
// A lesson beside its scene: the text, the goals ticked as the run meets
// them (up to the step shown), hints one at a time, the solution, and at
// the end the real patch: branch, file and lines, and the series' cover
// letter on lore.
import { useEffect, useMemo, useState } from 'react';
import type { EventLog } from '../engine/log';
import { findSeries, loreUrl } from '../engine/manifest';
import { LESSONS, metGoals, type Lesson, type LessonStart } from './lessons';
import { loadProgress, recordGoals, solutionShown, startedOver } from './progress';
import './lessons.css';

interface Props {
  lesson: Lesson;
  log: EventLog;
  variant: string;
  step: number;
  onSeek: (step: number) => void;
  onApply: (s: LessonStart) => void;
}

export function LessonPanel({ lesson, log, variant, step, onSeek, onApply }: Props) {
  const met = useMemo(() => metGoals(lesson, log, variant, step), [lesson, log, variant, step]);
  const [hints, setHints] = useState(0);
  const [progress, setProgress] = useState(loadProgress);
  const done = lesson.goals.every((g) => g.id in met);
  const metIds = Object.keys(met).sort().join(' ');
  useEffect(() => {
    setProgress(recordGoals(lesson.id, metIds ? metIds.split(' ') : [], done));
  }, [metIds, done, lesson.id]);
  const bySolution = !!progress[lesson.id]?.solution;
  useEffect(() => setHints(0), [lesson.id]);
  const series = lesson.patch.series ? findSeries(lesson.patch.series) : undefined;
  const next = LESSONS[LESSONS.findIndex((l) => l.id === lesson.id) + 1];
  const [first, last] = lesson.patch.lines;
  return (
    <section className="lesson" aria-labelledby="lesson-title" data-testid="lesson">
      <h2 id="lesson-title">
        Lesson: {lesson.title} {progress[lesson.id]?.done && <span className="lesson-done">done</span>}
      </h2>
      {lesson.text.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      <h3>Goals</h3>
      <ul className="goals" data-testid="lesson.goals">
        {lesson.goals.map((g) => {
          const at = met[g.id];
          const elsewhere = g.variant && g.variant !== variant;
          return (
            <li key={g.id} className={at !== undefined ? 'met' : ''} data-testid={`goal.${g.id}`} data-met={at !== undefined ? 1 : 0}>
              <span aria-hidden="true">{at !== undefined ? '✔' : '○'}</span> {g.text}
              {elsewhere && <span className="muted"> (on {g.variant})</span>}
              {at !== undefined && (
                <>
                  {' '}
                  <button type="button" className="link" onClick={() => onSeek(at)}>
                    at event {at}
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
      <div className="lesson-actions">
        <button type="button" onClick={() => setHints((h) => Math.min(h + 1, lesson.hints.length))} disabled={hints >= lesson.hints.length} data-testid="lesson.hint">
          {hints === 0 ? 'A hint' : 'Another hint'}
        </button>
        <button
          type="button"
          onClick={() => {
            setProgress(solutionShown(lesson.id));
            onApply(lesson.solution);
          }}
          data-testid="lesson.solve"
        >
          Show the solution
        </button>
        <button
          type="button"
          onClick={() => {
            setProgress(startedOver(lesson.id));
            onApply(lesson.start);
          }}
          data-testid="lesson.restart"
        >
          Start over
        </button>
      </div>
      {hints > 0 && (
        <ol className="hints" data-testid="lesson.hints">
          {lesson.hints.slice(0, hints).map((h, i) => (
            <li key={i}>{h}</li>
          ))}
        </ol>
      )}
      {done && (
        <div className="lesson-patch" role="status" data-testid="lesson.patch">
          {bySolution && !progress[lesson.id]?.done && (
            <p data-testid="lesson.by-solution">
              The solution met them, so the lesson is not marked done: Start over to find it yourself.
            </p>
          )}
          <p>
            <b>Every goal met.</b> The real code: <code>{lesson.patch.file}</code> lines {first}–{last} on branch{' '}
            <code>{lesson.patch.branch}</code> of kernel-tree/linux — {lesson.patch.note}.
          </p>
          <pre className="cmd" tabIndex={0} aria-label="The command that shows these lines">git -C kernel-tree/linux show {lesson.patch.branch}:{lesson.patch.file} | sed -n {first},{last}p</pre>
          {series && (
            <p>
              The series: <a href={loreUrl(series.cover)} target="_blank" rel="noreferrer">“{series.title}”</a>, {series.author}, cover letter{' '}
              <code data-testid="lesson.message-id">{series.cover}</code>.
            </p>
          )}
          {next && (
            <p>
              Next: <a href={`?lesson=${next.id}`}>{next.title}</a>
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** The list of lessons, for the header: opening one reloads the page on its start state. */
export function LessonPicker({ current }: { current: string | null }) {
  const progress = useMemo(loadProgress, []);
  return (
    <span className="lesson-picker">
      <label>
        Lesson{' '}
        <select
          value={current ?? ''}
          onChange={(e) => {
            window.location.search = e.target.value ? `?lesson=${e.target.value}` : '';
          }}
          data-testid="lesson.picker"
        >
          <option value="">none: explore</option>
          {LESSONS.map((l, i) => (
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
