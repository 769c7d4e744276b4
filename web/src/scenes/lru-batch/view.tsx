// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene: page_fault1 on N CPUs over the project's port of
// the 2018 lru_lock RFC. The LRU as a strip of pages (sentinels tall,
// inner pages short, coloured by batch lock, as the cover letter's
// *ooo**ooo*), who holds each lock and who spins on it, contention as a
// heat map over the run, the removals that collided, and the setup: the
// locking mode, tasks, pages, costs, and the thread's release_pages() bug.
import { memo, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { interpolateYlOrRd } from 'd3';
import type { EventLog } from '../../engine/log';
import { shows, type ProgramFormProps, type SceneViewProps } from '../types';
import { useNearView, WhileSeen } from '../../ui/WhileSeen';
import { taskColor } from '../../ui/colors';
import { contention, listText, lockLabel, LRU_LOCK, lruOrder, NUM_LRU_BATCH_LOCKS, type Heat, type LruState } from './model';
import {
  BUG_PAGES, DEFAULT_SETUP, FAULT_NS, LRU_BITMAP_SIZE, MODES, MODE_TEXT, MUNMAP_NS, formatSetup, largestRelease, parseSetup,
  LIMITS, type Mode, type Setup,
} from './setup';
import './view.css';

/** A colour per batch tag, spread around the wheel. */
export const tagColor = (tag: number) => `hsl(${Math.round((tag * 137.508) % 360)}, 62%, ${tag % 2 ? 48 : 60}%)`;

const STRIP_W = 920;
const CELL_H = 26;

/** The strip's geometry: a cell per page, as many per row as fit, rows under each other. */
function stripLayout(n: number) {
  const cell = Math.max(4, Math.min(16, Math.floor((STRIP_W - 60) / Math.max(1, Math.min(n, 160)))));
  const perRow = Math.max(1, Math.floor((STRIP_W - 60) / (cell + 1)));
  const rows = Math.max(1, Math.ceil(n / perRow));
  const at = (k: number) => ({ x: 56 + (k % perRow) * (cell + 1), y: 8 + Math.floor(k / perRow) * (CELL_H + 10) });
  return { cell, perRow, h: rows * (CELL_H + 10) + 16, at };
}

/**
 * The LRU list, drawn on a canvas: its pages grow with the run (64 tasks'
 * pages are thousands), and a canvas redraws them in a millisecond where
 * as many SVG nodes cost a frame. The list as text, the canvas's label and
 * a tooltip per page say what the drawing shows (data-pages: the pages it
 * last drew).
 */
function Strip({ log, state, order, step, mode, withKey }: { log: EventLog; state: LruState; order: number[]; step: number; mode: Mode; withKey: boolean }) {
  const ref = useRef<HTMLCanvasElement>(null);
  // The page's colours, read once: a read of computed style at every step would recompute the page's style in the middle of a frame.
  const inks = useRef<{ ink: string; muted: string } | null>(null);
  const n = order.length;
  const { cell, h, at } = stripLayout(n);
  const last = state.last && step - state.last.step < 6 ? state.last : null;
  // Out of view (below the fold on most screens) the canvas keeps its last drawing: a long run's list is tens of
  // thousands of pages, a step's redraw of them a good part of a scrub's time. It is drawn as it comes near the view.
  const near = useNearView(ref);
  useEffect(() => {
    const canvas = ref.current;
    const c = canvas?.getContext('2d');
    if (!canvas || !c || !near) return;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(STRIP_W * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(STRIP_W * dpr);
      canvas.height = Math.round(h * dpr);
    }
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.clearRect(0, 0, STRIP_W, h);
    if (!inks.current) {
      const css = getComputedStyle(canvas);
      inks.current = { ink: css.getPropertyValue('--ink').trim() || '#1f2933', muted: css.getPropertyValue('--muted').trim() || '#667' };
    }
    const { ink, muted } = inks.current;
    const name = (t: number) => log.taskName(t);
    const heldBy = new Map<number, number>(); // tag -> task
    for (const [idx, task] of Object.entries(state.holder)) if (Number(idx) >= 0) heldBy.set(Number(idx), task);
    // The head: a sentinel with no batch lock, outlined in lru_lock's holder's colour while held.
    const lruHolder = state.holder[LRU_LOCK];
    c.beginPath();
    c.roundRect(2, 8, 48, CELL_H, 3);
    c.fillStyle = '#eef1f4';
    c.fill();
    c.lineWidth = lruHolder !== undefined ? 3 : 1.5;
    c.strokeStyle = lruHolder !== undefined ? taskColor(name(lruHolder)) : ink;
    c.stroke();
    c.fillStyle = ink;
    c.font = '11px system-ui, sans-serif';
    c.textAlign = 'center';
    c.fillText('head', 26, 8 + CELL_H / 2 + 4);
    c.textAlign = 'start';
    // The pages in a few strokes, not a few calls each (a long run keeps tens of thousands on the list):
    // one path per batch tag's fill, one for the holders' bars per holder, one per kind of outline.
    const fills = new Map<number, Path2D>(); // tag -> its pages
    const bars = new Map<number, Path2D>(); // holder -> the bars under its batch's pages
    const innerEdge = new Path2D();
    const sentinelEdge = new Path2D();
    let marked = -1;
    let drawn = 0;
    for (let k = 0; k < n; k++) {
      const p = order[k];
      const { x, y } = at(k);
      const tag = state.lru.batch[p];
      const sentinel = state.lru.sentinel[p] !== 0;
      const ph = sentinel ? CELL_H : CELL_H * 0.5;
      let fill = fills.get(tag);
      if (!fill) fills.set(tag, (fill = new Path2D()));
      fill.rect(x, y + (CELL_H - ph) / 2, cell, ph);
      (sentinel ? sentinelEdge : innerEdge).rect(x, y + (CELL_H - ph) / 2, cell, ph);
      const holder = heldBy.get(tag);
      if (holder !== undefined) {
        let bar = bars.get(holder);
        if (!bar) bars.set(holder, (bar = new Path2D()));
        bar.rect(x, y + CELL_H + 2, cell + 1, 3);
      }
      if (last && last.page === p) marked = k;
      drawn++;
    }
    c.globalAlpha = mode === 'lock' ? 0.35 : 1;
    for (const [tag, path] of fills) {
      c.fillStyle = tagColor(tag);
      c.fill(path);
    }
    c.lineWidth = 0.5;
    c.strokeStyle = 'rgba(0, 0, 0, 0.25)';
    c.stroke(innerEdge);
    c.lineWidth = 1.2;
    c.strokeStyle = ink;
    c.stroke(sentinelEdge);
    c.globalAlpha = 1;
    for (const [holder, path] of bars) {
      c.fillStyle = taskColor(name(holder));
      c.fill(path);
    }
    if (marked >= 0) {
      const { x, y } = at(marked);
      c.fillStyle = ink;
      c.beginPath();
      c.moveTo(x + cell / 2, y - 1);
      c.lineTo(x + cell / 2 - 4, y - 7);
      c.lineTo(x + cell / 2 + 4, y - 7);
      c.closePath();
      c.fill();
    }
    if (n === 0) {
      c.fillStyle = muted;
      c.fillText('the list is empty', 60, 8 + CELL_H / 2 + 4);
    }
    canvas.dataset.pages = String(drawn);
  });
  // The page under the pointer, named as the SVG's titles named it.
  const hover = (e: ReactMouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const px = ((e.clientX - r.left) * STRIP_W) / (r.width || STRIP_W);
    const py = ((e.clientY - r.top) * h) / (r.height || h);
    let title = '';
    if (px >= 2 && px < 50 && py >= 8 && py < 8 + CELL_H) title = 'the pseudo page at the list head: a sentinel with no batch lock';
    else {
      const k = order.findIndex((_, i) => {
        const { x, y } = at(i);
        return px >= x && px < x + cell + 1 && py >= y - 6 && py < y + CELL_H + 6;
      });
      if (k >= 0) {
        const p = order[k];
        title = `page ${p}: batch lock ${state.lru.batch[p]}, ${state.lru.sentinel[p] ? 'a sentinel' : 'an inner page'}`;
      }
    }
    if (e.currentTarget.title !== title) e.currentTarget.title = title;
  };
  return (
    // Focusable, so that a keyboard can scroll a long list.
    <figure className="lru-strip" tabIndex={0} aria-label="the LRU list, head first">
      <canvas
        ref={ref}
        style={{ width: STRIP_W, height: h }}
        role="img"
        aria-label={`the LRU list: ${n} pages`}
        data-testid="lru.strip"
        onMouseMove={hover}
      />
      {withKey && (
        <figcaption>
          <code className="lru-text" data-testid="lru.text" aria-label="the list as text: * a sentinel, o an inner page, a space between batches">
            {n > 0 ? listText(state, 400).slice(0, 400) + (n > 380 ? ' …' : '') : '(empty)'}
          </code>
          <span className="muted">
            {' '}
            Head first. Tall: a sentinel (at the edge of its batch; taking it off needs lru_lock too). Short: an inner page (its batch
            lock alone). Colour: the batch lock its tag names{mode === 'lock' ? ' — unused in this mode, where lru_lock covers every page' : ''}. A bar
            under a batch: its lock is held, in the holder’s colour.
          </span>
        </figcaption>
      )}
    </figure>
  );
}

function Locks({ log, state, order, mode }: { log: EventLog; state: LruState; order: number[]; mode: Mode }) {
  const spinners = new Map<number, number[]>(); // lock index -> cpus
  for (const [cpu, idx] of Object.entries(state.spinning)) spinners.set(idx, [...(spinners.get(idx) ?? []), Number(cpu)]);
  const busy = (i: number) => state.holder[i] !== undefined || spinners.has(i);
  const active = [LRU_LOCK, ...Array.from({ length: NUM_LRU_BATCH_LOCKS }, (_, i) => i).filter(busy)];
  const inUse = [...new Set(order.map((p) => state.lru.batch[p]))].filter((i) => !busy(i)).sort((x, y) => x - y);
  const cpuOf = (task: number) => state.machine.tasks[task]?.cpu ?? -1;
  return (
    <section className="lru-locks" aria-label="Locks" data-testid="lru.locks">
      <h3>Locks</h3>
      <ul>
        {active.map((i) => {
          const holder = state.holder[i];
          const waiting = spinners.get(i) ?? [];
          return (
            <li key={i} className={`lock-chip${holder !== undefined ? ' held' : ''}${waiting.length ? ' contended' : ''}`} data-testid={`lru.lock.${i === LRU_LOCK ? 'lru' : i}`}>
              {i >= 0 ? <span className="swatch" style={{ background: tagColor(i) }} /> : <span className="swatch lru-swatch" />}
              <b>{lockLabel(i)}</b>{' '}
              {holder !== undefined ? (
                <span>
                  held by <span style={{ color: taskColor(log.taskName(holder)) }}>{log.taskName(holder)}</span> (CPU{cpuOf(holder)})
                </span>
              ) : (
                <span className="muted">free</span>
              )}
              {waiting.length > 0 && <span className="waiters"> · spinning: {waiting.map((c) => `CPU${c}`).join(', ')}</span>}
            </li>
          );
        })}
      </ul>
      {mode !== 'lock' && (
        <p className="lock-free" data-testid="lru.locks.free">
          {inUse.length > 0 ? (
            <>
              Free batch locks of pages on the list:{' '}
              {inUse.map((i) => (
                <span key={i} className="swatch" style={{ background: tagColor(i) }} title={`batch lock ${i}: free`} />
              ))}{' '}
              <span className="muted">({inUse.length}; the other {NUM_LRU_BATCH_LOCKS - inUse.length - (active.length - 1)} cover no page now)</span>
            </>
          ) : (
            <span className="muted">No other batch lock covers a page now.</span>
          )}
        </p>
      )}
      {mode === 'lock' && <p className="muted">In this mode lru_lock alone guards the list; the batch locks are never taken.</p>}
    </section>
  );
}

const HEAT = { left: 96, w: 900, rh: 14 };
const us = (ns: number) => (ns >= 1000 ? `${(ns / 1000).toFixed(1)} µs` : `${Math.round(ns)} ns`);

/** The slice of the heat map under a point of its cells' canvas, in CSS pixels: the lock's row and the slice, or null. */
function heatCellAt(heat: Heat, px: number, py: number): { row: number; bucket: number } | null {
  const { left, w, rh } = HEAT;
  const row = Math.floor(py / rh);
  const bucket = Math.floor((px - left) / ((w - left) / heat.buckets));
  if (px < left || row < 0 || row >= heat.locks.length || bucket < 0 || bucket >= heat.buckets) return null;
  return heat.spin.get(heat.locks[row])![bucket] > 0 ? { row, bucket } : null;
}

/**
 * The heat map's cells, on a canvas: a rectangle per lock and slice that saw spinning (a long run has
 * thousands, which as SVG elements cost the first frame their creation, style and layout). The run's, not
 * the step's: drawn once per run. A cell's tooltip and click come from the pointer's position (heatCellAt).
 */
function HeatCells({ heat, seek }: { heat: Heat; seek: (s: number) => void }) {
  const { left, w, rh } = HEAT;
  const h = heat.locks.length * rh;
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const cv = ref.current;
    const ctx = cv?.getContext('2d');
    if (!cv || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    cv.width = Math.round(w * dpr);
    cv.height = Math.round(h * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const cw = (w - left) / heat.buckets;
    heat.locks.forEach((idx, r) => {
      heat.spin.get(idx)!.forEach((v, b) => {
        if (v <= 0) return;
        ctx.fillStyle = interpolateYlOrRd(0.15 + 0.85 * (v / heat.max));
        ctx.fillRect(left + b * cw, r * rh, cw + 0.5, rh - 1);
      });
    });
  }, [heat, w, h, left, rh]);
  const cellAt = (e: ReactMouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return heatCellAt(heat, e.clientX - r.left, e.clientY - r.top);
  };
  const [hover, setHover] = useState<{ row: number; bucket: number } | null>(null);
  const idx = hover ? heat.locks[hover.row] : 0;
  return (
    <canvas
      ref={ref}
      className={hover ? 'heat-cells on-cell' : 'heat-cells'}
      style={{ width: w, height: h }}
      aria-hidden="true"
      data-testid="lru.heat.cells"
      title={hover ? `${lockLabel(idx)}: ${us(heat.spin.get(idx)![hover.bucket])} of spinning in this slice; click for its first contention` : undefined}
      onMouseMove={(e) => {
        const c = cellAt(e);
        if (c?.row !== hover?.row || c?.bucket !== hover?.bucket) setHover(c);
      }}
      onMouseLeave={() => setHover(null)}
      onClick={(e) => {
        const c = cellAt(e);
        const first = c ? heat.firstStep.get(heat.locks[c.row])![c.bucket] : -1;
        if (first >= 0) seek(first);
      }}
    />
  );
}

/** The rows' names: the run's, drawn once per run. */
const HeatLabels = memo(function HeatLabels({ heat }: { heat: Heat }) {
  const { left, rh } = HEAT;
  return (
    <>
      {heat.locks.map((idx, r) => (
        <text key={idx} x={left - 6} y={r * rh + rh - 3} textAnchor="end" className="heat-label" data-testid={`lru.heat.${idx === LRU_LOCK ? 'lru' : idx}`}>
          {lockLabel(idx)}
        </text>
      ))}
    </>
  );
});

function HeatMap({ log, step, onSeek }: { log: EventLog; step: number; onSeek: (s: number) => void }) {
  const heat = contention(log);
  const { left, w, rh } = HEAT;
  const seekRef = useRef(onSeek);
  useEffect(() => {
    seekRef.current = onSeek;
  });
  const [seek] = useState(() => (s: number) => seekRef.current(s));
  const h = heat.locks.length * rh + 24;
  const now = step >= 0 ? log.time[step] : heat.t0;
  const x = (t: number) => left + ((t - heat.t0) / (heat.t1 - heat.t0)) * (w - left);
  if (heat.locks.length === 0)
    return (
      <p className="muted" data-testid="lru.heat.none">
        No CPU spun on any of these locks in this run.
      </p>
    );
  return (
    <figure className="lru-heat" tabIndex={0} aria-label="contention over time">
      <div className="heat-box">
        <svg width={w} height={h} role="img" aria-label="contention over time: time spent spinning on each lock" data-testid="lru.heat">
          <HeatLabels heat={heat} />
          <text x={left} y={h - 6} className="heat-label">
            {us(0)}
          </text>
          <text x={w} y={h - 6} textAnchor="end" className="heat-label">
            {us(heat.t1 - heat.t0)} (virtual time)
          </text>
        </svg>
        <HeatCells heat={heat} seek={seek} />
        {/* The step's line on a layer of its own: moving it repaints it alone, not the cells. */}
        <svg className="heat-now-layer" width={w} height={h} aria-hidden="true">
          <line className="heat-now" x1={x(now)} x2={x(now)} y1={0} y2={h - 20} />
        </svg>
      </div>
      <figcaption className="muted">
        Spinning per lock over the run, in {heat.buckets} slices of virtual time; darker is more. Over the run:{' '}
        {heat.locks.map((i) => `${lockLabel(i)} ${us(heat.totalSpin.get(i) ?? 0)}`).join(', ')}.
      </figcaption>
    </figure>
  );
}

/** The run's setup, not the step's: drawn again only when the program or its handler changes. */
const SetupPanel = memo(function SetupPanel({ program, onProgram, setup }: { program: string; onProgram: (text: string) => void; setup: Setup }) {
  const [draft, setDraft] = useState<Setup>(setup);
  useEffect(() => setDraft(setup), [program]); // eslint-disable-line react-hooks/exhaustive-deps
  const set = <K extends keyof Setup>(k: K, v: Setup[K]) => setDraft({ ...draft, [k]: v });
  const apply = (s: Setup) => onProgram(formatSetup(s));
  const num = (k: 'tasks' | 'pages' | 'rounds' | 'faultNs' | 'munmapNs', label: string, min: number, max: number) => (
    <label>
      {label}{' '}
      <input
        type="number"
        min={min}
        max={max}
        value={draft[k]}
        onChange={(e) => set(k, Math.max(min, Math.min(max, Math.floor(Number(e.target.value) || min))))}
        data-testid={`lru.setup.${k}`}
      />
    </label>
  );
  return (
    <section className="lru-setup" aria-label="Setup" data-testid="lru.setup">
      <h3>Setup</h3>
      <div className="action-row">
        <label>
          Locking{' '}
          <select value={draft.mode} onChange={(e) => set('mode', e.target.value as Mode)} data-testid="lru.setup.mode">
            {MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_TEXT[m]}
              </option>
            ))}
          </select>
        </label>
        {num('tasks', 'Tasks (a CPU each)', LIMITS.t.min, LIMITS.t.max)}
        {num('pages', 'Pages per task', LIMITS.p.min, LIMITS.p.max)}
        {num('rounds', 'Rounds', LIMITS.r.min, LIMITS.r.max)}
      </div>
      <div className="action-row">
        {num('faultNs', 'A fault costs (ns)', LIMITS.f.min, LIMITS.f.max)}
        {num('munmapNs', 'An unmapped page costs (ns)', LIMITS.u.min, LIMITS.u.max)}
        <label>
          <input type="checkbox" checked={draft.releaseAll} onChange={(e) => set('releaseAll', e.target.checked)} data-testid="lru.setup.all" />{' '}
          munmap hands release_pages() every page at once
        </label>
        <label>
          <input type="checkbox" checked={draft.fixed} onChange={(e) => set('fixed', e.target.checked)} data-testid="lru.setup.fix" />{' '}
          the bitmap sized by nr (the fix)
        </label>
      </div>
      <div className="action-row">
        <button type="button" onClick={() => apply(draft)} data-testid="lru.setup.apply">
          Run with this setup
        </button>
        <button type="button" onClick={() => onProgram('')} disabled={!program} data-testid="lru.setup.reset">
          Back to the default
        </button>
        <button type="button" onClick={() => apply({ ...DEFAULT_SETUP, tasks: 2, pages: 7, rounds: 1 })} data-testid="lru.preset.collide">
          Two CPUs sharing a batch (for stepping by hand)
        </button>
      </div>
      <div className="action-row bug-row">
        <button
          type="button"
          onClick={() => apply({ ...DEFAULT_SETUP, tasks: 1, pages: BUG_PAGES, rounds: 1, releaseAll: true })}
          data-testid="lru.bug"
        >
          The thread’s bug: release_pages() of {BUG_PAGES} pages
        </button>
        <button
          type="button"
          onClick={() => apply({ ...DEFAULT_SETUP, tasks: 1, pages: BUG_PAGES, rounds: 1, releaseAll: true, fixed: true })}
          data-testid="lru.bug.fixed"
        >
          The same, with the bitmap sized by nr
        </button>
      </div>
      <p className="muted">
        Defaults: {MODE_TEXT[DEFAULT_SETUP.mode]}, {DEFAULT_SETUP.tasks} tasks × {DEFAULT_SETUP.pages} pages × {DEFAULT_SETUP.rounds} rounds; a
        fault {FAULT_NS} ns and an unmapped page {MUNMAP_NS} ns (stand-ins for zeroing a page and tearing down its mapping), on top of the
        runtime’s cost of every lock and list operation. munmap hands release_pages() at most 256 pages at a time unless told otherwise.
      </p>
    </section>
  );
});

function Story({ log, state, setup }: { log: EventLog; state: LruState; setup: Setup }) {
  const c = state.lastCollision;
  const big = largestRelease(setup);
  return (
    <div className="lru-story" data-testid="lru.story">
      <p data-testid="lru.counts">
        So far: <b>{state.added}</b> pages linked, <b>{state.removed}</b> taken off, <b>{state.lru.length}</b> on the list;{' '}
        <b>{state.sentinelFlips}</b> sentinel changes; <b data-testid="lru.collisions">{state.collisions}</b> removals that collided with
        another CPU’s removal, <b data-testid="lru.sentinel-collisions">{state.sentinelCollisions}</b> of them over a sentinel.
      </p>
      {c && (
        <p className="lru-collision" data-testid="lru.collision">
          Step {c.step}: CPU{c.cpu} ({log.taskName(c.task)}) spins on <b>{lockLabel(c.lock)}</b>, held by {log.taskName(c.owner)}
          {c.ownerPage >= 0 ? `, which is taking ${c.ownerSentinel ? 'sentinel ' : ''}page ${c.ownerPage} off` : ''}.
          {c.ownerSentinel
            ? ' A sentinel’s neighbours may belong to other batches, so its removal holds lru_lock as well: here two removals meet.'
            : ' Both pages are inside one batch, so they share its batch lock.'}
        </p>
      )}
      {big > LRU_BITMAP_SIZE && (
        <p className={state.bug ? 'bad' : ''} data-testid="lru.bug.story">
          munmap hands release_pages() {big} pages, more than the {LRU_BITMAP_SIZE} bits of the sentinel bitmap the RFC kept on the
          stack (enough for a 2 MB mapping of 4K pages; with 64K pages one munmap can pass 537).{' '}
          {setup.fixed
            ? state.bug
              ? ''
              : 'With the bitmap sized by nr, the second pass finds every sentinel.'
            : state.bug
              ? `VM_BUG_ON fired: “${state.bug.text}”. Without it, __set_bit() would write past the bitmap.`
              : 'Step on to see what release_pages() does with it.'}
        </p>
      )}
    </div>
  );
}

/** What is under the time axis: below the fold on most screens, so held while out of view during play (ui/WhileSeen.tsx). */
function LruParts({ log, state, step, onSeek, program, onProgram, setup, parts }: { log: EventLog; state: LruState; step: number; onSeek: (s: number) => void; program?: string; onProgram?: (text: string) => void; setup: Setup; parts?: ReadonlySet<string> }) {
  // The list head first, walked once for the strip and the locks.
  const order = lruOrder(state);
  return (
    <>
      {shows(parts, 'story') && <Story log={log} state={state} setup={setup} />}
      {shows(parts, 'strip') && <Strip log={log} state={state} order={order} step={step} mode={setup.mode} withKey={shows(parts, 'key')} />}
      <div className="lru-layout">
        {shows(parts, 'locks') && <Locks log={log} state={state} order={order} mode={setup.mode} />}
        {onProgram && !parts && <SetupPanel program={program ?? ''} onProgram={onProgram} setup={setup} />}
      </div>
      {shows(parts, 'heat') && (
        <>
          <h3>Contention over time</h3>
          <HeatMap log={log} step={step} onSeek={onSeek} />
        </>
      )}
    </>
  );
}

/** The setup a program text gives (the default where it does not parse: the run refused it already). */
function setupOf(program: string): Setup {
  try {
    return parseSetup(program);
  } catch {
    return DEFAULT_SETUP;
  }
}

/** The scene's program form (SceneDef.program.Form). */
export function SetupForm({ program, onProgram }: ProgramFormProps) {
  const setup = useMemo(() => setupOf(program), [program]);
  return <SetupPanel program={program} onProgram={onProgram} setup={setup} />;
}

export function LruBatchView({ log, state, step, onSeek, program, onProgram, parts }: SceneViewProps<LruState>) {
  const setup = useMemo(() => setupOf(program ?? ''), [program]);
  return (
    <WhileSeen>
      <LruParts log={log} state={state} step={step} onSeek={onSeek} program={program} onProgram={onProgram} setup={setup} parts={parts} />
    </WhileSeen>
  );
}
