# SPDX-License-Identifier: GPL-2.0-only
"""What a series changes, against what the lab compiles for its base: the
files of the base's list, and of a file compiled from extracted pieces only
those pieces; a change outside is refused (or, with PARTIAL=1, listed),
and so is a changed declaration of a function the glue or the scenarios
call."""
import os
import re
import subprocess
from dataclasses import dataclass, field

import diffs

from .util import TREE

STRUCT = re.compile(r'^(struct|union|enum)\s+([A-Za-z_]\w*)')
# A function's declaration or definition line: the name before its "(".
DECL = re.compile(r'^(?![#\s/{}*])(?:[\w\s\*]+?)\b([A-Za-z_]\w*)\s*\(')
NOT_NAMES = ('if', 'for', 'while', 'switch', 'return', 'sizeof')

# How compare() ends: the shell's exit codes.
OK, NOTHING_COMPILED, OUTSIDE, INTERFACE = 0, 1, 2, 3


@dataclass
class Verdict:
    status: int = OK
    touched: list = field(default_factory=list)
    changes: dict = field(default_factory=dict)      # path -> [function or "file scope"]
    inside: dict = field(default_factory=dict)
    outside: dict = field(default_factory=dict)
    unbuilt: dict = field(default_factory=dict)      # path -> why the configuration builds it not
    includes: dict = field(default_factory=dict)     # path -> #include lines the series adds at file scope
    interface: list = field(default_factory=list)
    compiled: str = ''
    error: str = ''


def show(d):
    return '; '.join(f'{p}: {", ".join(n)}' for p, n in d.items())


def read_specs(paths):
    """{file: (names, lines)}: what each extraction spec compiles of its
    file, functions and structures by name, file-scope lines by text."""
    out = {}
    for spec in paths:
        fname, names, lines = None, set(), set()
        with open(spec, encoding='utf-8') as f:
            for l in f:
                w = l.rstrip('\n').split(None, 1)
                if len(w) < 2 or l.startswith('#'):
                    continue
                if w[0] == 'file':
                    fname = w[1].strip()
                elif w[0] == 'func':
                    names.add(w[1].split('@')[0].strip())
                elif w[0] == 'block' and STRUCT.match(w[1]):
                    m = STRUCT.match(w[1])
                    names.add(f'{m.group(1)} {m.group(2)}')
                elif w[0] in ('line', 'block'):
                    lines.add(w[1].strip())
        got = out.setdefault(fname, (set(), set()))
        got[0].update(names)
        got[1].update(lines)
    return out


def unbuilt_by(path, makefile_lines, autoconf):
    """Why the configuration builds a .c file not (obj-$(CONFIG_X) in its
    Makefile with CONFIG_X unset in autoconf), or None."""
    if not path.endswith('.c'):
        return None
    d, f = os.path.split(path)
    for l in makefile_lines:
        m = re.match(r'^obj-\$\((CONFIG_\w+)\)\s*\+?=.*\b' + re.escape(f[:-2]) + r'\.o\b', l)
        if m and not re.search(r'^#define ' + m.group(1) + r'\b', autoconf, re.M):
            return f'{m.group(1)} is not set (obj-$({m.group(1)}) in {d}/Makefile)'
    return None


def removed_declarations(diff_text):
    """{function: its old declaration line} of the lines a -U0 diff removes."""
    removed = {}
    for line in diff_text.split('\n'):
        if line.startswith('-') and not line.startswith('---'):
            m = DECL.match(line[1:])
            if m and m.group(1) not in NOT_NAMES:
                removed.setdefault(m.group(1), line[1:].strip())
    return removed


def callers(removed, sources):
    """'name() (was: decl), called at FILE:LINE' for each removed
    declaration a project source calls, the first call of each file."""
    calls = []
    for name, decl in removed.items():
        for src in sources:
            with open(src, encoding='utf-8', errors='replace') as f:
                for k, l in enumerate(f, 1):
                    if re.search(r'\b' + re.escape(name) + r'\s*\(', l):
                        calls.append(f'{name}() (was: {decl}), called at {src}:{k}')
                        break
    return calls


def compare(base, new, files_list, srcs, extract, project, partial, base_extract, tree=TREE,
            autoconf_path='wasm/include/generated/autoconf.h'):
    """The verdict on the series BASE..NEW for a kernel compiled from
    files_list, srcs (whole) and the extraction specs extract (the base's,
    and for a file the series changes, its spec followed through it);
    base_extract: the base's own specs."""
    v = Verdict()
    with open(files_list, encoding='utf-8') as f:
        listed = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    specs = read_specs(extract)
    for fname, (_, lines) in read_specs(base_extract).items():
        specs.setdefault(fname, (set(), set()))[1].update(lines)  # a line the series rewrites was compiled
    with open(autoconf_path, encoding='utf-8') as f:
        autoconf = f.read()

    def unbuilt(path):
        try:
            mk = diffs.show(tree, new, f'{os.path.dirname(path)}/Makefile')
        except subprocess.CalledProcessError:
            return None
        return unbuilt_by(path, mk, autoconf)

    v.touched = diffs.git(tree, 'diff', '--name-only', '--no-renames', base, new).split()
    for path in v.touched:
        names = []
        for h in diffs.git_diff(tree, base, new, [path]):
            for op, o, n, text in h['lines']:
                if op == ' ':
                    continue
                if not path.endswith(('.c', '.h')):
                    names.append('file scope')
                    continue
                side, line = ('old', o) if op == '-' else ('new', n)
                name = diffs.enclosing(tree, h[side]['tree'], path, line)
                t = text.strip()
                if name == 'file scope' and path in specs:
                    # A file-scope line of an extracted file: compiled if a spec names it; comments
                    # and blank lines are not code; the glue's includes stand for the file's.
                    if not t or t.startswith(('/*', '*', '//')):
                        continue
                    if t.startswith('#include'):
                        v.includes.setdefault(path, []).append(t)
                        continue
                    name = 'file scope' if t in specs[path][1] else f'file scope: {t}'
                names.append(name)
        names = list(dict.fromkeys(names))
        v.changes[path] = names
        why = unbuilt(path) if path not in listed else None
        if why:
            v.unbuilt[path] = why
        elif path not in listed:
            v.outside[path] = names
        elif path in specs:
            ins = [f for f in names if f in specs[path][0] or f == 'file scope']
            out = [f for f in names if f not in ins]
            if ins:
                v.inside[path] = ins
            if out:
                v.outside[path] = out
        else:
            v.inside[path] = names

    compiled = ', '.join(srcs)
    for path, (funcs, lines) in specs.items():
        compiled += f'; from {path} only the functions and structures {", ".join(sorted(funcs))}'
        compiled += f' and {len(lines)} file-scope line(s)' if lines else ''
    v.compiled = compiled + f'; the headers listed in {files_list}'
    if not v.inside:
        v.status, v.error = NOTHING_COMPILED, 'The series changes nothing the lab compiles for this base.'
        return v
    if v.outside and not partial:
        v.status = OUTSIDE
        v.error = ('The series changes code the lab does not compile, so the kernel the lab would run '
                   'is not the series (make variant PARTIAL=1 ... runs the compiled part alone).')
        return v
    text = diffs.git(tree, 'diff', '-U0', '--no-renames', base, new, '--', *v.inside.keys())
    v.interface = callers(removed_declarations(text), project)
    if v.interface:
        v.status = INTERFACE
        v.error = ('The series changes an interface the glue calls: the glue (wasm/glue/) must follow '
                   'it before the lab can run this series.')
    return v


def refusal(v, base_branch):
    """The refusal's lines, as make variant prints them."""
    out = [v.error, f'  the series changes:   {show(v.changes)}']
    if v.status == OUTSIDE:
        out.append(f'  not compiled:         {show(v.outside)}')
    if v.status == INTERFACE:
        out.append(f'  interface changed:    {"; ".join(v.interface)}')
    out.append(f'  the lab compiles ({base_branch}): {v.compiled}')
    return '\n'.join(out)
