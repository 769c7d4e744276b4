// SPDX-License-Identifier: GPL-2.0-only
// The run's scheduling decisions: before which event, which CPU was chosen,
// which ran last, which could have gone. A person plays the scheduler by
// replacing one decision: the choices before it, plus theirs, form a
// schedule the next run follows before the policy takes over.
import { CHOICE_LETTERS, DECISION_OFFSETS, DECISION_SIZE } from './generated/events';

/** Bytes per decision in the packed columns. */
const COLUMNS = 15;

/**
 * The runtime's decision records read into columns in one buffer: the events (u32 each), the
 * runnable masks (two u32 words each, low then high), the CPUs chosen (u8), the CPUs that ran last
 * (i8), the kinds (u8: 0 the scheduler's; another kind of choice point chose alternative "cpu" of
 * the "runnable" ones, wasm/runtime/choice.h). The worker makes it, so that the page gets one
 * buffer, transferred, and decodes nothing.
 */
export function packDecisions(records: Uint8Array): ArrayBuffer {
  if (records.byteLength % DECISION_SIZE !== 0) throw new Error('decision buffer is not whole records');
  const n = records.byteLength / DECISION_SIZE;
  const out = new ArrayBuffer(COLUMNS * n);
  const event = new Uint32Array(out, 0, n);
  const runnable = new Uint32Array(out, 4 * n, 2 * n);
  const cpu = new Uint8Array(out, 12 * n, n);
  const from = new Int8Array(out, 13 * n, n);
  const kind = new Uint8Array(out, 14 * n, n);
  const dv = new DataView(records.buffer, records.byteOffset, records.byteLength);
  for (let i = 0; i < n; i++) {
    const o = i * DECISION_SIZE;
    event[i] = dv.getUint32(o + DECISION_OFFSETS.event, true);
    cpu[i] = dv.getUint8(o + DECISION_OFFSETS.cpu);
    from[i] = dv.getInt8(o + DECISION_OFFSETS.from);
    kind[i] = dv.getUint8(o + DECISION_OFFSETS.kind);
    runnable[2 * i] = dv.getUint32(o + DECISION_OFFSETS.runnable, true);
    runnable[2 * i + 1] = dv.getUint32(o + DECISION_OFFSETS.runnable + 4, true);
  }
  return out;
}

export class Decisions {
  readonly length: number;
  readonly event: Uint32Array;
  readonly cpu: Uint8Array;
  readonly from: Int8Array;
  readonly kind: Uint8Array;
  /** The runnable CPUs' mask of each decision as two words, low then high (no object per decision: a long run has millions). */
  private readonly runnable: Uint32Array;

  /** Over the columns packDecisions() made (views, no copy). */
  constructor(columns: ArrayBuffer) {
    if (columns.byteLength % COLUMNS !== 0) throw new Error('decision columns are not whole decisions');
    const n = columns.byteLength / COLUMNS;
    this.length = n;
    this.event = new Uint32Array(columns, 0, n);
    this.runnable = new Uint32Array(columns, 4 * n, 2 * n);
    this.cpu = new Uint8Array(columns, 12 * n, n);
    this.from = new Int8Array(columns, 13 * n, n);
    this.kind = new Uint8Array(columns, 14 * n, n);
  }

  /** From the runtime's records as they are (decisions.bin). */
  static fromRecords(records: ArrayBuffer): Decisions {
    return new Decisions(packDecisions(new Uint8Array(records)));
  }

  /** The first decision taken after event `step` happened (-1: none left). */
  nextAfter(step: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.event[mid] <= step) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.length ? lo : -1;
  }

  runnableCpus(d: number): number[] {
    const out: number[] = [];
    for (let c = 0; c < 64; c++) if ((this.runnable[2 * d + (c >> 5)] >>> (c & 31)) & 1) out.push(c);
    return out;
  }

  /** The schedule text of decisions [0, upTo), then `then` (a CPU) if given. */
  schedule(upTo: number, then?: number): string {
    const cpus = Array.from(this.cpu.subarray(0, upTo));
    const kinds = Array.from(this.kind.subarray(0, upTo));
    if (then !== undefined) {
      cpus.push(then);
      kinds.push(0);
    }
    return encodeSchedule(cpus, kinds);
  }
}

/**
 * The run's meta as the page reads it: the worker leaves the schedule's
 * text out (megabytes for a run of 64 tasks, and the decisions come
 * anyway), so it is made from the decisions the first time it is read.
 */
export function withSchedule<M extends { schedule?: string }>(meta: M, decisions: Decisions): M & { schedule: string } {
  if (meta.schedule === undefined) {
    let text: string | undefined;
    Object.defineProperty(meta, 'schedule', { get: () => (text ??= decisions.schedule(decisions.length)), enumerable: true });
  }
  return meta as M & { schedule: string };
}

/**
 * As lab_schedule_encode() in wasm/lab/lab.c: "0x37.1x5.0"; a choice of another kind than the
 * scheduler's (kinds[i] > 0) is its letter before the alternative: "0x12.l1.1x3".
 */
export function encodeSchedule(cpus: ArrayLike<number>, kinds?: ArrayLike<number>): string {
  const runs: string[] = [];
  const kindAt = (i: number) => (kinds ? kinds[i] : 0);
  for (let i = 0; i < cpus.length; ) {
    let j = i;
    while (j < cpus.length && cpus[j] === cpus[i] && kindAt(j) === kindAt(i)) j++;
    const letter = CHOICE_LETTERS[kindAt(i)] ?? '';
    runs.push(j - i > 1 ? `${letter}${cpus[i]}x${j - i}` : `${letter}${cpus[i]}`);
    i = j;
  }
  return runs.join('.');
}

/** A decision's token: a CPU, or a kind's letter and an alternative; then a repeat count. */
const TOKEN = `[${CHOICE_LETTERS.filter(Boolean).join('')}]?\\d+(x\\d+)?`;
const SCHEDULE_TEXT = new RegExp(`^${TOKEN}(\\.${TOKEN})*$`);

export function isScheduleText(s: string): boolean {
  return SCHEDULE_TEXT.test(s);
}
