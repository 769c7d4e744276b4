// SPDX-License-Identifier: GPL-2.0-only
// Every kernel line an event names must really be a line of that function
// in that file of that branch: the function the compiler reported
// (__func__) encloses the line (__LINE__) in the file read from the tree.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadRun } from './testing/fixtures';

function show(branch: string, file: string): string[] {
  return execFileSync('git', ['-C', 'kernel-tree/linux', 'show', `${branch}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 }).split('\n');
}

/** The function whose definition encloses a line, in kernel coding style. */
function enclosingFunction(lines: string[], line: number): string | null {
  for (let k = line - 1; k >= 0; k--) {
    const l = lines[k];
    if (!/^[A-Za-z_]/.test(l) || l.trimEnd().endsWith(';') || !l.includes('(')) continue;
    const m = /([A-Za-z_]\w*)\s*\(/.exec(l);
    if (m) return m[1];
  }
  return null;
}

describe('event sites', () => {
  const log = loadRun('shrinker-lifetime', 1);
  const sites = log.meta.sites.filter((s) => s.tree === 'v6.12');

  it('name lines inside the functions they claim, on branch v6.12', () => {
    const files = new Map<string, string[]>();
    expect(sites.length).toBeGreaterThan(50);
    for (const s of sites) {
      if (!files.has(s.file)) files.set(s.file, show('v6.12', s.file));
      const lines = files.get(s.file)!;
      expect(s.line, `${s.file}:${s.line}`).toBeLessThanOrEqual(lines.length);
      expect(enclosingFunction(lines, s.line), `${s.file}:${s.line} in ${s.func}()`).toBe(s.func);
    }
  });

  it('point at the primitive the event records', () => {
    // A sample of exact lines, read from the tree rather than assumed.
    const lines = show('v6.12', 'mm/shrinker.c');
    const at = (func: string, expr: string | null) =>
      sites.filter((s) => s.file === 'mm/shrinker.c' && s.func === func && s.expr === expr).map((s) => lines[s.line - 1]);
    expect(at('shrinker_free', '&shrinker->done').join('\n')).toContain('wait_for_completion(&shrinker->done)');
    expect(at('shrinker_free', 'shrinker_free_rcu_cb').join('\n')).toContain('call_rcu(&shrinker->rcu, shrinker_free_rcu_cb)');
    expect(at('shrinker_register', '&shrinker->refcount').join('\n')).toContain('refcount_set(&shrinker->refcount, 1)');
  });
});
