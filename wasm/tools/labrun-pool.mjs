// SPDX-License-Identifier: GPL-2.0-only
//
// Many wasm labrun runs under Node as the page runs its figures: each
// module compiled once, every run a fresh instance of it (a fresh boot) in a
// worker thread of its own, as many at a time as asked. V8 shares a
// module's compiled code between the threads of a process, so the module
// is tiered up once, not once a run as when each run is a process of its
// own (make bench's inode table: 21 runs).
//
//   node wasm/tools/labrun-pool.mjs --jobs N < jobs
//
// A job is a line: the file its standard output goes to, the file its wall
// seconds go to, the labrun.cjs, then labrun's arguments, separated by tabs.
// A job's wall time runs from its worker's start to its exit. A run that
// exits with another status than 0 has its standard error printed, and
// the pool exits 1 once the others are done; a line it cannot read, 2.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (isMainThread) await main();
else runOne(workerData);

async function main() {
  const args = process.argv.slice(2);
  const jobsAt = args.indexOf('--jobs');
  const width = jobsAt >= 0 ? Number(args[jobsAt + 1]) : availableParallelism();
  if (!Number.isInteger(width) || width < 1 || args.length !== (jobsAt >= 0 ? 2 : 0)) {
    console.error('usage: node wasm/tools/labrun-pool.mjs [--jobs N] < jobs (a line: out, seconds file, labrun.cjs, its arguments, tab-separated)');
    process.exit(2);
  }
  const jobs = readFileSync(0, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const [out, secs, cjs, ...argv] = l.split('\t');
      if (!cjs || !cjs.endsWith('.cjs')) {
        console.error(`labrun-pool: line ${i + 1}: expected out<TAB>seconds<TAB>labrun.cjs<TAB>arguments…, got ${JSON.stringify(l)}`);
        process.exit(2);
      }
      for (const f of [cjs, cjs.replace(/\.cjs$/, '.wasm')]) {
        if (!existsSync(f)) {
          console.error(`labrun-pool: line ${i + 1}: ${f} is missing (make wasm builds it)`);
          process.exit(2);
        }
      }
      return { out, secs, cjs: resolve(cjs), argv };
    });
  const modules = new Map();
  const moduleOf = (cjs) => {
    if (!modules.has(cjs)) modules.set(cjs, new WebAssembly.Module(readFileSync(cjs.replace(/\.cjs$/, '.wasm'))));
    return modules.get(cjs);
  };
  let failed = 0;
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const t0 = process.hrtime.bigint();
      const r = await new Promise((done) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { cjs: job.cjs, module: moduleOf(job.cjs), argv: job.argv } });
        let got = null;
        w.on('message', (m) => (got = m));
        w.on('error', (e) => (got = { status: -1, out: '', err: String(e?.stack ?? e) }));
        w.on('exit', (code) => done(got ?? { status: code, out: '', err: `the worker exited ${code} without a word` }));
      });
      writeFileSync(job.out, r.out);
      writeFileSync(job.secs, `${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(3)}\n`);
      if (r.status !== 0) {
        failed++;
        console.error(`labrun-pool: ${job.cjs} ${job.argv.join(' ')}: exit ${r.status}\n${r.err}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, lane));
  process.exit(failed ? 1 : 0);
}

/** In a worker: one run of the emscripten module, its instance made from the compiled module passed in. */
function runOne({ cjs, module, argv }) {
  const out = [];
  const err = [];
  const Module = {
    arguments: argv,
    print: (s) => out.push(s + '\n'),
    printErr: (s) => err.push(s + '\n'),
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(module, imports);
      receive(instance, module);
      return instance.exports;
    },
    quit(status) {
      parentPort.postMessage({ status, out: out.join(''), err: err.join('') });
      process.exit(status);
    },
  };
  // The glue declares its own `var Module` (a CommonJS module's scope hides a global one): run its text with
  // Module as a parameter, which that declaration keeps.
  const run = new Function('Module', 'require', '__filename', '__dirname', 'module', 'exports', readFileSync(cjs, 'utf8'));
  const module_ = { exports: {} };
  run(Module, createRequire(cjs), cjs, dirname(cjs), module_, module_.exports);
}
