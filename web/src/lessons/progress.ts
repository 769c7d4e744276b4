// SPDX-License-Identifier: GPL-2.0-only
// Lesson progress, kept in this browser (localStorage): the lessons
// finished, and when. Nothing leaves the machine.
const KEY = 'reclaim-lab.lessons.v1';

export type Progress = Record<string, { done: string }>; // lesson id -> ISO time finished

export function loadProgress(): Progress {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Progress) : {};
  } catch {
    return {};
  }
}

export function markDone(id: string): Progress {
  const p = loadProgress();
  if (!p[id]) {
    p[id] = { done: new Date().toISOString() };
    try {
      localStorage.setItem(KEY, JSON.stringify(p));
    } catch {
      // Private windows may refuse storage: progress then lasts as long as the page.
    }
  }
  return p;
}
