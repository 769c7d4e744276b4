// SPDX-License-Identifier: GPL-2.0-only
// The memcg-bitmap scene's model: the machine, plus each memcg's
// shrinker_info bits and list_lru objects, derived from the events the
// real code records (BIT at set_shrinker_bit() and shrink_slab_memcg(),
// the scenario's count and scan callbacks) and the pieces the glue names
// (a BITMAP event: which memcg and node a map belongs to, its first bit).
import { EventKind, Label } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { machineReducer, type MachineState } from '../../engine/machine';

const BIT_SET = 1; // events.def BIT ops
const BIT_CLEAR = 2;
const BIT_TEST_AND_SET = 3;
const BIT_TEST_AND_CLEAR = 4;

export interface MemcgRow {
  obj: number;
  name: string; // "/", "/ct0/1"…
}

export interface ShrinkerColumn {
  obj: number;
  name: string; // the mount, "ct0/mnt1"
  id: number; // its bit
}

export interface Flip {
  step: number;
  memcg: number;
  bit: number;
  set: boolean;
  func: string;
  line: number;
  task: number;
}

export interface CountCall {
  step: number;
  task: number;
  memcg: number;
  shrinker: number;
  ret: number;
}

export interface RaceResult {
  step: number;
  lost: boolean; // an object on the list with its bit clear
}

export interface BitmapState {
  machine: MachineState;
  memcgs: MemcgRow[];
  shrinkers: ShrinkerColumn[];
  units: Record<number, { memcg: number; nid: number; first: number }>;
  bits: Record<number, number[]>; // memcg -> set bits, ascending
  objects: Record<string, number>; // "memcg:shrinker" -> objects on its list_lru
  flips: number;
  lastFlip: Flip | null;
  lastCount: CountCall | null;
  countCalls: number; // count_objects calls so far (one per do_shrink_slab())
  passes: number[]; // do_shrink_slab() calls of each finished global pass
  inPass: boolean;
  op: string | null; // the scenario operation under way
  opIndex: number; // operations started so far
  expanded: number; // shrinker_infos replaced by expand_one_shrinker_info()
  oldInfos: { obj: number; freed: boolean; step: number }[]; // the replaced ones
  races: RaceResult[];
  counted: number[]; // tasks whose add was counted at its set_shrinker_bit(), before it returned
}

const OPS = ['add', 'del', 'drain', 'shrink_slab', 'global_reclaim_pass', 'grow', 'race', 'expand_race'];
/* Operations that run others inside them: those are not top-level. */
const RACES = ['race', 'expand_race'];

export const key = (memcg: number, shrinker: number) => `${memcg}:${shrinker}`;

function setBit(s: BitmapState, memcg: number, bit: number, on: boolean) {
  const v = s.bits[memcg] ?? [];
  const has = v.includes(bit);
  if (on && !has) s.bits[memcg] = [...v, bit].sort((x, y) => x - y);
  if (!on && has) s.bits[memcg] = v.filter((b) => b !== bit);
}

export const bitmapReducer = {
  init(log: EventLog): BitmapState {
    return {
      machine: machineReducer.init(log),
      memcgs: [],
      shrinkers: [],
      units: {},
      bits: {},
      objects: {},
      flips: 0,
      lastFlip: null,
      lastCount: null,
      countCalls: 0,
      passes: [],
      inPass: false,
      op: null,
      opIndex: 0,
      expanded: 0,
      oldInfos: [],
      races: [],
      counted: [],
    };
  },

  apply(s: BitmapState, log: EventLog, i: number) {
    machineReducer.apply(s.machine, log, i);
    const a = (n: number) => log.arg(i, n);
    switch (log.kind[i] as EventKind) {
      case EventKind.LABEL:
        if (a(1) === Label.MEMCG && !s.memcgs.some((m) => m.obj === a(0))) s.memcgs.push({ obj: a(0), name: log.name(a(2)) });
        if (a(1) === Label.SHRINKER && !s.shrinkers.some((x) => x.obj === a(0))) s.shrinkers.push({ obj: a(0), name: log.name(a(2)), id: -1 });
        return;
      case EventKind.BITMAP:
        s.units[a(0)] = { memcg: a(1), nid: a(2), first: a(3) };
        return;
      case EventKind.BIT: {
        const unit = s.units[a(0)];
        if (!unit) return;
        const op = a(3);
        const set = op === BIT_SET || op === BIT_TEST_AND_SET;
        if (!set && op !== BIT_CLEAR && op !== BIT_TEST_AND_CLEAR) return;
        const bit = unit.first + a(1);
        setBit(s, unit.memcg, bit, set);
        const site = log.siteOf(i);
        // list_lru_add() links the object, then sets the bit of the list's first one: count it now.
        const col = s.shrinkers.find((x) => x.id === bit);
        if (set && col && site?.func === 'set_shrinker_bit' && !s.counted.includes(log.task[i])) {
          const k = key(unit.memcg, col.obj);
          s.objects[k] = (s.objects[k] ?? 0) + 1;
          s.counted = [...s.counted, log.task[i]];
        }
        s.flips++;
        s.lastFlip = { step: i, memcg: unit.memcg, bit, set, func: site?.func ?? '', line: site?.line ?? 0, task: log.task[i] };
        return;
      }
      case EventKind.SHRINKER_COUNT: {
        s.countCalls++;
        // What the callback counted, which a racing add may already have changed:
        // the objects themselves are kept from the adds, deletes and scans.
        s.lastCount = { step: i, task: log.task[i], memcg: a(1), shrinker: a(0), ret: a(3) };
        return;
      }
      case EventKind.SHRINKER_SCAN: {
        const k = key(a(1), a(0));
        s.objects[k] = Math.max(0, (s.objects[k] ?? 0) - a(3));
        return;
      }
      case EventKind.CALL: {
        const fn = log.name(a(0));
        if (fn === 'shrinker_id') {
          const col = s.shrinkers.find((x) => x.obj === a(1));
          if (col) col.id = a(2);
          s.shrinkers.sort((x, y) => x.id - y.id);
          return;
        }
        if (fn === 'global_reclaim_pass') s.inPass = true;
        // A top-level operation, not one the race's tasks make inside it.
        if (OPS.includes(fn) && !(RACES.includes(s.op ?? '') && fn !== s.op) && !(s.inPass && fn !== 'global_reclaim_pass')) {
          s.op = fn;
          s.opIndex++;
        }
        return;
      }
      case EventKind.RETURN: {
        const fn = log.name(a(0));
        // The scenario's own bookkeeping, in the model: what each operation did to the lists.
        const call = openCall(log, i);
        if (call >= 0) {
          const memcg = log.arg(call, 1);
          const shrinker = log.arg(call, 2);
          if (fn === 'add' && s.counted.includes(log.task[i])) s.counted = s.counted.filter((t) => t !== log.task[i]);
          else if (fn === 'add') s.objects[key(memcg, shrinker)] = (s.objects[key(memcg, shrinker)] ?? 0) + 1;
          if (fn === 'del') {
            const k = key(memcg, shrinker);
            s.objects[k] = log.arg(call, 3) ? 0 : Math.max(0, (s.objects[k] ?? 0) - 1);
          }
          if (fn === 'drain') for (const k of Object.keys(s.objects)) if (k.startsWith(`${memcg}:`)) s.objects[k] = 0;
        }
        if (fn === 'global_reclaim_pass') {
          s.passes = [...s.passes, a(1)];
          s.inPass = false;
        }
        if (RACES.includes(fn)) s.races = [...s.races, { step: i, lost: a(1) === 1 }];
        if (fn === s.op) s.op = null;
        return;
      }
      case EventKind.CALL_RCU:
        // Each expansion frees the info it replaced after a grace period: counted here, not at the
        // publication, which a kernel may make without rcu_assign_pointer()'s event (RCU_INIT_POINTER()).
        if (log.siteOf(i)?.func === 'expand_one_shrinker_info') {
          s.expanded++;
          s.oldInfos = [...s.oldInfos, { obj: a(0), freed: false, step: i }];
        }
        return;
      case EventKind.KFREE: {
        const k = s.oldInfos.findIndex((o) => o.obj === a(0) && !o.freed);
        if (k >= 0) s.oldInfos = s.oldInfos.map((o, j) => (j === k ? { ...o, freed: true, step: i } : o));
        return;
      }
      default:
        return;
    }
  },
};

/** The CALL event that the RETURN at i closes (same task, same name), or -1. */
export function openCall(log: EventLog, i: number): number {
  const task = log.task[i];
  const name = log.arg(i, 0);
  let depth = 0;
  for (let j = i - 1; j >= 0; j--) {
    if (log.task[j] !== task) continue;
    if (log.kind[j] === EventKind.RETURN && log.arg(j, 0) === name) depth++;
    if (log.kind[j] === EventKind.CALL && log.arg(j, 0) === name) {
      if (depth === 0) return j;
      depth--;
    }
  }
  return -1;
}

/** Where to stand after a new operation: its first bit flip, else its end. */
export function stepForOperation(log: EventLog, nth: number): number {
  const s = bitmapReducer.init(log);
  let start = -1;
  let race = false;
  for (let i = 0; i < log.length; i++) {
    bitmapReducer.apply(s, log, i);
    if (start < 0 && s.opIndex === nth) {
      start = i;
      race = RACES.includes(s.op ?? '');
    }
    if (start >= 0) {
      // A race's flips are its set-up's and its tasks'; what it did is its verdict, at its return.
      if (!race && s.lastFlip && s.lastFlip.step === i) return i;
      if (s.op === null) return i;
    }
  }
  return Math.max(0, log.length - 1);
}
