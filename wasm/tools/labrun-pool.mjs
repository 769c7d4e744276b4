// SPDX-License-Identifier: GPL-2.0-only
//
// Many wasm labrun runs under Node as the page runs its figures: each
// module compiled once, every run a fresh instance of it (a fresh boot) in a
// worker thread, as many at a time as asked. V8 shares a module's compiled
// code between the threads of a process, so the module is tiered up once,
// not once a run as when each run is a process of its own (make bench's
// inode table: 21 runs).
//
//   node wasm/tools/labrun-pool.mjs [--jobs N] [--keep-workers] [--ok S,...] < jobs
//
// A job is a line: the file its standard output goes to, the file its wall
// seconds go to, the labrun.cjs, then labrun's arguments, separated by tabs.
// A job's wall time runs from its start to its exit.
//
// --jobs N        N runs at a time (default: one per core).
// --keep-workers  each of the N lanes keeps one worker thread and runs its
//                 jobs in it one after another, each still a fresh
//                 WebAssembly.Instance with fresh glue (a fresh boot, nothing
//                 shared with the run before but the compiled code): a worker
//                 costs about 100 ms to start, a short run far less (the
//                 determinism suite's: about 20 ms). A worker that dies is
//                 replaced for the lane's next job.
// --ok S,...      exit statuses accepted besides 0 (labrun exits 1 when its
//                 run ends in a report).
//
// A run that exits with a status not accepted has its standard error
// printed, and the pool exits 1 once the others are done; a line or an
// option it cannot read, 2.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

const USAGE =
  'usage: node wasm/tools/labrun-pool.mjs [--jobs N] [--keep-workers] [--ok S,...] < jobs ' +
  '(a line: out, seconds file, labrun.cjs, its arguments, tab-separated)';

function options(args) {
  const o = { width: availableParallelism(), keep: false, ok: new Set([0]) };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--jobs' && i + 1 < args.length) {
      o.width = Number(args[++i]);
      if (!Number.isInteger(o.width) || o.width < 1) return null;
    } else if (a === '--keep-workers') {
      o.keep = true;
    } else if (a === '--ok' && i + 1 < args.length) {
      for (const s of args[++i].split(',')) {
        if (!/^\d+$/.test(s)) return null;
        o.ok.add(Number(s));
      }
    } else {
      return null;
    }
  }
  return o;
}

async function main() {
  const o = options(process.argv.slice(2));
  if (!o) {
    console.error(USAGE);
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
    let kept = null;
    while (next < jobs.length) {
      const job = jobs[next++];
      const t0 = process.hrtime.bigint();
      const data = { cjs: job.cjs, module: moduleOf(job.cjs), argv: job.argv };
      // Without --keep-workers a worker runs one job and goes: the same run, in a thread of its own.
      const w = kept ?? jobWorker();
      const r = await w.run(data);
      if (o.keep && !r.dead) kept = w;
      else await w.close();
      writeFileSync(job.out, r.out);
      writeFileSync(job.secs, `${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(3)}\n`);
      if (!o.ok.has(r.status)) {
        failed++;
        console.error(`labrun-pool: ${job.cjs} ${job.argv.join(' ')}: exit ${r.status}\n${r.err}`);
      }
    }
    await kept?.close();
  };
  await Promise.all(Array.from({ length: Math.min(o.width, jobs.length) }, lane));
  process.exit(failed ? 1 : 0);
}

/** A worker that runs jobs one at a time, told by message; dead once it has exited or thrown. */
function jobWorker() {
  const w = new Worker(new URL(import.meta.url));
  let pending = null;
  let dead = null;
  const settle = (r) => {
    const p = pending;
    pending = null;
    if (p) p(r);
  };
  w.on('message', (m) => settle(m));
  w.on('error', (e) => {
    dead = String(e?.stack ?? e);
    settle({ status: -1, out: '', err: dead, dead: true });
  });
  w.on('exit', (code) => {
    dead ??= `the worker exited ${code} without a word`;
    settle({ status: code || -1, out: '', err: dead, dead: true });
  });
  return {
    run: (data) =>
      dead
        ? Promise.resolve({ status: -1, out: '', err: dead, dead: true })
        : new Promise((done) => {
            pending = done;
            w.postMessage(data);
          }),
    close: () => (dead ? Promise.resolve() : w.terminate()),
  };
}

/** The glue's text as a function of the names a CommonJS module sees, made once per labrun.cjs. */
const glues = new Map();
function glueOf(cjs) {
  if (!glues.has(cjs)) {
    // The glue declares its own `var Module` (a CommonJS module's scope hides a global one): run its text with
    // Module as a parameter, which that declaration keeps.
    glues.set(cjs, new Function('Module', 'require', '__filename', '__dirname', 'module', 'exports', readFileSync(cjs, 'utf8')));
  }
  return glues.get(cjs);
}

/** The Module object of one run: its arguments, its output kept, its instance made from the compiled module. */
function moduleFor({ module, argv }, out, err, quit) {
  return {
    arguments: argv,
    print: (s) => out.push(s + '\n'),
    printErr: (s) => err.push(s + '\n'),
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(module, imports);
      receive(instance, module);
      return instance.exports;
    },
    quit,
  };
}

function runGlue(cjs, Module) {
  const m = { exports: {} };
  glueOf(cjs)(Module, createRequire(cjs), cjs, dirname(cjs), m, m.exports);
}

/**
 * In a worker: one run, and the worker lives on for the next. The glue's exit (labrun is linked with EXIT_RUNTIME) calls
 * Module.quit, which throws back out of the glue instead of ending the thread; a trap arrives as the error it
 * is, status 1 with its stack. Whatever the glue hung on process is taken off again, so that no run sees the
 * one before it.
 */
function runJob(job) {
  const out = [];
  const err = [];
  const QUIT = Symbol('quit');
  let status = null;
  const events = ['uncaughtException', 'unhandledRejection', 'exit', 'beforeExit'];
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e))]));
  const exitCode = process.exitCode;
  try {
    runGlue(
      job.cjs,
      moduleFor(job, out, err, (s, toThrow) => {
        // The glue catches what its exit throws and quits again with 1: the first status is the run's.
        if (status === null) {
          status = s;
          if (toThrow && toThrow !== QUIT && toThrow.name !== 'ExitStatus') err.push(`${toThrow.stack ?? toThrow}\n`);
        }
        throw QUIT;
      }),
    );
    if (status === null) {
      status = -1;
      err.push('labrun-pool: the run returned without exiting (is labrun.cjs linked with -sEXIT_RUNTIME=1?)\n');
    }
  } catch (e) {
    if (e !== QUIT && status === null) {
      status = typeof e?.status === 'number' && e?.name === 'ExitStatus' ? e.status : 1;
      if (status !== 0) err.push(`${e?.stack ?? e}\n`);
    }
  } finally {
    for (const e of events) for (const l of process.listeners(e)) if (!before.get(e).has(l)) process.removeListener(e, l);
    process.exitCode = exitCode;
  }
  return { status, out: out.join(''), err: err.join('') };
}

// Last, once every declaration above is made (the glues' cache among them).
if (isMainThread) await main();
else parentPort.on('message', (job) => parentPort.postMessage(runJob(job)));
