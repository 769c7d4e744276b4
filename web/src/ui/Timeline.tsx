// SPDX-License-Identifier: GPL-2.0-only
// The time axis: a lane per CPU (what it runs, and whether it runs, spins
// or sleeps), its RCU read-side sections underneath, and a lane of grace
// periods. Drawn with D3 from the precomputed timeline; the cursor follows
// the current step. Click anywhere to jump there.
import { useEffect, useRef, useState } from 'react';
import * as d3 from 'd3';
import type { EventLog } from '../engine/log';
import type { Timeline as TimelineData } from '../engine/machine';
import { taskColor } from './colors';
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

export function Timeline({ log, timeline, step, onSeek }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const staticRef = useRef<SVGGElement>(null);
  const [width, setWidth] = useState(800);
  const seekRef = useRef(onSeek);
  useEffect(() => {
    seekRef.current = onSeek;
  });
  const cpus = log.meta.cpus;
  // Many CPUs (up to 64): thinner lanes, so that the machine fits on a screen.
  const dense = cpus > 16;
  const LANE = dense ? 13 : 30;
  const RCU_STRIP = dense ? 3 : 7;
  const GAP = dense ? 2 : 6;
  const gpLaneY = TOP + cpus * (LANE + RCU_STRIP + GAP);
  const height = gpLaneY + LANE + 26;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => setWidth(Math.max(320, entries[0].contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const x = d3.scaleLinear().domain([0, Math.max(1, log.endTime)]).range([LEFT, width - RIGHT]);
  const laneY = (cpu: number) => TOP + cpu * (LANE + RCU_STRIP + GAP);

  // The static picture: redrawn only when the run or the width changes.
  useEffect(() => {
    const g = d3.select(staticRef.current!);
    g.selectAll('*').remove();

    g.selectAll('text.lane')
      .data(d3.range(cpus))
      .join('text')
      .attr('class', dense ? 'lane-label dense' : 'lane-label')
      .attr('x', 8)
      .attr('y', (c) => laneY(c) + LANE / 2 + 4)
      .text((c) => `CPU${c}`);
    g.append('text').attr('class', 'lane-label').attr('x', 8).attr('y', gpLaneY + LANE / 2 + 4).text('RCU');

    g.selectAll('rect.seg')
      .data(timeline.cpuSegments)
      .join('rect')
      .attr('class', (d) => `seg seg-${d.mode}`)
      .attr('x', (d) => x(d.start))
      .attr('y', (d) => laneY(d.cpu) + (d.mode === 'idle' ? LANE / 2 - 2 : 0))
      .attr('width', (d) => Math.max(0.5, x(d.end) - x(d.start)))
      .attr('height', (d) => (d.mode === 'idle' ? 4 : LANE))
      .attr('fill', (d) => (d.mode === 'run' ? taskColor(log.taskName(d.task)) : null))
      .append('title')
      .text((d) => `CPU${d.cpu} ${d.mode === 'idle' ? 'idle' : `${d.mode === 'spin' ? 'spins in' : 'runs'} ${log.taskName(d.task)}`} ${d.start}–${d.end} ns`);

    g.selectAll('rect.rcu')
      .data(timeline.rcuSections)
      .join('rect')
      .attr('class', 'rcu-section')
      .attr('x', (d) => x(d.start))
      .attr('y', (d) => laneY(d.cpu) + LANE + 2)
      .attr('width', (d) => Math.max(1, x(d.end) - x(d.start)))
      .attr('height', RCU_STRIP - 2)
      .append('title')
      .text((d) => `${log.taskName(d.task)} in an RCU read-side critical section, ${d.start}–${d.end} ns`);

    const gp = g.selectAll('g.gp').data(timeline.gracePeriods).join('g').attr('class', 'gp');
    gp.append('rect')
      .attr('x', (d) => x(d.start))
      .attr('y', (d) => gpLaneY + (d.gp % 2) * (LANE / 2))
      .attr('width', (d) => Math.max(1, x(d.end) - x(d.start)))
      .attr('height', LANE / 2 - 2)
      .append('title')
      .text((d) => `grace period ${d.gp}: ${d.start}–${d.end} ns`);
    gp.append('text')
      .attr('x', (d) => x(d.start) + 3)
      .attr('y', (d) => gpLaneY + (d.gp % 2) * (LANE / 2) + LANE / 2 - 5)
      .text((d) => (x(d.end) - x(d.start) > 34 ? `GP ${d.gp}` : ''));

    // SRCU grace periods share the lane, below RCU's.
    const sgp = g.selectAll('g.srcu-gp').data(timeline.srcuGracePeriods).join('g').attr('class', 'srcu-gp');
    sgp
      .append('rect')
      .attr('x', (d) => x(d.start))
      .attr('y', gpLaneY + LANE - 4)
      .attr('width', (d) => Math.max(1, x(d.end) - x(d.start)))
      .attr('height', 5)
      .append('title')
      .text((d) => `SRCU grace period ${d.gp} (synchronize_srcu()): ${d.start}–${d.end} ns`);

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
    g.append('g').attr('class', 'axis').attr('transform', `translate(0,${gpLaneY + LANE + 2})`).call(axis);
  }, [log, timeline, width]); // eslint-disable-line react-hooks/exhaustive-deps

  const t = step >= 0 ? log.time[step] : 0;
  const cx = x(t);
  const cpu = step >= 0 ? log.cpu[step] : 0;

  return (
    <div className="panel timeline" ref={box}>
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
      >
        <g ref={staticRef} />
        <g className="cursor">
          <line x1={cx} x2={cx} y1={TOP - 4} y2={gpLaneY + LANE} />
          <circle cx={cx} cy={laneY(cpu) + LANE / 2} r={5} />
        </g>
      </svg>
    </div>
  );
}
