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
  title: 'LRU batch locks: the kernel’s folio LRU and page_fault1 on many CPUs',
  scenario: scenarioOf('lru-batch'),
  variants: kernelsOf('lru-batch'),
  series: 'lru-batch-locks',
  question: 'Can batch locks and sentinel pages split lru_lock so that many CPUs fault pages in at once?',
  Thumb: LruBatchThumb,
  blurb:
    'Tasks run will-it-scale’s page_fault1 over the kernel’s own LRU: each fault puts a folio through folio_add_lru() onto its CPU’s ' +
    'lru_add batch, a full batch goes onto the list under lru_lock (mm/swap.c), and munmap releases the folios through ' +
    'folios_put_refs(), 31 at a time. On v6.12 (its classic LRU: CONFIG_LRU_GEN off) one lru_lock per lruvec guards the list; the ' +
    'project’s port of the 2018 lru_lock RFC (not upstream code: it was never merged) cuts the list into batches of up to 14 folios, ' +
    'each tagged with one of 32 batch locks, with sentinels at the batches’ edges; with splicing, a CPU’s batch goes on in one splice. ' +
    'Step single CPUs to make two of them meet, run the RFC’s table, or see why the thread’s bug has no place on 6.12.',
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
    { id: 'inventory', what: 'what the scene runs on its kernel, upstream, patched by the port or shim (docs/lru.md)', talk: false },
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
