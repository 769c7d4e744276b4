// SPDX-License-Identifier: GPL-2.0-only
// The run's reports (WARN, BUG, lockdep, sleeping in atomic context, KASAN,
// hung tasks), as the kernel would print them; each links to its event.
import type { EventLog } from '../engine/log';
import './ReportsPanel.css';

export function ReportsPanel({ log, step, onSeek }: { log: EventLog; step: number; onSeek: (s: number) => void }) {
  const reports = log.meta.reports;
  if (!reports.length) return null;
  // The report at or before the current step, or the first one.
  let shown = 0;
  reports.forEach((r, i) => {
    if (r.event <= step) shown = i;
  });
  const r = reports[shown];
  return (
    <section className="panel reports" aria-label="Kernel reports" data-testid="reports">
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
