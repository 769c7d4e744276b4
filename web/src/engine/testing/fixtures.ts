// SPDX-License-Identifier: GPL-2.0-only
// Real runs for the engine's tests: `make` writes them with
// `labrun --dump` (the raw records and meta the worker would hand over),
// or a test makes one with runNative(), and they are decoded here by the
// same EventLog the page uses.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labrunCommand, type RunOptions } from '../client';
import { EventLog } from '../log';
import { Decisions } from '../decisions';
import type { RunMeta } from '../meta';

function dirOf(scenario: string, seed: number) {
  return join('build', 'fixtures', `${scenario}-${seed}`);
}

function arrayBuffer(path: string): ArrayBuffer {
  const b = readFileSync(path);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

export function loadDecisions(scenario: string, seed: number): Decisions {
  return Decisions.fromRecords(arrayBuffer(join(dirOf(scenario, seed), 'decisions.bin')));
}

export function loadRun(scenario: string, seed: number): EventLog {
  const dir = dirOf(scenario, seed);
  if (!existsSync(join(dir, 'events.bin'))) {
    throw new Error(`${dir}/events.bin is missing: run \`make test\` (it writes the fixtures with labrun --dump)`);
  }
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
  return new EventLog(arrayBuffer(join(dir, 'events.bin')), meta);
}

/**
 * A run made now by the native CLI the page's command line names (engine/client.ts labrunCommand: labrun at the
 * variant's word size), with labrun --dump: what the page would get for the scenario, seed and options.
 */
export function runNative(scenario: string, seed: number, opts: RunOptions = {}): EventLog {
  const [bin, ...args] = labrunCommand(scenario, seed, opts).split(' ');
  const dir = mkdtempSync(join(tmpdir(), 'labrun-'));
  try {
    const r = spawnSync(bin, [...args, '--dump', dir], { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8' });
    // 1: the run ended in a report, which the log holds
    if (r.status !== 0 && r.status !== 1) throw new Error(`${bin} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
    return new EventLog(arrayBuffer(join(dir, 'events.bin')), meta);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
