// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-churn scene's model: the machine, plus what each design
// uses to keep shrinkers alive while shrink_slab() runs them, derived from
// the generic events the shim records inside the real kernel code:
//   v6.1   shrinker_rwsem: its writer, its readers, who waits; every failed
//          down_read_trylock() and rwsem_is_contended() that makes
//          shrink_slab() give up
//   srcu   shrinker_srcu: readers of each index, the grace period that
//          synchronize_srcu() in unregister_shrinker() waits for
//   v6.12  each shrinker's refcount, the completion, the call_rcu() free
// and, for every design, each shrinker's life and the scenario's counts.
import { CompletionOp, EventKind, Label } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { machineReducer, type MachineState } from '../../engine/machine';

const LOCK_MUTEX = 2; // wasm/runtime/sim.h SIM_LOCK_*
const LOCK_RWSEM_READ = 3;
const LOCK_RWSEM_WRITE = 4;
const REGISTER_FNS = ['register_shrinker_prepared', 'shrinker_register'];
const UNREGISTER_FNS = ['unregister_shrinker', 'shrinker_free'];

export interface LockView {
  name: string;
  kind: 'rwsem' | 'mutex';
  writer: number | null; // task holding it (for writing)
  readers: number[]; // tasks holding it for reading
  waitingWriters: number[];
  waitingReaders: number[];
  handedTo: number[]; // woken waiters the lock was handed to, not yet running
}

export interface SrcuView {
  name: string;
  idx: number; // the index new readers take
  readers: [number, number];
  gp: { gp: number; oldIdx: number; task: number; waitingFor: number } | null;
  gps: number; // grace periods ended so far
}

export type ShrinkerPhase =
  | 'allocated'
  | 'registering'
  | 'registered'
  | 'unregistering'
  | 'waiting for readers'
  | 'waiting for grace period'
  | 'freed';

export interface ShrinkerView {
  obj: number;
  name: string;
  phase: ShrinkerPhase;
  refcount: number | null; // v6.12 only
  running: number[]; // tasks inside its count/scan callbacks now
}

export interface Bailout {
  step: number;
  task: number;
  how: 'trylock' | 'contended';
}

export interface ChurnState {
  machine: MachineState;
  locks: Record<string, LockView>;
  srcu: SrcuView | null;
  shrinkers: ShrinkerView[];
  shrinkCalls: number;
  bailouts: number;
  lastBailout: Bailout | null;
  registered: number;
  unregistered: number;
  ops: number;
  registering: Record<number, number>; // task -> the shrinker it is registering
}

interface Names {
  shrinkers: Map<number, string>;
}

const namesByLog = new WeakMap<EventLog, Names>();
function namesOf(log: EventLog): Names {
  let n = namesByLog.get(log);
  if (!n) {
    n = { shrinkers: new Map() };
    for (let i = 0; i < log.length; i++) {
      if (log.kind[i] === EventKind.LABEL && log.arg(i, 1) === Label.SHRINKER) n.shrinkers.set(log.arg(i, 0), log.name(log.arg(i, 2)));
    }
    namesByLog.set(log, n);
  }
  return n;
}

function lock(s: ChurnState, name: string, type: number): LockView {
  let l = s.locks[name];
  if (!l) {
    l = s.locks[name] = {
      name,
      kind: type === LOCK_MUTEX ? 'mutex' : 'rwsem',
      writer: null,
      readers: [],
      waitingWriters: [],
      waitingReaders: [],
      handedTo: [],
    };
  }
  return l;
}

const without = (v: number[], x: number) => v.filter((y) => y !== x);

export const churnReducer = {
  init(log: EventLog): ChurnState {
    const s: ChurnState = {
      machine: machineReducer.init(log),
      locks: {},
      srcu: null,
      shrinkers: [],
      shrinkCalls: 0,
      bailouts: 0,
      lastBailout: null,
      registered: 0,
      unregistered: 0,
      ops: 0,
      registering: {},
    };
    return s;
  },

  apply(s: ChurnState, log: EventLog, i: number) {
    machineReducer.apply(s.machine, log, i);
    const kind = log.kind[i] as EventKind;
    const a = (n: number) => log.arg(i, n);
    const task = log.task[i];
    const names = namesOf(log);
    const shrinker = (obj: number) => s.shrinkers.find((x) => x.obj === obj);

    switch (kind) {
      case EventKind.LOCK_CONTEND:
      case EventKind.LOCK_ACQUIRE:
      case EventKind.LOCK_RELEASE:
      case EventKind.LOCK_TRYFAIL:
      case EventKind.LOCK_CONTENDED: {
        const name = log.name(a(1));
        if (name !== 'shrinker_rwsem' && name !== 'shrinker_mutex') return;
        const type = a(3);
        const l = lock(s, name, type);
        const write = type !== LOCK_RWSEM_READ;
        if (kind === EventKind.LOCK_CONTEND) {
          if (write) l.waitingWriters = [...without(l.waitingWriters, task), task];
          else l.waitingReaders = [...without(l.waitingReaders, task), task];
        } else if (kind === EventKind.LOCK_ACQUIRE) {
          l.waitingWriters = without(l.waitingWriters, task);
          l.waitingReaders = without(l.waitingReaders, task);
          const handed = l.handedTo.includes(task);
          l.handedTo = without(l.handedTo, task);
          if (write) l.writer = task;
          else if (!handed) l.readers = [...l.readers, task];
        } else if (kind === EventKind.LOCK_RELEASE) {
          if (type === LOCK_RWSEM_WRITE || type === LOCK_MUTEX) l.writer = null;
          else {
            const k = l.readers.indexOf(task);
            if (k >= 0) l.readers = [...l.readers.slice(0, k), ...l.readers.slice(k + 1)];
          }
        } else {
          s.bailouts++;
          s.lastBailout = { step: i, task, how: kind === EventKind.LOCK_TRYFAIL ? 'trylock' : 'contended' };
        }
        return;
      }
      case EventKind.TASK_WAKE: {
        // Unlocking hands the lock to the waiters it wakes (wasm/runtime/locks.c).
        const woken = a(0);
        for (const l of Object.values(s.locks)) {
          if (l.waitingWriters.includes(woken)) {
            l.waitingWriters = without(l.waitingWriters, woken);
            l.writer = woken;
            l.handedTo = [...l.handedTo, woken];
          } else if (l.waitingReaders.includes(woken)) {
            l.waitingReaders = without(l.waitingReaders, woken);
            l.readers = [...l.readers, woken];
            l.handedTo = [...l.handedTo, woken];
          }
        }
        return;
      }
      case EventKind.SRCU_READ_LOCK:
      case EventKind.SRCU_READ_UNLOCK:
      case EventKind.SRCU_GP_START:
      case EventKind.SRCU_GP_END: {
        const sr = (s.srcu ??= { name: log.name(a(0)), idx: 0, readers: [0, 0], gp: null, gps: 0 });
        if (kind === EventKind.SRCU_READ_LOCK || kind === EventKind.SRCU_READ_UNLOCK) {
          sr.readers = a(1) === 0 ? [a(2), sr.readers[1]] : [sr.readers[0], a(2)];
        } else if (kind === EventKind.SRCU_GP_START) {
          sr.idx = 1 - a(1);
          sr.gp = { gp: a(3), oldIdx: a(1), task, waitingFor: a(2) };
        } else {
          sr.gp = null;
          sr.gps++;
        }
        return;
      }
      case EventKind.KMALLOC:
        if (names.shrinkers.has(a(0)) && !shrinker(a(0))) {
          s.shrinkers.push({ obj: a(0), name: names.shrinkers.get(a(0))!, phase: 'allocated', refcount: null, running: [] });
        }
        return;
      case EventKind.LABEL: {
        // v6.1 allocates the shrinker inside its owner: the label comes after the kmalloc.
        if (a(1) === Label.SHRINKER && !shrinker(a(0))) {
          s.shrinkers.push({ obj: a(0), name: log.name(a(2)), phase: 'allocated', refcount: null, running: [] });
        }
        return;
      }
      case EventKind.CALL: {
        const fn = log.name(a(0));
        if (fn === 'shrink_slab') s.shrinkCalls++;
        const sh = shrinker(a(1));
        if (sh && REGISTER_FNS.includes(fn)) {
          sh.phase = 'registering';
          s.registering[task] = sh.obj;
        }
        if (sh && UNREGISTER_FNS.includes(fn)) sh.phase = 'unregistering';
        return;
      }
      case EventKind.RETURN: {
        const fn = log.name(a(0));
        if (fn === 'ramfs_op') s.ops++;
        if (REGISTER_FNS.includes(fn)) {
          s.registered++;
          const sh = shrinker(s.registering[task]);
          delete s.registering[task];
          if (sh) sh.phase = 'registered';
        }
        if (UNREGISTER_FNS.includes(fn)) {
          s.unregistered++;
          const sh = shrinker(a(1));
          // v6.12 leaves the memory to an RCU callback; the others free it with the owner.
          if (sh && sh.phase === 'unregistering') sh.phase = 'freed';
        }
        return;
      }
      case EventKind.REFCOUNT: {
        const sh = shrinker(a(0));
        if (sh) sh.refcount = a(2);
        return;
      }
      case EventKind.COMPLETION: {
        // v6.12: shrinker_free() waits on shrinker->done until shrink_slab() puts its last reference.
        const sh = shrinker(a(0));
        if (sh && a(2) === CompletionOp.WAIT && a(1) === 0) sh.phase = 'waiting for readers';
        else if (sh && a(2) === CompletionOp.COMPLETE && sh.phase === 'waiting for readers') sh.phase = 'unregistering';
        return;
      }
      case EventKind.CALL_RCU: {
        const sh = shrinker(a(0));
        if (sh) sh.phase = 'waiting for grace period';
        return;
      }
      case EventKind.KFREE: {
        const sh = shrinker(a(0));
        if (sh) sh.phase = 'freed';
        return;
      }
      case EventKind.SHRINK_START: {
        const sh = shrinker(a(0));
        if (sh) sh.running = [...sh.running, task];
        return;
      }
      case EventKind.SHRINK_END: {
        const sh = shrinker(a(0));
        if (sh) sh.running = without(sh.running, task);
        return;
      }
      default:
        return;
    }
  },
};
