// SPDX-License-Identifier: GPL-2.0-only
// The event log of one run: the 32-byte records decoded into columns, plus
// the tables they index. Layout and kinds come from the generated
// events.ts (wasm/runtime/events.def); nothing here lists them again.
import { EVENT_KINDS, EVENT_OFFSETS, EVENT_SIZE, EventKind } from './generated/events';
import type { RunMeta, Site } from './meta';

export interface SimEvent {
  index: number;
  time: number; // virtual ns
  kind: EventKind;
  cpu: number;
  task: number; // -1: none
  site: number;
  args: [number, number, number, number];
}

export class EventLog {
  readonly length: number;
  readonly time: Float64Array;
  readonly kind: Uint16Array;
  readonly cpu: Uint8Array;
  readonly task: Int16Array;
  readonly site: Uint32Array;
  readonly args: Int32Array; // 4 per event

  constructor(
    buffer: ArrayBuffer,
    readonly meta: RunMeta,
  ) {
    if (buffer.byteLength % EVENT_SIZE !== 0) {
      throw new Error(`event buffer of ${buffer.byteLength} bytes is not a whole number of ${EVENT_SIZE}-byte events`);
    }
    const n = buffer.byteLength / EVENT_SIZE;
    const dv = new DataView(buffer);
    this.length = n;
    this.time = new Float64Array(n);
    this.kind = new Uint16Array(n);
    this.cpu = new Uint8Array(n);
    this.task = new Int16Array(n);
    this.site = new Uint32Array(n);
    this.args = new Int32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const o = i * EVENT_SIZE;
      // The runtime's records are little-endian on every target.
      this.time[i] = dv.getUint32(o + EVENT_OFFSETS.time, true) + dv.getUint32(o + EVENT_OFFSETS.time + 4, true) * 2 ** 32;
      this.site[i] = dv.getUint32(o + EVENT_OFFSETS.site, true);
      const k = dv.getUint16(o + EVENT_OFFSETS.kind, true);
      if (k >= EVENT_KINDS.length) throw new Error(`event ${i} has unknown kind ${k}`);
      this.kind[i] = k;
      this.cpu[i] = dv.getUint8(o + EVENT_OFFSETS.cpu);
      const t = dv.getUint8(o + EVENT_OFFSETS.task);
      this.task[i] = t === 255 ? -1 : t;
      for (let a = 0; a < 4; a++) this.args[i * 4 + a] = dv.getInt32(o + EVENT_OFFSETS.args + 4 * a, true);
    }
  }

  event(i: number): SimEvent {
    if (i < 0 || i >= this.length) throw new RangeError(`no event ${i} in a log of ${this.length}`);
    const a = this.args;
    return {
      index: i,
      time: this.time[i],
      kind: this.kind[i] as EventKind,
      cpu: this.cpu[i],
      task: this.task[i],
      site: this.site[i],
      args: [a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]],
    };
  }

  arg(i: number, a: number): number {
    return this.args[i * 4 + a];
  }

  siteOf(i: number): Site | null {
    const s = this.meta.sites[this.site[i]];
    return s && s.tree ? s : null;
  }

  name(id: number): string {
    return this.meta.names[id] ?? `?${id}`;
  }

  taskName(id: number): string {
    return id >= 0 ? (this.meta.tasks[id]?.name ?? `task ${id}`) : 'none';
  }

  /** The arguments of event i by the names events.def gives them. */
  namedArgs(i: number): Record<string, number | string> {
    const info = EVENT_KINDS[this.kind[i]];
    const out: Record<string, number | string> = {};
    info.args.forEach((n, a) => {
      if (n === '-') return;
      const v = this.arg(i, a);
      out[n] = n === 'name' ? this.name(v) : v;
    });
    return out;
  }

  /** Index of the last event at or before virtual time t (-1 if none). */
  indexAtTime(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.time[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  get endTime(): number {
    return this.length ? this.time[this.length - 1] : 0;
  }
}
