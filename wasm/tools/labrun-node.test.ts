// SPDX-License-Identifier: GPL-2.0-only
// labrun under Node writes all of its output, to a reader slower than the
// run as to a file (wasm/runtime/pre_node.js): before, a pipe got the
// first 64 KB and nothing after.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('labrun under Node', { timeout: 60_000 }, () => {
  it('writes its whole output into a pipe whose reader is slow', () => {
    const run = 'node --no-experimental-fetch build/wasm/v6.12/labrun.cjs --scenario shrinker-lifetime --seed 1 --rounds 20';
    const whole = spawnSync('sh', ['-c', `${run} | wc -c`], { encoding: 'utf8' });
    const slow = spawnSync('sh', ['-c', `${run} | (sleep 1; wc -c)`], { encoding: 'utf8' });
    expect(whole.status).toBe(0);
    expect(Number(whole.stdout)).toBeGreaterThan(4 * 65536);
    expect(slow.stdout).toBe(whole.stdout);
  });
});
