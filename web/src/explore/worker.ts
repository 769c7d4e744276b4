// SPDX-License-Identifier: GPL-2.0-only
// The Explore panel's worker: one module instance runs the whole search
// (lab_bridge_explore puts the memory back after each execution, so each
// is a fresh boot), and posts the explorer's news as it comes. Cancel
// terminates this worker.
import { boot } from '../engine/boot';
import { packRunParams } from '../engine/generated/params';
import type { ExploreNews, ExploreReply, ExploreRequest } from './protocol';

function reply(msg: ExploreReply) {
  (self as unknown as Worker).postMessage(msg);
}

self.onmessage = async (ev: MessageEvent<ExploreRequest>) => {
  const req = ev.data;
  try {
    const m = await boot(req.variant, req.bits, undefined, {
      onExplore: (json) => reply({ type: 'news', news: JSON.parse(json) as ExploreNews }),
    });
    const len = m.lengthBytesUTF8(req.scenario) + 1;
    const name = m._malloc(len);
    m.stringToUTF8(req.scenario, name, len);
    const values = packRunParams(req.params);
    const params = m._malloc(4 * values.length);
    m.HEAP32.set(values, params >> 2);
    const program = m._malloc(Math.max(1, req.program.length));
    m.HEAPU8.set(req.program, program);
    const seed = Math.max(0, Math.floor(req.seed));
    const status = m._lab_bridge_explore(
      name, seed >>> 0, Math.floor(seed / 2 ** 32) >>> 0, params, values.length, req.maxBound, 1,
      req.pctDepth, req.pctRuns, req.maxExecutions, 0, req.failing, program, req.program.length,
    );
    if (status < 0) throw new Error(m.UTF8ToString(m._lab_bridge_error()));
    reply({ type: 'done', status });
  } catch (e) {
    reply({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
};
