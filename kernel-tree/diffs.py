#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The data of the "What changed" panel: real diffs between the branches of
the companion kernel tree, with the real line numbers of both sides.

Usage: python3 kernel-tree/diffs.py kernel-tree/linux OUT.json [VARIANT=BRANCH...]
                                    [--review variants/NAME/variant.json...]

Every text is read from the tree with git (`git diff`, `git show
<branch>:<path>`); nothing is typed in by hand. One comparison for each
kernel of the registry (kernel-tree/manifest.json "kernels") that has a
"diff", in the registry's order, titled by it:

  BASE..BRANCH           git diff of its base and its branch over PATHS
                         below (mm/, include/linux/shrinker.h,
                         include/linux/memcontrol.h, the port's headers)
                         or over the diff's own "paths" (the inode
                         kernels: fs/inode.c, include/linux/list_lru.h,
                         mm/list_lru.c)
  v6.1..v6.12            "per_function": the shrinker code moved from
                         mm/vmscan.c (v6.1) to mm/shrinker.c (v6.12), so each
                         function that matters is cut out of both files and
                         the two texts are diffed with difflib

Output (JSON, compact):

  { "variants": { "srcu": "srcu-shrinkers", "v6.12": "v6.12", ... },
    "comparisons": [ {
      "id": "v6.1..srcu-shrinkers", "from": "v6.1", "to": "srcu-shrinkers",
      "title": "one sentence",
      "kind": "git-diff" | "per-function",
      "command": "the git command (or the recipe) the hunks come from",
      "unchanged": [ {"func": "do_shrink_slab", "old": SIDE, "new": SIDE} ],
      "hunks": [ {
        "func": "shrink_slab",
        "old": {"tree": "v6.1", "file": "mm/vmscan.c", "start": 986, "count": 40},
        "new": {"tree": "srcu-shrinkers", "file": "mm/vmscan.c", "start": 1010, "count": 38},
        "lines": [ [" ", 986, 1010, "text"], ["-", 987, null, "text"],
                   ["+", null, 1011, "text"] ] } ] } ] }

Each --review names a reviewer variant made by kernel-tree/variant.sh: its
comparison is git diff of its base branch and its branch over the files
its series touches, titled with the series' subject and Message-ID.

variants maps each VARIANT=BRANCH given on the command line (the make rule
passes every variant of wasm/build.mk with its <variant>_BRANCH).

SIDE is {tree, file, start, count}: tree is a branch of kernel-tree/linux,
start the first line of the hunk on that side (1-based) and count its number
of lines there. A side with count 0 has no lines (code only added, or only
removed); its start is then the line after which the change sits, as in git's
@@ headers. Each line is [op, old line or null, new line or null, text], op
one of " " (both sides), "-" (old side only), "+" (new side only).

func is the function the hunk's first changed line is in, found from the
file itself (kernel style: a definition starts at column 0 and its body
opens with "{" and ends with "}" at column 0), "struct NAME" inside a
structure definition, or "file scope". "unchanged" lists the functions of a
per-function comparison whose text did not change (only moved).
"""

import difflib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

CONTEXT = 3
# include/linux/memcontrol.h: the SRCU series adds shrinker_info.map_nr_max.
PATHS = ['mm/', 'include/linux/shrinker.h', 'include/linux/memcontrol.h']
# The inode comparisons: the inode LRU code and list_lru.
INODE_PATHS = ['fs/inode.c', 'include/linux/list_lru.h', 'mm/list_lru.c']

# The functions that matter between v6.1 and v6.12: (old name in
# v6.1:mm/vmscan.c, new name in v6.12:mm/shrinker.c). A missing name is code
# only one side has: (None, name) is new in v6.12.
PER_FUNCTION = [
    ('shrink_slab', 'shrink_slab'),
    ('shrink_slab_memcg', 'shrink_slab_memcg'),
    ('do_shrink_slab', 'do_shrink_slab'),
    ('register_shrinker_prepared', 'shrinker_register'),
    ('unregister_shrinker', 'shrinker_free'),
]
# New in v6.12, in include/linux/shrinker.h: the refcount that pins a
# shrinker found under RCU.
PER_FUNCTION_NEW = [
    ('include/linux/shrinker.h', 'shrinker_try_get'),
    ('include/linux/shrinker.h', 'shrinker_put'),
]


def git(tree, *args):
    out = subprocess.run(['git', '-C', tree, '-c', 'core.quotepath=off', *args],
                         check=True, stdout=subprocess.PIPE)
    return out.stdout.decode('utf-8', 'replace')


_files = {}


def show(tree, branch, path):
    """The lines of a file on a branch (line n is element n - 1)."""
    key = (branch, path)
    if key not in _files:
        _files[key] = git(tree, 'show', f'{branch}:{path}').split('\n')
    return _files[key]


_IDENT_BEFORE_PAREN = re.compile(r'([A-Za-z_]\w*)\s*\(')
_STRUCT = re.compile(r'^(struct|union|enum)\s+([A-Za-z_]\w*)\s*\{')


def spans(lines):
    """Function and structure definitions of a C file, kernel style:
    [(name, first line, last line)], 1-based, in file order."""
    out = []
    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        m = _STRUCT.match(line)
        if m:
            j = i + 1
            while j < n and not lines[j].startswith('}'):
                j += 1
            out.append((f'{m.group(1)} {m.group(2)}', i + 1, j + 1))
            i = j + 1
            continue
        if line.startswith('{'):
            # The header: back to the line at column 0 that starts it.
            k = i - 1
            while k >= 0 and (not lines[k] or lines[k][0] in ' \t'):
                k -= 1
            m = _IDENT_BEFORE_PAREN.search(' '.join(lines[k:i])) if k >= 0 else None
            j = i + 1
            while j < n and not lines[j].startswith('}'):
                j += 1
            if m:
                out.append((m.group(1), k + 1, j + 1))
            i = j + 1
            continue
        i += 1
    return out


_spans = {}


def spans_of(tree, branch, path):
    key = (branch, path)
    if key not in _spans:
        _spans[key] = spans(show(tree, branch, path))
    return _spans[key]


def enclosing(tree, branch, path, line):
    for name, first, last in spans_of(tree, branch, path):
        if first <= line <= last:
            return name
    return 'file scope'


def function(tree, branch, path, name):
    """(first line, lines) of the first definition of a function."""
    for fname, first, last in spans_of(tree, branch, path):
        if fname == name and not fname.startswith(('struct ', 'union ', 'enum ')):
            return first, show(tree, branch, path)[first - 1:last]
    raise SystemExit(f'diffs.py: no function {name}() in {branch}:{path}')


def side(branch, path, start, count):
    return {'tree': branch, 'file': path, 'start': start, 'count': count}


def hunk_func(tree, h):
    """The function of the hunk's first changed line."""
    for op, o, n, _ in h['lines']:
        if op == '-':
            return enclosing(tree, h['old']['tree'], h['old']['file'], o)
        if op == '+':
            return enclosing(tree, h['new']['tree'], h['new']['file'], n)
    return 'file scope'


_HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


def git_diff(tree, old, new, paths=None):
    """The hunks of `git diff old new` over paths (default PATHS)."""
    text = git(tree, 'diff', '--no-color', '--no-ext-diff', '--no-renames',
               f'-U{CONTEXT}', '--src-prefix=a/', '--dst-prefix=b/',
               old, new, '--', *(paths or PATHS))
    hunks = []
    old_path = new_path = None
    h = None
    o = n = 0
    for line in text.split('\n'):
        if line.startswith('diff --git '):
            h = None
            old_path = new_path = None
            continue
        if h is None or not line or line[0] not in ' -+\\':
            if line.startswith('--- '):
                old_path = None if line == '--- /dev/null' else line[6:]
                continue
            if line.startswith('+++ '):
                new_path = None if line == '+++ /dev/null' else line[6:]
                continue
        m = _HUNK.match(line)
        if m:
            os_, oc, ns, nc = m.groups()
            o, n = int(os_), int(ns)
            oc = 1 if oc is None else int(oc)
            nc = 1 if nc is None else int(nc)
            h = {'func': '',
                 'old': side(old, old_path or new_path, o, oc),
                 'new': side(new, new_path or old_path, n, nc),
                 'lines': []}
            hunks.append(h)
            continue
        if h is None or not line or line[0] == '\\':
            continue
        op, body = line[0], line[1:]
        if op == ' ':
            h['lines'].append([' ', o, n, body])
            o += 1
            n += 1
        elif op == '-':
            h['lines'].append(['-', o, None, body])
            o += 1
        elif op == '+':
            h['lines'].append(['+', None, n, body])
            n += 1
    for h in hunks:
        h['func'] = hunk_func(tree, h)
    return hunks


def diff_texts(func, old_side, old_first, old_lines, new_side, new_first, new_lines):
    """Hunks of a difflib comparison of two texts that start at the given
    lines of their files."""
    sm = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    hunks = []
    for group in sm.get_grouped_opcodes(CONTEXT):
        lines = []
        for tag, i1, i2, j1, j2 in group:
            if tag == 'equal':
                for k in range(i2 - i1):
                    lines.append([' ', old_first + i1 + k, new_first + j1 + k, old_lines[i1 + k]])
                continue
            if tag in ('replace', 'delete'):
                for k in range(i1, i2):
                    lines.append(['-', old_first + k, None, old_lines[k]])
            if tag in ('replace', 'insert'):
                for k in range(j1, j2):
                    lines.append(['+', None, new_first + k, new_lines[k]])
        i1, i2 = group[0][1], group[-1][2]
        j1, j2 = group[0][3], group[-1][4]
        oc, nc = i2 - i1, j2 - j1
        # As git does: an empty side starts at the line before the change.
        ostart = old_first + i1 if oc else old_first + i1 - 1
        nstart = new_first + j1 if nc else new_first + j1 - 1
        hunks.append({'func': func,
                      'old': dict(old_side, start=ostart, count=oc),
                      'new': dict(new_side, start=nstart, count=nc),
                      'lines': lines})
    return hunks


def per_function(tree, old, old_path, new, new_path):
    hunks, unchanged = [], []
    for oname, nname in PER_FUNCTION:
        ofirst, otext = function(tree, old, old_path, oname)
        nfirst, ntext = function(tree, new, new_path, nname)
        name = oname if oname == nname else f'{oname} → {nname}'
        os_, ns = side(old, old_path, ofirst, len(otext)), side(new, new_path, nfirst, len(ntext))
        if otext == ntext:
            unchanged.append({'func': name, 'old': os_, 'new': ns})
            continue
        hunks += diff_texts(name, os_, ofirst, otext, ns, nfirst, ntext)
    for path, nname in PER_FUNCTION_NEW:
        nfirst, ntext = function(tree, new, path, nname)
        hunks += diff_texts(f'{nname} (new)', side(old, path, 0, 0), 1, [],
                            side(new, path, nfirst, len(ntext)), nfirst, ntext)
    return hunks, unchanged


def comparison_specs(reg):
    """The comparisons of the registry's kernels (kernels.Registry), in its
    order: [{id, from, to, title, per_function, paths}]."""
    out = []
    for k in reg.kernels:
        d = k.get('diff')
        if d:
            cid = reg.comparison(k['name'])
            old = cid.split('..')[0]
            out.append({'id': cid, 'from': old, 'to': k['branch'], 'title': d['title'],
                        'per_function': bool(d.get('per_function')), 'paths': d.get('paths')})
    return out


def per_function_comparison(tree, old, new, title):
    """The v6.1..v6.12 comparison: PER_FUNCTION's functions cut out of
    v6.1:mm/vmscan.c and v6.12:mm/shrinker.c, diffed with difflib."""
    hunks, unchanged = per_function(tree, old, 'mm/vmscan.c', new, 'mm/shrinker.c')
    fnames = ', '.join(o if o == n else f'{o}/{n}' for o, n in PER_FUNCTION)
    newnames = ', '.join(n for _, n in PER_FUNCTION_NEW)
    return {'id': f'{old}..{new}', 'from': old, 'to': new, 'title': title,
            'kind': 'per-function',
            'command': f'difflib, function by function: {old}:mm/vmscan.c against '
                       f'{new}:mm/shrinker.c ({fnames}), and {newnames} new in '
                       f'{new}:include/linux/shrinker.h',
            'unchanged': unchanged, 'hunks': hunks}


def main(argv):
    reviews, rest = [], []
    args = iter(argv[3:])
    for a in args:
        if a == '--review':
            reviews.append(next(args, None))
        else:
            rest.append(a)
    if len(argv) < 3 or None in reviews or any('=' not in a for a in rest):
        raise SystemExit('usage: python3 kernel-tree/diffs.py kernel-tree/linux OUT.json [VARIANT=BRANCH...] '
                         '[--review variants/NAME/variant.json...]')
    tree, out = argv[1], argv[2]
    variants = dict(a.split('=', 1) for a in rest)
    paths = ' '.join(PATHS)

    def gitdiff(old, new, title, only=None):
        return {'id': f'{old}..{new}', 'from': old, 'to': new, 'title': title,
                'kind': 'git-diff',
                'command': f'git diff {old} {new} -- {" ".join(only) if only else paths}',
                'unchanged': [], 'hunks': git_diff(tree, old, new, only)}

    comparisons = []
    for c in comparison_specs(kernels.load(check_files=False)):
        if c['per_function']:
            comparisons.append(per_function_comparison(tree, c['from'], c['to'], c['title']))
        else:
            comparisons.append(gitdiff(c['from'], c['to'], c['title'], c['paths']))
    for path in reviews:
        with open(path, encoding='utf-8') as f:
            r = json.load(f)
        mid = f", Message-ID <{r['messageId']}>" if r.get('messageId') else ''
        comparisons.append(gitdiff(
            r['baseBranch'], r['branch'],
            f"Your patch on {r['base']}: {r['subject']} ({len(r['patches'])} "
            f"patch{'es' if len(r['patches']) != 1 else ''}{mid})", r['touched']))
    text = json.dumps({'variants': variants, 'comparisons': comparisons},
                      ensure_ascii=False, separators=(',', ':'))
    tmp = out + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text + '\n')
    os.replace(tmp, out)


if __name__ == '__main__':
    main(sys.argv)
