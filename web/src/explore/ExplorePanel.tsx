// SPDX-License-Identifier: GPL-2.0-only
// The Explore panel: the explorer (wasm/explore/) on the scene's
// own run, in a worker of its own. Every schedule with at most k
// preemptions, bound by bound, with sleep sets, or PCT's random runs; as it
// goes the executions, end states and rate; at the end of each bound its
// executions by outcome; and the shortest failing schedules, each a link
// that opens the scene at its first report with the schedule in the URL.
import { useEffect, useRef, useState } from 'react';
import type { RunParams } from '../engine/generated/params';
import { MEMORY_MODELS } from '../engine/generated/events';
import { wordSizeFor } from '../engine/wordsize';
import type { ExploreSetup } from '../scenes/types';
import type { BoundSummary, ExploreProgress, ExploreReply, ExploreRequest, FailingSchedule } from './protocol';
import './explore.css';

/** How many of the shortest failing schedules the panel lists. */
export const FAILING_LISTED = 8;

const preemptions = (n: number | undefined) => `${n} preemption${n === 1 ? '' : 's'}`;

export function sortFailing(list: FailingSchedule[]): FailingSchedule[] {
  return [...list].sort((a, b) => a.preemptions - b.preemptions || a.decisions - b.decisions || (a.schedule < b.schedule ? -1 : 1));
}

/** The executions of each bound by outcome: passed, failed, cut short by the sleep sets. */
export function byBound(summaries: BoundSummary[]): { bound: number; passed: number; failed: number; blocked: number }[] {
  let failedBefore = 0;
  return summaries
    .filter((s) => s.mode === 'dfs')
    .map((s) => {
      const failed = s.failing_executions - failedBefore;
      failedBefore = s.failing_executions;
      return { bound: s.bound ?? 0, passed: (s.executions ?? 0) - failed, failed, blocked: s.blocked ?? 0 };
    });
}

function Bars({ summaries }: { summaries: BoundSummary[] }) {
  const rows = byBound(summaries);
  if (!rows.length) return null;
  const max = Math.max(1, ...rows.map((r) => r.passed + r.failed + r.blocked));
  const W = 260;
  const H = 18;
  const x = (n: number) => (n / max) * W;
  return (
    <figure className="explore-bars" data-testid="explore.bars">
      <svg width={W + 180} height={rows.length * (H + 6)} role="img" aria-label="Executions by outcome for each bound">
        {rows.map((r, i) => (
          <g key={r.bound} transform={`translate(0, ${i * (H + 6)})`}>
            <text x={0} y={H - 5} className="explore-bar-label">
              k = {r.bound}
            </text>
            <g transform="translate(44, 0)">
              <rect width={x(r.passed)} height={H} className="explore-pass" />
              <rect x={x(r.passed)} width={x(r.failed)} height={H} className="explore-fail" />
              <rect x={x(r.passed + r.failed)} width={x(r.blocked)} height={H} className="explore-blocked" />
              <text x={x(r.passed + r.failed + r.blocked) + 4} y={H - 5} className="explore-bar-label">
                {r.passed} passed, {r.failed} failed{r.blocked ? `, ${r.blocked} cut short` : ''}
              </text>
            </g>
          </g>
        ))}
      </svg>
      <figcaption className="muted">
        Executions with exactly k preemptions (each execution runs once, at its own count):{' '}
        <span className="explore-key explore-pass" /> passed, <span className="explore-key explore-fail" /> failed,{' '}
        <span className="explore-key explore-blocked" /> cut short by the sleep sets.
      </figcaption>
    </figure>
  );
}

/**
 * Where the failing schedules branch off the run without preemptions: one
 * row per schedule, its decisions left to right, the default choices before
 * its first preemption grey, the preemption marked, what follows coloured.
 */
function BranchView({ failing, zeroPasses, link }: {
  failing: FailingSchedule[];
  zeroPasses: boolean;
  link: (sched: string, step: number) => string | null;
}) {
  const rows = failing.filter((f) => f.branch);
  if (!rows.length) return null;
  const max = Math.max(...rows.map((f) => f.decisions));
  const W = 360;
  const H = 14;
  const x = (n: number) => 40 + (n / max) * W;
  const first = rows[0];
  const b = first.branch!;
  return (
    <figure className="explore-branch" data-testid="explore.branch">
      <p>
        The shortest failing schedule leaves the run without preemptions{zeroPasses ? ', which passes,' : ''} at decision{' '}
        {b.decision + 1} of {first.decisions}: there CPU{b.cpu} is given the step while CPU{b.from} could go on. Every
        decision before it is the default one.{' '}
        {b.step >= 0 && link(first.schedule, b.step) !== null && (
          <a href={link(first.schedule, b.step)!} data-testid="explore.branch.link">
            Open it at that decision (event {b.step})
          </a>
        )}
      </p>
      <svg width={x(max) + 10} height={rows.length * (H + 4)} role="img"
        aria-label="Where each failing schedule branches off the run without preemptions">
        {rows.map((f, i) => (
          <g key={f.schedule} transform={`translate(0, ${i * (H + 4)})`}>
            <text x={0} y={H - 3} className="explore-bar-label">
              #{i + 1}
            </text>
            <rect x={x(0)} width={x(f.branch!.decision) - x(0)} height={H} className="explore-default" />
            <rect x={x(f.branch!.decision)} width={x(f.decisions) - x(f.branch!.decision)} height={H} className="explore-fail" />
            <line x1={x(f.branch!.decision)} x2={x(f.branch!.decision)} y1={-1} y2={H + 1} className="explore-branch-mark" />
          </g>
        ))}
      </svg>
      <figcaption className="muted">
        Each failing schedule listed, its decisions left to right (up to {max}): <span className="explore-key explore-default" />{' '}
        the default choices it shares with the run without preemptions, the mark its first preemption,{' '}
        <span className="explore-key explore-fail" /> what follows, up to its report.
      </figcaption>
    </figure>
  );
}

export function ExplorePanel({ setup, linkTo, scenario, variant, seed, params, program }: {
  setup: ExploreSetup;
  /** The permalink of the scene on the set-up, following a schedule, standing at a step (null: a link cannot hold the schedule). */
  linkTo: (sched: string, step: number) => string | null;
  scenario: string;
  variant: string;
  seed: number;
  params: RunParams;
  /** The set-up's program of operations, as bytes ([] : none). */
  program: number[];
}) {
  const [bound, setBound] = useState(setup.defaultBound);
  const [mode, setMode] = useState<'dfs' | 'pct'>('dfs');
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<ExploreProgress | null>(null);
  const [summaries, setSummaries] = useState<BoundSummary[]>([]);
  const [failing, setFailing] = useState<FailingSchedule[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);
  const model = MEMORY_MODELS[params.memory ?? 0];
  // Another kernel, seed or memory model: what was found belongs to the old one (a search is under one model).
  const searched = useRef({ variant, seed, scenario, model, any: false });
  useEffect(() => {
    const was = searched.current;
    const modelChanged = was.model !== model && was.variant === variant && was.seed === seed && was.scenario === scenario;
    worker.current?.terminate();
    worker.current = null;
    setRunning(false);
    setProgress(null);
    setSummaries([]);
    setFailing([]);
    setNote(modelChanged && was.any ? `Cleared: what was found was under the ${was.model} memory model, and the run is now under ${model}. Explore again to search under ${model}.` : null);
    searched.current = { variant, seed, scenario, model, any: false };
  }, [variant, seed, scenario, model]);

  const stop = () => {
    worker.current?.terminate();
    worker.current = null;
    setRunning(false);
  };
  const cancel = () => {
    stop();
    setNote('Cancelled: what is shown was found before.');
  };
  const start = () => {
    worker.current?.terminate();
    setProgress(null);
    setSummaries([]);
    setFailing([]);
    setNote(null);
    setRunning(true);
    searched.current.any = true;
    const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    const live = () => worker.current === w;
    w.onmessage = (ev: MessageEvent<ExploreReply>) => {
      if (!live()) return;
      const r = ev.data;
      if (r.type === 'news') {
        setProgress(r.news.progress);
        const f = r.news.failing;
        if (f) setFailing((l) => sortFailing([...l, f]).slice(0, FAILING_LISTED));
        const s = r.news.summary;
        if (s) setSummaries((l) => [...l, s]);
      } else if (r.type === 'done') {
        stop();
      } else {
        stop();
        setNote(`The explorer stopped: ${r.message}`);
      }
    };
    w.onerror = (ev) => {
      if (!live()) return;
      stop();
      setNote(`The explorer's worker failed: ${ev.message || 'could not start'}`);
    };
    const req: ExploreRequest = {
      variant, bits: wordSizeFor(variant), scenario, seed, params, program,
      maxBound: bound,
      pctDepth: mode === 'pct' ? 2 : 0,
      pctRuns: 1000,
      maxExecutions: setup.maxExecutions,
      failing: FAILING_LISTED,
    };
    w.postMessage(req);
  };

  const last = summaries[summaries.length - 1];
  const rate = progress && progress.seconds > 0 ? (progress.executions + progress.blocked) / progress.seconds : 0;
  const link = (f: FailingSchedule) => linkTo(f.schedule, Math.max(0, f.step));
  return (
    <section className="panel figures explore" aria-labelledby="explore-title" data-testid="explore">
      <h2 id="explore-title">Explore every schedule</h2>
      <p className="muted">
        Let the machine find the interleaving of {setup.race}: the explorer runs this scene’s small set-up (prog={setup.prog})
        on {variant} under the {model} memory model again
        and again, each time a fresh boot,
        taking every other branch at the scheduler’s decisions{params.memory ? ' and at the memory model’s (which store each load reads, where each store goes, how far a store buffer has drained)' : ''} — every schedule with at most k preemptions, bound by bound, with
        sleep sets so that orders of independent steps run once — and checks each run as any run is checked (KASAN, lockdep,
        WARN, BUG, hung tasks, deadlocks, leaks).
      </p>
      <div className="explore-controls">
        <label>
          Search{' '}
          <select value={mode} onChange={(e) => setMode(e.target.value as 'dfs' | 'pct')} disabled={running} data-testid="explore.mode">
            <option value="dfs">every schedule within a bound</option>
            <option value="pct">PCT: 1000 random runs, bugs of depth 2</option>
          </select>
        </label>{' '}
        {mode === 'dfs' && (
          <label>
            at most{' '}
            <select value={bound} onChange={(e) => setBound(Number(e.target.value))} disabled={running} data-testid="explore.bound">
              {Array.from({ length: setup.maxBound + 1 }, (_, k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>{' '}
            preemptions
          </label>
        )}{' '}
        {running ? (
          <button type="button" onClick={cancel} data-testid="explore.cancel">
            Cancel
          </button>
        ) : (
          <button type="button" onClick={start} data-testid="explore.run">
            Explore
          </button>
        )}
      </div>
      {progress && (
        <p role="status" className="explore-progress" data-testid="explore.progress">
          {running ? 'Exploring' : 'Explored'}
          {mode === 'dfs' ? ` bound ${progress.bound}` : ''}: {progress.executions} executions
          {progress.blocked ? ` (and ${progress.blocked} cut short)` : ''}, {progress.end_states} distinct end states,{' '}
          <span className={progress.failing ? 'explore-bad' : ''}>{progress.failing} failing</span>; {rate.toFixed(0)} executions/s
          in this browser.
        </p>
      )}
      {note && <p className="muted" data-testid="explore.note">{note}</p>}
      {last && !running && (
        <p data-testid="explore.verdict">
          {last.mode === 'pct'
            ? `${last.runs} PCT runs, ${last.failing_executions} failing; one run finds a bug of depth ${last.depth} with probability at least ${last.p_per_run}.`
            : last.failing_executions
              ? `Fails: ${last.failing_executions} of ${last.executions_total} executions with at most ${preemptions(last.bound)}.`
              : last.exhausted
                ? `No execution fails: all ${last.executions_total} were run, nothing is left at any bound.`
                : last.stopped
                  ? `No execution fails among the ${last.executions_total} run; the search stopped at its budget of ${setup.maxExecutions} executions, so bound ${last.bound} is not exhausted.`
                  : `No execution fails with at most ${preemptions(last.bound)} (${last.executions_total} execution${last.executions_total === 1 ? '' : 's'}, every one within the bound).`}
        </p>
      )}
      <Bars summaries={summaries} />
      {failing.length > 0 && (
        <>
          <h3>Where failing schedules branch off</h3>
          <BranchView failing={failing} link={linkTo}
            zeroPasses={summaries.some((s) => s.mode === 'dfs' && s.bound === 0 && s.failing_executions === 0)} />
          <h3>Failing schedules, shortest first</h3>
          <ol className="explore-failing" data-testid="explore.failing">
            {failing.map((f) => (
              <li key={f.schedule}>
                {link(f) !== null ? (
                  <a href={link(f)!} data-testid="explore.counterexample">
                    {preemptions(f.preemptions)}, {f.decisions} decisions: {f.report || f.kinds.join(', ')}
                  </a>
                ) : (
                  <span data-testid="explore.unlinked">
                    {preemptions(f.preemptions)}, {f.decisions} decisions: {f.report || f.kinds.join(', ')} (its schedule is{' '}
                    {f.schedule.length.toLocaleString('en')} characters, too long for a link: labrun --schedule replays it)
                  </span>
                )}{' '}
                <code className="muted">{f.schedule.length > 48 ? `${f.schedule.slice(0, 48)}…` : f.schedule}</code>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
