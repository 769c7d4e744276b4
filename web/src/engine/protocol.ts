// SPDX-License-Identifier: GPL-2.0-only
// The typed messages between the page (client.ts) and the simulation
// worker (worker.ts). One enum of types, one interface per payload;
// replies carry the id of their request; event buffers are transferred.
import type { RunMeta, ScenarioInfo } from './meta';

export enum MsgType {
  Scenarios = 'scenarios',
  Run = 'run',
  ScenariosReply = 'scenarios-reply',
  RunReply = 'run-reply',
  Progress = 'progress',
  Error = 'error',
}

export interface ScenariosRequest {
  type: MsgType.Scenarios;
  id: number;
  variant: string;
}

export interface RunRequest {
  type: MsgType.Run;
  id: number;
  variant: string; // the kernel: one wasm module per variant (wasm/build.mk)
  scenario: string;
  seed: number;
  maxEvents: number;
  policy: number; // Policy in generated/events.ts
  schedule: string; // recorded choices to follow first, "" for none
  rounds: number; // 0: the scenario's default
  objects: number; // 0: the scenario's default
  slowNs: number; // fault injection: shrinkers sleep this long (0: none)
  stress: boolean; // the measuring scale: real-length grace periods
  withEvents: boolean; // false: meta and statistics only (a measurement)
  quiet: boolean; // record only the scenario's calls, tasks, labels and reports
  containers: number; // memcg-bitmap at scale (0: watching)
  mounts: number;
  memcgs: number;
  tasks: number; // lru-batch: page_fault1 tasks (0: the scenario's default)
  lruMode: number; // lru-batch: 0 one lru_lock, 1 batch locks, 2 batch locks and splicing
  lruFixed: boolean; // lru-batch: release_pages() sizes its bitmap by nr
  lruReleaseAll: boolean; // lru-batch: munmap hands release_pages() every page at once
  munmapNs: number; // lru-batch: an unmapped page's cost (0: the scenario's)
  maxSteps: number; // the livelock guard (0: the runtime's default)
  program: number[]; // operations for scenarios that take them ([]: the default)
}

export type Request = ScenariosRequest | RunRequest;

export interface ScenariosReply {
  type: MsgType.ScenariosReply;
  id: number;
  scenarios: ScenarioInfo[];
}

export interface RunReply {
  type: MsgType.RunReply;
  id: number;
  events: ArrayBuffer;
  decisions: ArrayBuffer;
  meta: RunMeta;
  wallMs: number;
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

export type Reply = ScenariosReply | RunReply | ProgressReply | ErrorReply;
