// SPDX-License-Identifier: GPL-2.0-only
// Real runs for the engine's tests: `make` writes them with
// `labrun --dump` (the raw records and meta the worker would hand over),
// and they are decoded here by the same EventLog the page uses.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
