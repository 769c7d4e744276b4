// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { lifetimeSetup } from './setup';

describe('the shrinker-lifetime set-up', () => {
  it('reads the run parameters and refuses what it cannot run', () => {
    expect(lifetimeSetup('')).toEqual({});
    expect(lifetimeSetup('r1,o1,s0')).toEqual({ rounds: 1, objects: 1, slowNs: 0 });
    expect(() => lifetimeSetup('a0')).toThrow(/"a0" is not a setting \(a letter and a number: r mount\/unmount rounds/);
    expect(() => lifetimeSetup('o0')).toThrow(/objects per cache must be 1 to 64/);
  });
});
