// SPDX-License-Identifier: GPL-2.0-only
// A measurement beside a scene: runs of its own in workers of its own (a
// pool, up to the machine's cores: independent runs go side by side), so
// that Cancel can terminate every worker whatever it is doing, with
// progress reported as the runs go. The scenes' figures panels share it.
// A panel that names its kernels (warm) gets its pool started while it is
// shown, each worker with a kernel's module compiled, so that its run
// button starts the simulation at once; after each measurement, a fresh
// pool is warmed for the next.
import { useCallback, useEffect, useRef, useState } from 'react';
import { SimPool } from '../engine/pool';

export interface Measurement<P> {
  running: P | null; // progress while a measurement runs
  error: string | null;
  /** Workers of the warmed pool whose modules are compiled (0 until then, or without warm). */
  warmed: number;
  /** Runs job on a fresh pool of workers; job reports progress, and stops when live() turns false (cancelled). */
  start(job: (sim: SimPool, report: (p: P) => void, live: () => boolean) => Promise<void>): Promise<void>;
  cancel(): void;
}

/** warm: the kernels (variants) whose modules the pool compiles before the run is asked for, a worker each. */
export function useMeasurement<P>(warm: readonly string[] = []): Measurement<P> {
  const [running, setRunning] = useState<P | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [warmed, setWarmed] = useState(0);
  const worker = useRef<SimPool | null>(null);
  const spare = useRef<SimPool | null>(null);
  useEffect(() => () => worker.current?.dispose(), []);

  const kernels = warm.join(' ');
  const rewarm = useCallback(() => {
    spare.current?.dispose();
    spare.current = null;
    setWarmed(0);
    if (!kernels) return;
    const pool = (spare.current = new SimPool());
    // Once the page is idle: the scene's own run and first frame go first.
    const go = () =>
      spare.current === pool && void pool.warm(kernels.split(' ')).then(() => spare.current === pool && setWarmed(pool.workers));
    if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: 1000 });
    else setTimeout(go, 0);
  }, [kernels]);
  useEffect(() => {
    rewarm();
    return () => {
      spare.current?.dispose();
      spare.current = null;
    };
  }, [rewarm]);

  const cancel = () => {
    worker.current?.dispose();
    worker.current = null;
    setRunning(null);
    setError('Cancelled.');
    rewarm();
  };

  const start: Measurement<P>['start'] = async (job) => {
    setError(null);
    const sim = (worker.current = spare.current ?? new SimPool());
    spare.current = null;
    setWarmed(0);
    const live = () => worker.current === sim;
    try {
      await job(sim, (p) => live() && setRunning(p), live);
    } catch (e) {
      if (live()) setError(e instanceof Error ? e.message : String(e));
    } finally {
      if (live()) {
        sim.dispose();
        worker.current = null;
        setRunning(null);
        rewarm();
      }
    }
  };

  return { running, error, warmed, start, cancel };
}
