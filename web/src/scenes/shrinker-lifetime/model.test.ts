// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { History } from '../../engine/history';
import { loadRun } from '../../engine/testing/fixtures';
import { PHASES, lifetimeReducer } from './model';

describe('shrinker-lifetime model', () => {
  const log = loadRun('shrinker-lifetime', 1);
  const h = new History(log, lifetimeReducer);

  it('ends with every shrinker freed', () => {
    const end = h.at(log.length - 1);
    expect(end.shrinkers.length).toBe(3);
    for (const s of end.shrinkers) expect(s.phase).toBe('freed');
  });

  it('shows shrinker_free() waiting while shrink_slab holds a reference', () => {
    let seen = false;
    for (let k = 0; k < log.length && !seen; k++) {
      const st = h.at(k);
      seen = st.shrinkers.some((s) => s.phase === 'waiting for readers' && s.refcount >= 1);
    }
    expect(seen).toBe(true);
  });

  it('moves each shrinker forward through its life', () => {
    const last = new Map<number, number>();
    for (let k = 0; k < log.length; k++) {
      for (const s of h.at(k).shrinkers) {
        const at = PHASES.indexOf(s.phase);
        const before = last.get(s.obj) ?? 0;
        // A woken shrinker_free() goes from "waiting for readers" back to "unregistering".
        if (!(before === 3 && at === 2)) expect(at).toBeGreaterThanOrEqual(before);
        last.set(s.obj, at);
      }
    }
  });
});
