// SPDX-License-Identifier: GPL-2.0-only
// The typed messages between the page (client.ts) and the simulation
// worker (worker.ts). One enum of types, one interface per payload;
// replies carry the id of their request; event buffers are transferred.
import type { PackedLog } from './log';
import type { RunMeta, ScenarioInfo, Site } from './meta';
import type { RunParams } from './generated/params';
import type { WordSize } from './bridge';

export enum MsgType {
  Scenarios = 'scenarios',
  Run = 'run',
  Prepare = 'prepare',
  Unseen = 'unseen',
  ScenariosReply = 'scenarios-reply',
  RunReply = 'run-reply',
  Prepared = 'prepared',
  UnseenReply = 'unseen-reply',
  Progress = 'progress',
  Error = 'error',
}

export interface ScenariosRequest {
  type: MsgType.Scenarios;
  id: number;
  variant: string;
  bits: WordSize; // the machine's word size (engine/wordsize.ts)
}

export interface RunRequest {
  type: MsgType.Run;
  id: number;
  variant: string; // the kernel: one wasm module per variant (wasm/build.mk)
  bits: WordSize; // the machine's word size: a module per variant at 32 and at 64 bits
  scenario: string;
  seed: number;
  maxEvents: number;
  policy: number; // Policy in generated/events.ts
  schedule: string; // recorded choices to follow first, "" for none
  params: RunParams; // wasm/runtime/params.def: rounds, objects, slowNs...
  withEvents: boolean; // false: meta and statistics only (a measurement)
  maxSteps: number; // the livelock guard (0: the runtime's default)
  program: number[]; // operations for scenarios that take them ([]: the default)
}

/** Fetch and compile a variant's module now, so that a run asked for later starts at once (a measurement's warm-up). */
export interface PrepareRequest {
  type: MsgType.Prepare;
  id: number;
  variant: string;
  bits: WordSize;
}

/**
 * The same run again, in a fresh module, as far as event `to`, keeping from event `from` on what each CPU had not
 * yet seen of the others' stores (tso and relaxed; engine/unseen.ts): nothing of it is in the run's event log.
 */
export interface UnseenRequest extends Omit<RunRequest, 'type' | 'withEvents' | 'maxEvents'> {
  type: MsgType.Unseen;
  from: number;
  to: number;
}

export type Request = ScenariosRequest | RunRequest | PrepareRequest | UnseenRequest;

export interface ScenariosReply {
  type: MsgType.ScenariosReply;
  id: number;
  scenarios: ScenarioInfo[];
}

export interface RunReply {
  type: MsgType.RunReply;
  id: number;
  log: PackedLog; // the events in columns (engine/log.ts), their buffer transferred
  decisions: ArrayBuffer; // in columns (engine/decisions.ts packDecisions), transferred
  meta: RunMeta;
  wallMs: number;
  /** Where the worker's wall time went, in ms: the module's boot, the simulation, reading the log into columns, the run's meta. */
  phases: Record<string, number>;
  /** When the worker began the run, and sent the reply (performance.timeOrigin + now(), comparable across threads). */
  startedAt: number;
  sentAt: number;
}

export interface UnseenReply {
  type: MsgType.UnseenReply;
  id: number;
  from: number;
  to: number;
  records: ArrayBuffer; // struct sim_unseen records as the runtime wrote them (UNSEEN_OFFSETS), transferred
  sites: Record<number, Site>; // the sites they name, as this replay's meta has them
  wallMs: number;
}

export interface PreparedReply {
  type: MsgType.Prepared;
  id: number;
}

/** Sent while a long run goes on; the run's reply comes after. */
export interface ProgressReply {
  type: MsgType.Progress;
  id: number;
  done: number;
  total: number;
}

export interface ErrorReply {
  type: MsgType.Error;
  id: number;
  message: string;
}

export type Reply = ScenariosReply | RunReply | UnseenReply | PreparedReply | ProgressReply | ErrorReply;
