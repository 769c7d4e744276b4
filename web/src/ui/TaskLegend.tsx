// SPDX-License-Identifier: GPL-2.0-only
// The key to the time axis: one swatch per task (rcuc/N kthreads once),
// then the states and sections the timeline draws.
import type { EventLog } from '../engine/log';
import type { Timeline } from '../engine/machine';
import { taskColor } from './colors';

export function TaskLegend({ log, timeline }: { log: EventLog; timeline?: Timeline }) {
  return (
    <div className="legend" aria-hidden="true">
      {log.meta.tasks
        .filter((t) => !t.rcuc || t.cpu === 0)
        .map((t) => (
          <span key={t.id} className="key task" style={{ ['--c' as string]: taskColor(t.name) }}>
            {t.rcuc ? 'rcuc/N (RCU callbacks)' : t.name}
          </span>
        ))}
      <span className="key spin">spinning</span>
      <span className="key idle">idle</span>
      <span className="key rcu">RCU read-side section</span>
      <span className="key gp">grace period</span>
      {timeline && timeline.srcuGracePeriods.length > 0 && <span className="key srcu-gp">SRCU grace period</span>}
      {timeline && timeline.marks.some((m) => m.kind === 'gave-up') && <span className="key gave-up">gave the lock up</span>}
    </div>
  );
}
