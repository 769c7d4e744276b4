// SPDX-License-Identifier: GPL-2.0-only
// What each CPU has not yet seen of the other CPUs' stores (tso and
// relaxed): for each CPU, the locations whose newest store it has not
// seen, how many of the others' stores to each it has not seen, what it
// may still read there and what the newest store wrote.
//
// None of it is in the event log (a lru-batch run under relaxed changes it
// a dozen times an event). The page asks for a window of events around
// the step shown: the worker makes the same run again in a fresh module as
// far as the window's end, and the model keeps, from its start, a whole
// picture and then a record each time one CPU's "not seen" of one location
// changes (struct sim_unseen, wasm/runtime/memmodel/memmodel.h). The state
// at a step is the picture and the records up to it.
import { UNSEEN_OFFSETS, UNSEEN_SIZE } from './generated/events';
import type { Site } from './meta';

/** What the worker gives back: the records of events from..to-1, and the sites they name. */
export interface UnseenWindow {
  from: number;
  to: number;
  records: ArrayBuffer;
  sites: Record<number, Site>;
}

/** One location a CPU has not seen the newest store to. */
export interface UnseenLoc {
  loc: number;
  /** The object it is in (0: static data). */
  obj: number;
  /** The expression of the last marked access to it (READ_ONCE(l->nr_items): "l->nr_items"), else null. */
  name: string | null;
  /** The other CPUs' stores to it this CPU has not seen. */
  count: number;
  /** What it may still read there (the oldest value its view allows) and what the newest store wrote. */
  read: bigint;
  newest: bigint;
  /** The objects those values point into, when they are pointers (else 0). */
  readObj: number;
  newestObj: number;
  /** The newest store: its CPU, its site (a plain store's is its CPU's last event's), and the log's length then. */
  storeCpu: number;
  storeSite: Site | null;
  storeEvent: number;
}

export class Unseen {
  readonly from: number;
  readonly to: number;
  readonly length: number;
  private readonly v: DataView;
  private readonly sites: Record<number, Site>;

  constructor(w: UnseenWindow) {
    if (w.records.byteLength % UNSEEN_SIZE !== 0) throw new Error('unseen records are not whole records');
    this.from = w.from;
    this.to = w.to;
    this.length = w.records.byteLength / UNSEEN_SIZE;
    this.v = new DataView(w.records);
    this.sites = w.sites;
  }

  /** Whether the state at this step is in the window. */
  covers(step: number): boolean {
    return step >= this.from && step < this.to;
  }

  private u32(i: number, off: number) {
    return this.v.getUint32(i * UNSEEN_SIZE + off, true);
  }

  /** Record i's event: it holds from that event on. */
  event(i: number): number {
    return this.u32(i, UNSEEN_OFFSETS.event);
  }

  private decode(i: number): UnseenLoc {
    const o = i * UNSEEN_SIZE;
    const v = this.v;
    const name = this.sites[this.u32(i, UNSEEN_OFFSETS.name)]?.expr ?? null;
    const storeSite = this.sites[this.u32(i, UNSEEN_OFFSETS.store_site)] ?? null;
    return {
      loc: v.getUint32(o + UNSEEN_OFFSETS.loc, true),
      obj: v.getInt32(o + UNSEEN_OFFSETS.obj, true),
      name,
      count: v.getUint16(o + UNSEEN_OFFSETS.count, true),
      read: v.getBigUint64(o + UNSEEN_OFFSETS.read, true),
      newest: v.getBigUint64(o + UNSEEN_OFFSETS.newest, true),
      readObj: v.getInt32(o + UNSEEN_OFFSETS.read_obj, true),
      newestObj: v.getInt32(o + UNSEEN_OFFSETS.newest_obj, true),
      storeCpu: v.getInt8(o + UNSEEN_OFFSETS.store_cpu),
      storeSite: storeSite && storeSite.tree ? storeSite : null,
      storeEvent: v.getUint32(o + UNSEEN_OFFSETS.store_event, true),
    };
  }

  /** Each CPU's locations not seen at this step (CPUs with none are absent), oldest record first. */
  at(step: number): Map<number, UnseenLoc[]> {
    const last = new Map<number, number>(); // cpu * 2^32 + loc -> its newest record at or before step
    for (let i = 0; i < this.length && this.event(i) <= step; i++) {
      const key = this.v.getUint8(i * UNSEEN_SIZE + UNSEEN_OFFSETS.cpu) * 2 ** 32 + this.u32(i, UNSEEN_OFFSETS.loc);
      last.delete(key); // a changed location goes last: the newest changes at the end
      last.set(key, i);
    }
    const out = new Map<number, UnseenLoc[]>();
    for (const [key, i] of last) {
      const r = this.decode(i);
      if (!r.count) continue;
      const cpu = Math.floor(key / 2 ** 32);
      const list = out.get(cpu) ?? [];
      list.push(r);
      out.set(cpu, list);
    }
    return out;
  }
}

/** What the CPU cards show at a step: off under sc, or being worked out, or each CPU's locations. */
export type UnseenAt =
  | { status: 'off' }
  | { status: 'working' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; cpus: Map<number, UnseenLoc[]> };

/** The stores a CPU has not seen, all told. */
export function unseenCount(locs: readonly UnseenLoc[]): number {
  return locs.reduce((n, l) => n + l.count, 0);
}

function value(v: bigint, obj: number, objName: (obj: number) => string): string {
  if (obj > 0) return `a pointer into ${objName(obj)}`;
  return v < 1n << 32n ? v.toString() : `0x${v.toString(16)}`;
}

/** A location in words: its expression and object, what the CPU may still read there, and the newest store's value. */
export function unseenLocWords(l: UnseenLoc, objName: (obj: number) => string): string {
  const where = `${l.name ?? 'a word'} in ${objName(l.obj)}`;
  const stores = l.count === 1 ? '' : ` (${l.count} stores)`;
  return `${where}${stores}: reads ${value(l.read, l.readObj, objName)}, CPU${l.storeCpu}'s newest store wrote ${value(l.newest, l.newestObj, objName)}`;
}

/** "CPU1 has not yet seen 3 stores of CPU0" (a machine of two CPUs), else "... of the other CPUs". */
export function unseenHeadline(cpu: number, locs: readonly UnseenLoc[], cpus: number): string {
  const n = unseenCount(locs);
  const whose = cpus === 2 ? `CPU${1 - cpu}` : 'the other CPUs';
  return `CPU${cpu} has not yet seen ${n} store${n === 1 ? '' : 's'} of ${whose}`;
}
