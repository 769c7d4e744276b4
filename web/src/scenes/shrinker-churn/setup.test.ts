// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { churnSetup } from './setup';

describe('the shrinker-churn set-up', () => {
  it('reads the run parameters and refuses what it cannot run', () => {
    expect(churnSetup('')).toEqual({});
    expect(churnSetup('t2,r1,o1')).toEqual({ tasks: 2, rounds: 1, objects: 1 });
    expect(() => churnSetup('s0')).toThrow(/"s0" is not a setting/);
    expect(() => churnSetup('t3')).toThrow(/racing tasks .* must be 2 to 2, not 3/);
    expect(() => churnSetup('r0')).toThrow(/mount\/unmount rounds must be 1 to 8/);
  });
});
