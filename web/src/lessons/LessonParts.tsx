// SPDX-License-Identifier: GPL-2.0-only
// What a lesson on a scene (LessonPanel) and a lesson on a trace
// (TraceLessonPanel) show alike: the goals with where each was met, the
// hint, solution and start-over buttons, the hints shown, and the lines
// of the kernel tree the lesson ends at.
import { useState } from 'react';

export function GoalList({ goals, met, unit, onSeek }: { goals: { id: string; text: string; note?: string }[]; met: Record<string, number>; unit: 'event' | 'pass'; onSeek: (at: number) => void }) {
  return (
    <ul className="goals" data-testid="lesson.goals">
      {goals.map((g) => {
        const at = met[g.id];
        return (
          <li key={g.id} className={at !== undefined ? 'met' : ''} data-testid={`goal.${g.id}`} data-met={at !== undefined ? 1 : 0}>
            <span aria-hidden="true">{at !== undefined ? '✔' : '○'}</span> {g.text}
            {g.note && <span className="muted"> ({g.note})</span>}
            {at !== undefined && (
              <>
                {' '}
                <button type="button" className="link" onClick={() => onSeek(at)}>
                  at {unit} {at}
                </button>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The lesson's title, its done mark and its text. */
export function LessonHead({ title, done, text }: { title: string; done: boolean; text: string[] }) {
  return (
    <>
      <h2 id="lesson-title">
        Lesson: {title} {done && <span className="lesson-done">done</span>}
      </h2>
      {text.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      <h3>Goals</h3>
    </>
  );
}

/** The buttons, and the hints shown one at a time (render it with the lesson's id as key: a new lesson starts with none). */
export function LessonActions({ hints, onSolve, onRestart }: { hints: string[]; onSolve: () => void; onRestart: () => void }) {
  const [shown, setShown] = useState(0);
  const onHint = () => setShown((h) => Math.min(h + 1, hints.length));
  return (
    <>
      <div className="lesson-actions">
        <button type="button" onClick={onHint} disabled={shown >= hints.length} data-testid="lesson.hint">
          {shown === 0 ? 'A hint' : 'Another hint'}
        </button>
        <button type="button" onClick={onSolve} data-testid="lesson.solve">
          Show the solution
        </button>
        <button type="button" onClick={onRestart} data-testid="lesson.restart">
          Start over
        </button>
      </div>
      {shown > 0 && (
        <ol className="hints" data-testid="lesson.hints">
          {hints.slice(0, shown).map((h, i) => (
            <li key={i}>{h}</li>
          ))}
        </ol>
      )}
    </>
  );
}

export function PatchLines({ patch }: { patch: { branch: string; file: string; lines: [number, number]; note: string } }) {
  const [first, last] = patch.lines;
  return (
    <>
      <p>
        <b>Every goal met.</b> The real code: <code>{patch.file}</code> lines {first}–{last} on branch <code>{patch.branch}</code> of kernel-tree/linux —{' '}
        {patch.note}.
      </p>
      <pre className="cmd" tabIndex={0} aria-label="The command that shows these lines">
        git -C kernel-tree/linux show {patch.branch}:{patch.file} | sed -n {first},{last}p
      </pre>
    </>
  );
}
