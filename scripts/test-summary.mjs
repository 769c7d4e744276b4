#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
// make test's last words: one summary of every suite scripts/test-suite.sh
// ran (build/test-results/*.json and its log): each suite, its counts, its
// wall and CPU seconds; every test or suite it skipped, with the reason
// and the command that runs it; a suite that never reported (what it
// needed failed to build) as failed; the suites behind their own targets;
// and a last line "N passed, N failed, N skipped". Exits 1 unless nothing
// failed.
//
// Usage: node scripts/test-summary.mjs [MAKE_STATUS]
// Environment: TEST_SUITES, the suites make test runs (its order);
// TEST_ELSEWHERE, the targets of the suites that are not in it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = 'build/test-results';

/** Counts of a suite: passed, failed and skipped tests; skips: [what, why, command]. */
const zero = () => ({ passed: 0, failed: 0, skipped: 0, skips: [] });

/** The counts a suite's log and reports give, by its kind (what its tests print). */
export const PARSERS = {
  // A check that passes or fails whole (lint, the type check).
  one: (_log, r) => ({ ...zero(), passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1 }),
  // wasm/tests/test.h: "SUITE: N passed, N failed" per test binary (its SUITE may hold spaces).
  ctest: (log) => sum(log, /^[^\n]+?: (\d+) passed, (\d+) failed$/gm),
  // wasm/tests/determinism.sh --one: a line per scenario, "K of N runs ... give the same log" (each seed under sc, the
  // first ones under tso and relaxed too); explore-wasm.sh: a line per search.
  determinism: (log) => {
    const c = zero();
    for (const m of log.matchAll(/^determinism: \S+ \S+: (\d+) of (\d+) (?:runs|seeds)/gm)) m[1] === m[2] ? c.passed++ : c.failed++;
    c.passed += count(log, /^explore: .*: the same \d+ summaries/gm);
    c.failed += count(log, /^explore: .*: native and wasm differ$/gm) + count(log, /^determinism: \S+: no native labrun/gm);
    return c;
  },
  // wasm/tests/explore-shards.sh: a line per search, "ok" when its shards merge into the one search's summaries.
  shards: (log) => ({ ...zero(), passed: count(log, /^ok   /gm), failed: count(log, /^FAIL /gm) }),
  // wasm/selftest/run.sh: a line per test module, with the counts it printed itself.
  selftest: (log) => {
    const c = zero();
    for (const m of log.matchAll(/^selftest-\S+: (\d+) passed, (\d+) failed/gm)) Number(m[2]) === 0 ? c.passed++ : c.failed++;
    return c;
  },
  // kernel-tree/kunit/kunit.mk test-kunit: a line per branch, compared or skipped with the reason.
  kunit: (log) => {
    const c = { ...zero(), passed: count(log, /^test-kunit: \S+: UML = native = wasm$/gm) };
    for (const m of log.matchAll(/^test-kunit: skipped (\S+): (.*)$/gm)) {
      c.skipped++;
      c.skips.push([`the referee on ${m[1]}`, m[2], 'make kunit (then make test compares it too)']);
    }
    return c;
  },
  // Python's unittest: "Ran N tests", then "OK" or "FAILED (failures=F, errors=E)", either with "skipped=S".
  unittest: (log) => {
    const c = zero();
    const ran = Number(/^Ran (\d+) tests?/m.exec(log)?.[1] ?? 0);
    const n = (what) => Number(new RegExp(`${what}=(\\d+)`).exec(log)?.[1] ?? 0);
    c.failed = n('failures') + n('errors');
    c.skipped = n('skipped');
    c.passed = ran - c.failed - c.skipped;
    if (c.skipped) c.skips.push(['kernel-tree/tests: skipped Python tests', 'their skip reasons are in build/test-results/test-py.log', 'make test-py']);
    return c;
  },
  // kernel-tree/tests/test-variant.sh: "test-variant: ok: ..." and "test-variant: FAIL: ..." lines.
  variant: (log) => ({ ...zero(), passed: count(log, /^test-variant: ok: /gm), failed: count(log, /^test-variant: FAIL: /gm) }),
  // Vitest's JSON report.
  vitest: (_log, _r, json) => {
    const c = zero();
    for (const file of json?.testResults ?? [])
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'passed') c.passed++;
        else if (t.status === 'failed') c.failed++;
        else {
          c.skipped++;
          c.skips.push([`${rel(file.name)}: ${t.fullName}`, `marked ${t.status}`, `npx vitest run ${rel(file.name)}`]);
        }
      }
    return c;
  },
  // Playwright's JSON report: each test's outcome, and the reason a skipped one gave.
  playwright: (_log, _r, json) => {
    const c = zero();
    const root = json?.config?.rootDir ? `${rel(json.config.rootDir)}/` : '';
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? []) {
          if (t.status === 'expected' || t.status === 'flaky') c.passed++;
          else if (t.status === 'skipped') {
            c.skipped++;
            const why = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'skipped, no reason given';
            c.skips.push([`${root}${spec.file}: ${spec.title}`, why, commandIn(why) ?? `npx playwright test ${root}${spec.file}:${spec.line}`]);
          } else c.failed++;
        }
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of json?.suites ?? []) walk(s);
    return c;
  },
};

const count = (text, re) => [...text.matchAll(re)].length;
const rel = (p) => p.replace(`${process.cwd()}/`, '');
/** The make command a skip's reason names ("(make test-variant makes one)"), if any. */
const commandIn = (why) => /\bmake [a-z][\w-]*(?: [A-Z_]+=\S+)*/.exec(why)?.[0] ?? null;

function sum(text, re) {
  const c = zero();
  for (const m of text.matchAll(re)) {
    c.passed += Number(m[1]);
    c.failed += Number(m[2]);
  }
  return c;
}

/** Every suite's result, grouped by its first word (test-native/... under test-native), in make test's order. */
export function readResults(dir = DIR, order = []) {
  const groups = new Map(order.map((n) => [n, null]));
  if (!existsSync(dir)) return groups;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.report.json')).sort()) {
    const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const base = join(dir, f.slice(0, -'.json'.length));
    const log = existsSync(`${base}.log`) ? readFileSync(`${base}.log`, 'utf8') : '';
    const report = existsSync(`${base}.report.json`) ? JSON.parse(readFileSync(`${base}.report.json`, 'utf8')) : null;
    const parse = PARSERS[r.kind];
    if (!parse) throw new Error(`${f}: no parser for kind ${r.kind}`);
    const c = parse(log, r, report);
    // A suite that failed with no failing test counted (it crashed, or failed before its tests) is one failure.
    if (r.status !== 0 && c.failed === 0) c.failed = 1;
    const group = r.name.split('/')[0];
    const g = groups.get(group) ?? { name: group, parts: 0, status: 0, wall: 0, cpu: 0, ...zero() };
    g.parts++;
    g.status ||= r.status;
    g.wall = Math.max(g.wall, r.wall); // parts run side by side: the longest
    g.cpu += r.cpu;
    g.passed += c.passed;
    g.failed += c.failed;
    g.skipped += c.skipped;
    g.skips.push(...c.skips);
    groups.set(group, g);
  }
  return groups;
}

/** The summary's lines, and whether everything passed. */
export function summary(groups, makeStatus = 0, elsewhere = '') {
  const out = ['', 'make test: summary'];
  let passed = 0, failed = 0, skipped = 0;
  const skips = [];
  const w = Math.max(...[...groups.keys()].map((k) => k.length), 10);
  for (const [name, g] of groups) {
    if (!g) {
      out.push(`  ${name.padEnd(w)}  not run: what it needs failed to build (see the errors above)`);
      failed++;
      continue;
    }
    const state = g.failed ? 'FAILED' : g.passed ? 'passed' : 'skipped';
    const counts = [`${g.passed} passed`, g.failed && `${g.failed} failed`, g.skipped && `${g.skipped} skipped`].filter(Boolean).join(', ');
    const parts = g.parts > 1 ? ` in ${g.parts} runs` : '';
    out.push(`  ${name.padEnd(w)}  ${state.padEnd(7)} ${counts}${parts} (${g.wall.toFixed(0)} s, CPU ${g.cpu.toFixed(0)} s)`);
    passed += g.passed;
    failed += g.failed;
    skipped += g.skipped;
    skips.push(...g.skips);
  }
  if (skips.length) {
    out.push('skipped:');
    for (const [what, why, cmd] of skips) out.push(`  ${what}: ${why}; runs with: ${cmd}`);
  }
  if (makeStatus && !failed) {
    out.push(`make stopped with status ${makeStatus} outside any suite (see the errors above)`);
    failed++;
  }
  if (elsewhere) out.push(`not in make test, each behind its own target: ${elsewhere}`);
  out.push(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  return { lines: out, ok: failed === 0 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const order = (process.env.TEST_SUITES ?? '').split(/\s+/).filter(Boolean);
  const { lines, ok } = summary(readResults(DIR, order), Number(process.argv[2] ?? 0), process.env.TEST_ELSEWHERE ?? '');
  console.log(lines.join('\n'));
  process.exit(ok ? 0 : 1);
}
