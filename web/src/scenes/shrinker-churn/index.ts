// SPDX-License-Identifier: GPL-2.0-only
import type { SceneDef } from '../types';
import { churnReducer, type ChurnState } from './model';
import { ShrinkerChurnView } from './view';
import { Figures } from './FiguresPanel';
import { ShrinkerChurnThumb } from './thumb';

export const shrinkerChurn: SceneDef<ChurnState> = {
  id: 'shrinker-churn',
  title: 'Shrinker churn: the rwsem, SRCU, refcount + RCU',
  scenario: 'shrinker-churn',
  variants: ['v6.1', 'srcu', 'v6.12'],
  series: (variant) => (variant === 'srcu' ? 'srcu-shrinkers' : variant === 'v6.12' ? 'refcount-rcu-shrinkers' : null),
  question: 'Why did reclaim give up under mount and unmount churn on 6.1, and what did SRCU and then refcount + RCU cost instead?',
  Thumb: ShrinkerChurnThumb,
  blurb:
    'CPU0 (kswapd0) and CPU1 (reclaim-A, for memcg /A) call shrink_slab() over and over while CPU2 and CPU3 mount, ' +
    'fill and unmount ramfs-like filesystems, each registering and unregistering a shrinker, beside three resident ' +
    'caches. The same scenario and seed run on v6.1 (shrinker_rwsem), on the 2023 SRCU series (shrinker_srcu, with ' +
    'synchronize_srcu() in unregister_shrinker()) and on v6.12 (refcount + RCU): switch the kernel, or compare two side by side.',
  reducer: churnReducer,
  View: ShrinkerChurnView,
  Measure: Figures,
};
