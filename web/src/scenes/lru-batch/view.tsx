// SPDX-License-Identifier: GPL-2.0-only
// The lru-batch scene: page_fault1 on N CPUs over the project's port of
// the 2018 lru_lock RFC. The LRU as a strip of pages (sentinels tall,
// inner pages short, coloured by batch lock, as the cover letter's
// *ooo**ooo*), who holds each lock and who spins on it, contention as a
// heat map over the run, the removals that collided, and the setup: the
// locking mode, tasks, pages, costs, and the thread's release_pages() bug.
import { useEffect, useState } from 'react';
import { interpolateYlOrRd } from 'd3';
import type { EventLog } from '../../engine/log';
import type { SceneViewProps } from '../types';
import { Timeline } from '../../ui/Timeline';
import { CpuCards } from '../../ui/CpuCards';
import { TaskLegend } from '../../ui/TaskLegend';
import { taskColor } from '../../ui/colors';
import { contention, listText, lockLabel, LRU_LOCK, lruOrder, NUM_LRU_BATCH_LOCKS, type LruState } from './model';
import {
  BUG_PAGES, DEFAULT_SETUP, FAULT_NS, LRU_BITMAP_SIZE, MODES, MODE_TEXT, MUNMAP_NS, formatSetup, largestRelease, parseSetup,
  type Mode, type Setup,
} from './setup';
import './view.css';

/** A colour per batch tag, spread around the wheel. */
export const tagColor = (tag: number) => `hsl(${Math.round((tag * 137.508) % 360)}, 62%, ${tag % 2 ? 48 : 60}%)`;

const STRIP_W = 920;
const CELL_H = 26;

function Strip({ log, state, step, mode }: { log: EventLog; state: LruState; step: number; mode: Mode }) {
  const order = lruOrder(state);
  const n = order.length;
  const cell = Math.max(4, Math.min(16, Math.floor((STRIP_W - 60) / Math.max(1, Math.min(n, 160)))));
  const perRow = Math.max(1, Math.floor((STRIP_W - 60) / (cell + 1)));
  const rows = Math.max(1, Math.ceil(n / perRow));
  const h = rows * (CELL_H + 10) + 16;
  const lruHolder = state.holder[LRU_LOCK];
  const heldBy = new Map<number, number>(); // tag -> task
  for (const [idx, task] of Object.entries(state.holder)) if (Number(idx) >= 0) heldBy.set(Number(idx), task);
  const last = state.last && step - state.last.step < 6 ? state.last : null;
  const name = (t: number) => log.taskName(t);
  return (
    // Focusable, so that a keyboard can scroll a long list.
    <figure className="lru-strip" tabIndex={0} aria-label="the LRU list, head first">
      <svg width={STRIP_W} height={h} role="img" aria-label={`the LRU list: ${n} pages`} data-testid="lru.strip">
        <g className={`lru-head${lruHolder !== undefined ? ' held' : ''}`}>
          <rect x={2} y={8} width={48} height={CELL_H} rx={3} style={lruHolder !== undefined ? { stroke: taskColor(name(lruHolder)) } : undefined} />
          <text x={26} y={8 + CELL_H / 2 + 4} textAnchor="middle">head</text>
          <title>the pseudo page at the list head: a sentinel with no batch lock</title>
        </g>
        {order.map((p, k) => {
          const row = Math.floor(k / perRow);
          const col = k % perRow;
          const x = 56 + col * (cell + 1);
          const y = 8 + row * (CELL_H + 10);
          const tag = state.lru.batch[p];
          const sentinel = state.lru.sentinel[p] !== 0;
          const holder = heldBy.get(tag);
          const ph = sentinel ? CELL_H : CELL_H * 0.5;
          return (
            <g key={p} data-page={p}>
              <rect
                className={`lru-page${sentinel ? ' sentinel' : ''}${mode === 'lock' ? ' untagged' : ''}`}
                x={x}
                y={y + (CELL_H - ph) / 2}
                width={cell}
                height={ph}
                fill={tagColor(tag)}
              />
              {holder !== undefined && <rect className="lru-held" x={x} y={y + CELL_H + 2} width={cell + 1} height={3} fill={taskColor(name(holder))} />}
              {last && last.page === p && <path className="lru-mark" d={`M${x + cell / 2},${y - 1} l-4,-6 h8 z`} />}
              <title>{`page ${p}: batch lock ${tag}, ${sentinel ? 'a sentinel' : 'an inner page'}`}</title>
            </g>
          );
        })}
        {n === 0 && (
          <text x={60} y={8 + CELL_H / 2 + 4} className="muted">
            the list is empty
          </text>
        )}
      </svg>
      <figcaption>
        <code className="lru-text" data-testid="lru.text" aria-label="the list as text: * a sentinel, o an inner page, a space between batches">
          {n > 0 ? listText(state).slice(0, 400) + (n > 380 ? ' …' : '') : '(empty)'}
        </code>
        <span className="muted">
          {' '}
          Head first. Tall: a sentinel (at the edge of its batch; taking it off needs lru_lock too). Short: an inner page (its batch
          lock alone). Colour: the batch lock its tag names{mode === 'lock' ? ' — unused in this mode, where lru_lock covers every page' : ''}. A bar
          under a batch: its lock is held, in the holder’s colour.
        </span>
      </figcaption>
    </figure>
  );
}

function Locks({ log, state, mode }: { log: EventLog; state: LruState; mode: Mode }) {
  const spinners = new Map<number, number[]>(); // lock index -> cpus
  for (const [cpu, idx] of Object.entries(state.spinning)) spinners.set(idx, [...(spinners.get(idx) ?? []), Number(cpu)]);
  const busy = (i: number) => state.holder[i] !== undefined || spinners.has(i);
  const active = [LRU_LOCK, ...Array.from({ length: NUM_LRU_BATCH_LOCKS }, (_, i) => i).filter(busy)];
  const inUse = [...new Set(lruOrder(state).map((p) => state.lru.batch[p]))].filter((i) => !busy(i)).sort((x, y) => x - y);
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

function HeatMap({ log, step, onSeek }: { log: EventLog; step: number; onSeek: (s: number) => void }) {
  const heat = contention(log);
  const left = 96;
  const w = 900;
  const cw = (w - left) / heat.buckets;
  const rh = 14;
  const h = heat.locks.length * rh + 24;
  const now = step >= 0 ? log.time[step] : heat.t0;
  const x = (t: number) => left + ((t - heat.t0) / (heat.t1 - heat.t0)) * (w - left);
  const us = (ns: number) => (ns >= 1000 ? `${(ns / 1000).toFixed(1)} µs` : `${Math.round(ns)} ns`);
  if (heat.locks.length === 0)
    return (
      <p className="muted" data-testid="lru.heat.none">
        No CPU spun on any of these locks in this run.
      </p>
    );
  return (
    <figure className="lru-heat" tabIndex={0} aria-label="contention over time">
      <svg width={w} height={h} role="img" aria-label="contention over time: time spent spinning on each lock" data-testid="lru.heat">
        {heat.locks.map((idx, r) => {
          const row = heat.spin.get(idx)!;
          const first = heat.firstStep.get(idx)!;
          return (
            <g key={idx} data-testid={`lru.heat.${idx === LRU_LOCK ? 'lru' : idx}`}>
              <text x={left - 6} y={r * rh + rh - 3} textAnchor="end" className="heat-label">
                {lockLabel(idx)}
              </text>
              {Array.from(row, (v, b) =>
                v > 0 ? (
                  <rect
                    key={b}
                    x={left + b * cw}
                    y={r * rh}
                    width={cw + 0.5}
                    height={rh - 1}
                    fill={interpolateYlOrRd(0.15 + 0.85 * (v / heat.max))}
                    onClick={() => first[b] >= 0 && onSeek(first[b])}
                    className="heat-cell"
                  >
                    <title>{`${lockLabel(idx)}: ${us(v)} of spinning in this slice; click for its first contention`}</title>
                  </rect>
                ) : null,
              )}
            </g>
          );
        })}
        <line className="heat-now" x1={x(now)} x2={x(now)} y1={0} y2={h - 20} />
        <text x={left} y={h - 6} className="heat-label">
          {us(0)}
        </text>
        <text x={w} y={h - 6} textAnchor="end" className="heat-label">
          {us(heat.t1 - heat.t0)} (virtual time)
        </text>
      </svg>
      <figcaption className="muted">
        Spinning per lock over the run, in {heat.buckets} slices of virtual time; darker is more. Over the run:{' '}
        {heat.locks.map((i) => `${lockLabel(i)} ${us(heat.totalSpin.get(i) ?? 0)}`).join(', ')}.
      </figcaption>
    </figure>
  );
}

function SetupPanel({ program, onProgram, setup }: { program: string; onProgram: (text: string) => void; setup: Setup }) {
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
        {num('tasks', 'Tasks (a CPU each)', 1, 64)}
        {num('pages', 'Pages per task', 1, 1024)}
        {num('rounds', 'Rounds', 1, 8)}
      </div>
      <div className="action-row">
        {num('faultNs', 'A fault costs (ns)', 1, 100_000)}
        {num('munmapNs', 'An unmapped page costs (ns)', 1, 100_000)}
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
}

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

export function LruBatchView({ log, timeline, state, step, onSeek, program, onProgram, timelineApart }: SceneViewProps<LruState>) {
  let setup: Setup;
  try {
    setup = parseSetup(program ?? '');
  } catch {
    setup = DEFAULT_SETUP;
  }
  return (
    <div className="scene">
      {!timelineApart && (
        <>
          <Timeline log={log} timeline={timeline} step={step} onSeek={onSeek} />
          <TaskLegend log={log} timeline={timeline} />
        </>
      )}
      <Story log={log} state={state} setup={setup} />
      <Strip log={log} state={state} step={step} mode={setup.mode} />
      <div className="lru-layout">
        <Locks log={log} state={state} mode={setup.mode} />
        {onProgram && <SetupPanel program={program ?? ''} onProgram={onProgram} setup={setup} />}
      </div>
      <h3>Contention over time</h3>
      <HeatMap log={log} step={step} onSeek={onSeek} />
      <details className="lru-cpus">
        <summary>CPUs ({state.machine.cpus.length})</summary>
        <CpuCards log={log} machine={state.machine} cpu={step >= 0 ? log.cpu[step] : 0} />
      </details>
    </div>
  );
}
