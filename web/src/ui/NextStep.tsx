// SPDX-License-Identifier: GPL-2.0-only
// Playing the scheduler by hand: at the next decision, which CPUs could
// take the next step and where each one is (its task, the kernel function
// and line it last ran, and what it did there), which one the policy
// chose, and a button to make another one take it instead (the run is
// replayed with that choice).
import { cpuLineAt } from '../engine/codesite';
import type { Decisions } from '../engine/decisions';
import type { EventLog } from '../engine/log';
import { describe, type Labels } from '../engine/narrate';
import './NextStep.css';

interface Props {
  log: EventLog;
  decisions: Decisions;
  labels: Labels;
  step: number;
  handChoices: number;
  /** What to say of a schedule too long for a link (url.ts tooLongForLink; '' : it fits). */
  unlinked?: string;
  onChoose: (decision: number, cpu: number) => void;
  /** next function »: the CPU takes the next steps until it is in another function (App makes the choices, one run each). */
  onFollow?: (decision: number, cpu: number) => void;
  onStop?: () => void;
  /** The CPU following its steps now, from which function, and how many choices so far. */
  following?: { cpu: number; func: string; n: number } | null;
  onClear: () => void;
}

/** Up to this many runnable CPUs get a line each saying where they are; more (up to 64) get a button each, the place in its title. */
const ROWS = 8;

/** Where a CPU is at a step: its task, the function and line it last ran, and what it did there. */
export function whereCpu(log: EventLog, labels: Labels, cpu: number, step: number): { short: string; long: string } {
  const j = cpuLineAt(log, cpu, step);
  const site = j >= 0 ? log.siteOf(j) : null;
  if (!site) return { short: 'no kernel line yet', long: 'has run no kernel line yet' };
  const task = log.task[j] >= 0 ? `${log.taskName(log.task[j])} ` : '';
  return { short: `${site.func}()`, long: `${task}in ${site.func}() at ${site.file}:${site.line}; last: ${describe(log, j, labels)}` };
}

export function NextStep({ log, decisions, labels, step, handChoices, unlinked, onChoose, onFollow, onStop, following, onClear }: Props) {
  const d = decisions.nextAfter(step);
  const cpus = d < 0 ? [] : decisions.runnableCpus(d);
  const rows = cpus.length <= ROWS;
  const button = (cpu: number, title?: string) => (
    <button
      key={cpu}
      type="button"
      className={cpu === decisions.cpu[d] ? 'chosen' : ''}
      aria-pressed={cpu === decisions.cpu[d]}
      title={title}
      data-testid={`sched.cpu.${cpu}`}
      onClick={() => onChoose(d, cpu)}
    >
      CPU{cpu}
    </button>
  );
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
          {rows ? (
            <ul className="next-cpus">
              {cpus.map((cpu) => (
                <li key={cpu}>
                  {button(cpu)}{' '}
                  {onFollow && (
                    <>
                      <button
                        type="button"
                        className="follow"
                        onClick={() => onFollow(d, cpu)}
                        disabled={!!following}
                        title={`CPU${cpu} takes the next steps until it is in another function than ${whereCpu(log, labels, cpu, step).short}`}
                        aria-label={`next function » (CPU${cpu})`}
                        data-testid={`sched.follow.${cpu}`}
                      >
                        next function »
                      </button>{' '}
                    </>
                  )}
                  <span className="where" data-testid={`sched.where.${cpu}`}>
                    {whereCpu(log, labels, cpu, step).long}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            cpus.map((cpu) => {
              const w = whereCpu(log, labels, cpu, step);
              return button(cpu, `CPU${cpu}: ${w.long}`);
            })
          )}
        </>
      )}
      {following && (
        <p className="following" role="status" data-testid="sched.following">
          CPU{following.cpu} takes the next steps until it leaves {following.func}: {following.n} choice{following.n === 1 ? '' : 's'} so far.{' '}
          <button type="button" onClick={onStop} data-testid="sched.stop">
            Stop
          </button>
        </p>
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
