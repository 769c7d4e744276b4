// SPDX-License-Identifier: GPL-2.0-only
import type { SceneDef } from '../types';
import { comparisonsOf, kernelsOf, scenarioOf } from '../kernels';
import { bitmapReducer, stepForOperation, type BitmapState } from './model';
import { parseProgram, toBytes } from './program';
import { Actions, MemcgBitmapView } from './view';
import { Scale } from './ScalePanel';
import { MemcgBitmapThumb } from './thumb';

export const memcgBitmap: SceneDef<BitmapState> = {
  id: 'memcg-bitmap',
  title: 'memcg shrinker bitmaps: reclaim skips what is empty',
  scenario: scenarioOf('memcg-bitmap'),
  variants: kernelsOf('memcg-bitmap'),
  series: 'memcg-shrinker-bitmap',
  question: 'How does reclaim skip the shrinkers that have nothing in a memcg, and how can a bit get lost?',
  Thumb: MemcgBitmapThumb,
  blurb:
    'Two containers, each with two mounts (a memcg-aware shrinker over a list_lru each) and two memcgs under the root. ' +
    'Adding an object to an empty list sets the shrinker’s bit in the memcg’s shrinker_info; reclaim for a memcg calls only ' +
    'the shrinkers whose bits are set, and clears a bit when its shrinker says SHRINK_EMPTY, then calls it once more in case an ' +
    'object arrived meanwhile. Add operations by hand, race an add against the clear, or compare with the kernel that has no bitmap.',
  reducer: bitmapReducer,
  View: MemcgBitmapView,
  parts: [
    { id: 'cpus', what: 'the CPU cards (the time axis shows the CPUs on a slide)', talk: false },
    { id: 'matrix', what: 'the shrinker_info bits, a row per memcg, and the last flip', talk: true },
    { id: 'key', what: 'the matrix’s key and the word size', talk: false },
    { id: 'counts', what: 'count_objects() calls, passes and flips so far', talk: true },
  ],
  Measure: Scale,
  diffs: comparisonsOf('memcg-bitmap'),
  program: {
    toBytes: (text) => toBytes(parseProgram(text)),
    stepAfter: stepForOperation,
    length: (text) => parseProgram(text).length,
    Form: Actions,
  },
};
