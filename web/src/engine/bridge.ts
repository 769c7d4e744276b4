// SPDX-License-Identifier: GPL-2.0-only
// The bridge's exports at either word size. The 64-bit module (emcc
// -sMEMORY64=2) takes and gives every pointer and size_t as a BigInt; the
// worker speaks Numbers (the module's memory is 32-bit after its lowering,
// so every address is exact in one). Which value is which comes from the
// one list of exports and their types, wasm/bridge/exports.json, which
// the build checks against each linked module (wasm/tools/bridge-exports.py).
import spec from '../../../wasm/bridge/exports.json';

export type WordSize = 32 | 64;
type BridgeType = 'ptr' | 'size' | 'i32' | 'u32' | 'f64' | 'void';
interface Signature {
  params: BridgeType[];
  result: BridgeType;
}
export const BRIDGE_EXPORTS = spec.exports as Record<string, Signature>;

/** Whether a value of this type crosses as a BigInt at this word size. */
export function isWide(t: BridgeType, bits: WordSize): boolean {
  return bits === 64 && (t === 'ptr' || t === 'size');
}

type Fn = (...args: unknown[]) => unknown;

/** One export made to take and give Numbers: each wide argument to a BigInt, a wide result back. */
export function convertExport(name: string, f: Fn, sig: Signature, bits: WordSize): Fn {
  const wide = sig.params.map((t) => isWide(t, bits));
  const wideResult = isWide(sig.result, bits);
  return (...args: unknown[]) => {
    if (args.length !== sig.params.length)
      throw new Error(`${name}: ${args.length} arguments where wasm/bridge/exports.json lists ${sig.params.length}`);
    const r = f(...args.map((v, i) => (wide[i] ? BigInt(v as number | bigint) : v)));
    return wideResult ? Number(r as bigint) : r;
  };
}

/** The module with every listed export converted for its word size (unchanged at 32 bits). */
export function bridged<M extends object>(m: M, bits: WordSize): M {
  if (bits === 32) return m;
  // Module._<name> replaces itself by the raw export at its first call
  // (emcc's lazy stubs), so each is converted from Module.asm.<name>.
  const o = m as unknown as Record<string, Fn> & { asm?: Record<string, Fn> };
  for (const [name, sig] of Object.entries(BRIDGE_EXPORTS)) {
    const raw = o.asm?.[name.slice(1)];
    if (typeof raw !== 'function') throw new Error(`the ${bits}-bit module has no export ${name.slice(1)}`);
    o[name] = convertExport(name, raw, sig, bits);
  }
  return m;
}
