// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { byBound, sortFailing } from './ExplorePanel';
import type { BoundSummary, FailingSchedule } from './protocol';

const summary = (bound: number, executions: number, total: number, failing: number, blocked = 0): BoundSummary => ({
  mode: 'dfs', bound, executions, blocked, executions_total: total, end_states: 1, failing_executions: failing,
  failing: {}, exhausted: false, stopped: false, seconds: 1, rate: 1,
});

describe('the Explore panel', () => {
  it("counts each bound's own executions by outcome from the running totals", () => {
    // break-no-wait's small race: bound 0 one passing execution, bound 1 194 more with 23 failing.
    expect(byBound([summary(0, 1, 1, 0), summary(1, 194, 195, 23, 5)])).toEqual([
      { bound: 0, passed: 1, failed: 0, blocked: 0 },
      { bound: 1, passed: 171, failed: 23, blocked: 5 },
    ]);
  });

  it('lists failing schedules by preemptions, then decisions', () => {
    const f = (preemptions: number, decisions: number, schedule: string): FailingSchedule => ({
      preemptions, decisions, schedule, kinds: ['kasan'], step: 1, report: '',
    });
    expect(sortFailing([f(1, 60, 'a'), f(2, 10, 'b'), f(1, 50, 'c')]).map((x) => x.schedule)).toEqual(['c', 'a', 'b']);
  });
});
