// SPDX-License-Identifier: GPL-2.0-only
// What make bench-browser's scripts share (bench-page.mjs, bench-figures.mjs):
// their command-line options, the production build served as `make start`
// serves it (scripts/serve.mjs: gzip and the Content-Security-Policy), Debian's
// Chromium launched by Playwright, and the rows they add to make bench's table.
// Their ports avoid the fetch standard's blocked ports (4190 is one: Node's
// fetch and Chromium refuse it).
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** The value after --name on the command line, or dflt. */
export function opt(name, dflt) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
}

/** --runs: how many times each figure is measured (a whole number, 1 or more; anything else is refused). */
export function runsOpt(dflt) {
  const raw = opt('runs', dflt);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--runs ${raw}: expected a whole number, 1 or more`);
    process.exit(2);
  }
  return n;
}

/** The median of numbers (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The command line checked before anything runs: --help prints usage and exits; an option not in known, one
 * without its value, or a value not in choices (name -> the values it takes) is refused with usage, so that
 * a mistyped flag is not a whole bench run with the defaults, or none at all.
 */
export function checkArgs(usage, known, choices = {}) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`usage: ${usage}`);
    process.exit(0);
  }
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i].startsWith('--') ? args[i].slice(2) : '';
    const value = args[i + 1];
    const wrong = !known.includes(name)
      ? `${args[i]} is not an option of this script`
      : value === undefined
        ? `${args[i]} needs a value`
        : choices[name] && !choices[name].includes(value)
          ? `--${name} ${value}: it is one of ${choices[name].join(', ')}`
          : null;
    if (wrong) {
      console.error(`${wrong}\nusage: ${usage}`);
      process.exit(2);
    }
  }
}

/** Serves root on port until the process exits; resolves once it answers. */
export async function serve(port, root) {
  const server = spawn(process.execPath, ['scripts/serve.mjs', '--port', String(port), '--host', '127.0.0.1', '--root', root], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => server.kill();
  process.on('exit', stop);
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.ok) return stop;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`scripts/serve.mjs did not answer on port ${port}`);
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
}

/** Rows of make bench's table (wasm/bench-all.sh): [name, value, unit, '<=' or '>=', goal]. */
export function addRows(rows) {
  if (process.env.BENCH_ROWS) appendFileSync(process.env.BENCH_ROWS, rows.map((r) => r.join('\t') + '\n').join(''));
}
