// SPDX-License-Identifier: GPL-2.0-only
// A real kernel's reclaim trace (?import): a file opened or dropped here, a
// bundled fixture or a file of this site named by the link, is read in a
// worker (engine/traceWorker.ts) with progress and Cancel, and never leaves
// the page. Drawn: each CPU's reclaim episodes on a time axis, and a row
// per shrinker with its deferred count over time. The steps are the
// do_shrink_slab() passes in time order, with the scenes' keys
// (ui/keymap.ts), a scrubber, a search, and a permalink (?import=&step=).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ParsedTrace } from '../engine/ftrace';
import type { ReclaimTrace } from '../engine/reclaimTrace';
import { TraceReader, TraceReadError } from '../engine/traceClient';
import { deferredAt, nextMatch, peakSteps, searchSteps, traceSteps, type TraceStep } from '../engine/traceSteps';
import { KeyHelp } from '../ui/KeyHelp';
import { stepBindings, useKeyMap, type KeyBinding } from '../ui/keymap';
import { TraceLessonPanel } from '../lessons/TraceLessonPanel';
import { TRACE_LESSONS } from '../lessons/traceLessons';
import { TRACE_FIXTURES } from './traceFixtures';
import { Notices } from './Notices';
import { importStepNotice, readImportUrl, type Notice } from './params';
import { formatImportUrl, importLink, lessonLink, pageHref, replaceAddress } from './url';
import { usePlayback } from './usePlayback';
import './Controls.css';
import './TraceImport.css';

interface Loaded {
  name: string;
  /** What the permalink names: a fixture or a URL of this site (null: a file from the disk). */
  link: string | null;
  model: ReclaimTrace;
  parsed: ParsedTrace;
  events: number;
  ms: number;
}

const W = 720;
const ROW = 22;

/** With no trace open: the captures a real kernel made that the lab bundles, each with what it shows, one click away. */
function BundledTraces() {
  return (
    <section className="bundled-traces" aria-labelledby="bundled-title" data-testid="import.bundled">
      <h2 id="bundled-title">Or open a trace a real kernel made</h2>
      <p className="muted">
        Captured in User-Mode Linux by <code>make kunit</code>: tracefs&apos;s <code>trace</code> file with <code>vmscan:mm_shrink_slab_start</code> and{' '}
        <code>mm_shrink_slab_end</code> enabled, while one KUnit case of the lab ran alone in a boot (the simulation runs the same case and its
        trace must match: <code>wasm/tests/fixtures/README.md</code>). The kernel&apos;s own shrinkers fire in them too.
      </p>
      <ul>
        {TRACE_FIXTURES.map((f) => {
          const lessons = TRACE_LESSONS.filter((l) => l.trace.fixture === f.name);
          return (
            <li key={f.name} data-testid={`import.bundled.${f.name}`}>
              <a href={importLink(f.name)}>{f.title}</a>{' '}
              <span className="muted">
                — Linux {f.kernel}, KUnit case {f.scenario}
                {lessons.map((l) => (
                  <span key={l.id}>
                    ; lesson: <a href={lessonLink(l.id)}>{l.title}</a>
                  </span>
                ))}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function TraceImport({ search }: { search: string }) {
  // Every parameter, read and checked in one place (params.ts).
  const initial = useMemo(() => readImportUrl(search, pageHref()), [search]);
  const { lesson } = initial.settings;
  const [notices, setNotices] = useState<Notice[]>(initial.notices);
  const reader = useRef<TraceReader | null>(null);
  const [progress, setProgress] = useState<{ bytes: number; total: number; lines: number } | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [status, setStatus] = useState('');
  const [step, setStep] = useState(0);
  const [query, setQuery] = useState('');
  const [help, setHelp] = useState(false);
  const stageRef = useRef<HTMLElement>(null);
  useEffect(() => () => reader.current?.dispose(), []);

  const open = useCallback((file: Blob, name: string, link: string | null, at: number) => {
    reader.current ??= new TraceReader();
    setLoaded(null);
    setStatus('');
    setProgress({ bytes: 0, total: file.size, lines: 0 });
    reader.current
      .read(file, (bytes, total, lines) => setProgress({ bytes, total, lines }))
      .then((r) => {
        const last = traceSteps(r.model).length - 1;
        if (at > Math.max(0, last)) setNotices((ns) => [...ns, importStepNotice(at, Math.max(0, last))]);
        setLoaded({ name, link, model: r.model, parsed: r.parsed, events: r.events, ms: r.ms });
        setStep(Math.max(0, Math.min(at, last)));
      })
      .catch((e: unknown) => setStatus(e instanceof TraceReadError && e.cancelled ? `Cancelled: ${name} was not read.` : `Could not read ${name}: ${String(e)}`))
      .finally(() => setProgress(null));
  }, []);
  const openFile = (f: File) => open(f, f.name, null, 0);

  // The trace the link names: fetched from this page's own origin only (params.ts checks it).
  useEffect(() => {
    const src = initial.settings.source;
    if (!src) return;
    const link = src.kind === 'fixture' ? src.name : src.value;
    const name = src.kind === 'fixture' ? `${src.name}.txt` : decodeURIComponent(new URL(src.url).pathname.split('/').pop() || src.url);
    let gone = false;
    fetch(src.url)
      .then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        return r.blob();
      })
      .then((b) => !gone && open(b, name, link, initial.settings.step))
      .catch((e: unknown) => !gone && setNotices((ns) => [...ns, { param: 'import', value: link, problem: `it could not be fetched (${(e as Error).message})`, used: 'opened none' }]));
    return () => {
      gone = true;
    };
  }, [initial, open]);

  const steps = useMemo(() => (loaded ? traceSteps(loaded.model) : []), [loaded]);
  const last = Math.max(0, steps.length - 1);
  const at = steps[Math.min(step, last)] as TraceStep | undefined;
  const seek = useCallback((s: number) => setStep(Math.max(0, Math.min(last, s))), [last]);
  const { playing, setPlaying } = usePlayback(last, setStep, loaded ? `${loaded.name} ${loaded.ms}` : '', !!loaded && steps.length > 0);

  // The permalink follows the pass shown; a file from the disk has none.
  useEffect(() => {
    if (!loaded) return;
    replaceAddress(formatImportUrl({ lesson: lesson?.id ?? null, source: loaded.link, step }));
  }, [loaded, step, lesson]);

  const found = useMemo(() => (loaded ? searchSteps(loaded.model, steps, query) : { steps: [], as: '' }), [loaded, steps, query]);
  const jump = (dir: 1 | -1) => {
    const m = nextMatch(found.steps, step, dir);
    if (m !== null) seek(m);
  };
  const matchNo = found.steps.indexOf(step);

  // The scenes' keys (ui/keymap.ts), over passes instead of events.
  const keys: KeyBinding[] = [
    ...stepBindings('pass', step, last, seek, () => setPlaying((p) => !p)),
    { keys: ['?'], shown: '?', what: 'this list of keys', run: () => setHelp((h) => !h) },
    {
      keys: ['Escape'],
      shown: 'Esc',
      what: 'close this list; back to the trace from any control or the search',
      run: () => {
        setHelp(false);
        stageRef.current?.focus();
      },
    },
  ];
  useKeyMap(keys);

  return (
    <div
      className="app trace-import"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const f = e.dataTransfer.files[0];
        if (f) openFile(f);
      }}
    >
      <header className="app-head">
        <h1>
          <a href="./" className="home" title="All scenes and lessons">
            Reclaim Lab
          </a>{' '}
          <span className="scene-title">A real kernel&apos;s reclaim trace</span>
        </h1>
      </header>
      <main ref={stageRef} tabIndex={-1} aria-label="The trace" className={lesson ? 'with-lesson' : undefined}>
        <Notices notices={notices} clean={importLink()} />
        {lesson && loaded && <TraceLessonPanel lesson={lesson} model={loaded.model} steps={steps} step={step} onSeek={seek} />}
        <p className="blurb">
          Open or drop the text of a reclaim trace: <code>/sys/kernel/tracing/trace</code> with the <code>vmscan</code> events enabled,{' '}
          <code>trace-cmd report</code> or <code>perf script</code>. The file is read here, in this page, and sent nowhere. Each CPU&apos;s reclaim
          (kswapd, direct, memcg) is drawn on a time axis, and each shrinker, by its scan function and address, with its deferred count (the{' '}
          <code>mm_shrink_slab_end</code> tracepoint&apos;s new scan count) after each pass.
        </p>
        <p className="trace-open">
          <label>
            Open a trace file{' '}
            <input type="file" accept=".txt,.trace,.dat.txt,text/plain" data-testid="import.file" onChange={(e) => e.target.files?.[0] && openFile(e.target.files[0])} />
          </label>
        </p>
        {/* No trace open (and none on its way): the bundled ones, rather than a file chooser alone. */}
        {!loaded && !progress && (!initial.settings.source || status !== '' || notices.some((n) => n.param === 'import')) && <BundledTraces />}
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
        {loaded && !loaded.link && (
          <p className="muted" data-testid="import.nolink">
            This file came from your disk, so the link cannot bring it back: a permalink to a trace and a pass needs a trace bundled with the lab
            (<code>?import=uml-v6.12-ftrace-kunit-runaway&amp;step=N</code>) or a file on this site (<code>?import=/path/trace.txt&amp;step=N</code>).
          </p>
        )}
        {loaded && at && (
          <>
            <nav className="controls trace-controls" aria-label="Trace controls">
              <button type="button" onClick={() => seek(0)} disabled={step <= 0} title="First pass (Home)" data-testid="import.first">
                « First
              </button>
              <button type="button" onClick={() => seek(step - 1)} disabled={step <= 0} title="Previous pass (←)" data-testid="import.back">
                ◀ Back
              </button>
              <button type="button" className="primary" onClick={() => setPlaying((p) => !p)} title="Play or pause (space)" data-testid="import.play">
                {playing ? '❚❚ Pause' : '▶ Play'}
              </button>
              <button type="button" onClick={() => seek(step + 1)} disabled={step >= last} title="Next pass (→)" data-testid="import.next">
                Step ▶
              </button>
              <button type="button" onClick={() => seek(last)} disabled={step >= last} title="Last pass (End)" data-testid="import.last">
                Last »
              </button>
              <span className="counter" data-testid="import.counter">
                pass <b>{step}</b> of 0–{last}
              </span>
              <input type="range" className="trace-scrub" min={0} max={last} value={step} onChange={(e) => seek(Number(e.target.value))} data-testid="import.step" aria-label="Pass" />
            </nav>
            <form
              className="trace-search"
              role="search"
              onSubmit={(e) => {
                e.preventDefault();
                jump(1);
              }}
            >
              <label>
                Search{' '}
                <input
                  type="search"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                  onKeyDown={(e) => {
                    // The field keeps the page's keys while one types; Escape leaves it, with the query kept.
                    if (e.key !== 'Escape') return;
                    e.preventDefault();
                    stageRef.current?.focus();
                  }}
                  placeholder="scan function, shrinker, CPU2, event name, text"
                  data-testid="import.search"
                />
              </label>{' '}
              <button type="button" onClick={() => jump(-1)} disabled={!found.steps.length} data-testid="import.search.prev">
                ◀ previous
              </button>{' '}
              <button type="submit" disabled={!found.steps.length} data-testid="import.search.next">
                next ▶
              </button>{' '}
              <span className="muted" data-testid="import.search.count" aria-live="polite">
                {query.trim()
                  ? `${found.steps.length} match${found.steps.length === 1 ? '' : 'es'}${matchNo >= 0 ? `, this is ${matchNo + 1}` : ''} (${found.as})`
                  : ''}
              </span>
            </form>
            <p className="trace-at" data-testid="import.at">
              Pass {step} of 0–{last}: <code>{at.row.func}</code> <code>{at.row.shr}</code> on CPU{at.pass.cpu} ({at.pass.comm}-{at.pass.pid}), lines{' '}
              {at.pass.startLine}–{at.pass.endLine}, at {fmtTime(at.pass.end - loaded.model.start)}: took {at.pass.nrObjectsToShrink} deferred, cache items{' '}
              {at.pass.cacheItems}, delta {at.pass.delta}, total_scan {at.pass.totalScan}
              {at.pass.priority !== null ? `, priority ${at.pass.priority}` : ''}, {at.pass.gfp}; freed {at.pass.retval}, new scan count{' '}
              <b data-testid="import.at.deferred">{at.pass.newScan}</b>
            </p>
            <Episodes model={loaded.model} t={at.pass.end} />
            <Shrinkers model={loaded.model} steps={steps} at={at} onSeek={seek} />
          </>
        )}
        {help && <KeyHelp bindings={keys} onClose={() => setHelp(false)} />}
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
  if (!cpus.length)
    return (
      <section aria-label="Reclaim episodes per CPU">
        <h2>Reclaim per CPU</h2>
        <p className="muted" data-testid="import.noepisodes">
          No kswapd, direct or memcg reclaim begins or ends in this trace: its passes were made by a caller of <code>shrink_slab()</code> the vmscan
          events do not frame.
        </p>
      </section>
    );
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

function Shrinkers({ model, steps, at, onSeek }: { model: ReclaimTrace; steps: TraceStep[]; at: TraceStep; onSeek: (s: number) => void }) {
  // Drawn over the passes in order, not over time: a coarse trace clock (User-Mode Linux's) gives many passes one timestamp.
  const SW = 240;
  const x = (i: number) => (steps.length > 1 ? (i / (steps.length - 1)) * (SW - 2) + 1 : SW / 2);
  const index = useMemo(() => new Map(steps.map((s, i) => [s.pass, i])), [steps]);
  const peaks = useMemo(() => peakSteps(steps), [steps]);
  // Each row's line, made once per trace rather than at every step (a large trace has hundreds of thousands of passes).
  const lines = useMemo(
    () => new Map(model.shrinkers.map((s) => [s, s.passes.map((p) => `${x(index.get(p) ?? 0)},${20 - (p.newScan / Math.max(1, s.maxDeferred)) * 18}`).join(' ')])),
    [model, index, steps.length], // x() reads steps.length
  );
  const now = x(index.get(at.pass) ?? 0);
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
            <th>deferred over the passes</th>
          </tr>
        </thead>
        <tbody>
          {model.shrinkers.map((s) => {
            const shown = deferredAt(s, at.pass);
            const peak = peaks.get(s) ?? null;
            return (
              <tr key={s.key} data-testid="import.shrinker" data-key={s.key} className={s === at.row ? 'shown' : ''}>
                <td>
                  <code>{s.func}</code>
                  {s.module ? ` [${s.module}]` : ''}
                </td>
                <td>
                  <code>{s.shr}</code>
                </td>
                <td>{s.passes.length}</td>
                <td data-testid="import.deferred">{shown ?? '–'}</td>
                <td>
                  {s.maxDeferred}{' '}
                  {peak !== null && (
                    <button type="button" className="link" onClick={() => onSeek(peak)} data-testid="import.peak" aria-label={`at pass ${peak}: where ${s.func} ${s.shr} defers the most`}>
                      at pass {peak}
                    </button>
                  )}
                </td>
                <td>
                  <svg width={SW} height={22} role="img" aria-label={`deferred count of ${s.func} ${s.shr} over the passes`}>
                    <polyline className="deferred" points={lines.get(s)} />
                    <line className="now" x1={now} x2={now} y1={0} y2={22} />
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
