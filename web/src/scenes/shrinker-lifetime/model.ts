// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-lifetime scene's model: the machine, plus each shrinker's
// refcount and where it is in its life, derived from the generic events
// the shim records inside the real mm/shrinker.c.
import { CompletionOp, EventKind, Label } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { machineReducer, type MachineState } from '../../engine/machine';

export const PHASES = [
  'allocated',
  'registered',
  'unregistering',
  'waiting for readers',
  'unlinked',
  'waiting for grace period',
  'freed',
] as const;
export type Phase = (typeof PHASES)[number];

export interface ShrinkerState {
  obj: number;
  name: string;
  refcount: number;
  phase: Phase;
  gp: number | null; // the grace period its memory waits for
  lastCall: string | null;
}

export interface LifetimeState {
  machine: MachineState;
  shrinkers: ShrinkerState[];
}


/** Objects the scenario labelled as shrinkers, with their names. */
function shrinkerNames(log: EventLog): Map<number, string> {
  const m = new Map<number, string>();
  for (let i = 0; i < log.length; i++) {
    if (log.kind[i] === EventKind.LABEL && log.arg(i, 1) === Label.SHRINKER) m.set(log.arg(i, 0), log.name(log.arg(i, 2)));
  }
  return m;
}

const namesByLog = new WeakMap<EventLog, Map<number, string>>();
function namesOf(log: EventLog) {
  let m = namesByLog.get(log);
  if (!m) namesByLog.set(log, (m = shrinkerNames(log)));
  return m;
}

/**
 * The first shrinker of a list with each object address (an address freed
 * and allocated again names a second one after the first): kept beside the
 * list, not in the state, so that a copy of the state (a checkpoint) starts
 * a new index; every event looks its object up, and a run of a thousand
 * rounds has a thousand shrinkers.
 */
const firstByObj = new WeakMap<ShrinkerState[], Map<number, ShrinkerState>>();

function shrinkerOf(list: ShrinkerState[], obj: number): ShrinkerState | undefined {
  let m = firstByObj.get(list);
  if (!m) {
    m = new Map();
    for (const x of list) if (!m.has(x.obj)) m.set(x.obj, x);
    firstByObj.set(list, m);
  }
  return m.get(obj);
}

export const lifetimeReducer = {
  init(log: EventLog): LifetimeState {
    return { machine: machineReducer.init(log), shrinkers: [] };
  },

  apply(s: LifetimeState, log: EventLog, i: number) {
    machineReducer.apply(s.machine, log, i);
    const kind = log.kind[i] as EventKind;
    const obj = log.arg(i, 0);
    const names = namesOf(log);
    if (kind === EventKind.KMALLOC && names.has(obj)) {
      const sh: ShrinkerState = { obj, name: names.get(obj)!, refcount: 0, phase: 'allocated', gp: null, lastCall: null };
      s.shrinkers.push(sh);
      const m = firstByObj.get(s.shrinkers);
      if (m && !m.has(obj)) m.set(obj, sh);
      return;
    }
    const sh = shrinkerOf(s.shrinkers, obj);
    if (!sh) return;
    const func = log.siteOf(i)?.func;
    switch (kind) {
      case EventKind.LIST:
        if (log.arg(i, 2) === 3) sh.phase = 'unlinked';
        else if (sh.phase === 'allocated') sh.phase = 'registered';
        break;
      case EventKind.REFCOUNT:
        sh.refcount = log.arg(i, 2);
        if (log.arg(i, 3) === 3 && func === 'shrinker_free') sh.phase = 'unregistering';
        break;
      case EventKind.COMPLETION:
        // wait_for_completion(&shrinker->done) with readers still holding references
        if (log.arg(i, 2) === CompletionOp.WAIT && log.arg(i, 1) === 0) sh.phase = 'waiting for readers';
        else if (log.arg(i, 2) === CompletionOp.COMPLETE && sh.phase === 'waiting for readers') sh.phase = 'unregistering';
        break;
      case EventKind.CALL_RCU:
        sh.phase = 'waiting for grace period';
        sh.gp = log.arg(i, 1);
        break;
      case EventKind.KFREE:
        sh.phase = 'freed';
        break;
      case EventKind.SHRINKER_COUNT:
        sh.lastCall = `count_objects → ${log.arg(i, 3)}`;
        break;
      case EventKind.SHRINKER_SCAN:
        sh.lastCall = `scan_objects freed ${log.arg(i, 3)}`;
        break;
      default:
        break;
    }
  },
};
