// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZES, formatSizes, parseSizes, sizesToBytes } from './program';

describe('inode-lru sizes in the URL', () => {
  it('round-trips and fills in defaults', () => {
    expect(parseSizes('')).toEqual(DEFAULT_SIZES);
    expect(parseSizes('n20')).toEqual({ ...DEFAULT_SIZES, inodes: 20 });
    expect(parseSizes(formatSizes({ inodes: 3, pages: 1, filePages: 9 }))).toEqual({ inodes: 3, pages: 1, filePages: 9 });
  });
  it('rejects what the scenario would not take', () => {
    expect(() => parseSizes('n0')).toThrow(/1 to 48/);
    expect(() => parseSizes('x3')).toThrow(/not n/);
  });
  it('encodes the scenario keys 1, 2 and 7', () => {
    expect(sizesToBytes({ inodes: 12, pages: 4, filePages: 6 })).toEqual([1, 12, 0, 0, 0, 2, 4, 0, 0, 0, 7, 6, 0, 0, 0]);
  });
});
