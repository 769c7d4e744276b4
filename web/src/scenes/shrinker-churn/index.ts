// SPDX-License-Identifier: GPL-2.0-only
import type { SceneDef } from '../types';
import { kernelsOf, scenarioOf } from '../kernels';
import { churnReducer, type ChurnState } from './model';
import { ShrinkerChurnView } from './view';
import { Figures } from './FiguresPanel';
import { ShrinkerChurnThumb } from './thumb';
import { churnSetup } from './setup';

export const shrinkerChurn: SceneDef<ChurnState> = {
  id: 'shrinker-churn',
  title: 'Shrinker churn: the rwsem, SRCU, refcount + RCU',
  scenario: scenarioOf('shrinker-churn'),
  variants: kernelsOf('shrinker-churn'),
  // break-no-wait is v6.12 with shrinker_free()'s wait removed (kernel-tree/patches/break-no-wait).
  series: (variant) => (variant === 'srcu' ? 'srcu-shrinkers' : variant === 'v6.1' ? null : 'refcount-rcu-shrinkers'),
  question: 'Why did reclaim give up under mount and unmount churn on 6.1, and what did SRCU and then refcount + RCU cost instead?',
  Thumb: ShrinkerChurnThumb,
  blurb:
    'CPU0 (kswapd0) and CPU1 (reclaim-A, for memcg /A) call shrink_slab() over and over while CPU2 and CPU3 mount, ' +
    'fill and unmount ramfs-like filesystems, each registering and unregistering a shrinker, beside three resident ' +
    'caches. The same scenario and seed run on v6.1 (shrinker_rwsem), on the 2023 SRCU series (shrinker_srcu, with ' +
    'synchronize_srcu() in unregister_shrinker()) and on v6.12 (refcount + RCU): switch the kernel, or compare two side by side. ' +
    'break-no-wait is v6.12 whose shrinker_free() no longer waits for a running shrinker: the Explore panel finds the unmount ' +
    'that frees what kswapd0 still calls into.',
  program: {
    // The set-up is all parameters: no operation bytes, but parsing checks it.
    toBytes: (text) => (churnSetup(text), []),
    options: churnSetup,
    length: (text) => (text ? 1 : 0),
    stepAfter: () => 0,
  },
  reducer: churnReducer,
  View: ShrinkerChurnView,
  parts: [
    { id: 'cpus', what: 'the CPU cards (the time axis shows the CPUs on a slide)', talk: false },
    { id: 'design', what: 'the lock, SRCU or RCU cards of the kernel’s design', talk: true },
    { id: 'notes', what: 'the sentence under each design card on how shrink_slab() uses it', talk: false },
    { id: 'shrinkers', what: 'the shrinkers alive, with their phase and refcount', talk: true },
    { id: 'counts', what: 'ramfs operations, registrations and shrink_slab() bail-outs so far', talk: true },
  ],
  Measure: Figures,
};
