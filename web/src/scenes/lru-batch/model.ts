// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene's model: the machine, plus the LRU list the run
// fills, as the kernel's list operations describe it (LRU_ADD with the
// folio before it, LRU_DEL, LRU_SENTINEL: runtime/events.def; on v6.12 the
// list_add() of lruvec_add_folio(), the list_del() of lruvec_del_folio()
// and their kin, at their lines), the locks the scenario names (LABEL
// kind 5: lru_lock, and a batch-lock kernel's batch locks by index), who
// holds each and which CPUs spin on it, what each task is doing, and the
// lock acquisitions that collided.
import { EventKind, Label } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { machineReducer, type MachineState } from '../../engine/machine';

export const NUM_LRU_BATCH_LOCKS = 32; // the RFC's batch locks per list (its port's NUM_LRU_BATCH_LOCKS)
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

/** What a task is doing, by the scenario's calls: faulting folios in, releasing them, or checking the list. */
export type Doing = 'fault' | 'release_pages' | 'check_list' | 'other';
const doingOf = (name: string | undefined): Doing =>
  name === 'fault' || name === 'release_pages' || name === 'check_list' ? name : 'other';

export interface Collision {
  step: number;
  cpu: number; // the CPU that spins
  task: number;
  doing: Doing; // ... and what it is doing
  lock: number; // the lock's index
  owner: number; // the task holding it
  ownerDoing: Doing;
  ownerChange: 'add' | 'del' | null; // what the owner last did to the list since it took the lock
  ownerPage: number; // ... to which folio (-1: none known)
  ownerSentinel: boolean; // a sentinel is involved: the owner took one off, or the spinner waits to take one off
  spinnerSentinel: boolean; // the spinner waits for lru_lock in folio_lru_batch_relock_irqsave(): to take a sentinel off
}

export interface LruChange {
  step: number;
  kind: 'add' | 'del' | 'sentinel';
  page: number;
  task: number;
}

/**
 * The list, linked as the kernel links it, so that linking a folio after
 * its neighbour or taking one off costs the same whatever the list's
 * length (a run of 64 tasks × 512 pages keeps tens of thousands on it).
 * Indexed by folio (its pfn: the machine numbers its pages densely from
 * 0); -1 ends the list; a folio off the list has prev = next = OFF.
 */
export interface LruList {
  next: Int32Array;
  prev: Int32Array;
  batch: Int32Array; // folio -> tag (-1: the kernel has no batches)
  sentinel: Uint8Array;
  cpu: Int16Array; // folio -> the CPU that linked it on
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
  removing: Record<number, { page: number; sentinel: boolean }>; // task -> folio it took off last, in this call
  changing: Record<number, { kind: 'add' | 'del'; page: number; sentinel: boolean }>; // task -> its last change since it took a lock
  last: LruChange | null;
  added: number;
  removed: number;
  sentinelFlips: number;
  collisions: number;
  sentinelCollisions: number;
  collisionsBy: Record<string, number>; // "fault/release_pages" (spinner/holder) -> count
  lastCollision: Collision | null;
  bug: { step: number; text: string } | null;
}

/** What the scene draws of a run: which of the kernel's lists, and whether its kernel cuts lists into batches. */
export interface LruShape {
  list: number; // the list id the run linked most folios onto (-1: none)
  pages: number; // one more than the largest folio linked onto any list
  batches: boolean; // LRU_ADD carries batch tags
}

const shapes = new WeakMap<EventLog, LruShape>();

export function lruShape(log: EventLog): LruShape {
  let shape = shapes.get(log);
  if (shape) return shape;
  const adds = new Map<number, number>();
  let pages = 0;
  let batches = false;
  for (let i = 0; i < log.length; i++) {
    if (log.kind[i] !== EventKind.LRU_ADD) continue;
    pages = Math.max(pages, log.arg(i, 0) + 1);
    adds.set(log.arg(i, 2), (adds.get(log.arg(i, 2)) ?? 0) + 1);
    if (log.arg(i, 3) >= 0) batches = true;
  }
  let list = -1;
  for (const [id, n] of adds) if (list < 0 || n > adds.get(list)! || (n === adds.get(list)! && id < list)) list = id;
  shape = { list, pages, batches };
  shapes.set(log, shape);
  return shape;
}

function emptyList(pages: number): LruList {
  return {
    next: new Int32Array(pages).fill(OFF),
    prev: new Int32Array(pages).fill(OFF),
    batch: new Int32Array(pages).fill(-1),
    sentinel: new Uint8Array(pages),
    cpu: new Int16Array(pages),
    head: -1,
    tail: -1,
    length: 0,
  };
}

/** Links folio p after folio `after` (-1: at the head). */
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

/** The folios on the list, head first. */
export function lruOrder(s: LruState): number[] {
  const out: number[] = [];
  for (let p = s.lru.head; p >= 0; p = s.lru.next[p]) out.push(p);
  return out;
}

export const pageBatch = (s: LruState, p: number) => s.lru.batch[p];
export const isSentinel = (s: LruState, p: number) => s.lru.sentinel[p] !== 0;

/** A folio's batch tag and sentinel bit into the list (bits: tag * 2 + sentinel, or -1). */
function setBatch(l: LruList, p: number, bits: number) {
  l.batch[p] = bits < 0 ? -1 : bits >> 1;
  l.sentinel[p] = bits >= 0 && bits & 1 ? 1 : 0;
}

export const lruReducer = {
  init(log: EventLog): LruState {
    lockMap(log);
    return {
      machine: machineReducer.init(log),
      lru: emptyList(lruShape(log).pages),
      holder: {},
      spinning: {},
      doing: {},
      removing: {},
      changing: {},
      last: null,
      added: 0,
      removed: 0,
      sentinelFlips: 0,
      collisions: 0,
      sentinelCollisions: 0,
      collisionsBy: {},
      lastCollision: null,
      bug: null,
    };
  },

  apply(s: LruState, log: EventLog, i: number) {
    machineReducer.apply(s.machine, log, i);
    const a = (n: number) => log.arg(i, n);
    const task = log.task[i];
    const locks = lockMap(log).index;
    const shown = lruShape(log).list;
    switch (log.kind[i] as EventKind) {
      case EventKind.LRU_ADD: {
        if (a(2) !== shown) break;
        link(s.lru, a(0), a(1));
        setBatch(s.lru, a(0), a(3));
        s.lru.cpu[a(0)] = log.cpu[i];
        s.changing[task] = { kind: 'add', page: a(0), sentinel: false };
        s.added++;
        s.last = { step: i, kind: 'add', page: a(0), task };
        break;
      }
      case EventKind.LRU_DEL: {
        if (a(1) !== shown) break;
        unlink(s.lru, a(0));
        s.removed++;
        s.removing[task] = { page: a(0), sentinel: a(2) >= 0 && (a(2) & 1) !== 0 };
        s.changing[task] = { kind: 'del', ...s.removing[task] };
        s.last = { step: i, kind: 'del', page: a(0), task };
        break;
      }
      case EventKind.LRU_SENTINEL:
        if (a(1) !== shown) break;
        setBatch(s.lru, a(0), a(2));
        s.sentinelFlips++;
        s.last = { step: i, kind: 'sentinel', page: a(0), task };
        break;
      case EventKind.LOCK_ACQUIRE: {
        const idx = locks.get(a(0));
        if (idx !== undefined) {
          s.holder[idx] = task;
          if (!Object.keys(s.holder).some((k) => Number(k) !== idx && s.holder[Number(k)] === task)) delete s.changing[task];
        }
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
        if (owner < 0) break;
        // Two CPUs meet on one of the list's locks: this one spins while the owner holds it.
        const doing = doingOf(s.doing[task]);
        const ownerDoing = doingOf(s.doing[owner]);
        const ch = s.changing[owner];
        // In a batch kernel, lru_lock in folio_lru_batch_relock_irqsave() is what taking a sentinel off waits for
        // (include/linux/mm_inline.h of the port); or the owner, holding lru_lock, took a sentinel off.
        const spinnerSentinel = lruShape(log).batches && idx === LRU_LOCK && log.siteOf(i)?.func === 'folio_lru_batch_relock_irqsave';
        const sentinel = lruShape(log).batches && (spinnerSentinel || (!!ch && ch.kind === 'del' && ch.sentinel && s.holder[LRU_LOCK] === owner));
        s.collisions++;
        const key = `${doing}/${ownerDoing}`;
        s.collisionsBy[key] = (s.collisionsBy[key] ?? 0) + 1;
        if (sentinel) s.sentinelCollisions++;
        s.lastCollision = {
          step: i, cpu: log.cpu[i], task, doing, lock: idx, owner, ownerDoing, ownerChange: ch ? ch.kind : null, ownerPage: ch ? ch.page : -1,
          ownerSentinel: sentinel, spinnerSentinel,
        };
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

/**
 * The list as the cover letter draws it: '*' a sentinel, 'o' an inner
 * folio, a space between batches; in a kernel without batches, 'o' for
 * each folio, a space where the CPU that linked them on changes (each
 * CPU's lru_add batch goes on as one run).
 */
export function listText(s: LruState, max = Infinity): string {
  let out = '';
  let prev: number | null = null;
  const { batch, sentinel, cpu } = s.lru;
  // Head first, along the links: the first `max` characters walk no further.
  for (let p = s.lru.head; p >= 0 && out.length < max; p = s.lru.next[p]) {
    const group = batch[p] >= 0 ? batch[p] : -1 - cpu[p];
    if (prev !== null && group !== prev) out += ' ';
    out += sentinel[p] ? '*' : 'o';
    prev = group;
  }
  return out;
}

/**
 * What a batch-lock kernel requires of the list, checked on the model: every
 * folio whose neighbour (or the head) has another tag is a sentinel. (Two
 * batches next to each other may draw the same tag; one lock then covers
 * both, which is safe.) A kernel without batches requires nothing of the
 * kind. Returns what is wrong, or null.
 */
export function listProblem(s: LruState): string | null {
  const o = lruOrder(s);
  const { batch, sentinel } = s.lru;
  for (let k = 0; k < o.length; k++) {
    const tag = batch[o[k]];
    if (tag < 0) continue;
    const before = k === 0 ? -1 : batch[o[k - 1]];
    const after = k === o.length - 1 ? -1 : batch[o[k + 1]];
    if ((before !== tag || after !== tag) && !sentinel[o[k]]) return `folio ${o[k]} is at the edge of batch ${tag} but not a sentinel`;
  }
  return null;
}

/**
 * FNV-1a as the scenario's check_list() prints it: over each folio's pfn,
 * head first (and in a batch-lock kernel its tag and sentinel bit too).
 */
export function listHash(s: LruState): number {
  let h = 2166136261;
  for (const p of lruOrder(s)) {
    const vs = s.lru.batch[p] >= 0 ? [p, s.lru.batch[p], s.lru.sentinel[p]] : [p];
    for (const v of vs) h = Math.imul((h ^ v) >>> 0, 16777619) >>> 0;
  }
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
    // Slice by slice, by index: a slice's end computed in floating point can fall a hair
    // short of where the next slice's index says it starts, and the rest of the spin
    // must still be counted.
    for (let t = from, b = Math.max(0, Math.min(buckets - 1, Math.floor((from - t0) / width))); t < to; b++) {
      const end = b >= buckets - 1 ? to : Math.min(to, t0 + (b + 1) * width);
      if (end <= t) continue;
      row[b] += end - t;
      if (first[b] < 0 || step < first[b]) first[b] = step;
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
