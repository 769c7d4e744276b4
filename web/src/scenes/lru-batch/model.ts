// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene's model: the machine, plus the LRU list as the
// port's tracepoints describe it (LRU_ADD with the page before it,
// LRU_DEL, LRU_SENTINEL: mm/lru_batch.c on branch lru-batch-locks), the
// 33 locks the scenario names (LABEL kind 5: lru_lock and the batch locks
// by index), who holds each and which CPUs spin on it, what each task is
// doing, and the removals that collided.
import { EventKind, Label } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { machineReducer, type MachineState } from '../../engine/machine';

export const NUM_LRU_BATCH_LOCKS = 32; // include/linux/lru_batch.h
export const LRU_LOCK = -1; // the index the scenario gives lru_lock

/** Lock id -> index (-1 lru_lock, 0..31 a batch lock), from the scenario's labels. */
export interface LockMap {
  index: Map<number, number>;
  byIndex: Map<number, number>; // index -> lock id
}

const lockMaps = new WeakMap<EventLog, LockMap>();

export function lockMap(log: EventLog): LockMap {
  let m = lockMaps.get(log);
  if (m) return m;
  m = { index: new Map(), byIndex: new Map() };
  for (let i = 0; i < log.length; i++) {
    if (log.kind[i] === EventKind.LABEL && log.arg(i, 1) === Label.LOCK) {
      m.index.set(log.arg(i, 0), log.arg(i, 3));
      m.byIndex.set(log.arg(i, 3), log.arg(i, 0));
    }
  }
  lockMaps.set(log, m);
  return m;
}

export const lockLabel = (index: number) => (index === LRU_LOCK ? 'lru_lock' : `batch lock ${index}`);

export interface Collision {
  step: number;
  cpu: number; // the CPU that spins
  task: number;
  lock: number; // its index
  owner: number; // the task holding it
  ownerPage: number; // the page the owner is taking off (-1: none known)
  ownerSentinel: boolean; // ... and whether it is a sentinel
}

export interface LruChange {
  step: number;
  kind: 'add' | 'del' | 'sentinel';
  page: number;
  task: number;
}

/**
 * The list, linked as the kernel links it, so that linking a page after
 * its neighbour or taking one off costs the same whatever the list's
 * length (a run of 64 tasks × 512 pages keeps tens of thousands on it).
 * Indexed by page id (the scenario numbers pages densely from 0); -1 ends
 * the list; a page off the list has prev = next = OFF.
 */
export interface LruList {
  next: Int32Array;
  prev: Int32Array;
  batch: Int32Array; // page -> tag
  sentinel: Uint8Array;
  head: number;
  tail: number;
  length: number;
}

const OFF = -2;

export interface LruState {
  machine: MachineState;
  lru: LruList;
  holder: Record<number, number>; // lock index -> task
  spinning: Record<number, number>; // cpu -> lock index it spins on
  doing: Record<number, string>; // task -> the scenario call under way
  removing: Record<number, { page: number; sentinel: boolean }>; // task -> page it took off last, in this call
  last: LruChange | null;
  added: number;
  removed: number;
  sentinelFlips: number;
  collisions: number;
  sentinelCollisions: number;
  lastCollision: Collision | null;
  bug: { step: number; text: string } | null;
}

const pageCounts = new WeakMap<EventLog, number>();

/** One more than the largest page id the log links in. */
function pageCount(log: EventLog): number {
  let n = pageCounts.get(log);
  if (n !== undefined) return n;
  n = 0;
  for (let i = 0; i < log.length; i++) if (log.kind[i] === EventKind.LRU_ADD) n = Math.max(n, log.arg(i, 0) + 1);
  pageCounts.set(log, n);
  return n;
}

function emptyList(pages: number): LruList {
  return {
    next: new Int32Array(pages).fill(OFF),
    prev: new Int32Array(pages).fill(OFF),
    batch: new Int32Array(pages),
    sentinel: new Uint8Array(pages),
    head: -1,
    tail: -1,
    length: 0,
  };
}

/** Links page p after page `after` (-1: at the head). */
function link(l: LruList, p: number, after: number) {
  const next = after < 0 ? l.head : l.next[after];
  l.prev[p] = after;
  l.next[p] = next;
  if (after < 0) l.head = p;
  else l.next[after] = p;
  if (next < 0) l.tail = p;
  else l.prev[next] = p;
  l.length++;
}

function unlink(l: LruList, p: number) {
  if (p < 0 || p >= l.next.length || l.next[p] === OFF) return;
  const prev = l.prev[p];
  const next = l.next[p];
  if (prev < 0) l.head = next;
  else l.next[prev] = next;
  if (next < 0) l.tail = prev;
  else l.prev[next] = prev;
  l.prev[p] = l.next[p] = OFF;
  l.length--;
}

/** The page ids on the list, head first. */
export function lruOrder(s: LruState): number[] {
  const out: number[] = [];
  for (let p = s.lru.head; p >= 0; p = s.lru.next[p]) out.push(p);
  return out;
}

export const pageBatch = (s: LruState, p: number) => s.lru.batch[p];
export const isSentinel = (s: LruState, p: number) => s.lru.sentinel[p] !== 0;

export const lruReducer = {
  init(log: EventLog): LruState {
    lockMap(log);
    return {
      machine: machineReducer.init(log),
      lru: emptyList(pageCount(log)),
      holder: {},
      spinning: {},
      doing: {},
      removing: {},
      last: null,
      added: 0,
      removed: 0,
      sentinelFlips: 0,
      collisions: 0,
      sentinelCollisions: 0,
      lastCollision: null,
      bug: null,
    };
  },

  apply(s: LruState, log: EventLog, i: number) {
    machineReducer.apply(s.machine, log, i);
    const a = (n: number) => log.arg(i, n);
    const task = log.task[i];
    const locks = lockMap(log).index;
    switch (log.kind[i] as EventKind) {
      case EventKind.LRU_ADD: {
        link(s.lru, a(0), a(1));
        s.lru.batch[a(0)] = a(2);
        s.lru.sentinel[a(0)] = a(3) !== 0 ? 1 : 0;
        s.added++;
        s.last = { step: i, kind: 'add', page: a(0), task };
        break;
      }
      case EventKind.LRU_DEL: {
        unlink(s.lru, a(0));
        s.removed++;
        s.removing[task] = { page: a(0), sentinel: a(2) !== 0 };
        s.last = { step: i, kind: 'del', page: a(0), task };
        break;
      }
      case EventKind.LRU_SENTINEL:
        s.lru.sentinel[a(0)] = a(2) !== 0 ? 1 : 0;
        s.sentinelFlips++;
        s.last = { step: i, kind: 'sentinel', page: a(0), task };
        break;
      case EventKind.LOCK_ACQUIRE: {
        const idx = locks.get(a(0));
        if (idx !== undefined) s.holder[idx] = task;
        delete s.spinning[log.cpu[i]];
        break;
      }
      case EventKind.LOCK_RELEASE: {
        const idx = locks.get(a(0));
        if (idx !== undefined) delete s.holder[idx];
        break;
      }
      case EventKind.LOCK_CONTEND: {
        const idx = locks.get(a(0));
        if (idx === undefined) break;
        s.spinning[log.cpu[i]] = idx;
        const owner = s.holder[idx] ?? -1;
        // Two removals collide: this task is taking pages off, and so is the one holding the lock.
        if (s.doing[task] === 'release_pages' && owner >= 0 && s.doing[owner] === 'release_pages') {
          const r = s.removing[owner];
          // The owner holds lru_lock, or a batch lock while taking off a sentinel: a sentinel is involved.
          const sentinel = idx === LRU_LOCK || (!!r && r.sentinel && s.holder[LRU_LOCK] === owner);
          s.collisions++;
          if (sentinel) s.sentinelCollisions++;
          s.lastCollision = {
            step: i, cpu: log.cpu[i], task, lock: idx, owner, ownerPage: r ? r.page : -1, ownerSentinel: sentinel,
          };
        }
        break;
      }
      case EventKind.CALL:
        if (task >= 0) {
          s.doing[task] = log.name(a(0));
          delete s.removing[task];
        }
        break;
      case EventKind.RETURN:
        if (task >= 0) {
          delete s.doing[task];
          delete s.removing[task];
        }
        break;
      case EventKind.BUG:
        if (!s.bug) s.bug = { step: i, text: log.name(a(0)) };
        break;
    }
  },
};

/** The list as the cover letter draws it: '*' a sentinel, 'o' an inner page, a space between batches. */
export function listText(s: LruState, max = Infinity): string {
  let out = '';
  let prev: number | null = null;
  const { batch, sentinel } = s.lru;
  // Head first, along the links: the first `max` characters walk no further.
  for (let p = s.lru.head; p >= 0 && out.length < max; p = s.lru.next[p]) {
    if (prev !== null && batch[p] !== prev) out += ' ';
    out += sentinel[p] ? '*' : 'o';
    prev = batch[p];
  }
  return out;
}

/**
 * What the locking scheme requires of the list, checked on the model, as
 * lru_batch_check() checks the real one: every page whose neighbour (or
 * the head) has another tag is a sentinel. (Two batches next to each other
 * may draw the same tag; one lock then covers both, which is safe.)
 * Returns what is wrong, or null.
 */
export function listProblem(s: LruState): string | null {
  const o = lruOrder(s);
  const { batch, sentinel } = s.lru;
  for (let k = 0; k < o.length; k++) {
    const tag = batch[o[k]];
    const before = k === 0 ? -1 : batch[o[k - 1]];
    const after = k === o.length - 1 ? -1 : batch[o[k + 1]];
    if ((before !== tag || after !== tag) && !sentinel[o[k]]) return `page ${o[k]} is at the edge of batch ${tag} but not a sentinel`;
  }
  return null;
}

/** FNV-1a over each page's id, tag and sentinel flag, head first, as the scenario's check_list() prints it. */
export function listHash(s: LruState): number {
  let h = 2166136261;
  for (const p of lruOrder(s))
    for (const v of [p, s.lru.batch[p], s.lru.sentinel[p]]) h = Math.imul((h ^ v) >>> 0, 16777619) >>> 0;
  return h >>> 0;
}

export interface Heat {
  locks: number[]; // lock indices with any spinning, lru_lock first
  buckets: number; // columns
  t0: number;
  t1: number;
  spin: Map<number, Float64Array>; // lock index -> spin ns per bucket
  max: number;
  totalSpin: Map<number, number>; // lock index -> spin ns over the run
  firstStep: Map<number, Int32Array>; // lock index -> per slice, the LOCK_CONTEND step of the first spin in it (-1: none)
}

const heats = new WeakMap<EventLog, Heat>();

/**
 * Contention over time: for each lock, the virtual time CPUs spent spinning
 * on it (LOCK_CONTEND to the same CPU's LOCK_ACQUIRE), spread over equal
 * slices of the run.
 */
export function contention(log: EventLog, buckets = 72): Heat {
  const cached = heats.get(log);
  if (cached && cached.buckets === buckets) return cached;
  const locks = lockMap(log).index;
  const t0 = log.length ? log.time[0] : 0;
  const t1 = Math.max(t0 + 1, log.length ? log.time[log.length - 1] : 1);
  const width = (t1 - t0) / buckets;
  const spin = new Map<number, Float64Array>();
  const firstStep = new Map<number, Int32Array>();
  const totalSpin = new Map<number, number>();
  const since = new Map<number, { lock: number; t: number; step: number }>(); // cpu -> spinning since
  const firstRow = (lock: number) => {
    let first = firstStep.get(lock);
    if (!first) {
      first = new Int32Array(buckets).fill(-1);
      firstStep.set(lock, first);
    }
    return first;
  };
  // A spin from step `step` over [from, to): each slice it covers counts it, and
  // its contention is the first in every slice it reaches (it was there first).
  const add = (lock: number, from: number, to: number, step: number) => {
    let row = spin.get(lock);
    if (!row) {
      row = new Float64Array(buckets);
      spin.set(lock, row);
    }
    const first = firstRow(lock);
    totalSpin.set(lock, (totalSpin.get(lock) ?? 0) + (to - from));
    for (let t = from; t < to; ) {
      const b = Math.min(buckets - 1, Math.floor((t - t0) / width));
      const end = Math.min(to, t0 + (b + 1) * width);
      row[b] += Math.max(0, end - t);
      if (end > t && (first[b] < 0 || step < first[b])) first[b] = step;
      if (end <= t) break;
      t = end;
    }
  };
  for (let i = 0; i < log.length; i++) {
    const k = log.kind[i];
    if (k === EventKind.LOCK_CONTEND) {
      const idx = locks.get(log.arg(i, 0));
      if (idx === undefined) continue;
      since.set(log.cpu[i], { lock: idx, t: log.time[i], step: i });
      const first = firstRow(idx);
      const b = Math.min(buckets - 1, Math.floor((log.time[i] - t0) / width));
      if (first[b] < 0) first[b] = i;
    } else if (k === EventKind.LOCK_ACQUIRE) {
      const w = since.get(log.cpu[i]);
      if (w && locks.get(log.arg(i, 0)) === w.lock) {
        add(w.lock, w.t, log.time[i], w.step);
        since.delete(log.cpu[i]);
      }
    }
  }
  let max = 0;
  for (const row of spin.values()) for (const v of row) max = Math.max(max, v);
  const order = [...spin.keys()].sort((x, y) => x - y);
  const heat: Heat = { locks: order, buckets, t0, t1, spin, max, totalSpin, firstStep };
  heats.set(log, heat);
  return heat;
}
