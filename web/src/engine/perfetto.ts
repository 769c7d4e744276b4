// SPDX-License-Identifier: GPL-2.0-only
// A run as a trace Perfetto opens: Chrome's trace-event JSON ("JSON Object
// Format": {traceEvents, otherData}), built from the decoded event log.
// Timestamps are the simulated clock: the log's virtual ns, written in the
// format's unit, microseconds, with three decimals (so the ns are exact).
// No displayTimeUnit: the format's document makes it a display hint, but
// Perfetto's JSON importer (json_trace_tokenizer.cc, JsonTracker) reads
// "ns" there as the unit of every ts, so a file that sets it is read one
// way by Perfetto and another by chrome://tracing. traceEvents comes first:
// Perfetto stops at a top-level key it does not know.
// Each CPU has its own clock, and a run that follows another policy or a
// hand schedule can record an event of a CPU whose clock is behind another's.
// A CPU's own track is always in order; a track that events of several CPUs
// write (a lock's lane, a counter, a grace period) takes the later of its
// last time and the event's, so that it never goes back; a flow whose end
// the clocks put before its start is left out, as Perfetto would drop it.
//
// What goes where:
//   process 1 "CPUs"      a thread per simulated CPU: the task it runs, the
//                         scenario's call into the kernel, and the kernel
//                         function of the events it executes, as B/E slices;
//                         spins; RCU callbacks; reports as instant events
//   process 2 "RCU"       grace periods and SRCU grace periods, async (b/e)
//   process 3 "Counters"  refcounts, nr_deferred, list_lru counts (C)
//   process 4 "Locks"     a thread (lane) per lock, more when holds or waits
//                         overlap (rwsem readers): holds, spins, waits
//   flows (s/f)           call_rcu() to its callback, a wake-up to the woken
//                         task's next slice
import { EventKind, Label, LruItemOp, LruStatus } from './generated/events';
import type { EventLog } from './log';
import { machineReducer } from './machine';
import { collectLabels, objName, type Labels } from './narrate';

export interface TraceEvent {
  ph: string;
  pid: number;
  tid?: number;
  ts?: number; // µs
  name?: string;
  cat?: string;
  id?: number;
  bp?: 'e';
  s?: 't' | 'p' | 'g';
  args?: Record<string, string | number>;
}

export interface TraceFile {
  traceEvents: TraceEvent[];
  otherData: Record<string, string | number>;
}

export const PID = { cpus: 1, rcu: 2, counters: 3, locks: 4 } as const;
const COUNTERS_TID = 3000;

/** Virtual ns in the format's unit (µs), exact to the ns. */
export function toUs(ns: number): number {
  return Math.round(ns) / 1000;
}

const REPORT_TYPES = ['', 'WARN', 'BUG', 'lockdep', 'sleeping in atomic context', 'KASAN', 'hung task'];
const LOCK_TYPES = ['', 'spinlock', 'mutex', 'rwsem (read)', 'rwsem (write)'];

interface Frame {
  key: string;
  name: string;
  cat: string;
  args?: Record<string, string | number>;
  endArgs?: Record<string, string | number>;
}

interface Lane {
  tid: number;
  busy: boolean;
}

interface LockSlice {
  lane: Lane;
  task: number;
}

export interface TraceOptions {
  /** Shown by Perfetto as the trace's title, and kept in otherData. */
  title?: string;
}

/** The whole run as trace events. */
export function buildTrace(log: EventLog, opts: TraceOptions = {}, labels: Labels = collectLabels(log)): TraceFile {
  const out: TraceEvent[] = [];
  const cpus = log.meta.cpus;
  const cpuTid = (cpu: number) => cpu + 1;
  const name = (id: number) => log.name(id);
  const task = (id: number) => log.taskName(id);

  const meta = (pid: number, tid: number | undefined, what: string, value: string | number) =>
    out.push(tid === undefined ? { ph: 'M', pid, name: what, args: { name: value } } : { ph: 'M', pid, tid, name: what, args: { name: value } });
  meta(PID.cpus, undefined, 'process_name', 'CPUs');
  meta(PID.rcu, undefined, 'process_name', 'RCU');
  meta(PID.counters, undefined, 'process_name', 'Counters');
  meta(PID.locks, undefined, 'process_name', 'Locks');
  for (let c = 0; c < cpus; c++) meta(PID.cpus, cpuTid(c), 'thread_name', `CPU${c}`);
  meta(PID.counters, COUNTERS_TID, 'thread_name', 'counters');

  // Lock names the scenario gave (a LABEL of kind LOCK names a lock id).
  const lockNames = new Map<number, string>();
  for (let i = 0; i < log.length; i++) {
    if (log.kind[i] === EventKind.LABEL && log.arg(i, 1) === Label.LOCK) lockNames.set(log.arg(i, 0), name(log.arg(i, 2)));
  }

  // ---- CPU tracks: a stack of frames per CPU, diffed at each of its events.
  const stacks: Frame[][] = Array.from({ length: cpus }, () => []);
  const calls = new Map<number, Frame[]>(); // task -> its open calls into the kernel
  const pendingWake = new Map<number, number>(); // task -> flow id of the wake-up not yet bound
  let nextFlow = 1;
  const flowStart = new Map<number, number>(); // flow id -> the time of its 's'
  const finished = new Set<number>(); // flow ids with an 'f'
  const startFlow = (cpu: number, ts: number, flowName: string, cat: string) => {
    const id = nextFlow++;
    out.push({ ph: 's', pid: PID.cpus, tid: cpuTid(cpu), ts, name: flowName, cat, id });
    flowStart.set(id, ts);
    return id;
  };
  /** The flow waiting under key ends in the slice open on cpu at ts (unless the clocks put it before its start). */
  const endFlow = <K>(pending: Map<K, number>, key: K, cpu: number, ts: number, flowName: string, cat: string) => {
    const id = pending.get(key);
    if (id === undefined) return;
    pending.delete(key);
    if (ts < flowStart.get(id)!) return;
    out.push({ ph: 'f', bp: 'e', pid: PID.cpus, tid: cpuTid(cpu), ts, name: flowName, cat, id });
    finished.add(id);
  };

  // A track written by several CPUs never goes back (see the top of the file).
  const lastTs = new Map<string, number>();
  const mono = (track: string, ts: number) => {
    const t = Math.max(ts, lastTs.get(track) ?? ts);
    lastTs.set(track, t);
    return t;
  };

  const setStack = (cpu: number, ts: number, want: Frame[]) => {
    const cur = stacks[cpu];
    let k = 0;
    while (k < cur.length && k < want.length && cur[k].key === want[k].key) k++;
    for (let j = cur.length - 1; j >= k; j--) {
      const f = cur[j];
      out.push(f.endArgs ? { ph: 'E', pid: PID.cpus, tid: cpuTid(cpu), ts, args: f.endArgs } : { ph: 'E', pid: PID.cpus, tid: cpuTid(cpu), ts });
    }
    for (let j = k; j < want.length; j++) {
      const f = want[j];
      const ev: TraceEvent = { ph: 'B', pid: PID.cpus, tid: cpuTid(cpu), ts, name: f.name, cat: f.cat };
      if (f.args) ev.args = f.args;
      out.push(ev);
      // A woken task's first slice after its wake-up ends the wake-up's flow.
      if (j === 0) endFlow(pendingWake, Number(f.key.slice(1)), cpu, ts, 'wake-up', 'sched');
    }
    stacks[cpu] = want;
  };
  // Frames are made once per task and per line (a run has hundreds of thousands of events).
  const taskFrames = new Map<number, Frame>();
  const taskFrame = (t: number) => {
    let f = taskFrames.get(t);
    if (!f) taskFrames.set(t, (f = { key: `t${t}`, name: task(t), cat: 'task', args: { task: t } }));
    return f;
  };
  const siteFrames = new Map<number, Frame>();
  const siteFrame = (i: number) => {
    let f = siteFrames.get(log.site[i]);
    if (!f) {
      const site = log.siteOf(i)!;
      f = { key: `f:${site.tree}:${site.func}`, name: site.func, cat: site.tree === 'project' ? 'project' : 'kernel', args: { tree: site.tree, line: `${site.file}:${site.line}` } };
      siteFrames.set(log.site[i], f);
    }
    return f;
  };
  const noCalls: Frame[] = [];

  // ---- Lock tracks: lanes allocated per lock so that slices on a lane never overlap.
  const lanes = new Map<number, Lane[]>();
  const holds = new Map<number, LockSlice[]>();
  const waits = new Map<number, LockSlice[]>();
  let nextLockTid = 4001;
  const lockName = (lock: number, nameId: number) => lockNames.get(lock) ?? name(nameId);
  const freeLane = (lock: number, nameId: number): Lane => {
    let ls = lanes.get(lock);
    if (!ls) lanes.set(lock, (ls = []));
    let lane = ls.find((l) => !l.busy);
    if (!lane) {
      lane = { tid: nextLockTid++, busy: false };
      ls.push(lane);
      meta(PID.locks, lane.tid, 'thread_name', ls.length === 1 ? lockName(lock, nameId) : `${lockName(lock, nameId)} (${ls.length})`);
    }
    lane.busy = true;
    return lane;
  };
  const openLock = (map: Map<number, LockSlice[]>, lock: number, nameId: number, t: number, ts: number, sliceName: string, args: Record<string, string | number>) => {
    const lane = freeLane(lock, nameId);
    let l = map.get(lock);
    if (!l) map.set(lock, (l = []));
    l.push({ lane, task: t });
    out.push({ ph: 'B', pid: PID.locks, tid: lane.tid, ts: mono(`lane ${lane.tid}`, ts), name: sliceName, cat: 'lock', args });
  };
  const closeLock = (map: Map<number, LockSlice[]>, lock: number, t: number, ts: number, anyTask: boolean) => {
    const l = map.get(lock);
    if (!l || !l.length) return;
    let k = l.findIndex((x) => x.task === t);
    if (k < 0) {
      if (!anyTask) return;
      k = 0;
    }
    const [s] = l.splice(k, 1);
    s.lane.busy = false;
    out.push({ ph: 'E', pid: PID.locks, tid: s.lane.tid, ts: mono(`lane ${s.lane.tid}`, ts) });
  };

  // ---- Async slices (grace periods) and flows from call_rcu().
  let nextAsync = 1;
  const gps = new Map<string, { id: number; name: string; cat: string }>();
  const rcuFlows = new Map<string, number>(); // obj:gp:cb -> flow id

  // ---- Counters.
  const counter = (ts: number, counterName: string, key: string, value: number) =>
    out.push({ ph: 'C', pid: PID.counters, tid: COUNTERS_TID, ts: mono(`counter ${counterName} ${key}`, ts), name: counterName, args: { [key]: value } });
  let inodeLru = 0;
  let lruPages = 0;

  const reportsAt = new Map<number, number[]>();
  log.meta.reports.forEach((r, k) => {
    const l = reportsAt.get(r.event) ?? [];
    l.push(k);
    reportsAt.set(r.event, l);
  });

  const s = machineReducer.init(log);
  for (let i = 0; i < log.length; i++) {
    const ts = toUs(log.time[i]);
    const kind = log.kind[i] as EventKind;
    const cpu = log.cpu[i];
    const who = log.task[i];
    const a = (n: number) => log.arg(i, n);
    const site = log.siteOf(i);

    // Calls into the kernel, per task (they outlive a switch-out).
    if (kind === EventKind.CALL && who >= 0) {
      const l = calls.get(who) ?? [];
      l.push({ key: `c${i}`, name: `${name(a(0))}()`, cat: 'call', args: { a: a(1), b: a(2), c: a(3) } });
      calls.set(who, l);
    }
    const returning = kind === EventKind.RETURN && who >= 0 ? calls.get(who) : undefined;
    if (returning?.length) returning[returning.length - 1].endArgs = { ret: a(1) };

    machineReducer.apply(s, log, i);

    // This CPU's stack after the event: task, its calls, and what it runs now.
    const c = s.cpus[cpu];
    if (c.task < 0) {
      setStack(cpu, ts, []);
    } else {
      const want: Frame[] = [taskFrame(c.task)];
      const open = calls.get(c.task) ?? noCalls;
      const inCalls = kind === EventKind.RETURN && c.task === who ? open.length - 1 : open.length;
      for (let k = 0; k < inCalls; k++) want.push(open[k]);
      const prev = stacks[cpu];
      const samePrefix = prev.length === want.length + 1 && want.every((f, k) => prev[k].key === f.key);
      if (c.mode === 'spin') {
        want.push({ key: 'spin', name: `spins on ${c.spinningOn}`, cat: 'lock' });
      } else if (kind === EventKind.RCU_CALLBACK) {
        want.push({ key: `cb${i}`, name: `${name(a(2))}()`, cat: 'rcu', args: { obj: objName(labels, a(0)), gp: a(1) } });
      } else if (kind === EventKind.CALL || kind === EventKind.RETURN) {
        // the caller's line, outside the call: no kernel function
      } else if (site && site.func && who === c.task) {
        want.push(siteFrame(i));
      } else if (samePrefix) {
        want.push(prev[prev.length - 1]); // the machinery interrupted it; it goes on
      }
      setStack(cpu, ts, want);
    }
    if (kind === EventKind.RETURN && returning?.length) returning.pop();

    switch (kind) {
      case EventKind.TASK_WAKE: {
        const old = pendingWake.get(a(0));
        if (old !== undefined) flowStart.delete(old); // woken again before it ran: the later wake-up counts
        pendingWake.set(a(0), startFlow(cpu, ts, 'wake-up', 'sched'));
        break;
      }
      case EventKind.CALL_RCU: {
        rcuFlows.set(`${a(0)}:${a(1)}:${a(2)}`, startFlow(cpu, ts, 'call_rcu', 'rcu'));
        break;
      }
      case EventKind.RCU_CALLBACK: {
        endFlow(rcuFlows, `${a(0)}:${a(1)}:${a(2)}`, cpu, ts, 'call_rcu', 'rcu');
        break;
      }
      case EventKind.RCU_GP_START: {
        const g = { id: nextAsync++, name: 'grace period', cat: 'rcu' };
        gps.set(`rcu:${a(0)}`, g);
        out.push({ ph: 'b', pid: PID.rcu, ts: mono(`async ${g.id}`, ts), name: g.name, cat: g.cat, id: g.id, args: { gp: a(0), cpus: a(1) } });
        break;
      }
      case EventKind.RCU_GP_END: {
        const g = gps.get(`rcu:${a(0)}`);
        if (g) out.push({ ph: 'e', pid: PID.rcu, ts: mono(`async ${g.id}`, ts), name: g.name, cat: g.cat, id: g.id });
        gps.delete(`rcu:${a(0)}`);
        break;
      }
      case EventKind.SRCU_GP_START: {
        const g = { id: nextAsync++, name: `SRCU grace period (${name(a(0))})`, cat: 'srcu' };
        gps.set(`srcu:${a(0)}:${a(3)}`, g);
        out.push({ ph: 'b', pid: PID.rcu, ts: mono(`async ${g.id}`, ts), name: g.name, cat: g.cat, id: g.id, args: { gp: a(3), old_idx: a(1), readers: a(2) } });
        break;
      }
      case EventKind.SRCU_GP_END: {
        const g = gps.get(`srcu:${a(0)}:${a(1)}`);
        if (g) out.push({ ph: 'e', pid: PID.rcu, ts: mono(`async ${g.id}`, ts), name: g.name, cat: g.cat, id: g.id });
        gps.delete(`srcu:${a(0)}:${a(1)}`);
        break;
      }
      case EventKind.SRCU_READ_LOCK:
      case EventKind.SRCU_READ_UNLOCK:
        counter(ts, `${name(a(0))} readers`, `idx ${a(1)}`, a(2));
        break;
      case EventKind.LOCK_CONTEND: {
        const how = a(3) === 1 ? `CPU${cpu} spins` : `${task(who)} waits`;
        openLock(waits, a(0), a(1), who, ts, how, { task: task(who), cpu, owner_cpu: a(2), type: LOCK_TYPES[a(3)] ?? a(3) });
        break;
      }
      case EventKind.LOCK_ACQUIRE:
        closeLock(waits, a(0), who, ts, false);
        openLock(holds, a(0), a(1), who, ts, `${a(3) === 3 ? 'read-held' : 'held'} by ${task(who)}`, { task: task(who), cpu, type: LOCK_TYPES[a(3)] ?? a(3) });
        break;
      case EventKind.LOCK_RELEASE:
        closeLock(holds, a(0), who, ts, true);
        break;
      case EventKind.LOCK_TRYFAIL:
      case EventKind.LOCK_CONTENDED: {
        const what = kind === EventKind.LOCK_TRYFAIL ? 'trylock fails' : 'rwsem_is_contended()';
        out.push({ ph: 'i', s: 't', pid: PID.cpus, tid: cpuTid(cpu), ts, name: `${what}: ${lockName(a(0), a(1))}`, cat: 'lock', args: { owner_cpu: a(2) } });
        break;
      }
      case EventKind.REFCOUNT:
        counter(ts, a(0) > 0 ? objName(labels, a(0)) : (site?.expr ?? 'static data'), 'refcount', a(2));
        break;
      case EventKind.SHRINK_START:
        counter(ts, objName(labels, a(0)), 'freeable', a(1));
        counter(ts, objName(labels, a(0)), 'total_scan', a(2));
        break;
      case EventKind.SHRINK_END:
        counter(ts, objName(labels, a(0)), 'nr_deferred', a(2));
        break;
      case EventKind.SHRINKER_COUNT:
        counter(ts, `list_lru of ${objName(labels, a(0))}`, `memcg ${a(1) > 0 ? objName(labels, a(1)) : 'root'} node ${a(2)}`, a(3));
        break;
      case EventKind.LRU_ITEM:
        // list_lru_add_obj()/del_obj() that did something, and isolate's LRU_REMOVED(_RETRY)
        if (((a(1) === LruItemOp.ADD || a(1) === LruItemOp.DEL) && a(2) === 1) ||
          (a(1) === LruItemOp.ISOLATE && (a(2) === LruStatus.REMOVED || a(2) === LruStatus.REMOVED_RETRY))) {
          inodeLru += a(1) === LruItemOp.ADD ? 1 : -1;
          counter(ts, 'inode LRU', 'items', inodeLru);
        }
        break;
      case EventKind.LRU_ADD:
      case EventKind.LRU_DEL:
        lruPages += kind === EventKind.LRU_ADD ? 1 : -1;
        counter(ts, 'LRU', 'pages', lruPages);
        break;
      default:
        break;
    }

    const reports = reportsAt.get(i);
    if (reports) for (const k of reports) {
      const r = log.meta.reports[k];
      out.push({ ph: 'i', s: 't', pid: PID.cpus, tid: cpuTid(cpu), ts, name: r.title, cat: 'report', args: { type: REPORT_TYPES[r.type] ?? r.type, text: r.text, event: i } });
    }
  }

  // Close what is still open at the end of the run.
  // The run ends when its last clock stops (the last event may be of a CPU that is behind).
  let last = 0;
  for (let i = 0; i < log.length; i++) last = Math.max(last, log.time[i]);
  const end = toUs(last);
  for (let c = 0; c < cpus; c++) setStack(c, end, []);
  for (const map of [waits, holds]) for (const [lock, l] of map) while (l.length) closeLock(map, lock, l[0].task, end, true);
  for (const g of gps.values()) out.push({ ph: 'e', pid: PID.rcu, ts: mono(`async ${g.id}`, end), name: g.name, cat: g.cat, id: g.id });

  // A flow whose end never came (a wake-up of a task that did not run again) is left out.
  const traceEvents = out.filter((e) => (e.ph !== 's' && e.ph !== 'f') || (flowStart.has(e.id!) && finished.has(e.id!)));
  return {
    traceEvents,
    otherData: {
      title: opts.title ?? 'Reclaim Lab run',
      clock: 'simulated (virtual ns, wasm/runtime/costs.c), written in µs',
      status: log.meta.status,
      events: log.length,
      policy: log.meta.policy,
      schedule: log.meta.schedule,
    },
  };
}

/** The trace as the text of a .json file. */
export function traceJson(log: EventLog, opts: TraceOptions = {}, labels?: Labels): string {
  const t = buildTrace(log, opts, labels);
  // One event per line: readable, and diffable.
  const lines = t.traceEvents.map((e) => JSON.stringify(e));
  return `{"traceEvents":[\n${lines.join(',\n')}\n],\n"otherData":${JSON.stringify(t.otherData)}}\n`;
}
