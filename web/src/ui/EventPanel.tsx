// SPDX-License-Identifier: GPL-2.0-only
// The current event in words (also announced to screen readers), what its
// kind means, and the events around it; click one to go there.
import type { EventLog } from '../engine/log';
import { narrate, type Labels } from '../engine/narrate';
import './EventPanel.css';

export function EventPanel({ log, step, labels, onSeek }: { log: EventLog; step: number; labels: Labels; onSeek: (s: number) => void }) {
  if (step < 0) return null;
  const from = Math.max(0, step - 6);
  const to = Math.min(log.length - 1, step + 3);
  const rows = [];
  for (let i = from; i <= to; i++) rows.push(i);
  return (
    <section className="panel event-panel" aria-label="Events">
      <p className="narration" aria-live="polite" data-testid="event.narration">
        {narrate(log, step, labels)}
      </p>
      <p className="kind-doc">
        <code>{log.meta.kinds[log.kind[step]]?.name}</code> {log.meta.kinds[log.kind[step]]?.doc} · t = {log.time[step]} ns
      </p>
      <ol className="event-list" start={from}>
        {/* Keyed by place in the list: a step changes the rows' text, not the elements. */}
        {rows.map((i) => (
          <li key={i - from} className={i === step ? 'current' : ''}>
            <button type="button" onClick={() => onSeek(i)} aria-current={i === step ? 'step' : undefined}>
              <span className="idx">{i}</span> {narrate(log, i, labels)}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
