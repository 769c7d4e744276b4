// SPDX-License-Identifier: GPL-2.0-only
// Real runs for the engine's tests: `make` writes them with
// `labrun --dump` (the raw records and meta the worker would hand over),
// and they are decoded here by the same EventLog the page uses.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventLog } from '../log';
import type { RunMeta } from '../meta';

export function loadRun(scenario: string, seed: number): EventLog {
  const dir = join('build', 'fixtures', `${scenario}-${seed}`);
  if (!existsSync(join(dir, 'events.bin'))) {
    throw new Error(`${dir}/events.bin is missing: run \`make test\` (it writes the fixtures with labrun --dump)`);
  }
  const bin = readFileSync(join(dir, 'events.bin'));
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
  const buf = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer;
  return new EventLog(buf, meta);
}
