// SPDX-License-Identifier: GPL-2.0-only
// Playing the scheduler by hand: at the next decision, which CPUs could
// take the next step, which one the policy chose, and a button to make
// another one take it instead (the run is replayed with that choice).
import type { Decisions } from '../engine/decisions';
import type { EventLog } from '../engine/log';
import './NextStep.css';

interface Props {
  log: EventLog;
  decisions: Decisions;
  step: number;
  handChoices: number;
  /** What to say of a schedule too long for a link (url.ts tooLongForLink; '' : it fits). */
  unlinked?: string;
  onChoose: (decision: number, cpu: number) => void;
  onClear: () => void;
}

export function NextStep({ log, decisions, step, handChoices, unlinked, onChoose, onClear }: Props) {
  const d = decisions.nextAfter(step);
  return (
    <section className="panel next-step" aria-label="Scheduler" data-testid="sched.panel">
      {d < 0 ? (
        <span className="muted">No more scheduling decisions: only one CPU can run from here on.</span>
      ) : (
        <>
          <span>
            Next decision (#{d}, before event {decisions.event[d]}): the {log.meta.policy} policy picks{' '}
            <b>CPU{decisions.cpu[d]}</b>. Take the next step on:
          </span>
          {decisions.runnableCpus(d).map((cpu) => (
            <button
              key={cpu}
              type="button"
              className={cpu === decisions.cpu[d] ? 'chosen' : ''}
              aria-pressed={cpu === decisions.cpu[d]}
              data-testid={`sched.cpu.${cpu}`}
              onClick={() => onChoose(d, cpu)}
            >
              CPU{cpu}
            </button>
          ))}
        </>
      )}
      {handChoices > 0 && (
        <span className="hand">
          {handChoices} decision{handChoices === 1 ? '' : 's'} follow a schedule from the URL{' '}
          <button type="button" onClick={onClear} data-testid="sched.clear">
            Let the policy decide again
          </button>
        </span>
      )}
      {unlinked && (
        <p className="unlinked" data-testid="sched.unlinked">
          {unlinked}
        </p>
      )}
    </section>
  );
}
