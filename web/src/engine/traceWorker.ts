// SPDX-License-Identifier: GPL-2.0-only
// The worker that reads a real kernel's reclaim trace (reclaimTrace.ts): a
// large file is read in chunks off the page's thread, with progress after
// each chunk and Cancel between chunks.
import { buildReclaimTrace, Cancelled, readTrace } from './reclaimTrace';
import type { TraceReply, TraceRequest } from './traceProtocol';

let reading: AbortController | null = null;

const post = (m: TraceReply) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (ev: MessageEvent<TraceRequest>) => {
  const m = ev.data;
  switch (m.type) {
    case 'cancel':
      reading?.abort();
      return;
    case 'read': {
      reading?.abort();
      const ac = (reading = new AbortController());
      const t0 = performance.now();
      try {
        const parsed = await readTrace(m.file, {
          signal: ac.signal,
          onProgress: (bytes, total, lines) => post({ type: 'progress', id: m.id, bytes, total, lines }),
        });
        const model = buildReclaimTrace(parsed);
        // The events are in the model; the page needs the rest of the parse.
        post({ type: 'done', id: m.id, model, parsed: { ...parsed, events: [] }, events: parsed.events.length, ms: performance.now() - t0 });
      } catch (e) {
        post({ type: 'error', id: m.id, cancelled: e instanceof Cancelled, message: e instanceof Error ? e.message : String(e) });
      } finally {
        if (reading === ac) reading = null;
      }
      return;
    }
    default:
      throw new Error(`unknown message ${(m as { type: string }).type}`);
  }
};
