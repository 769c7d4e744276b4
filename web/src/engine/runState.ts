// SPDX-License-Identifier: GPL-2.0-only
// What makes a run, whoever holds it: the page's settings and its URL, a
// lesson's start, a talk's live slides, a trace file's name. The same
// kernel, seed, policy, memory model, hand schedule and program give the
// same run.
import type { MemoryModel, PolicyName } from './generated/events';

export type { MemoryModel, PolicyName };

export interface RunState {
  /** The kernel (kernel-tree/manifest.json "kernels": its name). */
  variant: string;
  seed: number;
  policy: PolicyName;
  /** The memory model the machine runs (wasm/runtime/memmodel); absent: sc, the default. */
  memory?: MemoryModel;
  /** Choices made by hand, followed before the policy (the schedule text). */
  sched: string;
  /** The scenario's program, for scenes that take one ('' : its default). */
  prog: string;
}

/**
 * Every field of a run, once, in the order links write them: whatever copies a run from one holder to
 * another (runOf) or compares two (sameRun) goes through this list, so a new field is named here alone.
 */
export const RUN_FIELDS = ['variant', 'seed', 'policy', 'memory', 'sched', 'prog'] as const satisfies readonly (keyof RunState)[];
// Every field of RunState is in the list: a field added to the one and not the other fails to compile here.
const everyField: Exclude<keyof RunState, (typeof RUN_FIELDS)[number]> extends never ? true : never = true;
void everyField;

/** The run that a state holding more (a slide's, the talk's shared state, the page's settings) makes. */
export function runOf(s: RunState): RunState {
  const out = {} as Record<string, unknown>;
  for (const k of RUN_FIELDS) if (s[k] !== undefined) out[k] = s[k];
  return out as unknown as RunState;
}

/** A field as it decides the run: an absent memory model is sc. */
const valueOf = (s: RunState, k: (typeof RUN_FIELDS)[number]) => (k === 'memory' ? (s.memory ?? 'sc') : s[k]);

/** Whether two states make the same run. */
export function sameRun(a: RunState, b: RunState): boolean {
  return RUN_FIELDS.every((k) => valueOf(a, k) === valueOf(b, k));
}

/** A run as one text (two states with the same text make the same run): a key for what belongs to one run. */
export const runKey = (s: RunState) => RUN_FIELDS.map((k) => String(valueOf(s, k))).join(' ');
