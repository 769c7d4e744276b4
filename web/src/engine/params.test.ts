// SPDX-License-Identifier: GPL-2.0-only
// The run parameters' limits (wasm/runtime/params.def, through the
// generated params.ts): labrun takes the same ones the page is given, and
// refuses one past each with the runtime's words. wasm/tests/test_params.c
// runs each at its limit.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { labrunPath } from './labrunPath';
import { RUN_PARAMS, runParamMax, runParamArgs, type RunParams } from './generated/params';

const labrun = (args: string[]) =>
  spawnSync(labrunPath('v6.12', 64), ['--scenario', 'planted-bugs', '--hash', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' },
  });

describe("the run parameters' limits", () => {
  it('are given for every parameter, a flag at 1', () => {
    for (const p of RUN_PARAMS) {
      expect(p.max, p.key).toBeGreaterThan(0);
      if (p.type === 'boolean') expect(p.max, p.key).toBe(1);
      expect(runParamMax(p.key)).toBe(p.max);
    }
    expect(() => runParamMax('nothing' as keyof RunParams)).toThrow(/no run parameter nothing/);
  });

  it.each(RUN_PARAMS.filter((p) => p.type === 'number').map((p) => [p.flag, p] as const))(
    'labrun refuses --%s one past its limit, saying the limit',
    (_, p) => {
      const r = labrun(runParamArgs({ [p.key]: p.max + 1 }));
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`labrun: --${p.flag} is 0 to ${p.max}, not ${p.max + 1}\n`);
    },
  );
});
