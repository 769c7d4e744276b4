// SPDX-License-Identifier: GPL-2.0-only
// For tests (Node only): a scene state run by the native CLI
// (build/native64/<variant>/labrun on the page's default 64-bit machine,
// build/native/ at bits 32) with the scene's own parameters, read
// back as the event log the page would show. Lessons replay their
// solutions with it; talks check their live states with it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../engine/log';
import type { RunMeta } from '../engine/meta';
import { runParamArgs } from '../engine/generated/params';
import { findScene } from '../scenes/registry';
import { DEFAULT_WORD_SIZE, type WordSize } from '../engine/wordsize';
import { labrunPath } from '../engine/labrunPath';
import type { LessonStart } from './lessons';

/** The native labrun of a variant at a word size (the page's default unless told). */
export function nativeLabrun(variant: string, bits: WordSize = DEFAULT_WORD_SIZE): string {
  return labrunPath(variant, bits);
}

export function replayNative(sceneId: string, s: Omit<LessonStart, 'step'>, bits: WordSize = DEFAULT_WORD_SIZE): EventLog {
  const { records, meta } = dumpNative(sceneId, s, bits);
  return new EventLog(records, meta);
}

/** The run's records as labrun --dump writes them (what the worker reads off the wasm heap), and its meta. */
export function dumpNative(sceneId: string, s: Omit<LessonStart, 'step'>, bits: WordSize = DEFAULT_WORD_SIZE): { records: ArrayBuffer; meta: RunMeta } {
  const scene = findScene(sceneId);
  if (!scene) throw new Error(`no scene ${sceneId}`);
  const dir = mkdtempSync(join(tmpdir(), `replay-${sceneId}-`));
  try {
    const args = ['--scenario', scene.scenario, '--seed', String(s.seed), '--policy', s.policy, '--dump', dir];
    if (s.memory && s.memory !== 'sc') args.push('--memory', s.memory);
    if (s.sched) args.push('--schedule', s.sched);
    const slow = scene.slowNs?.(s.variant) ?? 0;
    if (slow) args.push('--slow-ns', String(slow));
    const bytes = s.prog ? scene.program!.toBytes(s.prog) : [];
    if (bytes.length) args.push('--program', bytes.join(','));
    if (scene.program?.options) args.push(...runParamArgs(scene.program.options(s.prog)));
    // Exit 1 is a run that did not end cleanly (a KASAN panic, say): lessons may want that.
    const r = spawnSync(nativeLabrun(s.variant, bits), args, { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8' });
    if (r.status !== 0 && r.status !== 1) throw new Error(`labrun ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    const b = readFileSync(join(dir, 'events.bin'));
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RunMeta;
    return { records: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, meta };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
