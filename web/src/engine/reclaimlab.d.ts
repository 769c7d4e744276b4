// SPDX-License-Identifier: GPL-2.0-only
// Types of the Emscripten module built from wasm/bridge/bridge.c; its
// exported functions are listed once, in wasm/bridge/exports.json.
declare module '*/generated/reclaimlab.mjs' {
  // The modules are generated/reclaimlab-<variant>.mjs; this names their common type.
  export interface ReclaimLabModule {
    HEAPU8: Uint8Array;
    _malloc(size: number): number;
    _free(ptr: number): void;
    _lab_bridge_scenarios(): number;
    _lab_bridge_run(
      name: number, seedLo: number, seedHi: number, params: number, nparams: number,
      maxEvents: number, maxSteps: number, policy: number, schedule: number,
      program: number, programLen: number,
    ): number;
    HEAP32: Int32Array;
    _lab_bridge_error(): number;
    _lab_bridge_event_count(): number;
    _lab_bridge_events(): number;
    _lab_bridge_decision_count(): number;
    _lab_bridge_decisions(): number;
    _lab_bridge_unseen_window(from: number): void;
    _lab_bridge_unseen_count(): number;
    _lab_bridge_unseen(): number;
    _lab_bridge_meta(withSchedule: number): number;
    _lab_bridge_explore(
      name: number, seedLo: number, seedHi: number, params: number, nparams: number,
      maxBound: number, por: number, pctDepth: number, pctRuns: number, maxExecs: number,
      maxSeconds: number, failing: number, program: number, programLen: number,
    ): number;
    UTF8ToString(ptr: number): string;
    stringToUTF8(s: string, ptr: number, max: number): void;
    lengthBytesUTF8(s: string): number;
  }
  export interface ModuleOptions {
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) => object;
    print?: (s: string) => void;
    printErr?: (s: string) => void;
    onProgress?: (done: number, total: number) => void;
    /** The explorer's news, one JSON object each (lab_bridge_explore in wasm/bridge/bridge.c). */
    onExplore?: (json: string) => void;
  }
  const createReclaimLab: (options?: ModuleOptions) => Promise<ReclaimLabModule>;
  export default createReclaimLab;
}
