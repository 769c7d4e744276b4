// SPDX-License-Identifier: GPL-2.0-only
// docs/adding-a-scene.md, followed: its blocks applied as it says in a
// temporary copy of the project (the tracked files, the native v6.12 build
// and the kernel tree's files it read), then the checks its last step names:
// the scenario built and listed by labrun, running clean; the import and
// style rules; the type check; the new scene's unit test and the tests that
// read the web registry. So the checklist cannot drift from the code.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tempTree } from './tempTree';

/** A block of the page: a new file (before null), or lines that go before the first line of path starting so. */
export interface Block {
  path: string;
  before: string | null;
  body: string;
}

/** An edit the page states in prose: in path, the text from becomes to. */
export interface Replace {
  path: string;
  from: string;
  to: string;
}

/** The blocks and prose edits of a checklist page, in its order; throws on a block whose first line names no file. */
export function checklistEdits(md: string): { blocks: Block[]; replaces: Replace[] } {
  const blocks: Block[] = [];
  for (const m of md.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) {
    const [first, ...rest] = m[1].split('\n');
    const where = /^(?:\/\/|#|\/\*)\s*([\w./-]+)(?:, before the line starting: (.+?))?\s*(?:\*\/)?$/.exec(first);
    if (!where) throw new Error(`a block of the checklist does not open with the file it goes in: ${first}`);
    blocks.push({ path: where[1], before: where[2] ?? null, body: rest.join('\n') });
  }
  const replaces = [...md.matchAll(/In `([^`]+)`, `([^`]+)` becomes `([^`]+)`\./g)].map((m) => ({ path: m[1], from: m[2], to: m[3] }));
  return { blocks, replaces };
}

/** Applies the edits to the tree at root, as a person following the page would. */
export function applyEdits(root: string, { blocks, replaces }: { blocks: Block[]; replaces: Replace[] }) {
  for (const b of blocks) {
    const file = join(root, b.path);
    if (b.before === null) {
      if (existsSync(file)) throw new Error(`${b.path}: the checklist makes it, but it is already there`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, b.body);
      continue;
    }
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith(b.before!));
    if (at < 0) throw new Error(`${b.path}: no line starts with "${b.before}", where the checklist puts its block`);
    lines.splice(at, 0, ...b.body.replace(/\n$/, '').split('\n'));
    writeFileSync(file, lines.join('\n'));
  }
  for (const r of replaces) {
    const file = join(root, r.path);
    const text = readFileSync(file, 'utf8');
    if (text.split(r.from).length !== 2) throw new Error(`${r.path}: "${r.from}" is not there once, as the checklist says`);
    writeFileSync(file, text.replace(r.from, r.to));
  }
}

const PAGE = 'docs/adding-a-scene.md';

describe('the checklist page', () => {
  const page = readFileSync(PAGE, 'utf8');
  const edits = checklistEdits(page);

  it('gives a block for each file its checklist names, and the checklist names each', () => {
    const checklist = page.slice(page.indexOf('## Checklist'), page.indexOf('## The blocks'));
    const named = new Set(edits.blocks.map((b) => b.path));
    for (const p of named) expect(checklist, p).toContain(p.split('/').pop()!);
    for (const f of ['my_scene.c', 'registry.c', 'build.mk', 'model.ts', 'view.tsx', 'view.css', 'thumb.tsx', 'index.ts', 'registry.ts', 'manifest.json', 'model.test.ts'])
      expect([...named].some((p) => p.endsWith(`/${f}`)), f).toBe(true);
  });

  it('refuses a block that names no file, a place that is not there, and a file already there', () => {
    expect(() => checklistEdits('```c\nint x;\n```\n')).toThrow(/does not open with the file/);
    const root = tempTree('checklist-', { 'a.c': 'one\ntwo\n' });
    try {
      expect(() => applyEdits(root, { blocks: [{ path: 'a.c', before: 'three', body: 'x\n' }], replaces: [] })).toThrow(/no line starts with "three"/);
      expect(() => applyEdits(root, { blocks: [{ path: 'a.c', before: null, body: 'x\n' }], replaces: [] })).toThrow(/already there/);
      expect(() => applyEdits(root, { blocks: [], replaces: [{ path: 'a.c', from: 'four', to: '' }] })).toThrow(/not there once/);
      applyEdits(root, { blocks: [{ path: 'a.c', before: 'two', body: 'x\n' }], replaces: [{ path: 'a.c', from: 'one', to: 'zero' }] });
      expect(readFileSync(join(root, 'a.c'), 'utf8')).toBe('zero\nx\ntwo\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a scene added by the checklist', () => {
  const here = resolve('.');
  const copy = tempTree('adding-a-scene-', {});
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  // A make or a tool run in the copy, with no jobserver of the make that runs this test.
  const env = { ...process.env, MAKEFLAGS: '', MFLAGS: '', MAKELEVEL: '', ASAN_OPTIONS: 'detect_leaks=0', NO_COLOR: '1', FORCE_COLOR: '0' };
  const run = (cmd: string, args: string[]) => {
    const t0 = Date.now();
    const r = spawnSync(cmd, args, { cwd: copy, env, encoding: 'utf8', maxBuffer: 1 << 26 });
    const out = `${cmd} ${args.join(' ')}: exit ${r.status}, ${((Date.now() - t0) / 1000).toFixed(1)} s\n${r.stdout}${r.stderr}`;
    console.log(out.split('\n')[0]);
    return { ok: r.status === 0, out };
  };

  it('builds and runs its scenario, then passes lint, the type check and the registry tests', () => {
    for (const p of ['build/native/v6.12/labrun', 'build/kernel/v6.12/.stamp', 'kernel-tree/linux/.git/reclaim-lab-tree-key'])
      if (!existsSync(p)) throw new Error(`${p} is missing: make build makes it (make test runs this test after it)`);
    // The tracked files with their times, and the build of v6.12 beside them, so make rebuilds only what the checklist changes.
    const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter((p) => p && existsSync(p) && !p.startsWith('docs/img/'));
    for (const p of tracked) cpSync(p, join(copy, p), { preserveTimestamps: true });
    for (const p of ['build/native/v6.12', 'build/native/host', 'build/kernel/v6.12'])
      cpSync(p, join(copy, p), { recursive: true, preserveTimestamps: true });
    // The generated TypeScript the type check needs; without the wasm modules the copy runs the 32-bit machine (engine/wordsize.ts).
    const gen = 'web/src/engine/generated';
    for (const f of readdirSync(gen).filter((f) => f.endsWith('.ts'))) cpSync(join(gen, f), join(copy, gen, f), { preserveTimestamps: true });
    symlinkSync(join(here, 'node_modules'), join(copy, 'node_modules'));
    symlinkSync(join(here, 'kernel-tree/linux'), join(copy, 'kernel-tree/linux'));
    // A repository of its own: the lint lists the project's files with git (untracked ones included).
    execFileSync('git', ['init', '-q'], { cwd: copy });

    applyEdits(copy, checklistEdits(readFileSync(PAGE, 'utf8')));

    // Step 3. -o wasm/build.mk: build.mk changed (SCEN_SRCS), which every object depends on; rebuilding them all would
    // take minutes and check nothing more. -o on the tree's key: the kernel tree is the project's own, linked, not the
    // copy's to make.
    const key = 'kernel-tree/linux/.git/reclaim-lab-tree-key';
    let r = run('make', ['--no-print-directory', '-o', 'wasm/build.mk', '-o', key, 'build/native/v6.12/labrun']);
    expect(r.ok, r.out).toBe(true);
    r = run('build/native/v6.12/labrun', ['--list']);
    expect(r.out).toMatch(/^my-scene\t/m);
    r = run('build/native/v6.12/labrun', ['--scenario', 'my-scene', '--summary']);
    expect(r.ok, r.out).toBe(true);
    expect(r.out).toMatch(/my-scene seed 1: done, .* 0 objects left, 0 reports/);
    // Step 7's list for the page, from the registry.
    r = run('make', ['--no-print-directory', '-o', 'wasm/build.mk', '-o', key, 'web/src/engine/generated/kernels.ts']);
    expect(r.ok, r.out).toBe(true);
    // Step 8.
    for (const [cmd, args] of [
      ['node', ['scripts/check-imports.mjs']],
      ['node', ['scripts/check-styles.mjs']],
      ['node_modules/.bin/tsc', ['--noEmit', '-p', 'tsconfig.json']],
      ['node_modules/.bin/vitest', ['run', 'web/src/scenes/my-scene', 'web/src/scenes/kernels.test.ts', 'web/src/scenes/parts.test.ts']],
    ] as const) {
      r = run(cmd, [...args]);
      expect(r.ok, r.out).toBe(true);
    }
    // The new scene's test ran and passed, beside the registry's.
    expect(r.out).toMatch(/my-scene\/model\.test\.ts/);
    expect(r.out).toMatch(/Test Files\s+3 passed/);
  }, 600_000);
});
