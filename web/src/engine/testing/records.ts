// SPDX-License-Identifier: GPL-2.0-only
// For tests: the runtime's 32-byte records read one field at a time with a
// DataView, as the page read them before it kept its log in packed columns
// (engine/log.ts packRecords). The columns must hold exactly this.
import { EVENT_OFFSETS, EVENT_SIZE } from '../generated/events';

export interface RecordColumns {
  time: number[];
  site: number[];
  kind: number[];
  cpu: number[];
  task: number[];
  args: number[]; // 4 per event
}

export function readRecords(buffer: ArrayBuffer): RecordColumns {
  const n = buffer.byteLength / EVENT_SIZE;
  const dv = new DataView(buffer);
  const out: RecordColumns = { time: [], site: [], kind: [], cpu: [], task: [], args: [] };
  for (let i = 0; i < n; i++) {
    const o = i * EVENT_SIZE;
    out.time.push(dv.getUint32(o + EVENT_OFFSETS.time, true) + dv.getUint32(o + EVENT_OFFSETS.time + 4, true) * 2 ** 32);
    out.site.push(dv.getUint32(o + EVENT_OFFSETS.site, true));
    out.kind.push(dv.getUint16(o + EVENT_OFFSETS.kind, true));
    out.cpu.push(dv.getUint8(o + EVENT_OFFSETS.cpu));
    const t = dv.getUint8(o + EVENT_OFFSETS.task);
    out.task.push(t === 255 ? -1 : t);
    for (let a = 0; a < 4; a++) out.args.push(dv.getInt32(o + EVENT_OFFSETS.args + 4 * a, true));
  }
  return out;
}
