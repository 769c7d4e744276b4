// SPDX-License-Identifier: GPL-2.0-only
//
// node wasm/selftest/explore.mjs [--bound K] [--pct D] [--runs N] [--seconds S] [SCENARIO...]
//
// The torture tests under the explorer (make torture-explore): each
// explore-locktorture-* scenario of the selftest variant (all of them
// when none is named; wasm/scenarios/locktorture.def) searched by
// labrun --explore with the optimised native build, bound by bound up to
// K preemptions, then by N PCT runs of depth D. The explorer counts the
// test's own verdict: a FAILURE is a report of kind "test" (the
// scenario's sim_test_failed()), next to the WARNs the test met. The
// busted lock must fail (within the bound, and in at least one PCT run),
// and its shortest failing schedule, replayed by labrun --schedule, must
// end in the same FAILURE ("Fail: 1 !!!" and "End of test: FAILURE"); a
// real lock must not fail at all, and its bounds must be searched to the
// end within S seconds a search. Prints a line per scenario.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const labrun = join(root, 'build/bench/selftest/labrun');

const opts = { bound: 0, pct: 2, runs: 50, seconds: 120 };
const named = [];
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a.startsWith('--') && a.slice(2) in opts) opts[a.slice(2)] = Number(process.argv[++i]);
  else named.push(a);
}

function run(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(labrun, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { ...r, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

// The explorer's JSON lines, one per bound (or one for PCT); exit 0 or 1.
function explore(scenario, args) {
  const r = run(['--explore', '--scenario', scenario, '--time-limit', String(opts.seconds), ...args]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`${scenario}: labrun --explore ${args.join(' ')}: ${r.stderr}`);
  return { lines: r.stdout.trim().split('\n').map((l) => JSON.parse(l)), seconds: r.seconds };
}

const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const kinds = (o) => Object.keys(o.failing).join(', ') || 'none';

let scenarios = named;
if (!scenarios.length) {
  const r = run(['--list']);
  scenarios = r.stdout.split('\n').map((l) => l.split('\t')[0]).filter((n) => n.startsWith('explore-locktorture-'));
}
if (!scenarios.length) {
  console.error(`torture-explore: no explore-locktorture-* scenario in ${labrun}`);
  process.exit(2);
}

let failed = false;
for (const s of scenarios) {
  const busted = s.includes('busted');
  const why = [];
  const dfs = explore(s, ['--bound', String(opts.bound)]);
  const last = dfs.lines[dfs.lines.length - 1];
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
      const end = r.stdout.match(/End of test: (\w+)/);
      const stats = r.stdout.match(/^Writes: .*Fail: (\d)/m);
      text += `, replayed: End of test: ${end ? end[1] : '?'}, Fail: ${stats ? stats[1] : '?'}`;
      if (!end || end[1] !== 'FAILURE' || !stats || stats[1] !== '1' || !/locktorture: End of test: FAILURE/.test(r.stdout))
        why.push('its shortest failing schedule did not replay to the FAILURE');
    }
  } else if (last.failing_executions) {
    why.push(`an execution failed (${kinds(last)})`);
  }
  text += ` (${dfs.seconds.toFixed(1)} s)`;
  const pct = explore(s, ['--pct', String(opts.pct), '--runs', String(opts.runs)]).lines[0];
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
