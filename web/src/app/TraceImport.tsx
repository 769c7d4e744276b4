// SPDX-License-Identifier: GPL-2.0-only
// A real kernel's reclaim trace (?import): a file opened or dropped here is
// read in a worker (engine/traceWorker.ts) with progress and Cancel, and
// never leaves the page. Drawn: each CPU's reclaim episodes on a time axis,
// and a row per shrinker with its deferred count over time; a step moves
// through the do_shrink_slab() passes in time order.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ParsedTrace } from '../engine/ftrace';
import type { ReclaimTrace, ShrinkerRow } from '../engine/reclaimTrace';
import { TraceReader, TraceReadError } from '../engine/traceClient';
import './TraceImport.css';

interface Loaded {
  name: string;
  model: ReclaimTrace;
  parsed: ParsedTrace;
  events: number;
  ms: number;
}

const W = 720;
const ROW = 22;

/**
 * The deferred count of a shrinker at the step whose pass ended at time t,
 * line `line`: the new scan count of its last pass up to that step, in the
 * steps' order (time, then line: a coarse trace clock, as User-Mode Linux's,
 * gives many passes one timestamp).
 */
export function deferredAt(row: ShrinkerRow, t: number, line: number): number | null {
  let v: number | null = null;
  for (const p of row.passes) if (p.end < t || (p.end === t && p.endLine <= line)) v = p.newScan;
  return v;
}

export function TraceImport() {
  const reader = useRef<TraceReader | null>(null);
  const [progress, setProgress] = useState<{ bytes: number; total: number; lines: number } | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [status, setStatus] = useState('');
  const [step, setStep] = useState(0);
  useEffect(() => () => reader.current?.dispose(), []);

  const open = (file: File) => {
    reader.current ??= new TraceReader();
    setLoaded(null);
    setStatus('');
    setProgress({ bytes: 0, total: file.size, lines: 0 });
    reader.current
      .read(file, (bytes, total, lines) => setProgress({ bytes, total, lines }))
      .then((r) => {
        setLoaded({ name: file.name, model: r.model, parsed: r.parsed, events: r.events, ms: r.ms });
        setStep(0);
      })
      .catch((e: unknown) => setStatus(e instanceof TraceReadError && e.cancelled ? `Cancelled: ${file.name} was not read.` : `Could not read ${file.name}: ${String(e)}`))
      .finally(() => setProgress(null));
  };

  // The steps: every pass of every shrinker, by the time it ended.
  const passes = useMemo(
    () => (loaded ? loaded.model.shrinkers.flatMap((s) => s.passes.map((p) => ({ row: s, p }))).sort((a, b) => a.p.end - b.p.end || a.p.endLine - b.p.endLine) : []),
    [loaded],
  );
  const at = passes[Math.min(step, passes.length - 1)];
  const t = at ? at.p.end : 0;

  return (
    <div className="app trace-import" onDragOver={(e) => e.preventDefault()} onDrop={(e) => {
      e.preventDefault();
      const f = e.dataTransfer.files[0];
      if (f) open(f);
    }}>
      <header className="app-head">
        <h1>
          <a href="./" className="home" title="All scenes and lessons">
            Reclaim Lab
          </a>{' '}
          <span className="scene-title">A real kernel&apos;s reclaim trace</span>
        </h1>
      </header>
      <main>
        <p className="blurb">
          Open or drop the text of a reclaim trace: <code>/sys/kernel/tracing/trace</code> with the <code>vmscan</code> events enabled,{' '}
          <code>trace-cmd report</code> or <code>perf script</code>. The file is read here, in this page, and sent nowhere. Each CPU&apos;s reclaim
          (kswapd, direct, memcg) is drawn on a time axis, and each shrinker, by its scan function and address, with its deferred count (the{' '}
          <code>mm_shrink_slab_end</code> tracepoint&apos;s new scan count) after each pass.
        </p>
        <label className="trace-open">
          Open a trace file{' '}
          <input type="file" accept=".txt,.trace,.dat.txt,text/plain" data-testid="import.file" onChange={(e) => e.target.files?.[0] && open(e.target.files[0])} />
        </label>
        {progress && (
          <p className="trace-progress" role="status" data-testid="import.progress">
            <progress value={progress.bytes} max={progress.total || 1} /> {progress.lines.toLocaleString('en')} lines read{' '}
            <button type="button" onClick={() => reader.current?.cancel()} data-testid="import.cancel">
              Cancel
            </button>
          </p>
        )}
        {status && (
          <p role="status" data-testid="import.status">
            {status}
          </p>
        )}
        {loaded && <Summary loaded={loaded} />}
        {loaded && passes.length > 0 && (
          <>
            <p className="trace-step">
              <label>
                pass{' '}
                <input type="range" min={0} max={passes.length - 1} value={step} onChange={(e) => setStep(Number(e.target.value))} data-testid="import.step" aria-label="Pass" />
              </label>{' '}
              <span data-testid="import.at">
                {step + 1} of {passes.length}: {at.row.func} on CPU{at.p.cpu} ({at.p.comm}), line {at.p.endLine}, at {fmtTime(t - loaded.model.start)}
              </span>
            </p>
            <Episodes model={loaded.model} t={t} />
            <Shrinkers model={loaded.model} t={t} line={at.p.endLine} />
          </>
        )}
      </main>
    </div>
  );
}

function fmtTime(ns: number) {
  return ns >= 1e9 ? `${(ns / 1e9).toFixed(3)} s` : ns >= 1e6 ? `${(ns / 1e6).toFixed(3)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
}

function Summary({ loaded }: { loaded: Loaded }) {
  const p = loaded.parsed;
  const unknown = Object.entries(p.unknown);
  return (
    <section className="trace-summary" data-testid="import.summary">
      <p>
        {loaded.name}: {p.lines.toLocaleString('en')} lines ({p.tools.join(', ') || 'no header'}), {loaded.events.toLocaleString('en')} vmscan events, read in{' '}
        {(loaded.ms / 1000).toFixed(2)} s ({Math.round(p.lines / (loaded.ms / 1000)).toLocaleString('en')} lines/s)
        {p.lost ? `; the kernel's buffer lost ${p.lost} events` : ''}.
        {unknown.length > 0 && ` Other events, skipped: ${unknown.map(([k, n]) => `${k} ${n}`).join(', ')}.`}
      </p>
      {p.malformed.length > 0 && (
        <details open data-testid="import.malformed">
          <summary>{p.malformed.length} malformed line{p.malformed.length === 1 ? '' : 's'}</summary>
          <ul>
            {p.malformed.slice(0, 50).map((m) => (
              <li key={m.line}>
                line {m.line}: {m.why} — <code>{m.text}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {loaded.model.unpaired.length > 0 && (
        <p className="muted">
          Unpaired: {loaded.model.unpaired.slice(0, 10).map((u) => `line ${u.line} (${u.why})`).join('; ')}
        </p>
      )}
    </section>
  );
}

function Episodes({ model, t }: { model: ReclaimTrace; t: number }) {
  const cpus = [...new Set(model.episodes.map((e) => e.cpu))].sort((a, b) => a - b);
  const span = Math.max(1, model.end - model.start);
  const x = (ts: number) => ((ts - model.start) / span) * (W - 60) + 60;
  return (
    <section aria-label="Reclaim episodes per CPU">
      <h2>Reclaim per CPU</h2>
      <p className="muted">
        <span className="key kswapd">kswapd</span> from wake to sleep, <span className="key direct">direct reclaim</span> and{' '}
        <span className="key memcg">memcg reclaim</span> from begin to end; the red line is the pass shown.
      </p>
      <svg width={W} height={ROW * cpus.length + 8} role="img" aria-label="kswapd, direct and memcg reclaim per CPU over time">
        {cpus.map((c, k) => (
          <g key={c} transform={`translate(0 ${k * ROW + 4})`}>
            <text x={0} y={14} className="axis-label">
              CPU{c}
            </text>
            {model.episodes
              .filter((e) => e.cpu === c)
              .map((e, j) => (
                <rect key={j} className={`episode ${e.kind}`} x={x(e.start)} y={2} height={ROW - 6} width={Math.max(1, x(e.end ?? model.end) - x(e.start))}>
                  <title>{`${e.kind} reclaim by ${e.comm} (${e.pid}), lines ${e.startLine}–${e.endLine ?? 'end'}${e.nrReclaimed !== null ? `, ${e.nrReclaimed} reclaimed` : ''}`}</title>
                </rect>
              ))}
          </g>
        ))}
        <line className="now" x1={x(t)} x2={x(t)} y1={0} y2={ROW * cpus.length + 8} />
      </svg>
    </section>
  );
}

function Shrinkers({ model, t, line }: { model: ReclaimTrace; t: number; line: number }) {
  const span = Math.max(1, model.end - model.start);
  const SW = 240;
  return (
    <section aria-label="Shrinkers">
      <h2>Shrinkers, the largest deferred count first</h2>
      <table className="trace-shrinkers">
        <thead>
          <tr>
            <th>scan function</th>
            <th>shrinker</th>
            <th>passes</th>
            <th>deferred now</th>
            <th>most deferred</th>
            <th>deferred over time</th>
          </tr>
        </thead>
        <tbody>
          {model.shrinkers.map((s) => {
            const now = deferredAt(s, t, line);
            const max = Math.max(1, s.maxDeferred);
            const pts = s.passes.map((p) => `${((p.end - model.start) / span) * SW},${20 - (p.newScan / max) * 18}`).join(' ');
            return (
              <tr key={s.key} data-testid="import.shrinker" data-key={s.key}>
                <td>
                  <code>{s.func}</code>
                  {s.module ? ` [${s.module}]` : ''}
                </td>
                <td>
                  <code>{s.shr}</code>
                </td>
                <td>{s.passes.length}</td>
                <td data-testid="import.deferred">{now ?? '–'}</td>
                <td>{s.maxDeferred}</td>
                <td>
                  <svg width={SW} height={22} role="img" aria-label={`deferred count of ${s.func} over time`}>
                    <polyline className="deferred" points={pts} />
                    <line className="now" x1={((t - model.start) / span) * SW} x2={((t - model.start) / span) * SW} y1={0} y2={22} />
                  </svg>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
