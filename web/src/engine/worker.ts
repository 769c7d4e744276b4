// SPDX-License-Identifier: GPL-2.0-only
// The simulation worker. The page never waits on the simulation: it asks
// here, and gets back the whole event log of a run, already in columns.
//
// Each variant (a kernel: v6.12, v6.1...) is its own module. Each run gets
// a fresh instance of the compiled module: one run is one boot, since the
// real kernel files keep static state between calls (shrinker_idr,
// shrinker_nr_max...), as a booted kernel does.
import type { ReclaimLabModule } from './generated/reclaimlab.mjs';
import { boot, prepare } from './boot';
import { DECISION_SIZE, EVENT_SIZE, UNSEEN_OFFSETS, UNSEEN_SIZE } from './generated/events';
import { packRecords } from './log';
import { packDecisions } from './decisions';
import { MsgType, type Reply, type Request } from './protocol';
import { packRunParams } from './generated/params';
import type { RunMeta, ScenarioInfo, Site } from './meta';
import type { WordSize } from './bridge';

function takeString(m: ReclaimLabModule, ptr: number): string {
  if (!ptr) throw new Error('the simulator ran out of memory');
  const s = m.UTF8ToString(ptr);
  m._free(ptr);
  return s;
}

async function scenarios(variant: string, bits: WordSize): Promise<ScenarioInfo[]> {
  const m = await boot(variant, bits);
  return JSON.parse(takeString(m, m._lab_bridge_scenarios())) as ScenarioInfo[];
}

function cString(m: ReclaimLabModule, s: string): number {
  const len = m.lengthBytesUTF8(s) + 1;
  const p = m._malloc(len);
  m.stringToUTF8(s, p, len);
  return p;
}

type RunArgs = Omit<Extract<Request, { type: MsgType.Run }>, 'type' | 'withEvents'>;

/** Boots a fresh module and makes the run in it; the module is left for the caller to read. */
async function simulate(req: RunArgs, before?: (m: ReclaimLabModule) => void) {
  const m = await boot(req.variant, req.bits, (done, total) => reply({ type: MsgType.Progress, id: req.id, done, total }));
  const tBoot = performance.now();
  before?.(m);
  const name = cString(m, req.scenario);
  const schedule = cString(m, req.schedule);
  const seed = Math.max(0, Math.floor(req.seed));
  // In wasm/runtime/params.def's order, as lab_bridge_run() takes them.
  const values = packRunParams(req.params);
  const params = m._malloc(4 * values.length);
  m.HEAP32.set(values, params >> 2);
  const program = m._malloc(Math.max(1, req.program.length));
  m.HEAPU8.set(req.program, program);
  const status = m._lab_bridge_run(
    name, seed >>> 0, Math.floor(seed / 2 ** 32) >>> 0, params, values.length, req.maxEvents, req.maxSteps,
    req.policy, schedule, program, req.program.length,
  );
  m._free(name);
  m._free(schedule);
  m._free(params);
  m._free(program);
  if (status < 0) throw new Error(m.UTF8ToString(m._lab_bridge_error()));
  return { m, tBoot };
}

async function run(req: Extract<Request, { type: MsgType.Run }>) {
  const t0 = performance.now();
  const { m, tBoot } = await simulate(req);
  const tSim = performance.now();
  const n = req.withEvents ? m._lab_bridge_event_count() : 0;
  const ptr = m._lab_bridge_events();
  // Read into columns here, straight off the wasm heap: the page gets one buffer, transferred, and decodes nothing.
  const log = packRecords(m.HEAPU8.subarray(ptr, ptr + n * EVENT_SIZE));
  const nd = req.withEvents ? m._lab_bridge_decision_count() : 0;
  const dp = m._lab_bridge_decisions();
  const decisions = packDecisions(m.HEAPU8.subarray(dp, dp + nd * DECISION_SIZE));
  const tPack = performance.now();
  // The schedule's text only when the decisions stay here: the page makes it from them (client.ts).
  const meta = JSON.parse(takeString(m, m._lab_bridge_meta(req.withEvents ? 0 : 1))) as RunMeta;
  const t1 = performance.now();
  const phases = { boot: tBoot - t0, simulate: tSim - tBoot, pack: tPack - tSim, meta: t1 - tPack };
  return { log, decisions, meta, wallMs: t1 - t0, phases, startedAt: performance.timeOrigin + t0, sentAt: performance.timeOrigin + t1 };
}

/** What each CPU had not yet seen, from event req.from to req.to, by the same run made again (engine/unseen.ts). */
async function unseen(req: Extract<Request, { type: MsgType.Unseen }>) {
  const t0 = performance.now();
  const { m } = await simulate({ ...req, maxEvents: req.to }, (mod) => mod._lab_bridge_unseen_window(req.from));
  const n = m._lab_bridge_unseen_count();
  const p = m._lab_bridge_unseen();
  const records = m.HEAPU8.slice(p, p + n * UNSEEN_SIZE).buffer;
  // After the records: the meta then names the sites they name.
  const meta = JSON.parse(takeString(m, m._lab_bridge_meta(0))) as RunMeta;
  const sites: Record<number, Site> = {};
  const v = new DataView(records);
  for (let i = 0; i < n; i++) {
    for (const f of [UNSEEN_OFFSETS.name, UNSEEN_OFFSETS.store_site]) {
      const id = v.getUint32(i * UNSEEN_SIZE + f, true);
      if (id && meta.sites[id]) sites[id] = meta.sites[id];
    }
  }
  return { from: req.from, to: req.to, records, sites, wallMs: performance.now() - t0 };
}

function reply(msg: Reply, transfer: Transferable[] = []) {
  (self as unknown as Worker).postMessage(msg, transfer);
}

self.onmessage = async (ev: MessageEvent<Request>) => {
  const req = ev.data;
  try {
    switch (req.type) {
      case MsgType.Scenarios:
        reply({ type: MsgType.ScenariosReply, id: req.id, scenarios: await scenarios(req.variant, req.bits) });
        break;
      case MsgType.Prepare:
        await prepare(req.variant, req.bits);
        reply({ type: MsgType.Prepared, id: req.id });
        break;
      case MsgType.Unseen: {
        const r = await unseen(req);
        reply({ type: MsgType.UnseenReply, id: req.id, ...r }, [r.records]);
        break;
      }
      case MsgType.Run: {
        const r = await run(req);
        reply({ type: MsgType.RunReply, id: req.id, ...r }, [r.log.columns, r.decisions]);
        break;
      }
      default:
        throw new Error(`unknown request type ${(req as { type: string }).type}`);
    }
  } catch (e) {
    reply({ type: MsgType.Error, id: req.id, message: e instanceof Error ? e.message : String(e) });
  }
};
