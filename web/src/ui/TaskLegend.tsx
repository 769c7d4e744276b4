// SPDX-License-Identifier: GPL-2.0-only
// The key to the time axis: one swatch per task (rcuc/N kthreads once),
// then the states and sections the timeline draws.
import { memo } from 'react';
import type { EventLog } from '../engine/log';
import type { Timeline } from '../engine/machine';
import { taskColor } from './colors';
import './TaskLegend.css';

// Only the keys for what this run's timeline draws: a scene with no RCU shows no RCU key.
// The run's, not the step's: drawn once per run (its segments are read once), not at every step of play.
export const TaskLegend = memo(function TaskLegend({ log, timeline }: { log: EventLog; timeline: Timeline }) {
  const modes = new Set(timeline.cpuSegments.map((s) => s.mode));
  return (
    <div className="legend" aria-hidden="true" data-testid="legend">
      {log.meta.tasks
        .filter((t) => !t.rcuc || t.cpu === 0)
        .map((t) => (
          <span key={t.id} className="key task" style={{ ['--c' as string]: taskColor(t.name) }}>
            {t.rcuc ? 'rcuc/N (RCU callbacks)' : t.name}
          </span>
        ))}
      {modes.has('spin') && <span className="key spin">spinning</span>}
      {modes.has('idle') && <span className="key idle">idle</span>}
      {timeline.rcuSections.length > 0 && <span className="key rcu">RCU read-side section</span>}
      {timeline.gracePeriods.length > 0 && <span className="key gp">grace period</span>}
      {timeline.srcuGracePeriods.length > 0 && <span className="key srcu-gp">SRCU grace period</span>}
      {timeline.marks.some((m) => m.kind === 'gave-up') && <span className="key gave-up">gave the lock up</span>}
      {timeline.marks.some((m) => m.kind === 'report') && <span className="key report">a report</span>}
    </div>
  );
});
