// SPDX-License-Identifier: GPL-2.0-only
// Lesson progress, kept in this browser (localStorage): per lesson, the
// goals reached so far, when it was finished, and whether its solution was
// shown (a lesson finished by its solution is not done: Start over clears
// that). Nothing leaves the machine.
const KEY = 'reclaim-lab.lessons.v1';

export interface LessonProgress {
  /** ISO time the learner's own run met every goal. */
  done?: string;
  /** Goals reached in any run of the learner's own. */
  met?: string[];
  /** ISO time "Show the solution" was pressed, until Start over. */
  solution?: string;
}

export type Progress = Record<string, LessonProgress>; // lesson id -> its progress

export function loadProgress(): Progress {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Progress) : {};
  } catch {
    return {};
  }
}

function update(id: string, change: (p: LessonProgress) => LessonProgress): Progress {
  const all = loadProgress();
  const before = JSON.stringify(all[id] ?? {});
  all[id] = change({ ...all[id] });
  if (JSON.stringify(all[id]) !== before) {
    try {
      localStorage.setItem(KEY, JSON.stringify(all));
    } catch {
      // Private windows may refuse storage: progress then lasts as long as the page.
    }
  }
  return all;
}

/**
 * The goals a run of the learner's has met; with every goal met, the
 * lesson is done. Nothing counts while the solution is shown.
 */
export function recordGoals(id: string, met: string[], every: boolean): Progress {
  return update(id, (p) => {
    if (p.solution) return p;
    const all = [...new Set([...(p.met ?? []), ...met])].sort();
    return { ...p, met: all, ...(every && !p.done ? { done: new Date().toISOString() } : {}) };
  });
}

/** "Show the solution": from now on the goals it meets are not the learner's. */
export function solutionShown(id: string): Progress {
  return update(id, (p) => ({ ...p, solution: p.solution ?? new Date().toISOString() }));
}

/** "Start over": the learner's own run again. */
export function startedOver(id: string): Progress {
  return update(id, ({ solution: _, ...p }) => p);
}
