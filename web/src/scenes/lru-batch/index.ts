// SPDX-License-Identifier: GPL-2.0-only
import { EventKind } from '../../engine/generated/events';
import type { SceneDef } from '../types';
import { comparisonsOf, kernelsOf, scenarioOf } from '../kernels';
import { lruReducer, type LruState } from './model';
import { parseSetup, runOptions } from './setup';
import { LruBatchView, SetupForm } from './view';
import { Figures } from './FiguresPanel';
import { LruBatchThumb } from './thumb';

export const lruBatch: SceneDef<LruState> = {
  id: 'lru-batch',
  title: 'LRU batch locks: sentinel pages and page_fault1 on many CPUs',
  scenario: scenarioOf('lru-batch'),
  variants: kernelsOf('lru-batch'),
  series: 'lru-batch-locks',
  question: 'Can batch locks and sentinel pages split lru_lock so that many CPUs fault pages in at once?',
  Thumb: LruBatchThumb,
  blurb:
    'The project’s port of the 2018 lru_lock RFC (not upstream code: it was never merged). The LRU list is cut into batches of up to ' +
    '14 pages, each tagged with one of 32 batch locks; the pages at a batch’s edges are sentinels. Taking an inner page off needs only ' +
    'its batch lock; taking a sentinel off needs lru_lock too, since its neighbours may be in other batches. Tasks run will-it-scale’s ' +
    'page_fault1: fault pages in through a pagevec, unmap them with release_pages(). Step single CPUs to make two removals meet, run ' +
    'the RFC’s table, or reproduce the bug the thread found.',
  reducer: lruReducer,
  View: LruBatchView,
  // Up to 64 CPUs: their cards folded after the view, drawn only while open.
  frame: { cpus: 'folded' },
  parts: [
    { id: 'story', what: 'the counts so far and the last collision, in words', talk: true },
    { id: 'strip', what: 'the LRU list, head first, with its batches and sentinels', talk: true },
    { id: 'key', what: 'the list as text and the sentence that reads its drawing', talk: false },
    { id: 'locks', what: 'each batch lock and lru_lock, held and spun on', talk: true },
    { id: 'heat', what: 'the contention over time, a row per lock', talk: false },
    { id: 'cpus', what: 'the CPU cards, folded (the time axis shows the CPUs on a slide)', talk: false },
  ],
  Measure: Figures,
  diffs: comparisonsOf('lru-batch'),
  program: {
    // The setup is all parameters: no operation bytes, but parsing checks it.
    toBytes: (text) => (parseSetup(text), []),
    options: (text) => runOptions(parseSetup(text)),
    length: (text) => (text ? 1 : 0),
    // After a new setup: stand on the first BUG if there is one, else at the start.
    stepAfter: (log) => {
      for (let i = 0; i < log.length; i++) if (log.kind[i] === EventKind.BUG) return i;
      return 0;
    },
    Form: SetupForm,
  },
};
