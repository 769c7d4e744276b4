// SPDX-License-Identifier: GPL-2.0-only
import type { SceneDef } from '../types';
import { comparisonsOf, kernelsOf, scenarioOf } from '../kernels';
import { sceneReducer, slabShare, type InodeLruState } from './model';
import { InodeLruView, SizesForm } from './view';
import { Figures } from './FiguresPanel';
import { parseSizes, sizesToBytes, stepAtDropBehind } from './program';
import { InodeLruThumb } from './thumb';

export const inodeLru: SceneDef<InodeLruState> = {
  id: 'inode-lru',
  title: 'Inodes with page cache on and off the inode LRU',
  scenario: scenarioOf('inode-lru'),
  variants: kernelsOf('inode-lru'),
  series: 'inodes-off-lru',
  question: 'Should inodes that still hold page cache sit on the inode LRU while page reclaim streams past them?',
  Thumb: InodeLruThumb,
  blurb:
    'N inodes (twelve unless changed below) hold a workingset of P active pages each (four) while a streaming reader forces drop-behind reclaim: kswapd takes ' +
    'the reader’s pages off the inactive list and calls shrink_slab(), whose super block shrinker walks the inode LRU with the real ' +
    'inode_lru_isolate(), and the shadow-node shrinker of mm/workingset.c. The page cache is 6.12’s own (filemap.c, truncate.c, workingset.c): ' +
    'a reclaimed page leaves a shadow entry, and on v6.12 an inode stays off the LRU while it holds pages or shadow nodes; on the “before” ' +
    'kernel (and Dave Chinner’s LRU_ROTATE_NODEFER counter-proposal) they sit on it and are rotated again and again.',
  reducer: sceneReducer,
  View: InodeLruView,
  parts: [
    { id: 'cpus', what: 'the CPU cards (the time axis shows the CPUs on a slide)', talk: false },
    { id: 'share', what: 'kswapd’s share of reclaim time in shrink_slab(), the counts and the last inode event', talk: true },
    { id: 'kernel', what: 'the sentence on what this kernel does with busy inodes', talk: false },
    { id: 'jumps', what: 'the buttons that go to the next rotation, put-on, isolation or freed shadow node', talk: false },
    { id: 'inodes', what: 'the inode LRU, head to tail', talk: true },
    { id: 'pages', what: '6.12’s file LRU lists, an entry per workingset file, and the inodes kept off the inode LRU by shadow entries', talk: false },
    { id: 'xarrays', what: 'each live inode’s XArray, folios and shadow entries, and the two shrinkers that free inodes and shadow nodes', talk: false },
  ],
  Measure: Figures,
  figures: { 'slab-share': slabShare },
  diffs: comparisonsOf('inode-lru'),
  program: {
    toBytes: (text) => sizesToBytes(parseSizes(text)),
    stepAfter: (log) => stepAtDropBehind(log),
    length: (text) => (text ? 1 : 0),
    Form: SizesForm,
  },
};
