// SPDX-License-Identifier: GPL-2.0-only
// The shared style sheet stays shared, run by `make lint`:
// web/src/app/styles.css holds the page frame, base elements, variables and
// primitives used across the page (.panel, .dialog, buttons). A class that
// only one scene's code uses, or named after a scene, has its rule in a
// sheet beside that scene (web/src/scenes/<id>/*.css); and the sheet stays
// within a budget of rules, so a component's rules go beside it too.
// The scenes are the folders that scenes/registry.ts imports.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Rules (selector blocks, not at-rules) styles.css may hold. */
export const RULE_BUDGET = 45;

/** The scene folders the registry imports (scenes/registry.ts: `from './<folder>'`). */
export function sceneFolders(srcRoot) {
  const text = readFileSync(join(srcRoot, 'scenes/registry.ts'), 'utf8');
  return [...text.matchAll(/from\s+'\.\/([^'/]+)'/g)].map((m) => m[1]).filter((f) => f !== 'types');
}

/** Each rule's selectors, comments removed; at-rules (@media …) are wrappers, not rules. */
export function cssRules(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const prelude = text.slice(start, i).trim();
      if (!prelude.startsWith('@')) rules.push(prelude);
      start = i + 1;
    } else if (c === '}' || c === ';') start = i + 1;
  }
  return rules;
}

export function classesOf(selector) {
  return [...new Set([...selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]))];
}

function* codeFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* codeFiles(p);
    else if (/\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) yield p;
  }
}

/** What is wrong with the shared sheet, one line each. */
export function checkStyles(srcRoot, sheet = 'app/styles.css', budget = RULE_BUDGET) {
  const scenes = sceneFolders(srcRoot);
  const code = [...codeFiles(srcRoot)].map((f) => ({ rel: relative(srcRoot, f).split(sep).join('/'), text: readFileSync(f, 'utf8') }));
  const sceneOf = (rel) => {
    const m = /^scenes\/([^/]+)\//.exec(rel);
    return m && scenes.includes(m[1]) ? m[1] : null;
  };
  const rules = cssRules(readFileSync(join(srcRoot, sheet), 'utf8'));
  const out = [];
  const seen = new Set();
  for (const rule of rules) {
    for (const cls of classesOf(rule)) {
      if (seen.has(cls)) continue;
      seen.add(cls);
      const named = scenes.find((s) => cls === s || cls.startsWith(`${s}-`));
      if (named) {
        out.push(`${sheet}: .${cls} is named after scene ${named}; its rule belongs in scenes/${named}/`);
        continue;
      }
      const word = new RegExp(`(?<![\\w-])${cls.replace(/[-]/g, '\\-')}(?![\\w-])`);
      const users = new Set(code.filter((f) => word.test(f.text)).map((f) => sceneOf(f.rel) ?? 'shared'));
      if (users.size === 1 && !users.has('shared')) {
        const [s] = users;
        out.push(`${sheet}: .${cls} is used by scene ${s} alone; its rule belongs in scenes/${s}/`);
      }
    }
  }
  if (rules.length > budget)
    out.push(`${sheet}: ${rules.length} rules, over the budget of ${budget}: put a component's or scene's rules in a sheet beside its code`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), '../web/src');
  const problems = checkStyles(src);
  for (const p of problems) console.error(`shared styles: web/src/${p}`);
  if (problems.length) process.exit(1);
  console.log(`[lint] shared styles.css: no scene's own classes, ${cssRules(readFileSync(join(src, 'app/styles.css'), 'utf8')).length} of ${RULE_BUDGET} rules`);
}
