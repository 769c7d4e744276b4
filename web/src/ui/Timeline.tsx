// SPDX-License-Identifier: GPL-2.0-only
// The time axis: a lane per CPU (what it runs, and whether it runs, spins
// or sleeps), its RCU read-side sections underneath, and a lane of grace
// periods. The intervals are drawn on a canvas, labels, marks, the axis and
// the cursor with D3 in an SVG over it, from the precomputed timeline; the
// cursor follows the current step. Click anywhere to jump there.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import * as d3 from 'd3';
import type { EventLog } from '../engine/log';
import type { CpuSegment, Timeline as TimelineData } from '../engine/machine';
import { taskColor } from './colors';
import { paintLanes, rgbOf } from './lanePixels';
import './Timeline.css';

interface Props {
  log: EventLog;
  timeline: TimelineData;
  step: number;
  onSeek: (step: number) => void;
}

const LEFT = 64;
const RIGHT = 16;
const TOP = 8;
const SRCU_GP_COLOR = '#d9631e';

/**
 * fillRect() for many rectangles in lanes, drawn in the order given: the
 * rectangles of one lane that overlap or touch, with the same colour,
 * height and top, are drawn as one. The same pixels are covered (with
 * opaque colours), in a few calls a pixel where a long run has hundreds of
 * thousands of rectangles narrower than one.
 */
export function laneFiller(ctx: Pick<CanvasRenderingContext2D, 'fillRect' | 'fillStyle'>) {
  const open = new Map<number, { style: string; x0: number; x1: number; y: number; h: number }>();
  const draw = (r: { style: string; x0: number; x1: number; y: number; h: number }) => {
    ctx.fillStyle = r.style;
    ctx.fillRect(r.x0, r.y, r.x1 - r.x0, r.h);
  };
  return {
    fill(lane: number, style: string, x: number, y: number, w: number, h: number) {
      const r = open.get(lane);
      if (r && r.style === style && r.y === y && r.h === h && x <= r.x1 && x + w >= r.x0) {
        r.x0 = Math.min(r.x0, x);
        r.x1 = Math.max(r.x1, x + w);
        return;
      }
      if (r) draw(r);
      open.set(lane, { style, x0: x, x1: x + w, y, h });
    },
    /** Draws what is still open. */
    flush() {
      for (const r of open.values()) draw(r);
      open.clear();
    },
  };
}

/** A window shorter than this is a laptop's (1280×720, 1366×768): the lanes of 5 to 16 CPUs are thinner in it. */
const SHORT_WINDOW = 900;

/** Whether the window is shorter than SHORT_WINDOW, kept up to date as it is resized. */
function useShortWindow(): boolean {
  const [short, setShort] = useState(() => typeof window !== 'undefined' && window.innerHeight < SHORT_WINDOW);
  useEffect(() => {
    const onResize = () => setShort(window.innerHeight < SHORT_WINDOW);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return short;
}

export function Timeline({ log, timeline, step, onSeek }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const staticRef = useRef<SVGGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // 0 until the box is measured (before the first paint): nothing is drawn at a guessed width and drawn again.
  const [width, setWidth] = useState(0);
  const seekRef = useRef(onSeek);
  useEffect(() => {
    seekRef.current = onSeek;
  });
  const cpus = log.meta.cpus;
  // More CPUs, thinner lanes, so that the machine and what the scene draws under it fit the window: up to 4 CPUs
  // 30 px each; up to 16, 20 px, or 13 px in a window under 900 px tall (8 CPUs took 344 px of a 720 px window, and
  // lru-batch's list was below the fold); more, 13 px.
  const short = useShortWindow();
  const dense = cpus > 16 || (cpus > 4 && short);
  const medium = !dense && cpus > 4;
  const LANE = dense ? 13 : medium ? 20 : 30;
  const RCU_STRIP = dense ? 3 : medium ? 5 : 7;
  const GAP = dense ? 2 : medium ? 4 : 6;
  /** The grace periods' lane: two rows of labelled periods, whatever the CPUs' lanes. */
  const GP_LANE = dense ? 13 : 30;
  const gpLaneY = TOP + cpus * (LANE + RCU_STRIP + GAP);
  const height = gpLaneY + GP_LANE + 26;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // Whole pixels both times (clientWidth): the observer's first report, a fraction off the laid-out width, would
    // otherwise draw the whole strip again just after the first frame.
    const measure = () => setWidth(Math.max(320, el.clientWidth));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const x = d3.scaleLinear().domain([0, Math.max(1, log.endTime)]).range([LEFT, width - RIGHT]);
  const laneY = (cpu: number) => TOP + cpu * (LANE + RCU_STRIP + GAP);

  // The static picture: redrawn only when the run or the width changes.
  useEffect(() => {
    if (!width) return;
    const g = d3.select(staticRef.current!);
    g.selectAll('*').remove();

    g.selectAll('text.lane')
      .data(d3.range(cpus))
      .join('text')
      .attr('class', dense ? 'lane-label dense' : 'lane-label')
      .attr('x', 8)
      .attr('y', (c) => laneY(c) + LANE / 2 + 4)
      .text((c) => `CPU${c}`);
    g.append('text').attr('class', 'lane-label').attr('x', 8).attr('y', gpLaneY + GP_LANE / 2 + 4).text('RCU');

    // Grace periods are drawn on the canvas; their names here, where there is room for one.
    g.selectAll('text.gp-label')
      .data(timeline.gracePeriods.filter((d) => x(d.end) - x(d.start) > 34))
      .join('text')
      .attr('class', 'gp-label')
      .attr('x', (d) => x(d.start) + 3)
      .attr('y', (d) => gpLaneY + (d.gp % 2) * (GP_LANE / 2) + GP_LANE / 2 - 5)
      .text((d) => `GP ${d.gp}`);

    // Marks above the lanes: a lock given up (failed trylock, rwsem_is_contended()), a report.
    // A click on a mark goes to its event, not to the time under the pointer
    // (several events can share a pixel, or a nanosecond).
    g.selectAll('path.mark')
      .data(timeline.marks)
      .join('path')
      .attr('class', (d) => `mark mark-${d.kind}`)
      .attr('data-event', (d) => d.index)
      .attr('d', (d) => `M${x(d.time) - 3},${laneY(d.cpu) - 5}h6l-3,5z`)
      .on('click', (e: MouseEvent, d) => {
        e.stopPropagation();
        seekRef.current(d.index);
      })
      .append('title')
      .text((d) => `event ${d.index}: ${d.kind === 'gave-up' ? 'gave up the lock' : log.meta.kinds[log.kind[d.index]].name.toLowerCase()} on CPU${d.cpu}`);

    const axis = d3
      .axisBottom(x)
      .ticks(Math.max(2, Math.floor(width / 110)))
      .tickFormat((v) => `${(+v / 1000).toFixed(1)} µs`);
    g.append('g').attr('class', 'axis').attr('transform', `translate(0,${gpLaneY + GP_LANE + 2})`).call(axis);
  }, [log, timeline, width]); // eslint-disable-line react-hooks/exhaustive-deps

  // The lanes, RCU sections and grace periods: drawn on a canvas, since their number grows with the
  // run (a million-event run has hundreds of thousands), where an SVG element each would cost the
  // page memory and every frame a style and layout pass over them all. The lanes are made as pixels
  // (lanePixels.ts), the rest a rectangle each.
  useEffect(() => {
    const cv = canvasRef.current;
    const ctx = cv?.getContext('2d');
    if (!cv || !ctx || !width) return;
    const dpr = window.devicePixelRatio || 1;
    cv.width = Math.round(width * dpr);
    cv.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const css = getComputedStyle(cv);
    const color = (name: string) => css.getPropertyValue(name).trim();
    const spin = rgbOf(color('--spin'));
    const idle = rgbOf(color('--idle'));
    const colors = new Map<number, number>();
    const runColor = (task: number) => {
      let c = colors.get(task);
      if (c === undefined) colors.set(task, (c = rgbOf(taskColor(log.taskName(task)))));
      return c;
    };
    // Each lane's intervals: the whole lane's height where its CPU runs or spins, a thin strip where it is idle.
    const bands = Array.from({ length: cpus }, (_, c) => [
      { y: laneY(c), h: LANE },
      { y: laneY(c) + LANE / 2 - 2, h: 4 },
    ]).flat();
    const px = paintLanes(cv.width, dpr, bands, 0.5, (paint) => {
      for (const d of timeline.cpuSegments) {
        const idleBand = d.mode === 'idle';
        paint(2 * d.cpu + (idleBand ? 1 : 0), d.mode === 'run' ? runColor(d.task) : idleBand ? idle : spin, x(d.start), x(d.end));
      }
    });
    if (px.rows > 0) ctx.putImageData(new ImageData(px.data, cv.width, px.rows), 0, px.top);
    const lanes = laneFiller(ctx);
    const rcu = color('--rcu');
    for (const d of timeline.rcuSections) lanes.fill(d.cpu, rcu, x(d.start), laneY(d.cpu) + LANE + 2, Math.max(1, x(d.end) - x(d.start)), RCU_STRIP - 2);
    lanes.flush();
    // Grace periods are drawn translucent, each on its own: where two overlap the drawing is darker.
    ctx.globalAlpha = 0.85;
    ctx.fillStyle = color('--gp');
    for (const d of timeline.gracePeriods) ctx.fillRect(x(d.start), gpLaneY + (d.gp % 2) * (GP_LANE / 2), Math.max(1, x(d.end) - x(d.start)), GP_LANE / 2 - 2);
    // SRCU grace periods share the lane, below RCU's.
    ctx.fillStyle = SRCU_GP_COLOR;
    for (const d of timeline.srcuGracePeriods) ctx.fillRect(x(d.start), gpLaneY + GP_LANE - 4, Math.max(1, x(d.end) - x(d.start)), 5);
    ctx.globalAlpha = 1;
  }, [log, timeline, width, height]); // eslint-disable-line react-hooks/exhaustive-deps

  // What is under the pointer, as a tooltip: the lane's segment, an RCU section, a grace period.
  // Each lane's intervals in time order, for the tooltip: made at the first hover, not with the page's first frame.
  const byCpu = useMemo(() => {
    let lanes: CpuSegment[][] | null = null;
    return () => {
      if (lanes) return lanes;
      lanes = Array.from({ length: cpus }, () => []);
      for (const d of timeline.cpuSegments) lanes[d.cpu]?.push(d);
      for (const l of lanes) l.sort((a, b) => a.start - b.start);
      return lanes;
    };
  }, [timeline, cpus]);
  const [hover, setHover] = useState('');
  const describeAt = (px: number, py: number): string => {
    const t = x.invert(px);
    const cpu = Math.floor((py - TOP) / (LANE + RCU_STRIP + GAP));
    if (py >= gpLaneY) {
      const gp = timeline.gracePeriods.find((d) => d.start <= t && t <= d.end);
      const sgp = timeline.srcuGracePeriods.find((d) => d.start <= t && t <= d.end);
      if (gp) return `grace period ${gp.gp}: ${gp.start}–${gp.end} ns`;
      return sgp ? `SRCU grace period ${sgp.gp} (synchronize_srcu()): ${sgp.start}–${sgp.end} ns` : '';
    }
    if (cpu < 0 || cpu >= cpus) return '';
    if (py - laneY(cpu) > LANE) {
      const r = timeline.rcuSections.find((d) => d.cpu === cpu && d.start <= t && t <= d.end);
      return r ? `${log.taskName(r.task)} in an RCU read-side critical section, ${r.start}–${r.end} ns` : '';
    }
    const lane = byCpu()[cpu];
    let lo = 0;
    let hi = lane.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lane[mid].start <= t) lo = mid;
      else hi = mid - 1;
    }
    const d = lane[lo];
    if (!d || d.start > t || t > d.end) return '';
    return `CPU${d.cpu} ${d.mode === 'idle' ? 'idle' : `${d.mode === 'spin' ? 'spins in' : 'runs'} ${log.taskName(d.task)}`} ${d.start}–${d.end} ns`;
  };

  const t = step >= 0 ? log.time[step] : 0;
  // At whole pixels: a step moves the cursor's layers by a transform alone, and nothing in them is drawn again.
  const cx = Math.round(x(t));
  const cpu = step >= 0 ? log.cpu[step] : 0;

  return (
    <div className="panel timeline" ref={box}>
      <canvas ref={canvasRef} style={{ width, height }} aria-hidden="true" />
      <svg
        ref={svgRef}
        width={width}
        height={height}
        role="img"
        aria-label={`Timeline of ${cpus} CPUs and RCU grace periods; the cursor is at ${t} ns`}
        data-testid="scene.timeline"
        onClick={(e) => {
          const r = svgRef.current!.getBoundingClientRect();
          // Screen pixels to the drawing's (they differ on a zoomed talk slide).
          const idx = log.indexAtTime(x.invert(((e.clientX - r.left) * width) / (r.width || width)));
          onSeek(Math.max(0, idx));
        }}
        onMouseMove={(e) => {
          const r = svgRef.current!.getBoundingClientRect();
          const k = width / (r.width || width);
          setHover(describeAt((e.clientX - r.left) * k, (e.clientY - r.top) * k));
        }}
        onMouseLeave={() => setHover('')}
      >
        {hover && <title>{hover}</title>}
        <g ref={staticRef} />
      </svg>
      {/* The cursor on layers of its own, moved by a transform: a step repaints neither the lanes' labels and marks nor the cursor. */}
      <svg className="cursor cursor-line" width={4} height={gpLaneY + GP_LANE - TOP + 4} style={{ transform: `translate(${cx - 2}px, ${TOP - 4}px)` }} aria-hidden="true">
        <line x1={2} x2={2} y1={0} y2={gpLaneY + GP_LANE - TOP + 4} />
      </svg>
      <svg className="cursor cursor-dot" width={16} height={16} style={{ transform: `translate(${cx - 8}px, ${laneY(cpu) + LANE / 2 - 8}px)` }} aria-hidden="true">
        <circle cx={8} cy={8} r={5} />
      </svg>
    </div>
  );
}
