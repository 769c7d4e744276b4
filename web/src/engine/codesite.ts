// SPDX-License-Identifier: GPL-2.0-only
// Which line the code pane shows at a step, so that it is never blank: the
// event's own line; at an event with none (the scheduler, RCU's machinery,
// a task starting or ending), the last line that event's CPU ran, marked as
// such; before that CPU ran any, the first line the run enters the kernel
// at (the scene's entry function).
import type { EventLog } from './log';
import type { Site } from './meta';

export interface ShownSite {
  site: Site;
  /** 'event': this event's line; 'cpu': the last line its CPU ran; 'entry': the run's first line. */
  how: 'event' | 'cpu' | 'entry';
  /** The event the line comes from. */
  at: number;
}

/** Per event, the last event at or before it on the same CPU with a line (-1: none). */
const lastOnCpu = new WeakMap<EventLog, Int32Array>();

function lastLines(log: EventLog): Int32Array {
  let a = lastOnCpu.get(log);
  if (a) return a;
  a = new Int32Array(log.length);
  const last = new Int32Array(Math.max(1, log.meta.cpus)).fill(-1);
  for (let i = 0; i < log.length; i++) {
    if (log.siteOf(i)) last[log.cpu[i]] = i;
    a[i] = last[log.cpu[i]];
  }
  lastOnCpu.set(log, a);
  return a;
}

/** Per CPU, the events with a kernel line, in order (one pass over the log, kept per log). */
const linesByCpu = new WeakMap<EventLog, Int32Array[]>();

function cpuLines(log: EventLog): Int32Array[] {
  let out = linesByCpu.get(log);
  if (out) return out;
  const cpus = Math.max(1, log.meta.cpus);
  const count = new Int32Array(cpus);
  for (let i = 0; i < log.length; i++) if (log.siteOf(i)) count[log.cpu[i]]++;
  out = Array.from(count, (n) => new Int32Array(n));
  const at = new Int32Array(cpus);
  for (let i = 0; i < log.length; i++) if (log.siteOf(i)) out[log.cpu[i]][at[log.cpu[i]]++] = i;
  linesByCpu.set(log, out);
  return out;
}

/** Where a CPU is at a step: the last event at or before it on that CPU with a kernel line (-1: none yet). */
export function cpuLineAt(log: EventLog, cpu: number, step: number): number {
  const a = cpuLines(log)[cpu];
  if (!a) return -1;
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? a[lo - 1] : -1;
}

export function shownSiteAt(log: EventLog, step: number): ShownSite | null {
  if (step < 0 || step >= log.length) return null;
  const own = log.siteOf(step);
  if (own) return { site: own, how: 'event', at: step };
  const j = lastLines(log)[step];
  if (j >= 0) return { site: log.siteOf(j)!, how: 'cpu', at: j };
  for (let i = 0; i < log.length; i++) {
    const s = log.siteOf(i);
    if (s) return { site: s, how: 'entry', at: i };
  }
  return null;
}

/** The branch of kernel-tree/linux a run's kernel lines come from (null: it ran none). */
export function kernelBranch(log: EventLog): string | null {
  return log.meta.sites.find((s) => s.tree && s.tree !== 'project')?.tree ?? null;
}

/** The code pane's caption: whose line it is, and, when it is not this event's, which it is. */
export function shownContext(log: EventLog, step: number, shown: ShownSite | null): string {
  const cpu = log.cpu[step];
  const who = `CPU${cpu}${log.task[step] >= 0 ? ` ${log.taskName(log.task[step])}` : ''}`;
  if (!shown || shown.how === 'event') return who;
  if (shown.how === 'cpu') return `${who}: this event has no kernel line; shown: the last line CPU${cpu} ran (event ${shown.at})`;
  return `${who}: no kernel line has run on CPU${cpu} yet; shown: where the run enters the kernel (event ${shown.at}, CPU${log.cpu[shown.at]})`;
}
