// SPDX-License-Identifier: GPL-2.0-only
// The import boundaries of web/src, run by `make test` (make lint):
//   engine   imports only the engine (no React, nothing of the page);
//   ui       the engine and ui;
//   a scene  the engine, ui, its own folder, scenes/types.ts and scenes/kernels.ts (never another scene),
//            but not the time axis, its key or the CPU cards: the stage draws them around its view;
//   scenes/registry.ts and types.ts: the engine, ui and the scenes;
//   lessons  the engine, ui, the scene registry and lessons;
//   talk     the engine, ui, lessons and talk;
//   explore  the engine, ui, scenes/types.ts and explore;
//   app (and main.tsx) composes: anything.
// Data outside web/src (kernel-tree/manifest.json, lessons/*.json) and
// packages may be imported from anywhere. Also: no two files of the
// repository whose paths differ only by case; and the page's address is
// read and changed in app/url.ts alone (no other source names location,
// URLSearchParams, replaceState or pushState), so that what a link holds
// and how it is written is decided in one place.
import ts from 'typescript';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The layer of a path relative to web/src (null: outside it). */
export function layerOf(rel) {
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep).join('/').split('/');
  if (parts[0] === 'scenes') return parts.length > 2 ? `scene:${parts[1]}` : 'scenes';
  if (parts.length === 1) return 'app'; // main.tsx
  return parts[0];
}

/** A path relative to web/src as a module name: forward slashes, no extension. */
const mod = (rel) => rel.split(sep).join('/').replace(/\.tsx?$/, '');

/** The frame the stage draws around every scene's view (app/Stage.tsx): a view draws its own subject alone. */
const STAGE_FRAME = ['ui/Timeline', 'ui/TaskLegend', 'ui/CpuCards'];

function allowed(from, to, toRel) {
  if (to === null || from === to) return true;
  switch (from.startsWith('scene:') ? 'scene' : from) {
    case 'engine':
      return false;
    case 'ui':
      return to === 'engine';
    case 'scene':
      if (STAGE_FRAME.includes(mod(toRel))) return false;
      return to === 'engine' || to === 'ui' || ['scenes/types', 'scenes/kernels'].includes(mod(toRel));
    case 'scenes':
      return to === 'engine' || to === 'ui' || to.startsWith('scene:');
    case 'lessons':
      return to === 'engine' || to === 'ui' || to === 'scenes';
    case 'talk':
      return to === 'engine' || to === 'ui' || to === 'lessons';
    case 'explore':
      return to === 'engine' || to === 'ui' || mod(toRel) === 'scenes/types';
    case 'app':
      return true;
    default:
      return false; // a new top-level folder gets a rule here first
  }
}

function* sourceFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (/\.(ts|tsx|mts)$/.test(e.name)) yield p;
  }
}

/** Where a file under the source root imports across a boundary: "file: imports spec (layer -> layer)". */
export function checkImports(srcRoot) {
  const out = [];
  for (const file of sourceFiles(srcRoot)) {
    const from = layerOf(relative(srcRoot, file));
    const text = readFileSync(file, 'utf8');
    const specs = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    for (const m of text.matchAll(/import\.meta\.glob\(\s*['"]([^'"]+)['"]/g)) specs.push(m[1]);
    for (const spec of specs) {
      if (!spec.startsWith('.')) continue; // a package
      const toRel = relative(srcRoot, resolve(dirname(file), spec));
      const to = layerOf(toRel);
      if (!allowed(from, to, toRel)) out.push(`${relative(srcRoot, file)}: imports ${spec} (${from} -> ${to})`);
    }
  }
  return out;
}

/** The one module that reads the page's address, parses a link or changes the address (tests may build links to check it). */
const ADDRESS_MODULE = 'app/url.ts';
/** The names only ADDRESS_MODULE uses: the address, a link's parser, the history's writers. */
const ADDRESS_NAMES = new Set(['location', 'URLSearchParams', 'replaceState', 'pushState']);

/** Where a source file other than ADDRESS_MODULE (and tests) names the address: "file:line: name". */
export function checkAddress(srcRoot) {
  const out = [];
  for (const file of sourceFiles(srcRoot)) {
    const rel = relative(srcRoot, file).split(sep).join('/');
    if (rel === ADDRESS_MODULE || /\.test\.tsx?$/.test(rel)) continue;
    const text = readFileSync(file, 'utf8');
    if (![...ADDRESS_NAMES].some((n) => text.includes(n))) continue; // parsed only where a name is in its text
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isIdentifier(node) && ADDRESS_NAMES.has(node.text)) {
        out.push(`${rel}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/**
 * Paths that differ only by case, as "a = b". Modules compare without their
 * extension: ./Figures and ./figures name Figures.tsx and figures.ts alike.
 */
export function caseClashes(paths) {
  const seen = new Map();
  const out = [];
  for (const p of paths) {
    const name = p.replace(/\.(d\.)?[cm]?[jt]sx?$/, ''); // csp.mjs and csp.d.mts are one module
    const k = name.toLowerCase();
    const first = seen.get(k);
    if (first === undefined) seen.set(k, p);
    else if (first.replace(/\.(d\.)?[cm]?[jt]sx?$/, '') !== name) out.push(`${first} = ${p}`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const tracked = execFileSync('git', ['-C', root, 'ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\n')
    .filter((p) => p && existsSync(join(root, p))); // not a deletion yet to be committed
  const problems = [
    ...checkImports(join(root, 'web/src')).map((p) => `import boundary: web/src/${p}`),
    ...caseClashes(tracked).map((p) => `names differ only by case: ${p}`),
    ...checkAddress(join(root, 'web/src')).map((p) => `the page's address outside ${ADDRESS_MODULE}: web/src/${p}`),
  ];
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log(`[lint] import boundaries of web/src, file-name case, the address in ${ADDRESS_MODULE} alone: clean`);
}
