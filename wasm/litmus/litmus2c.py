#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The kernel's litmus tests as scenarios of the simulated machine.

  litmus2c.py OUT.c OUT.json FILE.litmus...

Reads each .litmus file (herd7's C dialect, as tools/memory-model/ and
Documentation/litmus-tests/ write them) and writes one C file with a
scenario per test, "litmus/<name>": each process P<n> becomes a task on
CPU n running the test's own C through the shim (READ_ONCE(), smp_mb(),
spin_lock() ... are the kernel's macros there), the shared variables live
in a structure of their own, a cache line each, set as the test's initial
state says, and the init task checks the test's "exists" clause (under its
"filter") once every process is done: satisfied, it is a test report
("litmus: exists satisfied"), so that the explorer counts the execution
as one that reaches it and gives its schedule. Each process's registers
are the init task's RETURN, the execution's end state.

OUT.json lists what was read: each test's name, file, documented Result,
processes and whether it has a filter; a test it cannot read is listed
with the reason, and has no scenario.
"""
import json
import re
import sys


class Refused(Exception):
    pass


def strip_comments(text):
    text = re.sub(r'\(\*\s.*?\*\)', ' ', text, flags=re.S)  # herd7's (* ... *), not C's (*p
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def match_brace(text, i):
    """Index after the brace that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == '{':
            depth += 1
        elif text[j] == '}':
            depth -= 1
            if depth == 0:
                return j + 1
    raise Refused('unbalanced braces')


C_IDENT = r'[A-Za-z_][A-Za-z0-9_]*'


def parse_param(p):
    """'int *x' -> ('x', 'int', 1): a process's parameter, a pointer to a shared variable."""
    m = re.fullmatch(r'\s*(?:volatile\s+)?(' + C_IDENT + r')\s*(\*+)\s*(' + C_IDENT + r')\s*', p)
    if not m:
        raise Refused(f'cannot read the parameter "{p.strip()}"')
    base, stars, name = m.groups()
    return name, base, len(stars) - 1


def parse(path, text):
    raw = text
    head = re.match(r'\s*C\s+(\S+)', raw)
    if not head:
        raise Refused('no "C <name>" line')
    name = head.group(1)
    result = re.search(r'Result:\s*(\w+)', raw)
    if not result:
        raise Refused('no "Result:" in its header')
    body = strip_comments(raw[head.end():])

    # The initial state: { ... } before the first process.
    i = body.index('{')
    j = match_brace(body, i)
    init_text = body[i + 1:j - 1]
    rest = body[j:]

    procs = []
    pos = 0
    for m in re.finditer(r'P(\d+)\s*\(([^)]*)\)\s*\{', rest):
        if m.start() < pos:
            continue
        end = match_brace(rest, m.end() - 1)
        params = [parse_param(p) for p in m.group(2).split(',') if p.strip()]
        procs.append({'n': int(m.group(1)), 'params': params, 'body': rest[m.end():end - 1]})
        pos = end
    if not procs:
        raise Refused('no process')
    if len(procs) > 8:
        raise Refused(f'{len(procs)} processes: the simulated machine runs a test on at most 8 CPUs')
    if [p['n'] for p in procs] != list(range(len(procs))):
        raise Refused('processes are not P0, P1, ... in order')
    tail = rest[pos:]
    filt = re.search(r'\bfilter\s*(\(.*?\))\s*(?=exists|locations|$)', tail, re.S)
    ex = re.search(r'\bexists\s*(.*)$', tail, re.S)
    if not ex:
        raise Refused('no "exists" clause')
    if result.group(1) not in ('Never', 'Sometimes', 'DEADLOCK'):
        raise Refused(f'its Result "{result.group(1)}" is none of Never, Sometimes, DEADLOCK')
    if result.group(1) == 'DEADLOCK' and not filt:
        raise Refused('Result DEADLOCK with no filter to check')
    return {
        'name': name, 'file': path, 'result': result.group(1),
        'init': init_text, 'procs': procs,
        'filter': filt.group(1).strip() if filt else None,
        'exists': ex.group(1).strip(),
    }


def shared_vars(t):
    """Each shared variable's C type: from the processes' parameters and the initial state."""
    types = {}
    for p in t['procs']:
        for name, base, depth in p['params']:
            ty = base + ' *' * depth if depth else base
            if types.get(name, ty) != ty:
                raise Refused(f'"{name}" has two types')
            types[name] = ty
    for decl in [d.strip() for d in t['init'].split(';') if d.strip()]:
        m = re.fullmatch(r'(?:(' + C_IDENT + r')\s*(\**)\s*)?(' + C_IDENT + r')\s*(?:=\s*(.+))?', decl, re.S)
        if not m:
            raise Refused(f'cannot read the initial state "{decl}"')
        base, stars, name, value = m.groups()
        if base and name not in types:
            types[name] = base + ' *' * len(stars) if stars else base
        if name not in types:
            types[name] = 'int'
        # A variable named only as a value (p=y;) is an int of its own.
        v = (value or '').strip().lstrip('&')
        if re.fullmatch(C_IDENT, v) and v not in types and not v.startswith('ATOMIC_INIT'):
            types[v] = 'int'
    return types


def init_stmts(t, types):
    """C statements that set the initial state (s: the shared structure)."""
    out = []
    for decl in [d.strip() for d in t['init'].split(';') if d.strip()]:
        m = re.fullmatch(r'(?:' + C_IDENT + r'\s*\**\s*)?(' + C_IDENT + r')\s*(?:=\s*(.+))?', decl, re.S)
        name, value = m.group(1), m.group(2)
        if value is None:
            continue
        value = value.strip()
        am = re.fullmatch(r'ATOMIC_INIT\((.+)\)', value)
        if am:
            out.append(f'atomic_set(&s->{name}, {am.group(1)});')
        elif re.fullmatch(r'&?' + C_IDENT, value) and value.lstrip('&') in types:
            out.append(f's->{name} = &s->{value.lstrip("&")};')
        elif re.fullmatch(r'-?\d+', value):
            out.append(f's->{name} = {value};')
        else:
            raise Refused(f'cannot read the initial value "{value}"')
    return out


def registers(proc):
    """The registers a process declares (its locals), with their types."""
    regs = []
    for m in re.finditer(r'\b(int|long|unsigned\s+long|unsigned\s+int|bool)\s*(\**)\s*(' + C_IDENT +
                         r')\s*(=|;)', proc['body']):
        regs.append((m.group(3), m.group(1) + (' ' + m.group(2) if m.group(2) else '')))
    return regs


def condition(expr, t, types, tid):
    """herd7's condition (0:r0=1 /\\ x=2 \\/ ~...) as a C expression over res and s.

    A pointer (a register that holds one, or a shared pointer variable) is
    compared by which shared variable it points to: its id (tid_id()), the
    same in every build.
    """
    regs = {(p['n'], r): ty for p in t['procs'] for r, ty in registers(p)}
    names = list(types)

    def side(tok):
        if re.fullmatch(r'\d+:' + C_IDENT, tok):
            n, r = tok.split(':')
            if (int(n), r) not in regs:
                raise Refused(f'"{tok}" is no register of P{n}')
            return f'res.p{n}_{r}', '*' in regs[(int(n), r)]
        if tok in types:
            if types[tok] == 'atomic_t':
                return f'(long)atomic_read(&s->{tok})', False
            if '*' in types[tok]:
                return f'{tid}_id(READ_ONCE(s->{tok}))', True
            return f'(long)READ_ONCE(s->{tok})', False
        raise Refused(f'cannot read "{tok}" in "{expr}"')

    def atom(m):
        lhs, is_ptr = side(m.group(1))
        rhs = m.group(2)
        if re.fullmatch(r'-?\d+', rhs):
            return f'({lhs} == (long){rhs})'
        if rhs in types:
            return f'({lhs} == {names.index(rhs) + 1})'
        raise Refused(f'cannot read "{rhs}" in "{expr}"')

    c = re.sub(r'(\d+:' + C_IDENT + r'|' + C_IDENT + r')\s*=\s*(-?\d+|' + C_IDENT + r')', atom, expr)
    c = c.replace('/\\', '&&').replace('\\/', '||').replace('~', '!')
    if re.search(r'[^\s()&|!A-Za-z0-9_.=>\-*]', c.replace('==', '')):
        raise Refused(f'cannot read "{expr}"')
    return c


def ident(name):
    return re.sub(r'[^A-Za-z0-9]', '_', name)


def emit(t, k):
    types = shared_vars(t)
    tid = f't{k}'
    lines = [f'/* {t["name"]} ({t["file"]}), Result: {t["result"]} */',
             f'struct {tid}_shared {{']
    for name, ty in types.items():
        lines.append(f'\t{ty} {name} __attribute__((aligned(64)));')
    lines.append('};')
    lines.append(f'static struct {tid}_shared {tid}_s;')
    # Which shared variable a pointer points to: 1, 2, ... (0 NULL, -1 none)
    lines.append(f'static noinline long {tid}_id(const void *p)')
    lines.append('{')
    for k2, name in enumerate(types):
        lines.append(f'\tif (p == (const void *)&{tid}_s.{name})')
        lines.append(f'\t\treturn {k2 + 1};')
    lines.append('\treturn p ? -1 : 0;')
    lines.append('}')
    lines.append(f'static struct {{')
    nregs = 0
    for p in t['procs']:
        for r, ty in registers(p):
            lines.append(f'\tlong p{p["n"]}_{r} __attribute__((aligned(64)));')
            nregs += 1
    if not nregs:
        lines.append('\tlong none;')
    lines.append(f'}} {tid}_res;')
    for p in t['procs']:
        params = ', '.join(f'{base} {"*" * (depth + 1)}{name}' for name, base, depth in p['params'])
        lines.append(f'static noinline void {tid}_P{p["n"]}_body({params or "void"})')
        lines.append('{')
        # herd7's registers start at 0
        body = re.sub(r'\b((?:int|long|unsigned\s+long|unsigned\s+int|bool)\s*\**\s*' + C_IDENT + r')\s*;',
                      r'\1 = 0;', p['body'].rstrip())
        lines.append(body)
        for r, ty in registers(p):
            if '*' in ty:
                lines.append(f'\t{tid}_res.p{p["n"]}_{r} = {tid}_id({r});')
            else:
                lines.append(f'\t{tid}_res.p{p["n"]}_{r} = (long){r};')
        lines.append('}')
        args = ', '.join(f'&{tid}_s.{name}' for name, _, _ in p['params'])
        lines.append(f'static void {tid}_P{p["n"]}(void *arg)')
        lines.append('{')
        # The processes start together: each may wait after its start (a
        # context switch, a full barrier) for the others to run.
        lines.append('\tsim_step(SIM_SITE(), SIM_COST_NONE);')
        lines.append(f'\t{tid}_P{p["n"]}_body({args});')
        lines.append(f'\tcomplete(&litmus_done[{p["n"]}]);')
        lines.append('}')
    lines.append(f'static void {tid}_init(void *arg)')
    lines.append('{')
    lines.append(f'\tstruct {tid}_shared *s = &{tid}_s;')
    lines.append(f'\tint i;')
    lines.append('')
    lines.append('\t(void)s;')
    lines.append(f'\tfor (i = 0; i < {len(t["procs"])}; i++)')
    lines.append('\t\tinit_completion(&litmus_done[i]);')
    for name, ty in types.items():
        if ty == 'spinlock_t':
            lines.append(f'\tspin_lock_init(&s->{name});')
    for st in init_stmts(t, types):
        lines.append('\t' + st)
    for p in t['procs']:
        lines.append(f'\tsim_spawn({p["n"]}, "P{p["n"]}", {tid}_P{p["n"]}, NULL);')
    lines.append(f'\tfor (i = 0; i < {len(t["procs"])}; i++)')
    lines.append('\t\twait_for_completion(&litmus_done[i]);')
    regs = [(p['n'], r) for p in t['procs'] for r, _ in registers(p)]
    lines.append('\t{')
    lines.append(f'\t\tstruct {{ long v[{max(len(regs), 1)}]; }} state = {{ {{ ' +
                 ', '.join(f'{tid}_res.p{n}_{r}' for n, r in regs) + ' } };')
    lines.append('\t\tunsigned long h = 0;')
    lines.append(f'\t\tfor (i = 0; i < {len(regs)}; i++)')
    lines.append('\t\t\th = h * 31 + (unsigned long)state.v[i];')
    lines.append('\t\tSCENARIO_RETURN("registers", (int)h);')
    lines.append('\t}')
    cond_f = condition(t['filter'], t, types, tid) if t['filter'] else '1'
    cond_e = condition(t['exists'], t, types, tid)
    lines.append(f'#define res {tid}_res')
    if t['result'] == 'DEADLOCK':
        # herd7's DEADLOCK: no execution passes the filter (each one that
        # would needs the lock held twice at once), so one that passes it
        # is what the explorer looks for.
        lines.append(f'\tif ({cond_f})')
        lines.append(f'\t\tsim_test_failed(SIM_SITE(), "litmus: filter passed: %s", {json.dumps(t["filter"])});')
    else:
        lines.append(f'\tif (({cond_f}) && ({cond_e}))')
        lines.append(f'\t\tsim_test_failed(SIM_SITE(), "litmus: exists satisfied: %s", {json.dumps(t["exists"])});')
    if t['filter']:
        lines.append(f'\tif ({cond_f})')
        lines.append('\t\tSCENARIO_LABEL(NULL, 0, "litmus: filter passed");')
    lines.append('\t(void)&res;')
    lines.append('#undef res')
    lines.append('}')
    lines.append(f'static const struct scenario {tid}_scenario = {{')
    lines.append(f'\t.name = "litmus/{t["name"]}",')
    lines.append(f'\t.title = "Litmus test {t["name"]} ({t["file"]})",')
    lines.append('\t.tree = "v6.12",')
    lines.append(f'\t.nr_cpus = {len(t["procs"])},')
    lines.append('\t.nr_nodes = 1,')
    lines.append('\t.defaults = { .seed = 1 },')
    lines.append(f'\t.init = {tid}_init,')
    lines.append('\t.marked_steps = 1,')
    lines.append('};')
    return '\n'.join(lines) + '\n'


PRELUDE = '''// SPDX-License-Identifier: GPL-2.0-only
/* Generated by wasm/litmus/litmus2c.py from the kernel tree's litmus tests: do not edit. */
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <linux/completion.h>
#include <asm/barrier.h>
#include <sim.h>
#include "../../wasm/scenarios/scenario.h"

#ifndef noinline
#define noinline __attribute__((noinline))
#endif

/*
 * Each process's end, a completion of its own: the ends of different
 * processes are independent steps, so the explorer's sleep sets do not
 * order them (one shared completion made every order of the ends an
 * execution of its own: 4! of them for a four-process test).
 */
static struct completion litmus_done[8];

'''


def main(argv):
    out_c, out_json, files = argv[1], argv[2], argv[3:]
    tests, parts, scen = [], [PRELUDE], []
    for k, path in enumerate(files):
        short = re.sub(r'^.*?(tools/memory-model/|Documentation/litmus-tests/)', r'\1', path)
        try:
            with open(path) as f:
                t = parse(short, f.read())
            parts.append(emit(t, k))
            scen.append(f'\t&t{k}_scenario,')
            tests.append({'name': t['name'], 'file': short, 'result': t['result'],
                          'procs': len(t['procs']), 'filter': bool(t['filter']),
                          'exists': t['exists'], 'scenario': f'litmus/{t["name"]}'})
        except (Refused, ValueError) as e:
            tests.append({'name': re.sub(r'\.litmus$', '', path.split('/')[-1]), 'file': short,
                          'refused': str(e)})
    parts.append('const struct scenario *const sim_litmus_tests[] = {\n' + '\n'.join(scen) +
                 '\n\tNULL,\n};\n')
    with open(out_c, 'w') as f:
        f.write('\n'.join(parts))
    with open(out_json, 'w') as f:
        json.dump({'tests': tests}, f, indent=1)
        f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
