// SPDX-License-Identifier: GPL-2.0-only
// The page's side of the trace worker: one read at a time, progress as it
// goes, Cancel between chunks.
import type { TraceDone, TraceReply, TraceRequest } from './traceProtocol';

export class TraceReadError extends Error {
  constructor(
    message: string,
    readonly cancelled: boolean,
  ) {
    super(message);
  }
}

export class TraceReader {
  private worker = new Worker(new URL('./traceWorker.ts', import.meta.url), { type: 'module' });
  private nextId = 1;

  read(file: Blob, onProgress?: (bytes: number, total: number, lines: number) => void): Promise<TraceDone> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.worker.onmessage = (ev: MessageEvent<TraceReply>) => {
        const m = ev.data;
        if (m.id !== id) return;
        if (m.type === 'progress') onProgress?.(m.bytes, m.total, m.lines);
        else if (m.type === 'done') resolve(m);
        else reject(new TraceReadError(m.message, m.cancelled));
      };
      this.worker.postMessage({ type: 'read', id, file } satisfies TraceRequest);
    });
  }

  cancel() {
    this.worker.postMessage({ type: 'cancel' } satisfies TraceRequest);
  }

  dispose() {
    this.worker.terminate();
  }
}
