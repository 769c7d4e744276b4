// SPDX-License-Identifier: GPL-2.0-only
//
// One search of the explorer (wasm/explore/): labrun --explore
// with a wall-time limit, its summary lines (JSON, one per bound, or one
// for PCT) read. Shared by make explore (wasm/explore.mjs) and make
// torture-explore (wasm/selftest/explore.mjs).
import { spawnSync } from 'node:child_process';

/**
 * labrun (a path) --explore --time-limit seconds ...args. stderr: 'pipe'
 * (kept in the result) or 'inherit'. Returns ok (labrun exited 0, or 1: a
 * failing execution found), lines (the summaries, parsed), last (the last
 * summary or null), stdout, stderr, exit (status or signal) and seconds
 * (wall time).
 */
export function explore(labrun, args, { seconds = 120, stderr = 'pipe' } = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(labrun, ['--explore', '--time-limit', String(seconds), ...args], {
    encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', stderr],
  });
  if (r.error) throw r.error;
  const stdout = r.stdout ?? '';
  const ok = r.status === 0 || r.status === 1;
  const lines = ok ? stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  return {
    ok, lines, last: lines.length ? lines[lines.length - 1] : null, stdout, stderr: r.stderr ?? '',
    exit: r.status ?? r.signal, seconds: Number(process.hrtime.bigint() - start) / 1e9,
  };
}
