// SPDX-License-Identifier: GPL-2.0-only
// The seed's scaling table: simulated page faults per virtual second for
// 1, 4, 16, 32 and 64 page_fault1 tasks on the RFC's three kernels (one
// lru_lock: v6.12's own LRU; batch locks; batch locks with splicing),
// beside the RFC's figures.
// Runs in workers of its own, side by side up to the machine's cores
// (Cancel terminates them); the costs are the page's to change.
import { useState } from 'react';
import { useMeasurement } from '../../ui/useMeasurement';
import { MeasureControls, type RunProgress } from '../../ui/MeasureControls';
import { Policy } from '../../engine/generated/events';
import type { RunMeta } from '../../engine/meta';
import { FAULT_NS, LIMITS, LOCKINGS, MUNMAP_NS, type Locking } from './setup';
import '../../ui/figures.css';
import './FiguresPanel.css';

export const TASKS = [1, 4, 16, 32, 64];
/** The RFC's will-it-scale page_fault1 (processes) over its baseline, at TASKS (cover letter 20180131230413.27653-1-daniel.m.jordan@oracle.com). */
export const RFC: Record<'batch' | 'splice', number[]> = {
  batch: [2.6, 2.3, 18.3, 16.1, 15.0],
  splice: [2.3, 4.7, 28.2, 26.2, 21.9],
};

/** Faults per virtual second of a run: the scenario's "fault" calls over the run's virtual time. */
export function faultsPerSecond(meta: RunMeta): number {
  const f = meta.stats.calls.find((c) => c.name === 'fault');
  if (!f || meta.end_time <= 0) return 0;
  return (f.returns * 1e9) / meta.end_time;
}

type Mode = Locking;
const MODES = LOCKINGS.map((l) => l.id);
const MODE_TEXT = Object.fromEntries(LOCKINGS.map((l) => [l.id, l.text])) as Record<Mode, string>;

const fmtM = (x: number) => `${(x / 1e6).toFixed(2)} M`;
const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}%`;

export function Figures() {
  const [faultNs, setFaultNs] = useState(FAULT_NS);
  const [munmapNs, setMunmapNs] = useState(MUNMAP_NS);
  const [pages, setPages] = useState(128);
  const [rounds, setRounds] = useState(3);
  const [rate, setRate] = useState<Partial<Record<Mode, number[]>>>({});
  const [took, setTook] = useState<{ ms: number; workers: number } | null>(null);
  const { running, error, start, cancel } = useMeasurement<RunProgress>();

  const measure = () => {
    setRate({});
    setTook(null);
    return start(async (sim, report, live) => {
      const t0 = performance.now();
      const out: Partial<Record<Mode, number[]>> = Object.fromEntries(MODES.map((m) => [m, []]));
      // The 15 runs are independent: the pool runs them side by side, the most tasks first.
      const runs = LOCKINGS.flatMap((l) => TASKS.map((tasks, k) => ({ mode: l.id, l, tasks, k }))).sort((x, y) => y.tasks - x.tasks);
      const total = runs.length;
      const workers = Math.min(sim.size, total);
      let done = 0;
      report({ done, total, what: 'starting', workers });
      await Promise.all(
        runs.map(async ({ mode, l, tasks, k }) => {
          const what = `${MODE_TEXT[mode]}, ${tasks} task${tasks > 1 ? 's' : ''}`;
          const { log } = await sim.run('lru-batch', 1, {
            variant: l.variant, policy: Policy.timed, stress: true, noSchedule: true, withEvents: false, maxEvents: 2_000_000,
            tasks, objects: pages, rounds, slowNs: faultNs, munmapNs,
          });
          if (!live()) return; // cancelled
          if (log.meta.status !== 'done') throw new Error(`${what} ended ${log.meta.status}`);
          out[mode]![k] = faultsPerSecond(log.meta);
          setRate({ ...out, [mode]: [...out[mode]!] });
          report({ done: ++done, total, what, workers });
        }),
      );
      if (live()) setTook({ ms: performance.now() - t0, workers });
    });
  };

  const base = rate.lock;
  const gain = (mode: Mode, k: number) => (base?.[k] !== undefined && rate[mode]?.[k] !== undefined ? (rate[mode]![k] / base[k] - 1) * 100 : null);
  const complete = MODES.every((m) => TASKS.every((_, k) => rate[m]?.[k] !== undefined));
  const from16 = TASKS.map((t, k) => [t, k] as const).filter(([t]) => t >= 16);
  const bBeatsA = complete && from16.every(([, k]) => gain('batch', k)! > 0);
  const cBeatsA = complete && from16.every(([, k]) => gain('splice', k)! > 0);
  const cBeatsB = complete && from16.every(([, k]) => rate.splice![k] > rate.batch![k]);
  const input = (label: string, value: number, set: (v: number) => void, min: number, max: number, id: string) => (
    <label>
      {label}{' '}
      <input type="number" min={min} max={max} value={value} onChange={(e) => set(Math.max(min, Math.min(max, Math.floor(Number(e.target.value) || min))))} data-testid={`figures.${id}`} />
    </label>
  );
  return (
    <section className="panel figures" aria-labelledby="lru-figures-title" data-testid="figures">
      <h2 id="lru-figures-title">The RFC’s table: page_fault1 on 1 to 64 CPUs</h2>
      <p className="muted">
        Each task maps {pages} pages, faults them in (each through its CPU’s lru_add batch onto the LRU) and unmaps them (release_pages()),{' '}
        {rounds} times, on a CPU of its own; 15 runs, in workers of their own, side by side up to this machine’s cores. One lru_lock is v6.12’s own
        LRU; the batch locks are the project’s port of the RFC (not upstream code).
      </p>
      <fieldset className="scale-presets" disabled={running !== null}>
        <legend>Cost model</legend>
        {input('a fault (ns)', faultNs, setFaultNs, LIMITS.f.min, LIMITS.f.max, 'fault')}
        {input('an unmapped page (ns)', munmapNs, setMunmapNs, LIMITS.u.min, LIMITS.u.max, 'munmap')}
        {input('pages per task', pages, setPages, 14, LIMITS.p.max, 'pages')}
        {input('rounds', rounds, setRounds, LIMITS.r.min, LIMITS.r.max, 'rounds')}
        <button type="button" onClick={() => { setFaultNs(FAULT_NS); setMunmapNs(MUNMAP_NS); setPages(128); setRounds(3); }}>
          Defaults
        </button>
      </fieldset>
      <MeasureControls running={running} onRun={measure} onCancel={cancel} label="Run the table" testId="figures" />
      {error && (
        <p className="error" role="alert" data-testid="figures.error">
          {error}
        </p>
      )}
      <table className="figures-table numeric-table lru-figures" data-testid="figures.table">
        <caption>Simulated page faults per virtual second (M: millions), and each batch mode against one lru_lock</caption>
        <thead>
          <tr>
            <th scope="col">tasks</th>
            {TASKS.map((t) => (
              <th scope="col" key={t}>
                {t}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {MODES.map((mode) => (
            <tr key={mode} data-testid={`figures.${mode}`}>
              <th scope="row">
                ({String.fromCharCode(97 + MODES.indexOf(mode))}) {MODE_TEXT[mode]}
              </th>
              {TASKS.map((t, k) => {
                const r = rate[mode]?.[k];
                const g = gain(mode, k);
                return (
                  <td key={t} data-testid={`figures.${mode}.${t}`}>
                    {r === undefined ? '…' : fmtM(r)}
                    {g !== null && mode !== 'lock' && <span className={g > 0 ? 'up' : 'down'}> {pct(g)}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
          {(['batch', 'splice'] as const).map((mode) => (
            <tr key={`rfc-${mode}`} className="rfc-row">
              <th scope="row">the RFC: {MODE_TEXT[mode]}</th>
              {RFC[mode].map((g, k) => (
                <td key={k}>{pct(g)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {complete && (
        <p data-testid="figures.verdict">
          From 16 tasks on, batch locks {bBeatsA ? 'beat' : 'do not beat'} one lru_lock, batch locks with splicing{' '}
          {cBeatsA ? 'beat' : 'do not beat'} it, and splicing {cBeatsB ? 'beats' : 'does not beat'} batch locks alone
          {took !== null && (
            <span className="muted" data-testid="figures.took" data-workers={took.workers}>
              {' '}
              (the 15 runs took {(took.ms / 1000).toFixed(1)} s here, {took.workers} at a time)
            </span>
          )}.
        </p>
      )}
      <details className="cost-model">
        <summary>How these are measured</summary>
        <p>
          Faults per virtual second: the scenario’s “fault” calls that returned, over the run’s virtual time (the last CPU’s clock), seed 1,
          the timed policy, no whole-list checks. Virtual time follows the runtime’s cost model (wasm/runtime/costs.c: an uncontended
          spin_lock 20 ns, spin_unlock 10 ns, each spin on a held lock 20 ns, a list link or unlink 6 ns, an atomic 8 ns, kmalloc 100 ns,
          each with a seeded jitter of up to half) and the scenario’s two stand-ins set above: a fault’s own work (zeroing the page, the
          page table) and an unmapped page’s. Tasks are processes: each has its own pages, all share one LRU. The RFC measured
          will-it-scale on a 2-socket machine against its own baseline kernel; these are simulated CPUs that only contend where the code
          takes locks, so compare the shape: who wins from how many tasks, not the percentages.
        </p>
      </details>
    </section>
  );
}
