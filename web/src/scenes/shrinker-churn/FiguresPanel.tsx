// SPDX-License-Identifier: GPL-2.0-only
// The stress measurement: the scenario on the stress scale on each design,
// over several seeds, its figures beside the ones the mailing-list threads
// measured, and the cost model they come from. Runs in workers of its own,
// side by side up to the machine's cores (Cancel terminates them).
import { useState } from 'react';
import { useMeasurement } from '../../ui/useMeasurement';
import { MeasureControls, type RunProgress } from '../../ui/MeasureControls';
import { churnFigures, meanFigures, type ChurnFigures } from './figures';
import { Policy } from '../../engine/generated/events';
import '../../ui/figures.css';

export const STRESS = { variants: ['v6.1', 'srcu', 'v6.12'], seeds: [1, 2, 3], rounds: 10 };

/** What the threads measured with stress-ng's ramfs stressor (9 stressors), and where. */
const THREAD: Record<string, { figure: string; source: string }> = {
  'v6.1': {
    figure: '14671 ops/s; down_read_trylock 35–44% of cycles under reclaim',
    source: 'before the series: 20230622083932.4090339-1-qi.zheng@linux.dev, 20230223132725.11685-1-zhengqi.arch@bytedance.com',
  },
  srcu: {
    figure: '−88.8% ops/s (kernel test robot), so the SRCU series was reverted',
    source: 'cited in 20230622083932.4090339-1-qi.zheng@linux.dev',
  },
  'v6.12': {
    figure: '14120 ops/s (−3.8%)',
    source: 'after refcount + RCU: 20230622083932.4090339-1-qi.zheng@linux.dev',
  },
};

interface Row {
  variant: string;
  f: ChurnFigures;
}

const us = (ns: number) => (ns >= 100_000 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1000).toFixed(2)} µs`);
const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}%`;

export function Figures() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [wallMs, setWallMs] = useState(0);
  const { running, error, start, cancel } = useMeasurement<RunProgress>();

  const measure = () => {
    setRows(null);
    return start(async (sim, report, live) => {
      // Every variant and seed is a run of its own: the pool runs them side by side.
      const runs = STRESS.variants.flatMap((variant) => STRESS.seeds.map((seed) => ({ variant, seed })));
      const total = runs.length;
      const t0 = performance.now();
      const per: Record<string, ChurnFigures[]> = Object.fromEntries(STRESS.variants.map((v) => [v, []]));
      let done = 0;
      const workers = Math.min(sim.size, total);
      report({ done, total, what: 'starting', workers });
      await Promise.all(
        runs.map(async ({ variant, seed }) => {
          const { log } = await sim.run('shrinker-churn', seed, {
            variant, policy: Policy.timed, stress: true, noSchedule: true, rounds: STRESS.rounds, withEvents: false, maxEvents: 2_000_000,
          });
          if (!live()) return; // cancelled
          if (log.meta.status !== 'done') throw new Error(`${variant} seed ${seed} ended ${log.meta.status}`);
          per[variant][STRESS.seeds.indexOf(seed)] = churnFigures(log.meta);
          report({ done: ++done, total, what: `${variant}, seed ${seed}`, workers });
        }),
      );
      if (!live()) return;
      setRows(STRESS.variants.map((variant) => ({ variant, f: meanFigures(per[variant]) })));
      setWallMs(performance.now() - t0);
    });
  };

  const base = rows?.find((r) => r.variant === 'v6.1');
  return (
    <section className="panel figures" aria-labelledby="figures-title" data-testid="figures">
      <h2 id="figures-title">Stress: register and unregister under reclaim, per design</h2>
      <p className="muted">
        The stress-ng ramfs analogue: two tasks mount, fill and unmount {STRESS.rounds} times each while kswapd and a memcg
        reclaimer call shrink_slab(), on the stress time scale, seeds {STRESS.seeds.join(', ')}, timed policy.
      </p>
      <MeasureControls
        running={running}
        onRun={measure}
        onCancel={cancel}
        label={rows ? 'Measure again' : `Measure on ${STRESS.variants.join(', ')}`}
        testId="figures"
      />
      {error && (
        <p className="error" role="alert" data-testid="figures.error">
          {error}
        </p>
      )}
      {rows && base && (
        <>
          <table className="figures-table" data-testid="figures.table">
            <thead>
              <tr>
                <th scope="col">kernel</th>
                <th scope="col">ramfs ops per virtual second</th>
                <th scope="col">vs v6.1</th>
                <th scope="col">unregistering: mean (asleep)</th>
                <th scope="col">shrink_slab() gave up</th>
                <th scope="col">the thread measured</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ variant, f }) => (
                <tr key={variant} data-testid={`figures.${variant}`}>
                  <th scope="row">{variant}</th>
                  <td>{f.opsPerSecond.toFixed(0)}</td>
                  <td data-testid={`figures.${variant}.change`}>
                    {variant === 'v6.1' ? '—' : pct(((f.opsPerSecond - base.f.opsPerSecond) / base.f.opsPerSecond) * 100)}
                  </td>
                  <td>
                    {us(f.unregisterNs)} ({us(f.unregisterAsleepNs)})
                  </td>
                  <td>
                    {f.bailouts} of {f.shrinkCalls}
                  </td>
                  <td>
                    {THREAD[variant].figure}
                    <br />
                    <span className="muted">{THREAD[variant].source}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">Measured in {(wallMs / 1000).toFixed(1)} s of wall time in this browser.</p>
        </>
      )}
      <details className="cost-model">
        <summary>The cost model behind these figures</summary>
        <p>
          Virtual time, not wall time. On the stress scale, grace periods take their real length in jiffies at HZ=1000, read
          from the kernel tree: an RCU grace period waits RCU_JIFFIES_TILL_FORCE_QS = 3 jiffies (kernel/rcu/tree.h); a
          non-expedited SRCU grace period waits a jiffy before process_srcu() runs and another before its callbacks run
          (kernel/rcu/srcutree.c), 2 ms; synchronize_srcu() is expedited only when SRCU looks idle, which back-to-back
          unregistering never lets it. Each ramfs operation also does 613 µs of stand-in work for the rest of mount and
          unmount (one of the thread’s 9 stressors’ share of its 14671 ops/s baseline), and kswapd does 50 µs of page-LRU
          work between shrink_slab() passes (assumed). Every other operation costs what wasm/runtime/costs.c says (a
          kmalloc about 100 ns, a context switch about 1 µs). The simulator runs each synchronize_srcu() as its own grace
          period, where Tree SRCU may let concurrent callers share one.
        </p>
        <p>
          So the sizes follow from two inputs: the SRCU grace period against the length of an operation sets the SRCU
          drop; the rwsem and refcount + RCU both stay near the stand-in work, apart by what their own code costs and waits.
          The watching scale compresses grace periods a thousandfold to keep them on screen next to the code; figures are
          measured on the stress scale only.
        </p>
      </details>
    </section>
  );
}
