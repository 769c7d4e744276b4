// SPDX-License-Identifier: GPL-2.0-only
// The run's reports (WARN, BUG, lockdep, sleeping in atomic context, KASAN,
// hung tasks), as the kernel would print them; each links to its event.
import { useContext, useEffect, useRef } from 'react';
import type { EventLog } from '../engine/log';
import { PlayingContext } from './WhileSeen';
import './ReportsPanel.css';

/**
 * reveal: a step that lands on a report's event (a counterexample's link, a lesson's goal, "go to event", a key)
 * brings the report into view, as opening it; never while playing, which passes reports by.
 */
export function ReportsPanel({ log, step, onSeek, reveal = false }: { log: EventLog; step: number; onSeek: (s: number) => void; reveal?: boolean }) {
  const reports = log.meta.reports;
  const playing = useContext(PlayingContext);
  const box = useRef<HTMLElement>(null);
  const onReport = reports.some((r) => r.event === step);
  useEffect(() => {
    const el = box.current;
    if (!reveal || playing || !onReport || !el) return;
    // Its head and the start of its text in the window: else the panel's top at the window's top (as far as the page scrolls).
    const text = el.querySelector('.report-text') ?? el;
    const r = text.getBoundingClientRect();
    const head = el.getBoundingClientRect();
    if (head.top >= 0 && r.top + Math.min(r.height, 120) <= window.innerHeight) return;
    el.scrollIntoView({ block: 'start' });
  }, [reveal, playing, onReport, step, log]);
  if (!reports.length) return null;
  // The report at or before the current step, or the first one.
  let shown = 0;
  reports.forEach((r, i) => {
    if (r.event <= step) shown = i;
  });
  const r = reports[shown];
  return (
    <section className="panel reports" aria-label="Kernel reports" data-testid="reports" ref={box}>
      <h2>
        {reports.length} report{reports.length === 1 ? '' : 's'} in this run
      </h2>
      <ul>
        {reports.map((x, i) => (
          <li key={i}>
            <button type="button" onClick={() => onSeek(x.event)} aria-current={i === shown ? 'true' : undefined}>
              event {x.event}: {x.title}
            </button>
          </li>
        ))}
      </ul>
      {/* focusable: a long report scrolls, and the keyboard must reach it */}
      <pre className="report-text" data-testid="reports.text" tabIndex={0} aria-label={`Report text: ${r.title}`}>
        {r.text}
      </pre>
    </section>
  );
}
