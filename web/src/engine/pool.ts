// SPDX-License-Identifier: GPL-2.0-only
// Independent runs in parallel: a pool of simulation workers, one run at a
// time each, up to the machine's cores. A figure's rows and kernels do not
// depend on each other, so each goes to the next free worker; dispose()
// terminates every worker, whatever each is doing (Cancel). warm() starts
// the workers before the runs are asked for, each with a kernel's module
// compiled, and a run then goes to a free worker that has its kernel.
import { SimClient, type RunOptions, type RunOutcome } from './client';

/** Workers for a measurement: one per core the browser reports, at most `cap`, at least one. */
export function poolSize(cap = 8): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 1 : 1;
  return Math.max(1, Math.min(cap, cores));
}

type Job = { scenario: string; seed: number; opts: RunOptions; resolve: (r: RunOutcome) => void; reject: (e: Error) => void };

export class SimPool {
  private idle: SimClient[] = [];
  private all: SimClient[] = [];
  private queue: Job[] = [];
  private kernel = new Map<SimClient, string>(); // the variant a worker was warmed with
  private disposed = false;

  /** `size` workers at most, started as runs ask for them; `make` starts one (a test may give its own). */
  constructor(
    readonly size = poolSize(),
    private make: () => SimClient = () => new SimClient(),
  ) {}

  /** Workers started so far. */
  get workers(): number {
    return this.all.length;
  }

  /**
   * Starts a worker per variant (up to the pool's size) and compiles that variant's module in it, so
   * that runs asked for later skip the worker's start and the module's compilation. Resolves when
   * they are ready; a failure is left to the runs (they compile again).
   */
  warm(variants: string[]): Promise<void> {
    const ready: Promise<void>[] = [];
    for (const variant of variants) {
      if (this.disposed || this.all.length >= this.size) break;
      const sim = this.make();
      this.all.push(sim);
      this.idle.push(sim);
      this.kernel.set(sim, variant);
      ready.push(sim.prepare(variant).catch(() => {}));
    }
    return Promise.all(ready).then(() => {});
  }

  /** A run on the next free worker; runs given together run side by side. */
  run(scenario: string, seed: number, opts: RunOptions = {}): Promise<RunOutcome> {
    if (this.disposed) return Promise.reject(new Error('the measurement was cancelled'));
    return new Promise((resolve, reject) => {
      this.queue.push({ scenario, seed, opts, resolve, reject });
      this.next();
    });
  }

  private next() {
    while (this.queue.length && !this.disposed) {
      const job = this.queue[0];
      // A free worker warmed with the run's kernel (when the run names one), else any free one, else a new one.
      const variant = job.opts.variant;
      const own = variant === undefined ? -1 : this.idle.findIndex((w) => this.kernel.get(w) === variant);
      let sim = own >= 0 ? this.idle.splice(own, 1)[0] : this.idle.pop();
      if (!sim && this.all.length < this.size) this.all.push((sim = this.make()));
      if (!sim) return;
      this.queue.shift();
      const w = sim;
      w.run(job.scenario, job.seed, job.opts).then(
        (r) => {
          this.idle.push(w);
          job.resolve(r);
          this.next();
        },
        (e: Error) => {
          this.idle.push(w);
          job.reject(e);
          this.next();
        },
      );
    }
  }

  dispose() {
    this.disposed = true;
    for (const sim of this.all) sim.dispose();
    for (const job of this.queue) job.reject(new Error('the measurement was cancelled'));
    this.all = [];
    this.idle = [];
    this.kernel.clear();
    this.queue = [];
  }
}
