// SPDX-License-Identifier: GPL-2.0-only
// The current event in words (also announced to screen readers), what its
// kind means, and the events around it; click one to go there.
import type { EventLog } from '../engine/log';
import { narrate, objName, type Labels } from '../engine/narrate';
import { staleRead, storeStep, storeWords } from '../engine/stale';
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
      <StaleNote log={log} step={step} labels={labels} onSeek={onSeek} />
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

/** A stale load: what this CPU read, the newer store it missed, and a way to that store. */
function StaleNote({ log, step, labels, onSeek }: { log: EventLog; step: number; labels: Labels; onSeek: (s: number) => void }) {
  const r = staleRead(log, step);
  if (!r) return null;
  const at = r.load ? ` at ${r.load.file}:${r.load.line} (${r.load.func}())` : '';
  const what = r.load?.expr ?? 'a location';
  const to = storeStep(log, r);
  return (
    <p className="stale-note" data-testid="event.stale">
      <strong>Stale read.</strong> CPU{log.cpu[step]} read {what} of {objName(labels, r.obj)}{at}: an older value than
      the latest, {storeWords(log, r)}, which this CPU had not yet seen: nothing it ran since (a barrier, a lock, an acquire
      pairing with that store's release) made it see it.{' '}
      <button type="button" className="link" data-testid="event.stale.store" onClick={() => onSeek(to)}>
        Go to the store (event {to})
      </button>
    </p>
  );
}
