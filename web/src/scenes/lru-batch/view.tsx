// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene: page_fault1 on N CPUs over the kernel's LRU: v6.12's
// own folio LRU (one lru_lock per lruvec), or a kernel with batch locks.
// The LRU as a strip of folios (with batch locks: sentinels tall, inner
// folios short, coloured by batch lock, as the cover letter's *ooo**ooo*;
// on v6.12 coloured by the CPU whose lru_add batch linked them on), who
// holds each lock and who spins on it, contention as a heat map over the
// run, the acquisitions that collided, and the setup: tasks, pages, costs,
// and the thread's release_pages() bug.
import { memo, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { interpolateYlOrRd } from 'd3';
import type { EventLog } from '../../engine/log';
import { shows, type ProgramFormProps, type SceneViewProps } from '../types';
import { useNearView, WhileSeen } from '../../ui/WhileSeen';
import { taskColor } from '../../ui/colors';
import { contention, listText, lockLabel, LRU_LOCK, lruOrder, lruShape, NUM_LRU_BATCH_LOCKS, type Doing, type Heat, type LruState } from './model';
import {
  BUG_PAGES, DEFAULT_SETUP, FAULT_NS, LRU_BITMAP_SIZE, MAX_FREE, MUNMAP_NS, PAGEVEC_SIZE, formatSetup, largestRelease, parseSetup,
  LIMITS, type Setup,
} from './setup';
import { runsOf, type Whose } from './inventory';
import { KERNELS } from '../../engine/generated/kernels';
import './view.css';

/** A colour per batch tag (or, without batches, per CPU), spread around the wheel. */
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
function Strip({ log, state, order, step, batches, withKey }: { log: EventLog; state: LruState; order: number[]; step: number; batches: boolean; withKey: boolean }) {
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
    // lru_lock guards every folio of a kernel without batches: its holder's bar goes under all of them.
    const lruHeld = state.holder[LRU_LOCK];
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
      // the batch tag, or without batches the CPU that linked the folio on
      const tag = batches ? state.lru.batch[p] : state.lru.cpu[p];
      const sentinel = state.lru.sentinel[p] !== 0;
      const ph = sentinel || !batches ? CELL_H : CELL_H * 0.5;
      let fill = fills.get(tag);
      if (!fill) fills.set(tag, (fill = new Path2D()));
      fill.rect(x, y + (CELL_H - ph) / 2, cell, ph);
      (sentinel ? sentinelEdge : innerEdge).rect(x, y + (CELL_H - ph) / 2, cell, ph);
      const holder = batches ? heldBy.get(tag) : lruHeld;
      if (holder !== undefined) {
        let bar = bars.get(holder);
        if (!bar) bars.set(holder, (bar = new Path2D()));
        bar.rect(x, y + CELL_H + 2, cell + 1, 3);
      }
      if (last && last.page === p) marked = k;
      drawn++;
    }
    c.globalAlpha = 1;
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
    if (px >= 2 && px < 50 && py >= 8 && py < 8 + CELL_H)
      title = batches ? 'the list head: a sentinel with no batch lock' : 'the list head, lruvec->lists[LRU_INACTIVE_ANON]';
    else {
      const k = order.findIndex((_, i) => {
        const { x, y } = at(i);
        return px >= x && px < x + cell + 1 && py >= y - 6 && py < y + CELL_H + 6;
      });
      if (k >= 0) {
        const p = order[k];
        title = batches
          ? `folio ${p}: batch lock ${state.lru.batch[p]}, ${state.lru.sentinel[p] ? 'a sentinel' : 'an inner folio'}`
          : `folio ${p}: linked on by CPU${state.lru.cpu[p]}'s lru_add batch`;
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
        aria-label={`the LRU list: ${n} folios`}
        data-testid="lru.strip"
        onMouseMove={hover}
      />
      {withKey && (
        <figcaption>
          <code
            className="lru-text"
            data-testid="lru.text"
            aria-label={batches ? 'the list as text: * a sentinel, o an inner folio, a space between batches' : 'the list as text: o a folio, a space where the CPU that linked them on changes'}
          >
            {n > 0 ? listText(state, 400).slice(0, 400) + (n > 380 ? ' …' : '') : '(empty)'}
          </code>
          {batches ? (
            <span className="muted">
              {' '}
              Head first. Tall: a sentinel (at the edge of its batch; taking it off needs lru_lock too). Short: an inner folio (its batch
              lock alone). Colour: the batch lock its tag names. A bar under a batch: its lock is held, in the holder’s colour.
            </span>
          ) : (
            <span className="muted">
              {' '}
              Head first: the inactive anon list of the run’s memcg, as mm/swap.c and mm/vmscan.c of v6.12 link it. Colour: the CPU whose
              lru_add batch (up to {PAGEVEC_SIZE} folios, folio_batch_move_lru()) linked the folio on. One lru_lock guards the whole list: a
              bar under it is its holder, in the holder’s colour.
            </span>
          )}
        </figcaption>
      )}
    </figure>
  );
}

function Locks({ log, state, order, batches }: { log: EventLog; state: LruState; order: number[]; batches: boolean }) {
  const spinners = new Map<number, number[]>(); // lock index -> cpus
  for (const [cpu, idx] of Object.entries(state.spinning)) spinners.set(idx, [...(spinners.get(idx) ?? []), Number(cpu)]);
  const busy = (i: number) => state.holder[i] !== undefined || spinners.has(i);
  const active = [LRU_LOCK, ...Array.from({ length: NUM_LRU_BATCH_LOCKS }, (_, i) => i).filter(busy)];
  const inUse = [...new Set(order.map((p) => state.lru.batch[p]))].filter((i) => !busy(i)).sort((x, y) => x - y);
  const cpuOf = (task: number) => state.machine.tasks[task]?.cpu ?? -1;
  return (
    <section className="lru-locks" aria-label="Locks" data-testid="lru.locks">
      <h3>Locks</h3>
      <p className="muted lock-where" data-testid="lru.locks.where">
        {batches
          ? 'lruvec->lru_lock and lruvec->batch_locks[32], one set per lruvec: 6.12’s lru_lock is per lruvec, where the RFC’s (and its batch locks) were per node in pglist_data.'
          : 'lruvec->lru_lock: one per lruvec (a memcg on a node) since 5.11.'}
      </p>
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
      {batches && (
        <p className="lock-free" data-testid="lru.locks.free">
          {inUse.length > 0 ? (
            <>
              Free batch locks of folios on the list:{' '}
              {inUse.map((i) => (
                <span key={i} className="swatch" style={{ background: tagColor(i) }} title={`batch lock ${i}: free`} />
              ))}{' '}
              <span className="muted">({inUse.length}; the other {NUM_LRU_BATCH_LOCKS - inUse.length - (active.length - 1)} cover no folio now)</span>
            </>
          ) : (
            <span className="muted">No other batch lock covers a folio now.</span>
          )}
        </p>
      )}
      {!batches && (
        <p className="muted" data-testid="lru.locks.one">
          v6.12 has one lru_lock per lruvec (per memcg and node, since 5.11) and no batch locks: every folio onto or off this list takes it.
        </p>
      )}
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
          <input type="checkbox" checked={draft.isolate} onChange={(e) => set('isolate', e.target.checked)} data-testid="lru.setup.iso" />{' '}
          compaction’s migrate scanner on one more CPU
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
      </div>
      <p className="muted">
        Defaults: {DEFAULT_SETUP.tasks} tasks × {DEFAULT_SETUP.pages} pages × {DEFAULT_SETUP.rounds} rounds; a fault {FAULT_NS} ns and an
        unmapped page {MUNMAP_NS} ns (stand-ins for zeroing a page and tearing down its mapping), on top of the runtime’s cost of every lock,
        atomic and list operation of the kernel’s code. munmap’s mmu_gather hands the pages back {MAX_FREE} at a time
        (free_pages_and_swap_cache()) unless told otherwise. The locking is the kernel’s: choose it with the kernel beside the scene.
      </p>
    </section>
  );
});

const DOING: Record<Doing, string> = {
  fault: 'faulting folios in',
  release_pages: 'releasing folios',
  check_list: 'checking the list',
  other: 'running',
};

function Story({ log, state, setup, batches }: { log: EventLog; state: LruState; setup: Setup; batches: boolean }) {
  const c = state.lastCollision;
  const big = largestRelease(setup);
  return (
    <div className="lru-story" data-testid="lru.story">
      <p data-testid="lru.counts">
        So far: <b>{state.added}</b> folios linked onto the list, <b>{state.removed}</b> taken off, <b>{state.lru.length}</b> on it;{' '}
        {batches && (
          <>
            <b>{state.sentinelFlips}</b> sentinel changes;{' '}
          </>
        )}
        <b data-testid="lru.collisions">{state.collisions}</b> times a CPU spun on a lock another CPU held
        {batches ? (
          <>
            , <b data-testid="lru.sentinel-collisions">{state.sentinelCollisions}</b> of them over a sentinel
          </>
        ) : (
          ''
        )}
        {state.collisions > 0 && (
          <span data-testid="lru.collisions.by">
            {' '}
            ({Object.entries(state.collisionsBy)
              .sort(([, x], [, y]) => y - x)
              .map(([k, n]) => {
                const [a, b] = k.split('/') as [Doing, Doing];
                return `${n} ${DOING[a]} behind ${DOING[b]}`;
              })
              .join(', ')}
            )
          </span>
        )}
        .
      </p>
      {c && (
        <p className="lru-collision" data-testid="lru.collision">
          Step {c.step}: CPU{c.cpu} ({log.taskName(c.task)}, {DOING[c.doing]}) spins on <b>{lockLabel(c.lock)}</b>, held by{' '}
          {log.taskName(c.owner)} ({DOING[c.ownerDoing]}
          {c.ownerChange === 'add' ? `, adding folio ${c.ownerPage} at the head of the list` : ''}
          {c.ownerChange === 'del' ? `, taking ${c.ownerSentinel && !c.spinnerSentinel ? 'sentinel ' : ''}folio ${c.ownerPage} off` : ''}).
          {!batches
            ? c.ownerChange === 'add'
              ? ` A CPU's lru_add batch goes onto the list under lru_lock (folio_batch_move_lru(), up to ${PAGEVEC_SIZE} folios in one hold).`
              : ` release_pages() takes its folios off under lru_lock, ${PAGEVEC_SIZE} at a time (folios_put_refs()).`
            : c.spinnerSentinel
              ? ` CPU${c.cpu} is taking a sentinel off: its neighbours may be in other batches, so it needs lru_lock as well, and waits for ` +
                (c.ownerChange === 'add' ? 'the adds at the head of the list, which take lru_lock alone.' : 'the other holder of lru_lock: here two removals meet.')
              : c.ownerSentinel
                ? ' A sentinel’s removal holds lru_lock as well: here two removals meet.'
                : c.ownerChange === 'add'
                  ? ' Adds at the head of the list take lru_lock alone.'
                  : ' Both folios are inside one batch, so they share its batch lock.'}
        </p>
      )}
      {big > LRU_BITMAP_SIZE && (
        <p className={state.bug ? 'bad' : ''} data-testid="lru.bug.story">
          munmap hands release_pages() {big} pages, more than the {LRU_BITMAP_SIZE} bits of the sentinel bitmap the RFC kept on the
          stack (enough for a 2 MB mapping of 4K pages; with 64K pages one munmap can pass 537).{' '}
          {!batches
            ? `v6.12 has no such bitmap: folios_put_refs() takes the folios off the list ${PAGEVEC_SIZE} at a time, however many there are.`
            : `The port keeps the RFC’s two passes, but on 6.12 they run in folios_put_refs(), over one folio_batch of at most ${PAGEVEC_SIZE} ` +
              `folios: its bitmap has PAGEVEC_SIZE bits (a BUILD_BUG_ON holds the bound), and release_pages() fills one batch after another, ` +
              `so ${big} pages cannot overrun it.`}
          {state.bug ? ` Yet the run reported: “${state.bug.text}”.` : ''}
        </p>
      )}
    </div>
  );
}

/** What is under the time axis: below the fold on most screens, so held while out of view during play (ui/WhileSeen.tsx). */
function LruParts({ log, state, step, onSeek, program, onProgram, setup, parts }: { log: EventLog; state: LruState; step: number; onSeek: (s: number) => void; program?: string; onProgram?: (text: string) => void; setup: Setup; parts?: ReadonlySet<string> }) {
  // The list head first, walked once for the strip and the locks.
  const order = lruOrder(state);
  const { batches } = lruShape(log);
  return (
    <>
      {/* The strip first: the scene's subject stays put above the fold while the story below it grows. */}
      {shows(parts, 'strip') && <Strip log={log} state={state} order={order} step={step} batches={batches} withKey={shows(parts, 'key')} />}
      {shows(parts, 'story') && <Story log={log} state={state} setup={setup} batches={batches} />}
      <div className="lru-layout">
        {shows(parts, 'locks') && <Locks log={log} state={state} order={order} batches={batches} />}
        {onProgram && !parts && <SetupPanel program={program ?? ''} onProgram={onProgram} setup={setup} />}
      </div>
      {shows(parts, 'heat') && (
        <>
          <h3>Contention over time</h3>
          <HeatMap log={log} step={step} onSeek={onSeek} />
        </>
      )}
      {shows(parts, 'inventory') && <Inventory log={log} />}
    </>
  );
}

const WHOSE: Record<Whose, string> = {
  upstream: 'upstream, unmodified',
  patched: 'upstream, patched by the port',
  port: 'added by the port (not upstream code)',
  shim: 'the project’s shim',
};

/** The run's kernel, by the branch its kernel lines come from. */
function kernelOf(log: EventLog): string | null {
  const tree = log.meta.sites.find((x) => x.tree && x.tree !== 'project')?.tree;
  return KERNELS.find((k) => k.branch === tree && k.scenes.includes('lru-batch'))?.name ?? null;
}

/** What the scene runs on this kernel, by whose it is (docs/lru.md, generated and checked). */
function Inventory({ log }: { log: EventLog }) {
  const kernel = kernelOf(log);
  const runs = useMemo(() => (kernel ? runsOf(kernel) : null), [kernel]);
  if (!runs) return null;
  const c = runs.counts;
  return (
    <details className="lru-inventory" data-testid="lru.inventory">
      <summary>
        What runs on {kernel}: <b data-testid="lru.inventory.total">{runs.total}</b> functions in the scene’s default run —{' '}
        {c.upstream} upstream unmodified, {c.patched} upstream patched by the port, {c.port} added by the port, {c.shim} of the project’s
        shim, {c.other} others (the real headers used whole, the shim headers’ inline locks and lists, the scenario)
      </summary>
      <p className="muted">
        From docs/lru.md, which wasm/tools/lru-inventory.py writes from the extraction specs, the kernel tree and an instrumented run
        (every function entered), and make test checks.
      </p>
      {(['patched', 'port', 'upstream', 'shim'] as Whose[]).map((w) => {
        const items = runs.items.filter((x) => x.whose === w);
        return items.length ? (
          <div key={w} data-testid={`lru.inventory.${w}`}>
            <h4>
              {WHOSE[w]} ({items.length})
            </h4>
            <ul className="lru-inventory-list">
              {items.map((x) => (
                <li key={`${x.where} ${x.name}`} title={x.note || undefined}>
                  <code>{x.name}</code> <span className="muted">{x.where}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null;
      })}
    </details>
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
