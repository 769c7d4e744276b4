// SPDX-License-Identifier: GPL-2.0-only
//
// node wasm/selftest/explore.mjs [--bound K] [--pct D] [--runs N] [--seconds S] [--match RE] [SCENARIO...]
//
// The torture tests under the explorer (make torture-explore): each
// explore-locktorture-* and explore-rcutorture-* scenario of the selftest
// variant (all of them when none is named, or those whose name matches
// RE; wasm/scenarios/locktorture.def, rcutorture.def) searched by labrun --explore (wasm/explore-run.mjs)
// with the optimised native build, bound by bound up to K preemptions,
// then by N PCT runs of depth D. The explorer counts the test's own
// verdict: a FAILURE is a report of kind "test" (the scenario's
// sim_test_failed()), next to the WARNs the test met. A busted flavour
// (a lock that excludes nothing, an RCU whose grace period waits for
// nothing) must fail (within the bound, and in at least one PCT run), and
// its shortest failing schedule, replayed by labrun --schedule, must end
// in the same FAILURE, read from the test's own statistics: "End of test:
// FAILURE" with locktorture's "Fail: 1 !!!", rcutorture's Reader Pipe
// with readers past index 1. A real flavour must not fail at all, and its
// bounds must be searched to the end within S seconds a search. Prints a
// line per scenario.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { explore } from '../explore-run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const labrun = join(root, 'build/bench/selftest/labrun');

const opts = { bound: 0, pct: 2, runs: 50, seconds: 120 };
const named = [];
let match = /./;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--match') match = new RegExp(process.argv[++i]);
  else if (a.startsWith('--') && a.slice(2) in opts) opts[a.slice(2)] = Number(process.argv[++i]);
  else named.push(a);
}

function run(args) {
  const r = spawnSync(labrun, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return r;
}

// The explorer's summaries for one search; labrun failing otherwise is an error.
function search(scenario, args) {
  const r = explore(labrun, ['--scenario', scenario, ...args], { seconds: opts.seconds });
  if (!r.ok || !r.lines.length) throw new Error(`${scenario}: labrun --explore ${args.join(' ')}: ${r.exit}: ${r.stderr}`);
  return r;
}

// What a replayed console says, in the test's own words: its verdict and
// the failures its final statistics count (locktorture: the "Fail: 1" of
// its Writes line; rcutorture: the readers its last Reader Pipe counts past
// index 1, i.e. after a second grace period had ended).
function verdict(console_) {
  const end = [...console_.matchAll(/-torture:--- End of test: (\w+)/g)].pop();
  const lock = console_.match(/^Writes: .*Fail: (\d)/m);
  const pipes = [...console_.matchAll(/Reader Pipe: ([\d ]+)/g)].pop();
  const past = pipes ? pipes[1].trim().split(/\s+/).slice(2).reduce((a, b) => a + Number(b), 0) : null;
  return {
    end: end ? end[1] : '?',
    failures: lock ? Number(lock[1]) : past,
    text: lock ? `Fail: ${lock[1]}` : pipes ? `Reader Pipe: ${pipes[1].trim()}` : 'no statistics',
  };
}

const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const kinds = (o) => Object.keys(o.failing).join(', ') || 'none';

let scenarios = named;
if (!scenarios.length) {
  scenarios = run(['--list']).stdout.split('\n').map((l) => l.split('\t')[0])
    .filter((n) => /^explore-(lock|rcu)torture-/.test(n) && match.test(n));
}
if (!scenarios.length) {
  console.error(`torture-explore: no explore-locktorture-* or explore-rcutorture-* scenario matching ${match} in ${labrun}`);
  process.exit(2);
}

let failed = false;
for (const s of scenarios) {
  const busted = s.includes('busted');
  const why = [];
  const dfs = search(s, ['--bound', String(opts.bound)]);
  const last = dfs.last;
  const bounds = dfs.lines
    .map((b) => `bound ${b.bound}: ${count(b.executions, 'execution')}${b.blocked ? ` (${b.blocked} blocked)` : ''}`)
    .join(', ');
  let text = `${s}: ${bounds}${last.stopped ? ' (stopped by the budget)' : ''}, ${last.deferred} choices deferred`
    + ` to bound ${last.bound + 1}; ${last.failing_executions} failing (${kinds(last)})`;
  if (last.stopped && !busted) why.push(`the bound was not searched to the end in ${opts.seconds} s`);
  if (busted) {
    if (!last.failing_executions || !last.failing.test) why.push('no execution failed the test');
    const sh = last.shortest;
    if (sh) {
      const head = sh.schedule.length > 40 ? `${sh.schedule.slice(0, 40)}... (${sh.schedule.length} characters)` : sh.schedule;
      text += `; shortest: ${count(sh.preemptions, 'preemption')}, ${sh.decisions} decisions, ${head}`;
      const r = run(['--scenario', s, '--schedule', sh.schedule, '--quiet', '--max-events', '4000000000',
        '--max-steps', '4000000000', '--console', '--summary']);
      const v = verdict(r.stdout);
      text += `, replayed: End of test: ${v.end}, ${v.text}`;
      if (v.end !== 'FAILURE' || !v.failures || !/torture: End of test: FAILURE \(/.test(r.stdout))
        why.push('its shortest failing schedule did not replay to the FAILURE');
    }
  } else if (last.failing_executions) {
    why.push(`an execution failed (${kinds(last)})`);
  }
  text += ` (${dfs.seconds.toFixed(1)} s)`;
  const pct = search(s, ['--pct', String(opts.pct), '--runs', String(opts.runs)]).last;
  text += `; PCT depth ${opts.pct}: ${pct.executions_total} runs, ${pct.failing_executions} failing`
    + ` (${pct.seconds.toFixed(1)} s)`;
  if (busted && !pct.failing_executions) why.push('no PCT run failed the test');
  if (!busted && pct.failing_executions) why.push(`a PCT run failed (${kinds(pct)})`);
  console.log(text);
  if (why.length) {
    console.log(`  FAILED: ${why.join('; ')}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
