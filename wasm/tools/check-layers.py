#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The layers of wasm/, run by `make lint` (the C twin of
scripts/check-imports.mjs): which folder or file may include which, and,
for the host code (runtime/, lab/, explore/), which may call which: each
file is compiled here and its object's undefined symbols are looked up
among the others' definitions, so a call is what the linker sees.

  check-layers.py           check; one line of figures when clean
  check-layers.py --graph   also print wasm/runtime's includes and calls,
                            an arrow a line, and its circles
  check-layers.py --dot     the same graph for Graphviz (dot -Tsvg)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WASM = os.path.join(ROOT, 'wasm')

# Layers, bottom up: (name, how a path under wasm/ is in it). First match wins.
LAYERS = [
    ('heap', lambda p: p in ('runtime/heap.c', 'runtime/heap.h')),
    ('hooks', lambda p: p in ('runtime/footprint.c', 'runtime/footprint.h')),
    ('runtime', lambda p: p.startswith('runtime/')),
    ('shim', lambda p: p.startswith(('include/', 'overlay/'))),
    ('scenario.h', lambda p: p == 'scenarios/scenario.h' or
     (p.startswith('scenarios/') and p.endswith('.def'))),
    ('registry', lambda p: p == 'scenarios/registry.c'),
    ('kernel-side', lambda p: p.startswith(('glue/', 'scenarios/')) or p.startswith('tests/litmus_kernel.')),
    ('lab', lambda p: p.startswith('lab/')),
    ('explore', lambda p: p.startswith('explore/')),
    ('programs', lambda p: p.startswith(('cli/', 'bridge/', 'fuzz/', 'tests/'))),
    ('tools', lambda p: p.startswith(('tools/', 'selftest/'))),
]

# What each layer may include, and why. A layer may always include itself.
INCLUDES = {
    'heap': ((), 'heap.c replaces malloc(), which every file calls: a file it '
             'included or called would stand in one circle with all of them'),
    'hooks': ((), 'the machine notes a step\'s footprint at nearly every access, and '
              'the explorer reads it from above: it leans on nothing'),
    'runtime': (('heap', 'hooks'), 'the simulated machine knows no scenario, no run '
                'driver, no searcher: those stand on it'),
    'shim': (('runtime:sim.h', 'runtime:choice.h'), 'kernel code reaches the machine only '
             'through sim.h, its kernel-facing API, and choice.h, its choice points (compiled '
             '-nostdinc, with no host header)'),
    'scenario.h': (('runtime:params.def',), 'the scenario descriptor and the lists of refereed '
                   'scenarios (kunit.def, ...) are read by kernel-side and host code alike, so '
                   'they need neither; only params.def, the one list of run parameters, which '
                   'struct scenario_params is made from (macros over built-in types, no code)'),
    'registry': (('scenario.h',), 'the list of a program\'s scenarios'),
    'kernel-side': (('shim', 'runtime:sim.h', 'runtime:choice.h', 'scenario.h'), 'glue and '
                    'scenarios are compiled as kernel code: the shim, sim.h and choice.h, never '
                    'the host API'),
    'lab': (('heap', 'hooks', 'runtime', 'scenario.h'), 'one run of a scenario on the '
            'machine, above both'),
    'explore': (('heap', 'hooks', 'runtime', 'scenario.h', 'lab'), 'a search over runs, '
                'above the run'),
    'programs': (('heap', 'hooks', 'runtime', 'scenario.h', 'lab', 'explore', 'kernel-side'),
                 'programs compose everything below; nothing includes a program'),
    'tools': (('runtime', 'scenario.h'), 'generators read the runtime\'s definitions (events.def, '
              'params.def) and the scenarios\' codes (scenario.h\'s label kinds) to write them for the page'),
}

# What each host layer's objects may call (layers whose definitions they may use), and why.
CALLS = {
    'heap': ((), 'see its includes: a call out of the allocator closes a circle '
             'through every file that allocates'),
    'hooks': ((), 'called at every access of the machine, it calls nothing back'),
    'runtime': (('heap', 'hooks'), 'the machine never calls its driver or a searcher: '
                'a searcher decides through the choice hook, set from above'),
    'lab': (('heap', 'hooks', 'runtime', 'registry'), 'the run driver calls the machine'),
    'explore': (('heap', 'hooks', 'runtime', 'registry', 'lab'), 'the explorer runs the '
                'driver and reads the machine'),
}
# Host code compiled for the call graph, and the layers with no circle inside.
HOST_DIRS = ('runtime', 'lab', 'explore')
ACYCLIC = ('heap', 'hooks', 'lab', 'explore')

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def layer_of(rel):
    for name, test in LAYERS:
        if test(rel):
            return name
    return None


def sources():
    for d, _, files in os.walk(WASM):
        for f in sorted(files):
            if f.endswith(('.c', '.h', '.def')):
                yield os.path.relpath(os.path.join(d, f), WASM)


def resolve(rel, kind, spec):
    """The path under wasm/ an include names, or None (the kernel tree, libc)."""
    if kind == '"':
        p = os.path.normpath(os.path.join(os.path.dirname(rel), spec))
        if p.startswith('..'):
            return None     # outside wasm/: tables generated from the kernel registry, data of no layer
        if os.path.exists(os.path.join(WASM, p)):
            return p
    # -Iwasm/include -Iwasm/runtime come first on the kernel side's command line
    for base in ('include', 'runtime'):
        p = os.path.join(base, spec)
        if os.path.exists(os.path.join(WASM, p)):
            return p
    return None


def allowed_include(frm, to, to_rel):
    if frm == to:
        return True
    allow = INCLUDES[frm][0]
    return to in allow or f'{to}:{os.path.basename(to_rel)}' in allow


def check_includes(problems, edges):
    count = 0
    for rel in sources():
        frm = layer_of(rel)
        if frm is None:
            problems.append(f'{rel}: in no layer (give its folder a rule in {os.path.relpath(__file__, ROOT)})')
            continue
        with open(os.path.join(WASM, rel), errors='replace') as f:
            text = f.read()
        for kind, spec in INCLUDE_RE.findall(text):
            to_rel = resolve(rel, kind, spec)
            if to_rel is None:
                continue
            count += 1
            to = layer_of(to_rel)
            if rel.startswith('runtime/') and to_rel.startswith('runtime/') and src_of(rel) != src_of(to_rel):
                edges.setdefault((src_of(rel), src_of(to_rel)), set()).add('#include')
            if not allowed_include(frm, to, to_rel):
                problems.append(f'{rel}: includes {spec} ({frm} -> {to}): {frm} may include itself'
                                f'{"".join(", " + a for a in INCLUDES[frm][0])} only, because '
                                f'{INCLUDES[frm][1]}')
    return count


def src_of(rel):
    """A header stands for its source where there is one (foo.h -> foo.c)."""
    base, ext = os.path.splitext(rel)
    if ext == '.h' and os.path.exists(os.path.join(WASM, base + '.c')):
        return base + '.c'
    return rel


def symbols(cc, rel, tmp):
    obj = os.path.join(tmp, rel.replace('/', '_') + '.o')
    subprocess.run(cc + ['-c', os.path.join(WASM, rel), '-o', obj], check=True, cwd=ROOT)
    out = subprocess.run(['nm', obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == 'U':
            undefined.add(f[1])
        elif len(f) == 3 and f[1] in 'TDBRCGS':
            defined.add(f[2])
    return defined, undefined


def check_calls(problems, edges):
    cc = [os.environ.get('CHECK_LAYERS_CC', 'clang-14'), '-m32', '-std=gnu11', '-O0', '-w']
    files = [os.path.join(d, f) for d in HOST_DIRS for f in sorted(os.listdir(os.path.join(WASM, d)))
             if f.endswith('.c')] + ['scenarios/registry.c']
    with tempfile.TemporaryDirectory() as tmp:
        syms = {rel: symbols(cc, rel, tmp) for rel in files}
    owner = {}
    for rel, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, rel)
    calls = 0
    for rel, (_, undefined) in syms.items():
        frm = layer_of(rel)
        for s in sorted(undefined):
            to_rel = owner.get(s)
            if to_rel is None or to_rel == rel:
                continue
            calls += 1
            to = layer_of(to_rel)
            edges.setdefault((rel, to_rel), set()).add(s)
            if frm != to and to not in CALLS[frm][0]:
                problems.append(f'{rel}: calls {s} of {to_rel} ({frm} -> {to}): {frm} may call itself'
                                f'{"".join(", " + a for a in CALLS[frm][0])} only, because {CALLS[frm][1]}')
    return calls


def circles(nodes, edges):
    """Strongly connected components of more than one file (Tarjan)."""
    succ = {n: sorted({b for (a, b) in edges if a == n and b in nodes}) for n in nodes}
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def main():
    problems, edges = [], {}
    nincl = check_includes(problems, edges)
    ncalls = check_calls(problems, edges)
    nodes = {a for (a, _) in edges} | {b for (_, b) in edges}
    comps = circles(nodes, edges)
    for comp in comps:
        bad = sorted({layer_of(f) for f in comp} & set(ACYCLIC))
        if bad:
            problems.append(f'a circle through {", ".join(bad)}: {" ".join(comp)}')
    runtime = {n for n in nodes if n.startswith('runtime/')}
    rt_edges = {k: v for k, v in edges.items() if k[0] in runtime and k[1] in runtime}
    rt_comps = circles(runtime, rt_edges)
    if '--graph' in sys.argv:
        print('wasm/runtime: includes and calls (a -> b: what a takes from b)')
        for (a, b) in sorted(rt_edges):
            print(f'  {a} -> {b}: {" ".join(sorted(rt_edges[(a, b)]))}')
        for comp in rt_comps:
            print(f'  circle of {len(comp)}: {" ".join(comp)}')
        left = sorted(n for n in runtime if not any(n in c for c in rt_comps))
        print(f'  in no circle: {" ".join(left)}')
    if '--dot' in sys.argv:
        print('digraph runtime {\n  rankdir=BT; node [shape=box, fontname="sans-serif"];')
        for (a, b) in sorted(rt_edges):
            print(f'  "{a[8:]}" -> "{b[8:]}";')
        print('}')
    for p in problems:
        print(f'layer: {p}', file=sys.stderr)
    if problems:
        sys.exit(1)
    heap_free = not any('runtime/heap.c' in c for c in rt_comps)
    print(f'[lint] layers of wasm/: {nincl} includes and {ncalls} calls by the rules; '
          f'wasm/runtime: {len(runtime)} files, circles {[len(c) for c in rt_comps]}, '
          f'{"none" if heap_free else "ONE"} through the allocator')


if __name__ == '__main__':
    main()
