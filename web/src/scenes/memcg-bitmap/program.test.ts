// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROGRAM, Op, formatProgram, parseProgram, toBytes } from './program';

describe('memcg-bitmap programs', () => {
  it('round-trips through the permalink form', () => {
    const text = formatProgram(DEFAULT_PROGRAM);
    expect(text).toBe('a0.0,a1.1,a2.0,p,x1,p,r1,c3.1,r3');
    expect(parseProgram(text)).toEqual(DEFAULT_PROGRAM);
  });

  it('encodes three bytes per operation, as the scenario reads them', () => {
    expect(toBytes([{ op: Op.GROW, a: 32, b: 0 }, { op: Op.RACE, a: 3, b: 1 }])).toEqual([5, 32, 0, 6, 3, 1]);
    expect(toBytes(parseProgram('e3.1'))).toEqual([7, 3, 1]);
  });

  it('says what is wrong with a bad program', () => {
    expect(() => parseProgram('a0')).toThrow(/a takes 2 numbers/);
    expect(() => parseProgram('e3')).toThrow(/e takes 2 numbers from 0 to 255/);
    expect(() => parseProgram('z1')).toThrow(/operations are/);
    expect(() => parseProgram('r300')).toThrow(/from 0 to 255/);
    expect(() => parseProgram(Array(65).fill('p').join(','))).toThrow(/at most 64/);
  });
});
