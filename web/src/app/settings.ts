// SPDX-License-Identifier: GPL-2.0-only
// What the person chose: the kernel, seed, scheduler policy, hand schedule,
// program and the kernel compared beside it. One reducer holds the rules
// that tie them together (a hand schedule belongs to the run it was made
// on, a kernel is not compared with itself).
import type { MemoryModel, PolicyName, RunState } from '../engine/runState';

export { sameRun } from '../engine/runState';

export interface Settings extends RunState {
  compare: string | null; // a second kernel run beside the first, in lock-step
}


export type SettingsAction =
  | { type: 'seed'; seed: number }
  | { type: 'variant'; variant: string }
  | { type: 'policy'; policy: PolicyName }
  | { type: 'memory'; memory: MemoryModel }
  | { type: 'compare'; compare: string | null }
  | { type: 'sched'; sched: string }
  | { type: 'program'; prog: string }
  | { type: 'start'; run: RunState };

export function settingsReducer(s: Settings, a: SettingsAction): Settings {
  switch (a.type) {
    case 'seed':
      return a.seed === s.seed ? s : { ...s, seed: a.seed, sched: '' };
    case 'variant':
      return { ...s, variant: a.variant, sched: '', compare: a.variant === s.compare ? null : s.compare };
    case 'policy':
      return { ...s, policy: a.policy, sched: '' };
    case 'memory':
      // The hand schedule's choices were the old model's.
      return a.memory === (s.memory ?? 'sc') ? s : { ...s, memory: a.memory, sched: '' };
    case 'compare':
      return { ...s, compare: a.compare };
    case 'sched':
      return { ...s, sched: a.sched };
    case 'program':
      // A new program keeps seed, kernel and policy; the hand schedule belonged to the old one.
      return { ...s, prog: a.prog, sched: '' };
    case 'start':
      return { ...a.run, compare: null };
  }
}
