// SPDX-License-Identifier: GPL-2.0-only
// The typed messages between the page (traceClient.ts) and the trace worker
// (traceWorker.ts): requests read or cancel; replies, matched by id, report
// progress, the result, or why there is none.
import type { ParsedTrace } from './ftrace';
import type { ReclaimTrace } from './reclaimTrace';

export type TraceRequest = { type: 'read'; id: number; file: Blob } | { type: 'cancel' };

export type TraceReply =
  | { type: 'progress'; id: number; bytes: number; total: number; lines: number }
  | {
      type: 'done';
      id: number;
      model: ReclaimTrace;
      /** The parse without its events (the model holds them). */
      parsed: ParsedTrace;
      events: number;
      ms: number;
    }
  | { type: 'error'; id: number; cancelled: boolean; message: string };

export type TraceDone = Extract<TraceReply, { type: 'done' }>;
