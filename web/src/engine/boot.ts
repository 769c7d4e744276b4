// SPDX-License-Identifier: GPL-2.0-only
// Loading a kernel variant's module in a worker: the simulation worker's
// runs and the Explore panel's worker both boot here.
import type { ModuleOptions, ReclaimLabModule } from './generated/reclaimlab.mjs';
import { factories as reviewFactories, wasmUrls as reviewWasmUrls } from 'virtual:review-variants';
import { bridged, type WordSize } from './bridge';

type Factory = (options?: ModuleOptions) => Promise<ReclaimLabModule>;
// reclaimlab-<variant> at 32 bits, reclaimlab64-<variant> at 64.
const factories = import.meta.glob<{ default: Factory }>('./generated/reclaimlab{,64}-*.mjs');
const wasmUrls = import.meta.glob<string>('./generated/reclaimlab{,64}-*.wasm', {
  query: '?url',
  import: 'default',
  eager: true,
});
const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** A variant's module at a word size, compiled (once per worker), and its JavaScript, loaded. */
function loaded(variant: string, bits: WordSize): Promise<[WebAssembly.Module, { default: Factory }]> {
  // The lab's variants, then the reviewer's (make variant; 32 bits).
  const stem = `./generated/reclaimlab${bits === 64 ? '64' : ''}-${variant}`;
  const load =
    factories[`${stem}.mjs`] ??
    (bits === 32 ? (reviewFactories[variant] as (() => Promise<{ default: Factory }>) | undefined) : undefined);
  const wasmUrl = wasmUrls[`${stem}.wasm`] ?? (bits === 32 ? reviewWasmUrls[variant] : undefined);
  if (!load || !wasmUrl) throw new Error(`no ${bits}-bit kernel variant "${variant}" in this build`);
  const key = `${variant}/${bits}`;
  let module = compiled.get(key);
  if (!module) {
    module = fetch(wasmUrl).then(async (r) => {
      if (!r.ok) throw new Error(`cannot load ${wasmUrl}: HTTP ${r.status}`);
      return WebAssembly.compile(await r.arrayBuffer());
    });
    compiled.set(key, module);
    module.catch(() => compiled.delete(key));
  }
  return Promise.all([module, load()]);
}

/** Compiles a variant's module ahead of its runs: what a run's boot then waits for is its instance alone. */
export async function prepare(variant: string, bits: WordSize): Promise<void> {
  await loaded(variant, bits);
}

/** A fresh instance of a variant's module at a word size (compiled once per worker). */
export async function boot(
  variant: string,
  bits: WordSize,
  onProgress?: (done: number, total: number) => void,
  extra: Partial<ModuleOptions> = {},
): Promise<ReclaimLabModule> {
  const [wasm, { default: createReclaimLab }] = await loaded(variant, bits);
  const m = await createReclaimLab({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm));
      return {};
    },
    print: () => {},
    printErr: (s) => console.warn('[wasm]', s),
    onProgress,
    ...extra,
  });
  return bridged(m, bits);
}
