// SPDX-License-Identifier: GPL-2.0-only
// State at any step of a log, for stepping back and scrubbing: a reducer
// folds events into a state; a checkpoint is kept every `every` events,
// so reaching any step replays at most that many. A long log keeps at
// most MAX_CHECKPOINTS, spaced wider, so that memory stays bounded (a
// state can hold tens of thousands of pages) while a step still replays
// only a few hundred events. Asking for the same step twice returns the
// same instance.
import type { EventLog } from './log';

export interface Reducer<S> {
  init(log: EventLog): S;
  /** Apply event i to the state in place. */
  apply(state: S, log: EventLog, i: number): void;
}

export const MAX_CHECKPOINTS = 256;

export class History<S> {
  private checkpoints: S[] = [];
  private last: { step: number; state: S } | null = null;
  private every: number;

  constructor(
    readonly log: EventLog,
    private reducer: Reducer<S>,
    every = 64,
  ) {
    this.every = every = Math.max(every, Math.ceil(log.length / MAX_CHECKPOINTS));
    const s = reducer.init(log);
    for (let i = 0; i < log.length; i++) {
      if (i % every === 0) this.checkpoints.push(structuredClone(s));
      reducer.apply(s, log, i);
    }
  }

  /** How many checkpoints are kept. */
  get checkpointCount(): number {
    return this.checkpoints.length;
  }

  /** The state after events 0..step have happened (step -1: before any). */
  at(step: number): S {
    const k = Math.max(-1, Math.min(step, this.log.length - 1));
    if (this.last && this.last.step === k) return this.last.state;
    // Checkpoint c holds the state before event c * every.
    const c = Math.min(Math.floor((k + 1) / this.every), this.checkpoints.length - 1);
    const s = c >= 0 ? structuredClone(this.checkpoints[c]) : this.reducer.init(this.log);
    for (let i = Math.max(0, c) * this.every; i <= k; i++) this.reducer.apply(s, this.log, i);
    this.last = { step: k, state: s };
    return s;
  }
}
