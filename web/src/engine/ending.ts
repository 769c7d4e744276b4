// SPDX-License-Identifier: GPL-2.0-only
// How a run ended, named for what it is: the runtime's status
// (wasm/runtime/runtime.h: done, event limit, deadlock, stuck, panic) read
// together with the reports (wasm/runtime/sim.h's report types), so that a
// BUG that stops a CPU reads as a BUG and not as the deadlock that follows
// it, and a run cut by the event limit does not read like a leak.
import type { RunMeta } from './meta';

/** enum sim_report_type (wasm/runtime/sim.h). */
export const REPORT_BUG = 2;
export const REPORT_LOCKDEP = 3;
export const REPORT_KASAN = 5;
export const REPORT_HUNG_TASK = 6;

export interface Ending {
  kind: 'done' | 'bug' | 'kasan-panic' | 'deadlock' | 'hung-task' | 'event-limit' | 'stuck';
  /** A few words: "BUG (machine stopped)". */
  label: string;
  /** A sentence: what happened, what was cut, and where to look. */
  detail: string;
  /** The event to look at, if any (the report). */
  event: number | null;
}

/** wholeRun: the command line that runs the same run with no event limit (engine/client.ts labrunCommand). */
export function ending(meta: RunMeta, wholeRun: string): Ending {
  const first = (type: number) => meta.reports.find((r) => r.type === type);
  const bug = first(REPORT_BUG);
  if (bug) {
    return {
      kind: 'bug',
      label: 'BUG (machine stopped)',
      detail: `${bug.title}, at event ${bug.event}: the CPU that hit it stops, as a kernel's does; the run ends there (${meta.status === 'done' ? 'the other tasks had finished' : 'the other tasks can no longer finish'}).`,
      event: bug.event,
    };
  }
  const kasan = first(REPORT_KASAN);
  if (meta.status === 'panic' && kasan) {
    return {
      kind: 'kasan-panic',
      label: 'KASAN panic',
      detail: `${kasan.title}, at event ${kasan.event}: with kasan.fault=panic the machine stops at the first report.`,
      event: kasan.event,
    };
  }
  const hung = first(REPORT_HUNG_TASK);
  // A hung task the run went on past is named, but a run the event limit cut is named for that first.
  if (hung && meta.status !== 'event-limit') {
    return {
      kind: 'hung-task',
      label: 'hung task',
      detail: `${hung.title}, at event ${hung.event}: a task was blocked past the hung-task timeout${meta.status === 'done' ? '; it went on later and the run finished' : `; the run ended ${meta.status === 'deadlock' ? 'in a deadlock' : `(${meta.status})`}`}.`,
      event: hung.event,
    };
  }
  switch (meta.status) {
    case 'done':
      return { kind: 'done', label: 'done', detail: `every task finished; ${meta.live_objects} objects left at teardown.`, event: null };
    case 'deadlock': {
      const lockdep = first(REPORT_LOCKDEP);
      return {
        kind: 'deadlock',
        label: 'deadlock',
        detail:
          `tasks sleep or spin on something that nothing left can release; ${meta.live_objects} objects were still live.` +
          (lockdep ? ` lockdep reported the inversion before it happened, at event ${lockdep.event}.` : ''),
        event: lockdep ? lockdep.event : null,
      };
    }
    case 'stuck':
      return {
        kind: 'stuck',
        label: 'stuck (no end within the step limit)',
        detail: `after ${meta.steps} scheduler steps the run had not ended: a livelock, or a run longer than the guard allows.`,
        event: null,
      };
    case 'panic':
      return { kind: 'kasan-panic', label: 'panic', detail: 'a report stopped the machine.', event: meta.reports[0]?.event ?? null };
    case 'event-limit':
      return {
        kind: 'event-limit',
        label: 'event limit reached',
        detail:
          `the page keeps ${meta.events} events and stopped the run there, before its end: what the tasks would have done next is cut, ` +
          `and the ${meta.live_objects} objects still live were in use, not leaked. ` +
          `A smaller program fits in the page; the whole run: ${wholeRun}` +
          (hung ? `. Before the cut, at event ${hung.event}: ${hung.title} (a task blocked past the hung-task timeout)` : ''),
        event: hung ? hung.event : null,
      };
  }
}
