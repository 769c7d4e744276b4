// SPDX-License-Identifier: GPL-2.0-only
import type { SceneDef } from '../types';
import { kernelsOf, scenarioOf } from '../kernels';
import { lifetimeReducer, type LifetimeState } from './model';
import { ShrinkerLifetimeView } from './view';
import { ShrinkerLifetimeThumb } from './thumb';
import { lifetimeSetup } from './setup';

export const shrinkerLifetime: SceneDef<LifetimeState> = {
  id: 'shrinker-lifetime',
  title: 'Shrinker lifetime: refcount + RCU',
  scenario: scenarioOf('shrinker-lifetime'),
  variants: kernelsOf('shrinker-lifetime'),
  series: 'refcount-rcu-shrinkers',
  question: 'Can reclaim call a shrinker while its file system unmounts, and what keeps its memory alive until no CPU can reach it?',
  Thumb: ShrinkerLifetimeThumb,
  blurb:
    'CPU0 (kswapd0) walks the shrinkers in shrink_slab() under rcu_read_lock(), pinning each with ' +
    'shrinker_try_get(); CPU1 mounts and unmounts, and its shrinker_free() drops the initial reference, ' +
    'sleeps until the last shrink_slab() reference is put, unlinks the shrinker and leaves its memory ' +
    'to an RCU callback after a grace period. The break-* kernels remove one of those guarantees on purpose ' +
    '(kernel-tree/patches/break-*) and run with slow shrinkers, whose count_objects sleeps 3 µs: watch KASAN catch it.',
  // The breaks need the race window held open: slow shrinkers (wasm/scenarios/shrinker_lifetime.c).
  slowNs: (variant) => (variant.startsWith('break-') ? 3000 : 0),
  program: {
    // The set-up is all parameters: no operation bytes, but parsing checks it.
    toBytes: (text) => (lifetimeSetup(text), []),
    options: lifetimeSetup,
    length: (text) => (text ? 1 : 0),
    stepAfter: () => 0,
  },
  reducer: lifetimeReducer,
  View: ShrinkerLifetimeView,
  parts: [
    { id: 'cpus', what: 'the CPU cards (the time axis shows the CPUs on a slide)', talk: false },
    { id: 'rcu', what: 'the grace period in progress and the RCU callbacks pending (the time axis shows the grace periods on a slide)', talk: false },
    { id: 'shrinkers', what: 'each shrinker allocated, its phase and refcount', talk: true },
  ],
};
