// SPDX-License-Identifier: GPL-2.0-only
// The inode-lru scene's model: the machine, the super block's inode LRU
// in list order, every inode's page cache (pages and shadow entries), and
// 6.12's file LRU lists, folded from the events the real code records
// (LRU_ITEM at fs/inode.c's list_lru_add_obj()/list_lru_del_obj() calls,
// inode_lru_isolate()'s returns and the page cache's mapping_shrinkable()
// tests; LRU_ADD/LRU_DEL at the folio LRU's list operations) and the
// scenario's calls (read_folio, shrink_inactive_list, shrink_slab).
import { EventKind, Label, LruItemOp, LruStatus } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { machineReducer, type MachineState } from '../../engine/machine';
import { lruListOf } from '../../engine/narrate';


/** inode_lru_isolate()'s lru_status as the kernel names it (LRU_ITEM's ret, generated from wasm/runtime/sim.h). */
export const statusName = (ret: number): string => (LruStatus[ret] ? `LRU_${LruStatus[ret]}` : String(ret));

export interface InodeRow {
  obj: number;
  name: string; // "ws 3", "stream 14"
  workingset: boolean;
  pages: number;
  shadows: number; // shadow entries in its XArray (LRU_ITEM MAPPING events)
  onLru: boolean;
  freed: boolean;
  rotations: number;
}

export type LruWhat = 'put-on' | 'already-on' | 'taken-off' | 'rotated' | 'isolated' | 'skipped' | 'retry';

export interface LruEvent {
  step: number;
  inode: number;
  what: LruWhat;
  status: string; // for isolate: the lru_status; else the call
  pages: number;
  func: string;
  line: number;
}

export interface InodeLruState {
  machine: MachineState;
  inodes: Record<number, InodeRow>;
  order: number[]; // the inode LRU, head (walked first) to tail
  inactive: number[]; // the inactive file list's folios (pfns), oldest (the tail, reclaimed first) first
  active: number; // folios on the active file list (the workingset's)
  owner: Record<number, number>; // folio pfn -> the inode it was read for (read_folio's CALL)
  shadowNodesFreed: number; // shadow_lru_isolate()'s mapping tests: a shadow node freed
  rotations: number;
  takenOff: number;
  putOn: number;
  freed: number;
  reclaimed: number;
  slabFreed: number; // what shrink_slab() reported freed, summed
  last: LruEvent | null;
  firsts: Partial<Record<LruWhat, number>>; // the step of each kind's first event
  slabNs: number; // kswapd's CPU time in shrink_slab() so far
  pageNs: number; // and in shrink_inactive_list()
  open: Record<number, { name: string; start: number; off: number }[]>; // per task, its open calls
  offSince: Record<number, number>; // task -> when it left its CPU
  model: { shift: number; inodes: number; visitNs: number; reclaimNs: number } | null;
}

function row(s: InodeLruState, obj: number): InodeRow {
  let r = s.inodes[obj];
  if (!r) {
    r = { obj, name: `inode ${obj}`, workingset: false, pages: 0, shadows: 0, onLru: false, freed: false, rotations: 0 };
    s.inodes[obj] = r;
  }
  return r;
}

const removeFrom = (v: number[], x: number) => {
  const k = v.indexOf(x);
  return k < 0 ? v : [...v.slice(0, k), ...v.slice(k + 1)];
};

export const inodeReducer = {
  init(log: EventLog): InodeLruState {
    return {
      machine: machineReducer.init(log),
      inodes: {},
      order: [],
      inactive: [],
      active: 0,
      owner: {},
      shadowNodesFreed: 0,
      rotations: 0,
      takenOff: 0,
      putOn: 0,
      freed: 0,
      reclaimed: 0,
      slabFreed: 0,
      last: null,
      firsts: {},
      slabNs: 0,
      pageNs: 0,
      open: {},
      offSince: {},
      model: null,
    };
  },

  apply(s: InodeLruState, log: EventLog, i: number) {
    machineReducer.apply(s.machine, log, i);
    const a = (n: number) => log.arg(i, n);
    const task = log.task[i];
    const t = log.time[i];
    // Time a task spends off its CPU is not its work: the share counts CPU time.
    if (s.offSince[task] !== undefined && log.kind[i] !== EventKind.CPU_SWITCH) {
      for (const c of s.open[task] ?? []) c.off += t - s.offSince[task];
      delete s.offSince[task];
    }
    switch (log.kind[i] as EventKind) {
      case EventKind.CPU_SWITCH:
        if (a(0) !== a(1) && s.offSince[a(0)] === undefined) s.offSince[a(0)] = t;
        return;
      case EventKind.TASK_BLOCK:
        if (s.offSince[a(0)] === undefined) s.offSince[a(0)] = t;
        return;
      case EventKind.LABEL:
        if (a(1) === Label.ITEM) {
          const r = row(s, a(0));
          r.name = log.name(a(2));
          r.workingset = r.name.startsWith('ws');
        }
        return;
      case EventKind.LRU_ADD: {
        // pfn, after which folio (-1: the head), list id (lruvec * NR_LRU_LISTS + lru)
        const list = lruListOf(a(2));
        if (list === 'active_file') s.active++;
        else if (list === 'inactive_file') {
          // oldest first is tail first: the head's end is the array's end, "after prev" just before prev
          const k = a(1) < 0 ? -1 : s.inactive.indexOf(a(1));
          s.inactive = k < 0 ? [...s.inactive, a(0)] : [...s.inactive.slice(0, k), a(0), ...s.inactive.slice(k)];
        }
        return;
      }
      case EventKind.LRU_DEL: {
        const list = lruListOf(a(1));
        if (list === 'active_file') s.active--;
        else if (list === 'inactive_file') s.inactive = removeFrom(s.inactive, a(0));
        return;
      }
      case EventKind.KFREE: {
        const r = s.inodes[a(0)];
        if (r && !r.freed) {
          r.freed = true;
          s.freed++;
        }
        return;
      }
      case EventKind.LRU_ITEM: {
        const r = row(s, a(0));
        const site = log.siteOf(i);
        let what: LruWhat;
        const op = a(1);
        const ret = a(2);
        r.pages = a(3);
        if (op === LruItemOp.MAPPING) {
          // a page cache change tested mapping_shrinkable() before inode_add_lru(): ret = shadows * 2 + shrinkable
          r.shadows = ret >> 1;
          if (site?.func === 'shadow_lru_isolate') s.shadowNodesFreed++;
          return;
        }
        if (op === LruItemOp.ADD) {
          what = ret ? 'put-on' : 'already-on';
          if (ret) {
            r.onLru = true;
            s.order = [...s.order, r.obj];
            s.putOn++;
          }
        } else if (op === LruItemOp.DEL) {
          what = 'taken-off';
          if (ret) {
            r.onLru = false;
            s.order = removeFrom(s.order, r.obj);
            s.takenOff++;
          }
        } else {
          if (ret === LruStatus.ROTATE || ret === LruStatus.ROTATE_NODEFER) {
            what = 'rotated';
            s.order = [...removeFrom(s.order, r.obj), r.obj];
            r.rotations++;
            s.rotations++;
          } else if (ret === LruStatus.REMOVED || ret === LruStatus.REMOVED_RETRY) {
            // Off the LRU: to be freed (empty, unused) or lazily, because it is busy.
            what = r.pages === 0 ? 'isolated' : 'taken-off';
            r.onLru = false;
            s.order = removeFrom(s.order, r.obj);
            if (what === 'taken-off') s.takenOff++;
          } else what = ret === LruStatus.SKIP ? 'skipped' : 'retry';
        }
        if (s.firsts[what] === undefined) s.firsts = { ...s.firsts, [what]: i };
        s.last = { step: i, inode: r.obj, what, status: op === LruItemOp.ISOLATE ? statusName(ret) : op === LruItemOp.ADD ? 'list_lru_add_obj' : 'list_lru_del_obj', pages: r.pages, func: site?.func ?? '', line: site?.line ?? 0 };
        return;
      }
      case EventKind.CALL: {
        const fn = log.name(a(0));
        (s.open[task] ??= []).push({ name: fn, start: t, off: 0 });
        if (fn === 'inode_lru_model') s.model = { shift: a(1), inodes: a(2), visitNs: a(3), reclaimNs: 0 };
        return;
      }
      case EventKind.RETURN: {
        const fn = log.name(a(0));
        const stack = s.open[task] ?? [];
        const c = stack.pop();
        if (c && c.name === fn) {
          if (fn === 'shrink_slab') {
            s.slabNs += t - c.start - c.off;
            s.slabFreed += a(1);
          }
          if (fn === 'shrink_inactive_list') s.pageNs += t - c.start - c.off;
        }
        if (fn === 'inode_lru_model' && s.model) s.model = { ...s.model, reclaimNs: a(1) };
        if (fn === 'shrink_inactive_list') s.reclaimed += a(1);
        return;
      }
      default:
        return;
    }
  },
};

/** read_folio's CALL: the inode, the page's index and its folio's pfn; the page is in its page cache at the RETURN. */
export const readFolioReducer = {
  apply(s: InodeLruState, log: EventLog, i: number) {
    if (log.kind[i] !== EventKind.CALL || log.name(log.arg(i, 0)) !== 'read_folio') return;
    const obj = log.arg(i, 1);
    row(s, obj).pages++;
    s.owner[log.arg(i, 3)] = obj;
  },
};

/** The running share of kswapd's reclaim CPU time spent in shrink_slab(), in percent. */
export const slabShare = (s: InodeLruState) => (s.slabNs + s.pageNs > 0 ? (100 * s.slabNs) / (s.slabNs + s.pageNs) : 0);

export const sceneReducer = {
  init: inodeReducer.init,
  apply(s: InodeLruState, log: EventLog, i: number) {
    inodeReducer.apply(s, log, i);
    readFolioReducer.apply(s, log, i);
  },
};

/** The first LRU_ITEM event after step that does `what` (rotated: op 3 rotating; put-on: op 1 that added), or -1. */
export type JumpWhat = 'rotated' | 'put-on' | 'isolated' | 'shadow-freed';

export function nextLruEvent(log: EventLog, step: number, what: JumpWhat): number {
  for (let i = step + 1; i < log.length; i++) {
    if (log.kind[i] !== EventKind.LRU_ITEM) continue;
    const op = log.arg(i, 1);
    const ret = log.arg(i, 2);
    // shadow_lru_isolate() freed a shadow node and tests the mapping before inode_add_lru()
    if (what === 'shadow-freed' && op === LruItemOp.MAPPING && log.siteOf(i)?.func === 'shadow_lru_isolate') return i;
    if (what === 'rotated' && op === LruItemOp.ISOLATE && (ret === LruStatus.ROTATE || ret === LruStatus.ROTATE_NODEFER)) return i;
    if (what === 'put-on' && op === LruItemOp.ADD && ret === 1) return i;
    if (what === 'isolated' && op === LruItemOp.ISOLATE && ret === LruStatus.REMOVED && log.arg(i, 3) === 0) return i;
  }
  return -1;
}
