// SPDX-License-Identifier: GPL-2.0-only
// The page's side of the worker protocol: requests with ids, replies
// matched back to their promises.
import { labrunPath } from './labrunPath';
import { EventLog } from './log';
import { Decisions, withSchedule } from './decisions';
import { Policy } from './generated/events';
import type { ScenarioInfo } from './meta';
import { pickRunParams, runParamArgs, type RunParams } from './generated/params';
import { MsgType, type Reply, type Request } from './protocol';
import { wordSizeFor, type WordSize } from './wordsize';
import type { UnseenWindow } from './unseen';

type Pending = {
  resolve: (r: Reply) => void;
  reject: (e: Error) => void;
  progress?: (done: number, total: number) => void;
};
type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface RunOutcome {
  log: EventLog;
  decisions: Decisions;
  wallMs: number;
  /** Where the time to get the run went, in ms: the worker's phases, then the reply's way to the page and reading it. */
  phases: Record<string, number>;
}

/** A run: the kernel, the scheduler, limits, and the run parameters (params.def). */
export interface RunOptions extends RunParams {
  variant?: string;
  /** The machine's word size (default: the page's, engine/wordsize.ts). */
  bits?: WordSize;
  policy?: Policy;
  schedule?: string;
  maxEvents?: number;
  withEvents?: boolean; // false: only meta and statistics come back
  maxSteps?: number;
  program?: number[];
  onProgress?: (done: number, total: number) => void;
}

/** Events a run keeps in the page unless asked otherwise (a runaway guard: 32 bytes each in the worker, 33 in the page's columns). */
export const PAGE_MAX_EVENTS = 2_000_000;

/**
 * The native command line for the same run (variant, scenario, seed and options): the run
 * parameters as params.def names their flags, then the scheduler's and the program's.
 */
export function labrunCommand(scenario: string, seed: number, opts: RunOptions): string {
  const params = Object.fromEntries(Object.entries(pickRunParams(opts)).filter(([, v]) => v !== 0)) as RunParams;
  const bits = opts.bits ?? wordSizeFor(opts.variant ?? 'v6.12');
  const args = [labrunPath(opts.variant ?? 'v6.12', bits), '--scenario', scenario, '--seed', String(seed), ...runParamArgs(params)];
  if (opts.policy !== undefined && opts.policy !== Policy.timed) args.push('--policy', Policy[opts.policy]);
  if (opts.schedule) args.push('--schedule', opts.schedule);
  if (opts.program?.length) args.push('--program', opts.program.join(','));
  if (opts.maxSteps) args.push('--max-steps', String(opts.maxSteps));
  if (opts.maxEvents) args.push('--max-events', String(opts.maxEvents));
  return args.join(' ');
}

/** What makes two runs the same: their arguments (a progress callback aside). */
const runKey = (scenario: string, seed: number, opts: RunOptions) => JSON.stringify([scenario, seed, { ...opts, onProgress: undefined }]);

export class SimClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private runs = 0;
  /** A run started before it was asked for (start()), and the arguments it was started with. */
  private early: { key: string; outcome: Promise<RunOutcome> } | null = null;

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<Reply>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return;
      if (ev.data.type === MsgType.Progress) {
        p.progress?.(ev.data.done, ev.data.total);
        return;
      }
      this.pending.delete(ev.data.id);
      if (ev.data.type === MsgType.Error) p.reject(new Error(ev.data.message));
      else p.resolve(ev.data);
    };
    this.worker.onerror = (ev) => {
      const err = new Error(`simulation worker failed: ${ev.message || 'could not start'}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  private request(req: Distribute<Request>, progress?: (done: number, total: number) => void): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      this.worker.postMessage({ ...req, id } as Request);
    });
  }

  async scenarios(variant: string): Promise<ScenarioInfo[]> {
    const r = await this.request({ type: MsgType.Scenarios, variant, bits: wordSizeFor(variant) });
    if (r.type !== MsgType.ScenariosReply) throw new Error(`unexpected reply ${r.type}`);
    return r.scenarios;
  }

  /** Fetches and compiles a variant's module in this worker now (at the page's word size unless given), ahead of its runs. */
  async prepare(variant: string, bits: WordSize = wordSizeFor(variant)): Promise<void> {
    const r = await this.request({ type: MsgType.Prepare, variant, bits });
    if (r.type !== MsgType.Prepared) throw new Error(`unexpected reply ${r.type}`);
  }

  /** Starts a run now; the next run() with the same arguments gets it instead of asking again. */
  start(scenario: string, seed: number, opts: RunOptions = {}): void {
    const outcome = this.ask(scenario, seed, opts);
    outcome.catch(() => {}); // its error comes with the run() that takes it
    this.early = { key: runKey(scenario, seed, opts), outcome };
  }

  run(scenario: string, seed: number, opts: RunOptions = {}): Promise<RunOutcome> {
    const early = this.early;
    this.early = null; // taken now or never: a run asked for otherwise follows it in the worker
    if (early && early.key === runKey(scenario, seed, opts)) return early.outcome;
    return this.ask(scenario, seed, opts);
  }

  /**
   * What each CPU had not yet seen of the others' stores from event `from` to `to` of this run (tso, relaxed): the
   * same run made again in a fresh module, which keeps it for those events (engine/unseen.ts).
   */
  async unseen(scenario: string, seed: number, opts: RunOptions, from: number, to: number): Promise<UnseenWindow> {
    const r = await this.request({
      type: MsgType.Unseen,
      variant: opts.variant ?? 'v6.12',
      bits: opts.bits ?? wordSizeFor(opts.variant ?? 'v6.12'),
      scenario,
      seed,
      policy: opts.policy ?? Policy.timed,
      schedule: opts.schedule ?? '',
      params: pickRunParams(opts),
      maxSteps: opts.maxSteps ?? 0,
      program: opts.program ?? [],
      from,
      to,
    });
    if (r.type !== MsgType.UnseenReply) throw new Error(`unexpected reply ${r.type}`);
    return { from: r.from, to: r.to, records: r.records, sites: r.sites };
  }

  private async ask(scenario: string, seed: number, opts: RunOptions): Promise<RunOutcome> {
    const asked = performance.now();
    const first = this.runs++ === 0;
    const r = await this.request({
      type: MsgType.Run,
      variant: opts.variant ?? 'v6.12',
      bits: opts.bits ?? wordSizeFor(opts.variant ?? 'v6.12'),
      scenario,
      seed,
      maxEvents: opts.maxEvents ?? PAGE_MAX_EVENTS,
      policy: opts.policy ?? Policy.timed,
      schedule: opts.schedule ?? '',
      params: pickRunParams(opts),
      withEvents: opts.withEvents ?? true,
      maxSteps: opts.maxSteps ?? 0,
      program: opts.program ?? [],
    }, opts.onProgress);
    if (r.type !== MsgType.RunReply) throw new Error(`unexpected reply ${r.type}`);
    const t0 = performance.now();
    const delivered = performance.timeOrigin + t0 - r.sentAt;
    const decisions = new Decisions(r.decisions);
    const log = new EventLog(r.log, withSchedule(r.meta, decisions));
    // Before the worker's phases: for the page's first run, its own start until it asked (since navigation); the wait until the worker began.
    const before = { ...(first ? { 'page start': asked } : {}), 'worker busy or starting': r.startedAt - performance.timeOrigin - asked };
    return { log, decisions, wallMs: r.wallMs, phases: { ...before, ...r.phases, deliver: delivered, open: performance.now() - t0 } };
  }

  dispose() {
    this.worker.terminate();
  }
}

// One worker for the page's lifetime (effects may run twice in development), started by the page's first
// script (main.tsx).
let client: SimClient | null = null;
export function sharedClient(): SimClient {
  client ??= new SimClient();
  return client;
}

/** Stops the shared worker if main.tsx started it for a page that runs nothing (the trace page: its URL is told apart
 * only once the lessons are loaded). */
export function dropSharedClient(): void {
  client?.dispose();
  client = null;
}
