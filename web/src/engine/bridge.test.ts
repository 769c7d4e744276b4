// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { BRIDGE_EXPORTS, bridged, isWide } from './bridge';

/** A stand-in for a 64-bit module: each raw export checks it gets BigInts exactly where its C type is a pointer or size_t. */
function fake64() {
  const calls: string[] = [];
  const asm: Record<string, (...a: unknown[]) => unknown> = {};
  for (const [name, sig] of Object.entries(BRIDGE_EXPORTS)) {
    asm[name.slice(1)] = (...args: unknown[]) => {
      sig.params.forEach((t, i) => {
        const want = isWide(t, 64) ? 'bigint' : 'number';
        if (typeof args[i] !== want) throw new Error(`${name} argument ${i} (${t}) is a ${typeof args[i]}`);
      });
      calls.push(name);
      return sig.result === 'void' ? undefined : isWide(sig.result, 64) ? BigInt(4096) : 7;
    };
  }
  return { asm, calls } as unknown as Record<string, (...a: unknown[]) => unknown> & { calls: string[] };
}

describe('the bridge at 64 bits (types from wasm/bridge/exports.json)', () => {
  it('lists pointer and size types for what crosses as pointers', () => {
    expect(BRIDGE_EXPORTS._lab_bridge_run.params.filter((t) => t === 'ptr')).toHaveLength(4);
    expect(BRIDGE_EXPORTS._lab_bridge_explore.params).toContain('f64');
    expect(BRIDGE_EXPORTS._malloc).toEqual({ params: ['size'], result: 'ptr' });
  });

  it('converts every export: Numbers in, BigInts to the module, Numbers back', () => {
    const m = bridged(fake64(), 64);
    for (const [name, sig] of Object.entries(BRIDGE_EXPORTS)) {
      const r = m[name](...sig.params.map(() => 8));
      if (sig.result === 'void') expect(r).toBeUndefined();
      else expect(r, name).toBe(isWide(sig.result, 64) ? 4096 : 7);
    }
    expect(m.calls).toEqual(Object.keys(BRIDGE_EXPORTS));
  });

  it('refuses a call with another number of arguments than the list gives', () => {
    const m = bridged(fake64(), 64);
    expect(() => m._lab_bridge_run(1, 2)).toThrow(/2 arguments where wasm\/bridge\/exports.json lists 11/);
  });

  it('leaves a 32-bit module as it is, and says which export a 64-bit module lacks', () => {
    const m = fake64();
    expect(bridged(m, 32)).toBe(m);
    delete (m as unknown as { asm: Record<string, unknown> }).asm.lab_bridge_meta;
    expect(() => bridged(m, 64)).toThrow(/no export lab_bridge_meta/);
  });
});
