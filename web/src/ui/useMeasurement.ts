// SPDX-License-Identifier: GPL-2.0-only
// A measurement beside a scene: runs of its own in workers of its own (a
// pool, up to the machine's cores: independent runs go side by side), so
// that Cancel can terminate every worker whatever it is doing, with
// progress reported as the runs go. The scenes' figures panels share it.
import { useEffect, useRef, useState } from 'react';
import { SimPool } from '../engine/pool';

export interface Measurement<P> {
  running: P | null; // progress while a measurement runs
  error: string | null;
  /** Runs job on a fresh pool of workers; job reports progress, and stops when live() turns false (cancelled). */
  start(job: (sim: SimPool, report: (p: P) => void, live: () => boolean) => Promise<void>): Promise<void>;
  cancel(): void;
}

export function useMeasurement<P>(): Measurement<P> {
  const [running, setRunning] = useState<P | null>(null);
  const [error, setError] = useState<string | null>(null);
  const worker = useRef<SimPool | null>(null);
  useEffect(() => () => worker.current?.dispose(), []);

  const cancel = () => {
    worker.current?.dispose();
    worker.current = null;
    setRunning(null);
    setError('Cancelled.');
  };

  const start: Measurement<P>['start'] = async (job) => {
    setError(null);
    const sim = (worker.current = new SimPool());
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
      }
    }
  };

  return { running, error, start, cancel };
}
