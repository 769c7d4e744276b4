// SPDX-License-Identifier: GPL-2.0-only
// The reviewer's variants in the page: the virtual module
// 'virtual:review-variants', made at build time from variants/*/variant.json
// (kernel-tree/variant.sh writes them; the directory is git-ignored, so a
// fresh clone has none). It exports REVIEWED, what each variant.json says,
// and for the worker the loader of each browser module and the URL of its
// wasm (variants/<name>/reclaimlab-<name>.{mjs,wasm}). A variant whose
// module is not built is left out. RECLAIM_LAB_VARIANTS=none leaves them all
// out (make dist does, unless WITH_VARIANTS=1).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ID = 'virtual:review-variants';

/** The variants to include: [{ json, mjs, wasm }] (absolute paths). */
export function reviewVariants(dir = 'variants', env = process.env) {
  if (env.RECLAIM_LAB_VARIANTS === 'none' || !existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const base = resolve(dir, name);
      return {
        name,
        jsonPath: join(base, 'variant.json'),
        mjs: join(base, `reclaimlab-${name}.mjs`),
        wasm: join(base, `reclaimlab-${name}.wasm`),
      };
    })
    .filter((v) => existsSync(v.jsonPath) && existsSync(v.mjs) && existsSync(v.wasm))
    .map((v) => ({ ...v, json: JSON.parse(readFileSync(v.jsonPath, 'utf8')) }));
}

/** The module's source text. */
export function reviewModule(variants) {
  const lines = variants.map((v, i) => `import wasm${i} from ${JSON.stringify(`${v.wasm}?url`)};`);
  const reviewed = variants.map((v) => {
    const j = v.json;
    return { name: j.name, base: j.base, baseBranch: j.baseBranch, branch: j.branch, subject: j.subject,
      messageId: j.messageId, patches: j.patches, touched: j.touched };
  });
  lines.push(`export const REVIEWED = ${JSON.stringify(reviewed)};`);
  lines.push(`export const factories = {${variants.map((v) => `${JSON.stringify(v.name)}: () => import(${JSON.stringify(v.mjs)})`).join(', ')}};`);
  lines.push(`export const wasmUrls = {${variants.map((v, i) => `${JSON.stringify(v.name)}: wasm${i}`).join(', ')}};`);
  return lines.join('\n') + '\n';
}

/** The Vite plugin (for the page and its worker). */
export function reviewVariantsPlugin() {
  return {
    name: 'reclaim-lab-review-variants',
    resolveId(id) {
      return id === ID ? `\0${ID}` : null;
    },
    load(id) {
      if (id !== `\0${ID}`) return null;
      const variants = reviewVariants();
      for (const v of variants) this.addWatchFile(v.jsonPath);
      return reviewModule(variants);
    },
  };
}
