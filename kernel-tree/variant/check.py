# SPDX-License-Identifier: GPL-2.0-only
"""make variant-check: a reviewer's variant against another kernel of the
lab on every scenario, and natively against itself in wasm."""
import hashlib
import subprocess

from .lab import find, lab_variants, read_entry
from .util import VariantError, asan_env, make


def events(branch, cmd, env=None):
    """A run's event log (labrun's JSON lines) with the kernel's own
    branch name replaced by one placeholder, so that two kernels' logs
    compare event for event."""
    r = subprocess.run(cmd, capture_output=True, env=env or asan_env())
    text = r.stdout.decode('utf-8', 'replace')
    return text.replace(f'"tree":"{branch}"', '"tree":"@kernel"')


def first_difference(a, b):
    """(event number, line of a, line of b) where two logs first differ;
    a line past its log's end is None. None when they are the same."""
    la, lb = a.split('\n'), b.split('\n')
    if la and la[-1] == '':
        la.pop()
    if lb and lb[-1] == '':
        lb.pop()
    for n in range(max(len(la), len(lb))):
        x = la[n] if n < len(la) else None
        y = lb[n] if n < len(lb) else None
        if x != y:
            return n, x, y
    return None


def difference_text(what, ref, name, a, b):
    n, x, y = first_difference(a, b)
    return (f'{what} at event {n}:\n  {ref}: {x if x else "(end of its log)"}\n'
            f'  {name}: {y if y else "(end of its log)"}')


def digest(text):
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def check(name, ref=None, seeds=3, out=print):
    """Prints a line per scenario; whether every log agreed."""
    if not read_entry(name):
        raise VariantError(f"no reviewer variant '{name}'")
    rows = lab_variants()
    me = find(rows, name)
    ref = ref or me.base
    other = find(rows, ref)
    if not other:
        raise VariantError(f"no variant '{ref}'")
    nat, rnat, wasm = f'build/native/{name}/labrun', f'build/native/{ref}/labrun', f'build/wasm/{name}/labrun.cjs'
    make(nat, rnat, wasm)
    listed = subprocess.run([nat, '--list'], capture_output=True, text=True, env=asan_env()).stdout
    scenarios = [l.split('\t')[0] for l in listed.split('\n') if l.strip()]
    if not scenarios:
        raise VariantError(f'{nat} lists no scenario')
    ok = True
    for s in scenarios:
        same = wsame = 0
        a = ''
        for seed in range(1, seeds + 1):
            run = ['--scenario', s, '--seed', str(seed)]
            a = events(me.branch, [nat, *run])
            b = events(other.branch, [rnat, *run])
            c = events(me.branch, ['node', '--no-experimental-fetch', wasm, *run])
            if digest(a) == digest(b):
                same += 1
            else:
                ok = False
                if same >= seed - 1:
                    out(difference_text(f'check: {s} seed {seed}: {name} differs from {ref}', ref, name, b, a))
            if digest(a) == digest(c):
                wsame += 1
            else:
                ok = False
                out(f'check: {s} seed {seed}: {name} natively and in wasm differ')
        out(f'check: {s}: {name} = {ref} on {same} of {seeds} seeds; native = wasm on {wsame} of {seeds} '
            f'({len(a.splitlines())} events on seed {seeds})')
    return ok
