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

/**
 * The intervals the time axis draws, made in the same pass as the state:
 * step(machine, i) after machineReducer.apply() has applied event i to that
 * machine state, for every event in order; then finish(). So a fold that
 * builds the scene's checkpoints makes the timeline too (History's
 * observe), without a second pass over the log.
 */
export class TimelineBuilder {
  private cpuSegments: CpuSegment[] = [];
  private rcuSections: RcuSection[] = [];
  private gracePeriods: GracePeriod[] = [];
  private srcuGracePeriods: GracePeriod[] = [];
  private marks: Mark[] = [];
  // Per CPU, what it has done since when: mode and task, start time and index.
  private openMode: CpuMode[];
  private openTask: Int32Array;
  private openStart: Float64Array;
  private openIndex: Int32Array;
  private sectionStart = new Map<number, { start: number; startIndex: number; cpu: number }>();
  private gpStart = new Map<number, { start: number; startIndex: number }>();
  private srcuStart = new Map<number, { start: number; startIndex: number }>();

  constructor(
    private log: EventLog,
    initial: MachineState,
  ) {
    this.openMode = initial.cpus.map((c) => c.mode);
    this.openTask = Int32Array.from(initial.cpus, (c) => c.task);
    this.openStart = new Float64Array(initial.cpus.length);
    this.openIndex = new Int32Array(initial.cpus.length);
  }

  step(s: MachineState, i: number) {
    const log = this.log;
    const t = log.time[i];
    const kind = log.kind[i];
    const task = log.task[i];
    // An event changes only its own CPU (machineReducer.apply touches s.cpus[log.cpu[i]] alone).
    const cpu = log.cpu[i];
    const c = s.cpus[cpu];
    if (this.openMode[cpu] !== c.mode || this.openTask[cpu] !== c.task) {
      const start = this.openStart[cpu];
      if (t > start) this.cpuSegments.push({ cpu, mode: this.openMode[cpu], task: this.openTask[cpu], start, end: t, startIndex: this.openIndex[cpu], endIndex: i });
      this.openMode[cpu] = c.mode;
      this.openTask[cpu] = c.task;
      this.openStart[cpu] = t;
      this.openIndex[cpu] = i;
    }
    switch (kind) {
      case EventKind.RCU_READ_LOCK:
        if (log.arg(i, 0) === 1) this.sectionStart.set(task, { start: t, startIndex: i, cpu });
        break;
      case EventKind.RCU_READ_UNLOCK:
        if (log.arg(i, 0) === 0) {
          const o = this.sectionStart.get(task);
          if (o) this.rcuSections.push({ cpu: o.cpu, task, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
          this.sectionStart.delete(task);
        }
        break;
      case EventKind.RCU_GP_START:
        this.gpStart.set(log.arg(i, 0), { start: t, startIndex: i });
        break;
      case EventKind.RCU_GP_END: {
        const gp = log.arg(i, 0);
        const o = this.gpStart.get(gp);
        if (o) this.gracePeriods.push({ gp, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
        this.gpStart.delete(gp);
        break;
      }
      case EventKind.SRCU_GP_START:
        this.srcuStart.set(log.arg(i, 3), { start: t, startIndex: i });
        break;
      case EventKind.SRCU_GP_END: {
        const gp = log.arg(i, 1);
        const o = this.srcuStart.get(gp);
        if (o) this.srcuGracePeriods.push({ gp, start: o.start, end: t, startIndex: o.startIndex, endIndex: i });
        this.srcuStart.delete(gp);
        break;
      }
      case EventKind.LOCK_TRYFAIL:
      case EventKind.LOCK_CONTENDED:
        this.marks.push({ time: t, cpu, index: i, kind: 'gave-up' });
        break;
      case EventKind.REPORT:
      case EventKind.WARN:
      case EventKind.BUG:
        this.marks.push({ time: t, cpu, index: i, kind: 'report' });
        break;
      default:
        break;
    }
  }

  /** The timeline, with what is still open closed at the log's end. */
  finish(): Timeline {
    const end = this.log.endTime;
    const last = this.log.length - 1;
    for (let cpu = 0; cpu < this.openMode.length; cpu++) {
      const start = this.openStart[cpu];
      if (end > start) this.cpuSegments.push({ cpu, mode: this.openMode[cpu], task: this.openTask[cpu], start, end, startIndex: this.openIndex[cpu], endIndex: last });
    }
    for (const [task, o] of this.sectionStart) this.rcuSections.push({ cpu: o.cpu, task, start: o.start, end, startIndex: o.startIndex, endIndex: last });
    for (const [gp, o] of this.gpStart) this.gracePeriods.push({ gp, start: o.start, end, startIndex: o.startIndex, endIndex: last });
    for (const [gp, o] of this.srcuStart) this.srcuGracePeriods.push({ gp, start: o.start, end, startIndex: o.startIndex, endIndex: last });
    const { cpuSegments, rcuSections, gracePeriods, srcuGracePeriods, marks } = this;
    return { cpuSegments, rcuSections, gracePeriods, srcuGracePeriods, marks };
  }
}

/** One pass over the whole log: the intervals the time axis draws. */
export function buildTimeline(log: EventLog): Timeline {
  const s = machineReducer.init(log);
  const b = new TimelineBuilder(log, s);
  for (let i = 0; i < log.length; i++) {
    machineReducer.apply(s, log, i);
    b.step(s, i);
  }
  return b.finish();
}
