// SPDX-License-Identifier: GPL-2.0-only
// What every scene shows of the simulated machine: which task each CPU runs
// and whether it runs, spins or sleeps, RCU read-side depth, grace periods,
// pending callbacks, lock owners. A reducer over the log (for the state at
// a step) and a timeline of intervals (for the time axis).
import { EventKind } from './generated/events';
import type { EventLog } from './log';

export type CpuMode = 'run' | 'spin' | 'idle';

export interface CpuState {
  cpu: number;
  task: number; // -1: idle
  mode: CpuMode;
  spinningOn: string | null;
  site: number; // last kernel line of the task it runs (0: none)
  rcuDepth: number;
}

export interface TaskState {
  id: number;
  name: string;
  cpu: number;
  status: 'new' | 'runnable' | 'sleeping' | 'done';
  sleepingOn: string | null;
  rcuDepth: number;
  site: number; // last kernel line this task executed
}

export interface PendingCallback {
  obj: number;
  gp: number;
  cb: string;
  cpu: number;
}

export interface MachineState {
  cpus: CpuState[];
  tasks: TaskState[];
  gpActive: number | null;
  gpCompleted: number;
  callbacks: PendingCallback[];
  lockOwner: Record<number, number>; // lock id -> task id
}

export const machineReducer = {
  init(log: EventLog): MachineState {
    return {
      cpus: Array.from({ length: log.meta.cpus }, (_, cpu) => ({
        cpu, task: -1, mode: 'idle' as CpuMode, spinningOn: null, site: 0, rcuDepth: 0,
      })),
      tasks: log.meta.tasks.map((t) => ({
        id: t.id, name: t.name, cpu: t.cpu, status: 'new' as const, sleepingOn: null, rcuDepth: 0, site: 0,
      })),
      gpActive: null,
      gpCompleted: 0,
      callbacks: [],
      lockOwner: {},
    };
  },

  apply(s: MachineState, log: EventLog, i: number) {
    const kind = log.kind[i] as EventKind;
    const c = s.cpus[log.cpu[i]];
    const task = log.task[i];
    const a = (n: number) => log.arg(i, n);
    if (log.site[i] && task >= 0 && s.tasks[task]) s.tasks[task].site = log.site[i];

    switch (kind) {
      case EventKind.TASK_BLOCK: {
        const t = s.tasks[a(0)];
        t.status = 'sleeping';
        t.sleepingOn = log.name(a(2));
        c.task = -1;
        c.mode = 'idle';
        c.site = 0;
        return;
      }
      case EventKind.TASK_EXIT:
        s.tasks[a(0)].status = 'done';
        c.task = -1;
        c.mode = 'idle';
        c.site = 0;
        return;
      case EventKind.TASK_WAKE: {
        const t = s.tasks[a(0)];
        t.status = 'runnable';
        t.sleepingOn = null;
        break;
      }
      case EventKind.CPU_SWITCH:
        c.task = a(1);
        c.mode = 'run';
        c.site = s.tasks[a(1)].site;
        s.tasks[a(1)].status = 'runnable';
        return;
      case EventKind.LOCK_CONTEND:
        if (a(3) === 1) {
          c.mode = 'spin';
          c.spinningOn = log.name(a(1));
        }
        break;
      case EventKind.LOCK_ACQUIRE:
        s.lockOwner[a(0)] = task;
        if (c.mode === 'spin') {
          c.mode = 'run';
          c.spinningOn = null;
        }
        break;
      case EventKind.LOCK_RELEASE:
        delete s.lockOwner[a(0)];
        break;
      case EventKind.RCU_READ_LOCK:
      case EventKind.RCU_READ_UNLOCK:
        if (task >= 0) s.tasks[task].rcuDepth = a(0);
        c.rcuDepth = a(0);
        break;
      case EventKind.RCU_GP_START:
        s.gpActive = a(0);
        return;
      case EventKind.RCU_GP_END:
        s.gpActive = null;
        s.gpCompleted = a(0);
        return;
      case EventKind.RCU_QS:
        return;
      case EventKind.CALL_RCU:
        s.callbacks.push({ obj: a(0), gp: a(1), cb: log.name(a(2)), cpu: c.cpu });
        break;
      case EventKind.RCU_CALLBACK: {
        const k = s.callbacks.findIndex((cb) => cb.obj === a(0) && cb.gp === a(1));
        if (k >= 0) s.callbacks.splice(k, 1);
        break;
      }
      default:
        break;
    }
    // Any other event is executed by the task the record names, on its CPU.
    if (task >= 0) {
      if (c.task !== task) {
        c.task = task;
        c.rcuDepth = s.tasks[task].rcuDepth;
      }
      c.site = s.tasks[task].site;
      if (c.mode === 'idle') c.mode = 'run';
      s.tasks[task].status = 'runnable';
    }
  },
};

export interface Interval {
  start: number; // virtual ns
  end: number;
  startIndex: number;
  endIndex: number;
}
export interface CpuSegment extends Interval {
  cpu: number;
  mode: CpuMode;
  task: number;
}
export interface RcuSection extends Interval {
  cpu: number;
  task: number;
}
export interface GracePeriod extends Interval {
  gp: number;
}

/** A moment worth a mark on its CPU's lane: a lock given up, a report. */
export interface Mark {
  time: number;
  cpu: number;
  index: number;
  kind: 'gave-up' | 'report';
}

export interface Timeline {
  cpuSegments: CpuSegment[];
  rcuSections: RcuSection[];
  gracePeriods: GracePeriod[];
  srcuGracePeriods: GracePeriod[]; // synchronize_srcu(): flip to end
  marks: Mark[];
}

/** One pass over the whole log: the intervals the time axis draws. */
export function buildTimeline(log: EventLog): Timeline {
  const s = machineReducer.init(log);
  const cpuSegments: CpuSegment[] = [];
  const rcuSections: RcuSection[] = [];
  const gracePeriods: GracePeriod[] = [];
  const open = s.cpus.map((c) => ({ mode: c.mode, task: c.task, start: 0, startIndex: 0 }));
  const sectionStart = new Map<number, { start: number; startIndex: number; cpu: number }>();
  const gpStart = new Map<number, { start: number; startIndex: number }>();
  const srcuGracePeriods: GracePeriod[] = [];
  const srcuStart = new Map<number, { start: number; startIndex: number }>();
  const marks: Mark[] = [];

  for (let i = 0; i < log.length; i++) {
    const t = log.time[i];
    const kind = log.kind[i];
    const task = log.task[i];
    machineReducer.apply(s, log, i);
    // An event changes only its own CPU (machineReducer.apply touches s.cpus[log.cpu[i]] alone).
    const c = s.cpus[log.cpu[i]];
    const o = open[c.cpu];
    if (o.mode !== c.mode || o.task !== c.task) {
      if (t > o.start) cpuSegments.push({ cpu: c.cpu, mode: o.mode, task: o.task, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
      open[c.cpu] = { mode: c.mode, task: c.task, start: t, startIndex: i };
    }
    if (kind === EventKind.RCU_READ_LOCK && log.arg(i, 0) === 1) {
      sectionStart.set(task, { start: t, startIndex: i, cpu: log.cpu[i] });
    } else if (kind === EventKind.RCU_READ_UNLOCK && log.arg(i, 0) === 0) {
      const o = sectionStart.get(task);
      if (o) rcuSections.push({ cpu: o.cpu, task, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
      sectionStart.delete(task);
    } else if (kind === EventKind.RCU_GP_START) {
      gpStart.set(log.arg(i, 0), { start: t, startIndex: i });
    } else if (kind === EventKind.RCU_GP_END) {
      const gp = log.arg(i, 0);
      const o = gpStart.get(gp);
      if (o) gracePeriods.push({ gp, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
      gpStart.delete(gp);
    } else if (kind === EventKind.SRCU_GP_START) {
      srcuStart.set(log.arg(i, 3), { start: t, startIndex: i });
    } else if (kind === EventKind.SRCU_GP_END) {
      const gp = log.arg(i, 1);
      const o = srcuStart.get(gp);
      if (o) srcuGracePeriods.push({ gp, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
      srcuStart.delete(gp);
    } else if (kind === EventKind.LOCK_TRYFAIL || kind === EventKind.LOCK_CONTENDED) {
      marks.push({ time: t, cpu: log.cpu[i], index: i, kind: 'gave-up' });
    } else if (kind === EventKind.REPORT || kind === EventKind.WARN || kind === EventKind.BUG) {
      marks.push({ time: t, cpu: log.cpu[i], index: i, kind: 'report' });
    }
  }
  const end = log.endTime;
  const last = log.length - 1;
  open.forEach((o, cpu) => {
    if (end > o.start) cpuSegments.push({ cpu, mode: o.mode, task: o.task, start: o.start, end, startIndex: o.startIndex, endIndex: last });
  });
  for (const [task, o] of sectionStart) rcuSections.push({ cpu: o.cpu, task, start: o.start, end, startIndex: o.startIndex, endIndex: last });
  for (const [gp, o] of gpStart) gracePeriods.push({ gp, start: o.start, end, startIndex: o.startIndex, endIndex: last });
  for (const [gp, o] of srcuStart) srcuGracePeriods.push({ gp, start: o.start, end, startIndex: o.startIndex, endIndex: last });
  return { cpuSegments, rcuSections, gracePeriods, srcuGracePeriods, marks };
}
