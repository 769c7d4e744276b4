#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""wasm/scenarios/kunit.def for the shell and Python side: the one reader.

Usage: python3 kernel-tree/kunitdef.py [KUNIT.DEF]

Prints "ident name where variant" for each KUNIT_SCENARIO() entry, in the
file's order (kernel-tree/kunit/cases.sh's kunit_def). The C side expands
the same entries with the preprocessor, so this reader takes exactly what
the macro takes and refuses, naming the line, anything else: an entry it
cannot read is an error, never an entry left out of the shell's lists.
"""
import re
import sys

# kunit.def's "where" column (its header comment says what each means)
WHERES = ('ALL', 'INODE', 'FOLIO_LRU', 'WORD64', 'PLANTED')

_IDENT = r'[A-Za-z_][A-Za-z0-9_]*'
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_ENTRY = re.compile(
    r'KUNIT_SCENARIO\(\s*(?P<ident>' + _IDENT + r')\s*,'
    r'\s*"(?P<name>[a-z0-9][a-z0-9-]*)"\s*,'
    r'\s*(?P<run>' + _IDENT + r')\s*,'
    r'\s*(?P<where>' + _IDENT + r')\s*,'
    r'\s*(?P<variant>-|[a-z0-9][a-z0-9._-]*)\s*,'
    r'\s*(?P<title>(?:' + _STRING + r'\s*)+)\)')


class KunitDefError(Exception):
    pass


def _blank_comments(text):
    """The text with each C comment replaced by spaces (newlines kept), so
    that offsets still give line numbers."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


def parse(text, path='kunit.def'):
    """[{ident, name, run, where, variant, title, line}] in the file's
    order; KunitDefError for anything that is not a whole entry."""
    src = _blank_comments(text)
    out, pos, seen = [], 0, {}
    while True:
        m = re.compile(r'\S').search(src, pos)
        if not m:
            break
        at = m.start()
        line = src.count('\n', 0, at) + 1
        e = _ENTRY.match(src, at)
        if not e:
            snippet = src[at:].split('\n', 1)[0].strip()
            raise KunitDefError(f'{path}:{line}: not a KUNIT_SCENARIO(ident, "name", run, WHERE, variant, "title") '
                                f'entry this reader can read: {snippet[:100]}')
        d = e.groupdict()
        if d['where'] not in WHERES:
            raise KunitDefError(f'{path}:{line}: scenario {d["name"]}: unknown where {d["where"]} '
                                f'(one of {", ".join(WHERES)})')
        for key in ('ident', 'name'):
            if d[key] in seen.setdefault(key, set()):
                raise KunitDefError(f'{path}:{line}: {key} {d[key]} is given twice')
            seen[key].add(d[key])
        d['title'] = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', d['title']))
        d['line'] = line
        out.append(d)
        pos = e.end()
    if not out:
        raise KunitDefError(f'{path}: no KUNIT_SCENARIO() entry')
    return out


def read(path):
    with open(path, encoding='utf-8') as f:
        return parse(f.read(), path)


def main(argv):
    path = argv[1] if len(argv) > 1 else 'wasm/scenarios/kunit.def'
    try:
        entries = read(path)
    except (OSError, KunitDefError) as e:
        sys.exit(f'kunitdef: {e}')
    for d in entries:
        print(d['ident'], d['name'], d['where'], d['variant'])


if __name__ == '__main__':
    main(sys.argv)
