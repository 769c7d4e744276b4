// SPDX-License-Identifier: GPL-2.0-only
// What makes a run, whoever holds it: the page's settings and its URL, a
// lesson's start, a talk's live slides, a trace file's name. The same
// kernel, seed, policy, hand schedule and program give the same run.
import type { MemoryModel, PolicyName } from './generated/events';

export type { MemoryModel, PolicyName };

export interface RunState {
  /** The kernel (kernel-tree/manifest.json "kernels": its name). */
  variant: string;
  seed: number;
  policy: PolicyName;
  /** Choices made by hand, followed before the policy (the schedule text). */
  sched: string;
  /** The scenario's program, for scenes that take one ('' : its default). */
  prog: string;
  /** The memory model the machine runs (wasm/runtime/memmodel); absent: sc, the default. */
  memory?: MemoryModel;
}
