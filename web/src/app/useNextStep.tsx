// SPDX-License-Identifier: GPL-2.0-only
// The scheduler's next decision and the choice of another CPU (ui/NextStep):
// a choice becomes the run's hand schedule; "next function »" has one CPU
// take the next steps, a decision at a time, until it is in another function.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { NextStep, whereCpu } from '../ui/NextStep';
import type { Lab } from './useLab';
import type { Run } from './useRuns';
import { tooLongForLink } from './url';

/** "next function »": a CPU following its steps by hand, the schedule and step its last choice opens at. */
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

/**
 * The next-decision panel: the page's, and the presenter's in a talk. Made again only when its step or run
 * changes: between the reading ticks of play, React leaves it be.
 */
export function useNextStep({ run, reading, step, settings, landing, dispatch, seek }: Lab): ReactNode {
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
    [seek, landing, dispatch],
  );
  // One CPU takes the next steps until it is in another function (or cannot run, or FOLLOW_MAX choices are made);
  // any other move stops it.
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
  return useMemo(() => run && (
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
  ), [run, reading, landing, follow, choose, dispatch]);
}
