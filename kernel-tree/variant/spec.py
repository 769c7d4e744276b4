# SPDX-License-Identifier: GPL-2.0-only
"""A reviewer's series on a file the lab compiles from extracted pieces:
the base's extraction spec, followed through the series.

Usage: kernel-tree/variant.sh spec TREE BASE NEW SPEC OUT (follow() here)

SPEC (wasm/extract/*.txt, format in wasm/tools/extract.py) names the
pieces of one file the lab compiles for the base. The series (BASE..NEW
of the kernel tree TREE) may add, remove or replace some of them; OUT is
the spec of the same pieces on NEW:

  func NAME[@N]  kept while NEW still has its N-th definition; dropped
                 when the series removes it;
  line TEXT      kept while NEW still has the line; when the series
                 removes or rewrites it, the file-scope lines the same
                 hunk adds in its place (DEFINE_SRCU(...) for
                 DECLARE_RWSEM(...)) stand for it;
  block TEXT     kept while NEW still has it;
  and a function the series adds that a kept function calls (directly
  or through another added one), with the file-scope one-line
  definitions the series adds that kept code uses, are added.

Items are written in NEW's file order, which extract.py checks. follow()
returns one note per change ("add func X", "replace line A by line B",
"drop func Y"), none when the spec stands as it is; it fails, naming the
item, when a removed line has nothing in its place that kept code could
use.
"""
import re

import diffs

from .util import VariantError

_WORD = re.compile(r'[A-Za-z_]\w*')
# A file-scope definition on one line: DEFINE_X(name...);  static T name...;  #define NAME ...
_DEFINED = (
    re.compile(r'^(?:static\s+)?(?:DEFINE|DECLARE)_\w+\(\s*([A-Za-z_]\w*)'),
    re.compile(r'^(?:static\s+)?(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:struct\s+\w+\s*\*?\s*|\w+\s+\**)\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=.*)?;\s*$'),
    re.compile(r'^#define\s+([A-Za-z_]\w*)'),
)


def defined_name(text):
    for r in _DEFINED:
        m = r.match(text)
        if m:
            return m.group(1)
    return None


def one_line_definition(text):
    """A file-scope line that extract.py's `line` can copy: complete on its own."""
    t = text.strip()
    if not t or t.startswith(('/*', '*', '//', '#include')) or text[0] in ' \t':
        return False
    if t.startswith('#define'):
        return not t.endswith('\\')
    return t.endswith(';') and defined_name(t) is not None


def parse(spec):
    head, path, items = [], None, []
    for raw in open(spec):
        line = raw.rstrip('\n')
        w = line.split(None, 1)
        if not w or line.startswith('#'):
            if path is None:
                head.append(line)
            continue
        if w[0] == 'file':
            path = w[1].strip()
        else:
            items.append((w[0], w[1] if len(w) > 1 else ''))
    return head, path, items


def definitions(lines):
    """Function name -> [(first, last)] of its definitions, in order."""
    out = {}
    for name, first, last in diffs.spans(lines):
        if not name.startswith(('struct ', 'union ', 'enum ')):
            out.setdefault(name, []).append((first, last))
    return out


def follow(tree, base, new, spec, out):
    """Writes OUT, SPEC followed from BASE to NEW; the notes of what changed.
    VariantError when a removed line has nothing in its place."""
    head, path, items = parse(spec)
    old_lines = diffs.show(tree, base, path)
    new_lines = diffs.show(tree, new, path)
    old_defs, new_defs = definitions(old_lines), definitions(new_lines)
    # a hunk per change: what a removed line gives way to is in its own hunk
    context, diffs.CONTEXT = diffs.CONTEXT, 0
    try:
        hunks = diffs.git_diff(tree, base, new, [path])
    finally:
        diffs.CONTEXT = context
    notes = []
    kept = []  # (position in NEW, kind, text)

    def where_line(text, after=0):
        for i in range(after, len(new_lines)):
            if new_lines[i] == text:
                return i + 1
        return None

    def added_in_place(text):
        """The file-scope one-line definitions a hunk adds where it removes the line `text`."""
        for h in hunks:
            minus = [o for op, o, n, t in h['lines'] if op == '-' and t == text]
            if minus:
                return [(n, t) for op, o, n, t in h['lines']
                        if op == '+' and one_line_definition(t) and diffs.enclosing(tree, new, path, n) == 'file scope']
        return []

    for kind, text in items:
        if kind == 'func':
            name, _, nth = text.partition('@')
            k = int(nth or 1)
            d = new_defs.get(name, [])
            if len(d) >= k:
                kept.append((d[k - 1][0], kind, text))
            else:
                notes.append(f'drop func {text} (the series removes it)')
        elif kind in ('line', 'block'):
            at = where_line(text)
            if at is not None:
                kept.append((at, kind, text))
                continue
            if kind == 'block':
                raise VariantError(f'the series removes or rewrites "{text}" of {path}, '
                                   f'which the lab compiles (spec {spec})')
            instead = added_in_place(text)
            if not instead:
                notes.append(f'drop line {text} (the series removes it)')
            else:
                notes.append(f'replace line {text} by ' + ', '.join(f'line {t}' for _, t in instead))
                kept.extend((n, 'line', t) for n, t in instead)

    # What the kept code uses that the series adds: functions, then one-line definitions.
    def body(first, last):
        return '\n'.join(new_lines[first - 1:last])

    have = {t.partition('@')[0] for k, t in ((k, t) for _, k, t in kept) if k == 'func'}
    have_lines = {t for _, k, t in kept if k == 'line'}
    added_funcs = {n: d for n, d in new_defs.items() if n not in old_defs}
    todo = [t.partition('@')[0] for _, k, t in kept if k == 'func']
    used = set()
    while todo:
        name = todo.pop()
        for first, last in new_defs.get(name, []):
            for w in set(_WORD.findall(body(first, last))):
                used.add(w)
                if w in added_funcs and w not in have:
                    have.add(w)
                    todo.append(w)
                    first_def = added_funcs[w][0][0]
                    kept.append((first_def, 'func', w))
                    notes.append(f'add func {w} (the series adds it; kept code calls it)')
    for h in hunks:
        for op, o, n, t in h['lines']:
            if op == '+' and t not in have_lines and one_line_definition(t) \
                    and diffs.enclosing(tree, new, path, n) == 'file scope' and defined_name(t.strip()) in used:
                have_lines.add(t)
                kept.append((n, 'line', t))
                notes.append(f'add line {t} (the series adds it; kept code uses it)')

    kept.sort(key=lambda k: k[0])
    with open(out, 'w') as f:
        f.write('# SPDX-License-Identifier: GPL-2.0-only\n')
        f.write(f'# Derived by kernel-tree/variant/spec.py from {spec} for {new}:\n')
        f.write('# the base\'s pieces of the file, followed through the series.\n')
        for n in notes:
            f.write(f'#   {n}\n')
        f.write(f'file {path}\n')
        for _, kind, text in kept:
            f.write(f'{kind} {text}\n')
    return notes
