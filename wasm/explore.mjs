#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
// make explore: the explorer's standard set (wasm/explore/), with
// the optimised native labrun of each kernel. The small races come from
// wasm/explore.json, the one list of them: each is searched on each of its
// kernels to its bound, and what the explorer finds is checked against
// what the list expects (no failing execution within the bound, or the
// expected kind of failure with its fewest preemptions). Then the searches
// that are not a scene's race: explore-litmus with and without sleep sets,
// the scene's own run of shrinker-lifetime. Then PCT on every race and
// kernel: pctRuns random runs at depth d = the expected preemptions + 1
// where a failure is expected (the share of runs that find it must reach
// PCT's bound 1/(n k^(d-1)), n CPUs, k decisions) and at d = bound + 1
// where none is (no run may fail). Each race's search is made twice, its
// executions in the one process (as make bench times it) and in forked
// children (labrun --fork), and must print the same summaries both ways.
// Each bound's summary line
// (JSON) is printed under a heading per search; EXPLORE_SECONDS bounds each
// search's wall time (default 120): a search stopped by it says
// "stopped": true and, for a race, fails the check.
//
//   node wasm/explore.mjs            run and check the set
//   node wasm/explore.mjs variants   the kernels the set runs (with a race's
//                                    id: the kernels that race runs on)
//   node wasm/explore.mjs targets    their labrun binaries, for make
//   node wasm/explore.mjs pct        the PCT searches, one a line: race,
//                                    kernel, depth, then labrun's flags
//                                    (make bench's figures)
//   node wasm/explore.mjs races      each race on each of its kernels, one
//                                    a line: race, kernel, bound, scenario,
//                                    then labrun's flags
import { readFileSync } from 'node:fs';
import { explore } from './explore-run.mjs';

// Each race with the kernels it is searched on and what each expects, in
// the registry's order (kernel-tree/manifest.json, each kernel's "explore").
const { kernels } = JSON.parse(readFileSync(new URL('../kernel-tree/manifest.json', import.meta.url), 'utf8'));
// A race's labrun flags: its own, then its memory model's and the bounds of that model's choices.
const withModel = (r) => [...r.args, ...(r.memory ? ['--memory', r.memory] : []),
  ...Object.entries(r.choiceBounds ?? {}).flatMap(([k, n]) => ['--choice-bound', `${k}=${n}`])];
const races = JSON.parse(readFileSync(new URL('./explore.json', import.meta.url), 'utf8')).races.map((r) => ({
  ...r,
  args: withModel(r),
  kernels: Object.fromEntries(kernels.filter((k) => r.id in (k.explore ?? {})).map((k) => [k.name, k.explore[r.id]])),
}));
const others = [
  // Small enough to enumerate: every schedule, with sleep sets and without.
  ['v6.12', '--scenario', 'explore-litmus', '--bound', '64'],
  ['v6.12', '--scenario', 'explore-litmus', '--bound', '64', '--no-por'],
  // A choice point of another kind than the scheduler's (wasm/runtime/choice.h), to the end.
  ['v6.12', '--scenario', 'explore-choice', '--bound', '64', '--choice-bound', 'litmus=1'],
  // The scene's own run (three mounts, six objects, slow shrinkers on the
  // break kernel), so that its counterexample opens in the page.
  ['break-no-wait', '--scenario', 'shrinker-lifetime', '--slow-ns', '3000', '--bound', '1'],
];
/** PCT's depth for a race on a kernel: one more than the preemptions its failure takes, or than the bound. */
const pctDepth = (race, expect) => (expect ? expect.preemptions : race.bound) + 1;
/** A race's PCT search on a kernel: labrun's flags. */
const pctArgs = (race, expect) =>
  ['--scenario', race.scenario, ...race.args, '--pct', String(pctDepth(race, expect)), '--runs', String(race.pctRuns)];
const variants = [...new Set([...races.flatMap((r) => Object.keys(r.kernels)), ...others.map((o) => o[0])])];

if (process.argv[2] === 'variants') {
  // With a race's id: the kernels that race is searched on.
  const race = process.argv[3] && races.find((r) => r.id === process.argv[3]);
  if (process.argv[3] && !race) {
    console.error(`explore.mjs: no race ${process.argv[3]} in wasm/explore.json`);
    process.exit(2);
  }
  console.log(race ? Object.keys(race.kernels).join(' ') : variants.join(' '));
  process.exit(0);
}
if (process.argv[2] === 'pct') {
  for (const race of races.filter((r) => r.pctRuns)) {
    for (const [variant, expect] of Object.entries(race.kernels)) {
      console.log([race.id, variant, pctDepth(race, expect), ...pctArgs(race, expect)].join(' '));
    }
  }
  process.exit(0);
}
if (process.argv[2] === 'races') {
  for (const race of races) {
    for (const variant of Object.keys(race.kernels)) console.log([race.id, variant, race.bound, race.scenario, ...race.args].join(' '));
  }
  process.exit(0);
}
if (process.argv[2] === 'targets') {
  console.log(variants.map((v) => `build/bench/${v}/labrun`).join(' '));
  process.exit(0);
}

const secs = process.env.EXPLORE_SECONDS || '120';

/** A search's summary lines, or null if labrun failed. */
function summaries(variant, args) {
  const r = explore(`build/bench/${variant}/labrun`, args, { seconds: secs, stderr: 'inherit' });
  if (!r.ok) {
    console.log(`   labrun exited with ${r.exit}`);
    return null;
  }
  return r.stdout.trim().split('\n').filter(Boolean);
}

/** One search: its summary lines printed, the last one returned (null if none). */
function search(variant, args) {
  console.log(`== ${variant}: ${args.join(' ')}`);
  const lines = summaries(variant, args);
  if (lines) console.log(lines.join('\n'));
  return lines?.length ? JSON.parse(lines[lines.length - 1]) : null;
}

/**
 * The same search with each execution in a forked child (labrun --fork)
 * instead of in the process whose memory is put back after it: whether
 * it prints the same summaries, all but their seconds and rate.
 */
function sameForked(variant, args, inProcess) {
  const strip = (lines) => lines.map((l) => l.replace(/"seconds":[0-9.]*,"rate":[0-9.]*/, '')).join('\n');
  const forked = summaries(variant, ['--fork', ...args]);
  return forked !== null && inProcess !== null && strip(forked) === strip(inProcess);
}

/** What is wrong with a race's last summary on a kernel, or null. */
function check(race, expect, last) {
  if (!last) return 'no summary';
  if (!expect) {
    if (last.failing_executions) return `${last.failing_executions} failing executions, none expected`;
    if (last.stopped || last.bound < race.bound) return `stopped at bound ${last.bound} before bound ${race.bound} was done`;
    return null;
  }
  const s = last.shortest;
  if (!s) return `no failing execution within bound ${last.bound}; expected ${expect.kind}`;
  if (!s.kinds.includes(expect.kind)) return `the shortest fails with ${s.kinds.join(', ')}, not ${expect.kind}`;
  if (s.preemptions !== expect.preemptions) return `the shortest takes ${s.preemptions} preemptions, not ${expect.preemptions}`;
  if (!s.replayed || !s.replayed.kinds.includes(expect.kind)) return 'its schedule, replayed, does not fail the same way';
  return null;
}

let bad = 0;
for (const race of races) {
  for (const [variant, expect] of Object.entries(race.kernels)) {
    const args = ['--scenario', race.scenario, ...race.args, '--bound', String(race.bound)];
    console.log(`== ${variant}: ${args.join(' ')}`);
    const lines = summaries(variant, args);
    if (lines) console.log(lines.join('\n'));
    const last = lines?.length ? JSON.parse(lines[lines.length - 1]) : null;
    const wrong = check(race, expect, last) ??
      (sameForked(variant, args, lines) ? null : 'forked children print other summaries than runs in one process');
    if (wrong) bad++;
    console.log(`-- ${race.id} on ${variant}: ${wrong ? `WRONG: ${wrong}` : expect
      ? `${expect.kind} found with ${expect.preemptions} preemption(s), as expected (${last.failing_executions} of ${last.executions_total} executions fail)`
      : `no failing execution within bound ${race.bound} (${last.executions_total} executions, ${last.end_states} end states)`}`);
  }
}
for (const [variant, ...args] of others) search(variant, args);

/** What is wrong with a PCT summary on a kernel, or null. */
function checkPct(expect, last) {
  if (!last) return 'no summary';
  if (last.stopped) return `stopped after ${last.runs} of the runs`;
  if (!expect) return last.failing_executions ? `${last.failing_executions} failing runs, none expected` : null;
  if (!last.failing?.[expect.kind]) return `no run failed with ${expect.kind}`;
  if (last.failing_executions / last.runs < last.p_per_run) {
    return `${last.failing_executions} of ${last.runs} runs fail, below PCT's bound ${last.p_per_run}`;
  }
  return null;
}

// A race with pctRuns 0 is not searched by PCT (its failure takes the memory model's choices too: PCT's bound
// counts the scheduler's change points alone).
for (const race of races.filter((r) => r.pctRuns)) {
  for (const [variant, expect] of Object.entries(race.kernels)) {
    const d = pctDepth(race, expect);
    const last = search(variant, pctArgs(race, expect));
    const wrong = checkPct(expect, last);
    if (wrong) bad++;
    console.log(`-- PCT ${race.id} on ${variant}, depth ${d}: ${wrong ? `WRONG: ${wrong}` : expect
      ? `${last.failing_executions} of ${last.runs} runs find ${expect.kind}, at least ${(last.p_per_run * last.runs).toFixed(1)} by PCT's bound (k = ${last.k} decisions, ${last.cpus} CPUs)`
      : `no failing run of ${last.runs} (k = ${last.k} decisions)`}`);
  }
}
if (bad) {
  console.log(`make explore: ${bad} search(es) did not find what the registry expects (kernel-tree/manifest.json, each kernel's "explore")`);
  process.exit(1);
}
