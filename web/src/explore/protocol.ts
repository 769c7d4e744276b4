// SPDX-License-Identifier: GPL-2.0-only
// What the Explore panel's worker is asked and tells: the explorer's news
// as lab_bridge_explore() (wasm/bridge/bridge.c) writes it, as JSON.
import type { RunParams } from '../engine/generated/params';
import type { WordSize } from '../engine/bridge';

export interface ExploreRequest {
  variant: string;
  /** The machine's word size (engine/wordsize.ts). */
  bits: WordSize;
  scenario: string;
  seed: number;
  params: RunParams;
  /** The scenario's program of operations, as bytes ([] : none). */
  program: number[];
  maxBound: number;
  /** > 0: PCT runs for bugs of this depth instead of the bounded search. */
  pctDepth: number;
  pctRuns: number;
  maxExecutions: number;
  /** How many of the shortest failing schedules to be told. */
  failing: number;
}

/** The counts after an execution. */
export interface ExploreProgress {
  bound: number;
  executions: number;
  blocked: number;
  failing: number;
  end_states: number;
  seconds: number;
}

/** A failing execution among the shortest, with the step of its first report. */
export interface FailingSchedule {
  preemptions: number;
  decisions: number;
  kinds: string[];
  schedule: string;
  step: number;
  report: string;
  /**
   * Where it leaves the run without preemptions: its first preemption (the
   * decision's index and event, the CPU chosen and the one that could go on).
   */
  branch?: { decision: number; step: number; cpu: number; from: number };
}

/** One bound's summary line, as labrun --explore prints it. */
export interface BoundSummary {
  mode: 'dfs' | 'pct';
  bound?: number;
  executions?: number;
  blocked?: number;
  deferred?: number;
  executions_total: number;
  end_states: number;
  failing_executions: number;
  failing: Record<string, number>;
  exhausted: boolean;
  stopped: boolean;
  seconds: number;
  rate: number;
  depth?: number;
  runs?: number;
  p_per_run?: number;
  p_found?: number;
}

export interface ExploreNews {
  progress: ExploreProgress;
  failing?: FailingSchedule;
  summary?: BoundSummary;
}

export type ExploreReply =
  | { type: 'news'; news: ExploreNews }
  | { type: 'done'; status: number }
  | { type: 'error'; message: string };
