// SPDX-License-Identifier: GPL-2.0-only
// State at any step of a log, for stepping back and scrubbing: a reducer
// folds events into a state, and copies of the state (checkpoints) are kept
// along the log, so that reaching any step replays only the events since
// the checkpoint before it.
//
// Checkpoints are spaced by the cost of replay, measured while the log is
// first folded: a new one is kept once folding since the last one has taken
// REPLAY_BUDGET_MS, so a step replays for about that long whatever the
// scene's reducer costs per event (a cheap reducer gets checkpoints far
// apart, a costly one close together). Their memory is bounded: at most
// MAX_CHECKPOINTS of them and MAX_CHECKPOINT_BYTES in all (a state's size
// as approxBytes() counts it, times their count); past either bound every
// other checkpoint is dropped and the spacing doubles. Asking for the same
// step twice returns the same instance.
//
// The state at() returns is the history's working state: a step after the
// last one asked for folds the events between into it in place (playing
// forward copies nothing), so it holds until the next call of at(); keep a
// copy (structuredClone) to hold one longer. A step before it starts a new
// working state from a copy of its checkpoint: checkpoints are never
// handed out.
//
// A deferred history (the page's) folds nothing when made: the fold goes on
// in slices (foldFor()) between frames, and at() takes it as far as the step
// it is asked for first; the checkpoints are the same as if it had folded
// the log at once, only their spacing measured in slices.
import type { EventLog } from './log';

export interface Reducer<S> {
  init(log: EventLog): S;
  /** Apply event i to the state in place. */
  apply(state: S, log: EventLog, i: number): void;
}

/**
 * How long reaching a step may spend replaying events from its checkpoint, in ms of the first fold. A move to a
 * step also draws it (some 20-40 ms in Chromium for lru-batch at 64 tasks), and make bench-browser's goal for a move
 * is 100 ms: at 20 ms here a scrub to the middle of that run measured 58-87 ms, at 10 ms 53-61 ms, for 5-9 MB more
 * of checkpoints (20 more, of 0.5 MB each).
 */
export const REPLAY_BUDGET_MS = 10;
export const MAX_CHECKPOINTS = 256;
export const MAX_CHECKPOINT_BYTES = 96 * 2 ** 20;
/** The clock is read once per this many events of the first fold: checkpoints fall on multiples of it. */
export const CLOCK_EVERY = 256;

/** Bytes a state holds, roughly as a JS engine stores it: typed arrays by their length, 8 bytes a slot or field, strings by length. */
export function approxBytes(v: unknown, seen = new Set<object>()): number {
  if (v === null || typeof v !== 'object') return typeof v === 'string' ? 16 + 2 * v.length : 8;
  if (seen.has(v)) return 8;
  seen.add(v);
  if (ArrayBuffer.isView(v)) return 64 + v.byteLength;
  let n = 32;
  if (v instanceof Map) for (const [k, x] of v) n += approxBytes(k, seen) + approxBytes(x, seen);
  else if (v instanceof Set) for (const x of v) n += approxBytes(x, seen);
  else for (const k in v) n += 8 + approxBytes((v as Record<string, unknown>)[k], seen);
  return n;
}

export interface HistoryOptions<S = unknown> {
  /** Keep a checkpoint every this many events instead of by the measured cost (tests: a spacing known in advance). */
  every?: number;
  budgetMs?: number;
  maxCheckpoints?: number;
  maxBytes?: number;
  /** Called after each event of the first fold is applied, with the state (to build more from the same pass: a timeline). */
  observe?: (state: S, i: number) => void;
  /**
   * Fold nothing yet: the first fold goes on as foldFor() is given time, and as far as at() needs
   * whenever it asks past it (a page shows a long run's first step, then folds the rest between frames).
   */
  deferred?: boolean;
}

export class History<S> {
  private checkpoints: S[] = [];
  private positions: number[] = []; // checkpoint c holds the state before event positions[c]
  private bytes: number[] = [];
  private last: { step: number; state: S } | null = null;
  /** The first fold's own state, its next event, and what it has spent so far (null once it is done). */
  private fold: {
    s: S;
    next: number;
    every: number; // 0: by time
    budget: number;
    sinceMs: number; // fold time since the last checkpoint was kept
    lastPos: number;
    total: number;
  } | null;
  private readonly maxCount: number;
  private readonly maxBytes: number;
  private readonly observe?: (state: S, i: number) => void;
  private spentMs = 0;

  constructor(
    readonly log: EventLog,
    private reducer: Reducer<S>,
    options: HistoryOptions<S> | number = {},
  ) {
    const o = typeof options === 'number' ? { every: options } : options;
    this.maxCount = o.maxCheckpoints ?? MAX_CHECKPOINTS;
    this.maxBytes = o.maxBytes ?? MAX_CHECKPOINT_BYTES;
    this.observe = o.observe;
    this.fold = { s: reducer.init(log), next: 0, every: o.every ?? 0, budget: o.budgetMs ?? REPLAY_BUDGET_MS, sinceMs: 0, lastPos: -Infinity, total: 0 };
    if (!o.deferred) this.foldUntil(log.length);
  }

  /** What the first fold took, in ms, so far (a measured figure, for the record). */
  get foldMs(): number {
    return this.spentMs;
  }

  /** Whether the first fold has read the whole log. */
  get folded(): boolean {
    return this.fold === null;
  }

  /** Goes on with the first fold for about `ms` (at least one clock period of events); true once it is done. */
  foldFor(ms: number): boolean {
    this.foldUntil(this.log.length, performance.now() + ms);
    return this.fold === null;
  }

  /** The first fold, on until event `end` (exclusive) is next, or the clock passes `deadline`. */
  private foldUntil(end: number, deadline = Infinity) {
    const f = this.fold;
    if (!f) return;
    const { log, reducer, observe } = this;
    const s = f.s;
    const t0 = performance.now();
    let since = t0 - f.sinceMs;
    let i = f.next;
    const stop = Math.min(end, log.length);
    const sliced = deadline < Infinity;
    for (; i < stop; i++) {
      // A slice ends at a multiple of the clock period, after one at least.
      if (sliced && i % CLOCK_EVERY === 0 && i > f.next && performance.now() >= deadline) break;
      let keep = i === 0;
      if (!keep && f.every > 0) keep = i - f.lastPos >= f.every;
      else if (!keep && i % CLOCK_EVERY === 0) {
        const now = performance.now();
        if (now - since >= f.budget) {
          keep = true;
          since = now;
        }
      }
      if (keep) {
        const b = approxBytes(s);
        this.checkpoints.push(structuredClone(s));
        this.positions.push(i);
        this.bytes.push(b);
        f.total += b;
        f.lastPos = i;
        // Over a bound: keep every other checkpoint (the first stays), and space the next ones twice as far.
        while (this.checkpoints.length > this.maxCount || (f.total > this.maxBytes && this.checkpoints.length > 1)) {
          const keepIdx = this.positions.map((_, c) => c).filter((c) => c % 2 === 0);
          this.checkpoints = keepIdx.map((c) => this.checkpoints[c]);
          this.positions = keepIdx.map((c) => this.positions[c]);
          this.bytes = keepIdx.map((c) => this.bytes[c]);
          f.total = this.bytes.reduce((a, x) => a + x, 0);
          if (f.every > 0) f.every *= 2;
          else f.budget *= 2;
        }
      }
      reducer.apply(s, log, i);
      if (observe) observe(s, i);
    }
    const t1 = performance.now();
    this.spentMs += t1 - t0;
    f.next = i;
    f.sinceMs = t1 - since;
    if (i >= log.length) this.fold = null;
  }

  /** How many checkpoints are kept. */
  get checkpointCount(): number {
    return this.checkpoints.length;
  }

  /** Their size, as approxBytes() counts it. */
  get checkpointBytes(): number {
    return this.bytes.reduce((a, x) => a + x, 0);
  }

  /** The events each checkpoint starts before, in order. */
  get checkpointSteps(): readonly number[] {
    return this.positions;
  }

  /** The state after events 0..step have happened (step -1: before any); valid until the next call. */
  at(step: number): S {
    const k = Math.max(-1, Math.min(step, this.log.length - 1));
    if (this.last && this.last.step === k) return this.last.state;
    // Checkpoints up to the step: the first fold goes that far now if it has not yet.
    if (this.fold && this.fold.next <= k + 1) this.foldUntil(k + 2);
    // The last checkpoint at or before event k + 1.
    let lo = 0;
    let hi = this.positions.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.positions[mid] <= k + 1) lo = mid;
      else hi = mid - 1;
    }
    let s: S;
    let from: number;
    // Folding on from the working state copies nothing: it is taken unless a checkpoint after it is closer by
    // more than CLOCK_EVERY events (play crosses a checkpoint without a copy).
    const fromLast = this.last && this.last.step < k ? k - this.last.step : Infinity;
    const fromCheckpoint = this.positions.length && this.positions[lo] <= k + 1 ? k + 1 - this.positions[lo] : Infinity;
    if (this.last && fromLast < Infinity && fromLast <= fromCheckpoint + CLOCK_EVERY) {
      s = this.last.state; // folded on in place
      from = this.last.step + 1;
    } else if (this.positions.length && this.positions[lo] <= k + 1) {
      s = structuredClone(this.checkpoints[lo]);
      from = this.positions[lo];
    } else {
      s = this.reducer.init(this.log);
      from = 0;
    }
    for (let i = from; i <= k; i++) this.reducer.apply(s, this.log, i);
    this.last = { step: k, state: s };
    return s;
  }
}
