// SPDX-License-Identifier: GPL-2.0-only
// Loading a kernel variant's module in a worker: the simulation worker's
// runs and the Explore panel's worker both boot here.
import type { ModuleOptions, ReclaimLabModule } from './generated/reclaimlab.mjs';
import { factories as reviewFactories, wasmUrls as reviewWasmUrls } from 'virtual:review-variants';

type Factory = (options?: ModuleOptions) => Promise<ReclaimLabModule>;
const factories = import.meta.glob<{ default: Factory }>('./generated/reclaimlab-*.mjs');
const wasmUrls = import.meta.glob<string>('./generated/reclaimlab-*.wasm', {
  query: '?url',
  import: 'default',
  eager: true,
});
const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** A fresh instance of a variant's module (compiled once per worker). */
export async function boot(
  variant: string,
  onProgress?: (done: number, total: number) => void,
  extra: Partial<ModuleOptions> = {},
): Promise<ReclaimLabModule> {
  // The lab's variants, then the reviewer's (make variant).
  const load =
    factories[`./generated/reclaimlab-${variant}.mjs`] ??
    (reviewFactories[variant] as (() => Promise<{ default: Factory }>) | undefined);
  const wasmUrl = wasmUrls[`./generated/reclaimlab-${variant}.wasm`] ?? reviewWasmUrls[variant];
  if (!load || !wasmUrl) throw new Error(`no kernel variant "${variant}" in this build`);
  let module = compiled.get(variant);
  if (!module) {
    module = fetch(wasmUrl).then(async (r) => {
      if (!r.ok) throw new Error(`cannot load ${wasmUrl}: HTTP ${r.status}`);
      return WebAssembly.compile(await r.arrayBuffer());
    });
    compiled.set(variant, module);
    module.catch(() => compiled.delete(variant));
  }
  const [wasm, { default: createReclaimLab }] = await Promise.all([module, load()]);
  return createReclaimLab({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm));
      return {};
    },
    print: () => {},
    printErr: (s) => console.warn('[wasm]', s),
    onProgress,
    ...extra,
  });
}
