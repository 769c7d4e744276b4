#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Instrument a linked wasm32 module for runtime/fiber.c's switch with
Binaryen's Asyncify, each function only where a switch can pass through it.

Usage: asyncify.py MODULE.wasm   (linked -O2 --profiling-funcs, without
emcc's -sASYNCIFY; rewritten in place, its names then stripped; with
ASYNCIFY_KEEP_NAMES=1 in the environment they are kept, so that a profile
of the module, e.g. node --cpu-prof, names its functions)

By default Asyncify assumes that every indirect call may switch, so every
function with one, and every caller up the chain, saves and restores its
locals around its calls. Here the module's call graph says which can: a
function may switch if it calls one that may (from fiber_unwind(), which
starts the unwind), or makes an indirect call of a type that some function
in the table that may switch has. Asyncify then ignores indirect calls
(asyncify-ignore-indirect) except in the functions this finds
(asyncify-addlist). Never instrumented (asyncify-removelist):
fiber_host_loop(), where every fiber's stack starts, and KASAN's callbacks,
which cannot switch (a KASAN panic leaves the task by sim_fiber_leave()).
"""
import fnmatch
import os
import re
import subprocess
import sys

BOTTOM = 'fiber_unwind'
REMOVE = ['fiber_host_loop', '__sim_kasan_*']
# runtime/fiber.c's functions that must be functions of their own, not inlined
KEPT = [BOTTOM, 'fiber_host_loop', 'fiber_entry']
# Indirect calls that cannot switch, though a function of their type can:
# libc's qsort() (musl's smoothsort: qsort, sift, trinkle) calls only the
# comparators it is given, the runtime's (explore.c); printf's pop_arg()
# only libc's reader of a long double. At 32 bits the comparators' type is
# that of shrinker callbacks that switch, and the explorer's chooser sorts,
# which made every decision instrumented; the hung-task check formats.
INDIRECT_NEVER_SWITCHES = ['qsort', 'sift', 'trinkle', 'pop_arg']
# runtime/sched.c's work of a step, apart from its switch: a function of its
# own that cannot switch, so left uninstrumented
NO_SWITCH = ['advance']


def parse(wat):
    types, funcs, table, cur = {}, {}, set(), None
    for line in wat.splitlines():
        m = re.match(r' \(type \$(\S+) \(func(.*)\)\)$', line)
        if m:
            types[m.group(1)] = (tuple(' '.join(re.findall(r'\(param ([^)]*)\)', m.group(2))).split()),
                                 tuple(' '.join(re.findall(r'\(result ([^)]*)\)', m.group(2))).split()))
            continue
        m = re.match(r' \(elem .*?\bfunc (.*)\)$', line) or re.match(r' \(elem \(i32\.const \d+\) (.*)\)$', line)
        if m:
            table.update(x.lstrip('$') for x in m.group(1).split())
            continue
        m = re.match(r' \(func \$(\S+)(.*)$', line)
        if m:
            params = tuple(p.split()[-1] for p in re.findall(r'\(param \$\S+ ([^)]*)\)', m.group(2)))
            results = tuple(' '.join(re.findall(r'\(result ([^)]*)\)', m.group(2))).split())
            name = m.group(1)
            cur = funcs[name] = {'sig': (params, results), 'calls': set(), 'indirect': set()}
            continue
        if cur is not None:
            cur['calls'].update(re.findall(r'\(call \$(\S+)', line))
            if name not in INDIRECT_NEVER_SWITCHES:
                cur['indirect'].update(re.findall(r'\(call_indirect (?:\$\S+ )?\(type \$(\S+)\)', line))
    return types, funcs, table


def switching(types, funcs, table):
    def removed(name):
        return any(fnmatch.fnmatchcase(name, p) for p in REMOVE)

    may, changed = {BOTTOM}, True
    while changed:
        changed = False
        sigs = {funcs[f]['sig'] for f in may & table}
        for name, f in funcs.items():
            if name in may or removed(name):
                continue
            if f['calls'] & may or any(types.get(t) in sigs for t in f['indirect']):
                may.add(name)
                changed = True
    sigs = {funcs[f]['sig'] for f in may & table}
    return may, sorted(n for n in may if any(types.get(t) in sigs for t in funcs[n]['indirect']))


def main():
    wasm = sys.argv[1]
    wat = subprocess.run(['wasm-dis', wasm], check=True, capture_output=True, text=True).stdout
    types, funcs, table = parse(wat)
    missing = [f for f in KEPT if f not in funcs]
    if missing or not table:
        sys.exit('asyncify.py: %s has no %s or no table: link it with --profiling-funcs' %
                 (wasm, ', '.join(missing) or 'function'))
    if 'fiber_entry' not in funcs['fiber_host_loop']['calls']:
        sys.exit('asyncify.py: %s: fiber_host_loop() does not call fiber_entry(): inlined?' % wasm)
    may, add = switching(types, funcs, table)
    wrong = [f for f in NO_SWITCH if f not in funcs or f in may]
    if wrong:
        sys.exit('asyncify.py: %s: %s inlined, or can switch: every step would pay for '
                 'Asyncify there (runtime/sched.c advance())' % (wasm, ', '.join(wrong)))
    subprocess.run(['wasm-opt', wasm, '--optimize-level=2', '--asyncify',
                    # no import of the module's (JavaScript) switches: only the "asyncify" ones
                    '--pass-arg=asyncify-imports@asyncify.start_unwind,asyncify.stop_rewind',
                    '--pass-arg=asyncify-ignore-indirect',
                    '--pass-arg=asyncify-addlist@' + ','.join(add),
                    '--pass-arg=asyncify-removelist@' + ','.join(REMOVE),
                    *(['-g'] if os.environ.get('ASYNCIFY_KEEP_NAMES') else ['--strip-debug']), '-o', wasm], check=True)
    print('  ASYNCIFY %s: %d of %d functions can switch, %d of them by an indirect call' %
          (wasm, len(may) - 1, len(funcs), len(add)))


main()
