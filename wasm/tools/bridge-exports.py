#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The bridge's exports, from their one list (wasm/bridge/exports.json).

Usage: bridge-exports.py names EXPORTS.json
         the names as emcc's -sEXPORTED_FUNCTIONS takes them
       bridge-exports.py check EXPORTS.json MODULE.wasm BITS
         each export's type in the linked module is the one its listed
         types give at BITS (ptr and size: i64 at 64 bits, i32 at 32;
         i32 and u32: i32; f64: f64; void: no result), so the worker's
         conversions (web/src/engine/bridge.ts), which read the same list,
         match the module
"""
import json
import re
import subprocess
import sys

WASM = {'i32': 'i32', 'u32': 'i32', 'f64': 'f64'}


def wasm_type(t, bits):
    if t in ('ptr', 'size'):
        return 'i64' if bits == 64 else 'i32'
    if t not in WASM:
        sys.exit('bridge-exports.py: unknown type %r' % t)
    return WASM[t]


def main():
    exports = json.load(open(sys.argv[2]))['exports']
    if sys.argv[1] == 'names':
        print(json.dumps(list(exports), separators=(',', ':')))
        return
    module, bits = sys.argv[3], int(sys.argv[4])
    wat = subprocess.run(['wasm-dis', module], check=True, capture_output=True, text=True).stdout
    funcs = {}
    for m in re.finditer(r'^ \((?:import "[^"]*" "[^"]*" \()?func \$(\S+)(.*)$', wat, re.M):
        params = [t for p in re.findall(r'\(param ([^)]*)\)', m.group(2)) for t in p.split() if t[0] != '$']
        funcs[m.group(1)] = (params, ' '.join(re.findall(r'\(result ([^)]*)\)', m.group(2))).split())
    named = {m.group(1): m.group(2) for m in re.finditer(r'^ \(export "([^"]+)" \(func \$(\S+)\)\)', wat, re.M)}
    bad = []
    for name, sig in exports.items():
        want = ([wasm_type(t, bits) for t in sig['params']],
                [] if sig['result'] == 'void' else [wasm_type(sig['result'], bits)])
        f = named.get(name[1:])
        got = funcs.get(f)
        if got != want:
            bad.append('%s: listed %s -> %s, module %s' % (name, want[0], want[1], got))
    if bad:
        sys.exit('bridge-exports.py: %s does not match %s:\n  %s' % (module, sys.argv[2], '\n  '.join(bad)))


main()
