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

/**
 * A log's columns packed in one buffer, so that the worker can make them
 * and hand them over without a copy: time (float64), args (4 × int32),
 * site (uint32), task (int16), kind (uint16), cpu (uint8), each a run of
 * `length` values, in that order (each column starts aligned for its type).
 */
export interface PackedLog {
  columns: ArrayBuffer;
  length: number;
}

/** Bytes of one event in the packed columns. */
export const PACKED_EVENT_BYTES = 8 + 16 + 4 + 2 + 2 + 1;

interface Columns {
  time: Float64Array;
  args: Int32Array;
  site: Uint32Array;
  task: Int16Array;
  kind: Uint16Array;
  cpu: Uint8Array;
}

function views(buf: ArrayBuffer, n: number): Columns {
  return {
    time: new Float64Array(buf, 0, n),
    args: new Int32Array(buf, 8 * n, 4 * n),
    site: new Uint32Array(buf, 24 * n, n),
    task: new Int16Array(buf, 28 * n, n),
    kind: new Uint16Array(buf, 30 * n, n),
    cpu: new Uint8Array(buf, 32 * n, n),
  };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The runtime's 32-byte records (little-endian on every target), read as
 * columns: one pass, through typed-array views of the records, with no
 * object per event. `records` may be a view of the wasm heap.
 */
export function packRecords(records: Uint8Array): PackedLog {
  if (records.byteLength % EVENT_SIZE !== 0) {
    throw new Error(`event buffer of ${records.byteLength} bytes is not a whole number of ${EVENT_SIZE}-byte events`);
  }
  if (!LITTLE_ENDIAN) throw new Error('the event log is read with typed arrays, which need a little-endian machine');
  // Word views need a 4-byte aligned start: copy the records once if they are not.
  const src = records.byteOffset % 4 === 0 ? records : records.slice();
  const n = src.byteLength / EVENT_SIZE;
  const w = EVENT_SIZE / 4;
  const u32 = new Uint32Array(src.buffer, src.byteOffset, n * w);
  const i32 = new Int32Array(src.buffer, src.byteOffset, n * w);
  const u16 = new Uint16Array(src.buffer, src.byteOffset, n * w * 2);
  const u8 = src;
  const columns = new ArrayBuffer(n * PACKED_EVENT_BYTES);
  const c = views(columns, n);
  const tw = EVENT_OFFSETS.time / 4;
  const sw = EVENT_OFFSETS.site / 4;
  const kh = EVENT_OFFSETS.kind / 2;
  const aw = EVENT_OFFSETS.args / 4;
  const nkinds = EVENT_KINDS.length;
  for (let i = 0, o = 0; i < n; i++, o += w) {
    c.time[i] = u32[o + tw] + u32[o + tw + 1] * 2 ** 32;
    c.site[i] = u32[o + sw];
    const k = u16[2 * o + kh];
    if (k >= nkinds) throw new Error(`event ${i} has unknown kind ${k}`);
    c.kind[i] = k;
    c.cpu[i] = u8[4 * o + EVENT_OFFSETS.cpu];
    const t = u8[4 * o + EVENT_OFFSETS.task];
    c.task[i] = t === 255 ? -1 : t;
    c.args[4 * i] = i32[o + aw];
    c.args[4 * i + 1] = i32[o + aw + 1];
    c.args[4 * i + 2] = i32[o + aw + 2];
    c.args[4 * i + 3] = i32[o + aw + 3];
  }
  return { columns, length: n };
}

/**
 * The event log of one run, in columns: typed arrays over one buffer, and
 * the tables they index. Nothing in it is an object per event; event(i)
 * makes one on demand, for the few places that show a single event.
 */
export class EventLog {
  readonly length: number;
  readonly time: Float64Array;
  readonly kind: Uint16Array;
  readonly cpu: Uint8Array;
  readonly task: Int16Array;
  readonly site: Uint32Array;
  readonly args: Int32Array; // 4 per event
  /** Whether the site of each site id names a kernel line (tree set): siteOf() without a lookup per call. */
  private readonly hasLine: Uint8Array;

  /** From the runtime's records (an ArrayBuffer of 32-byte events) or from columns the worker packed. */
  constructor(
    data: ArrayBuffer | PackedLog,
    readonly meta: RunMeta,
  ) {
    const packed = data instanceof ArrayBuffer ? packRecords(new Uint8Array(data)) : data;
    const c = views(packed.columns, packed.length);
    this.length = packed.length;
    this.time = c.time;
    this.kind = c.kind;
    this.cpu = c.cpu;
    this.task = c.task;
    this.site = c.site;
    this.args = c.args;
    this.hasLine = Uint8Array.from(meta.sites ?? [], (s) => (s && s.tree ? 1 : 0));
  }

  /** The buffer that holds every column (what the log costs in memory). */
  get byteLength(): number {
    return this.length * PACKED_EVENT_BYTES;
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
    const id = this.site[i];
    return this.hasLine[id] ? this.meta.sites[id] : null;
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

  private end = -1;

  /**
   * The run's virtual time at its end: the latest clock any CPU reached. Each CPU keeps its own clock and the
   * policy need not run the earliest (round-robin, random), so the last event's time can be earlier than another
   * CPU's: the time axis ends at the latest, and draws no lane past its end.
   */
  get endTime(): number {
    if (this.end < 0) {
      let t = 0;
      for (let i = 0; i < this.length; i++) if (this.time[i] > t) t = this.time[i];
      this.end = t;
    }
    return this.end;
  }
}
