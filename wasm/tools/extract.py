#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Extract named functions and declarations from a kernel source file.

Some files are too large to compile whole against the shim (6.1's
mm/vmscan.c). This copies the pieces a spec names out of the file, in the
file's order, each preceded by a #line directive, so that __LINE__ and
__FILE__ inside them still name the real line of the real file.

Spec lines (# starts a comment):
    file mm/vmscan.c          the file, relative to the tree
    line <text>               a whole line of the file, copied as it is
    block <text>              a construct that starts with the whole line
                              <text>: a struct or enum to its closing
                              brace, a macro through its continued lines,
                              a macro call to its closing parenthesis
    func <name>[@N]           the N-th definition (default 1) of function
                              <name>: from its first line at column 0 to
                              its closing brace
    from <text>               the whole line <text>, and every line after
    to <text>                 it up to the first whole line <text>: a run
                              of definitions (a group of #defines, say)
    include <spec>            every item of another spec of the same file
                              (a path beside this spec): a branch that adds
                              to a file extracts what its base does, and more
    out <path>                where the result goes, relative to the tree
                              (read by wasm/build.mk; default: the file's
                              name with -extract before its suffix)

The output holds only the file's own text; project glue that needs it
#includes it (wasm/glue/v6.1/vmscan.c).

Usage: extract.py SPEC TREE_DIR OUT
Fails, naming the item, if an item is not found or is found in the wrong
place: the spec is a check that the code is where it is expected to be.
"""
import os
import re
import sys


def fail(msg):
    sys.stderr.write("extract: %s\n" % msg)
    sys.exit(1)


def strip_code(line, state):
    """The line with comments, strings and char literals blanked out.

    state["comment"] carries an open /* ... */ across lines."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state["comment"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["comment"] = False
            i = end + 2
            continue
        c = line[i]
        if line.startswith("/*", i):
            state["comment"] = True
            i += 2
        elif line.startswith("//", i):
            break
        elif c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_span(lines, name, nth):
    """(first, last) 0-based line indices of the nth definition of name."""
    # the return type on the line, or on the line before (name at column 0)
    head = re.compile(r"^(?:[A-Za-z_][\w\s\*]*?\b)?%s\s*\(" % re.escape(name))
    seen = 0
    for i, l in enumerate(lines):
        if not head.match(l) or l.rstrip().endswith(";"):
            continue
        # A prototype spanning lines ends with ';' before any '{'.
        state = {"comment": False}
        depth = 0
        opened = False
        for j in range(i, len(lines)):
            code = strip_code(lines[j], state)
            if not opened and ";" in code and "{" not in code:
                break
            for ch in code:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
            if opened and depth == 0:
                seen += 1
                if seen == nth:
                    first = i
                    # A return type on the line above belongs to it.
                    if i > 0 and re.match(r"^(static\s+)?[\w\s\*]+$", lines[i - 1]) \
                            and not lines[i - 1].strip().endswith((";", "}", "*/")) \
                            and lines[i - 1].strip():
                        first = i - 1
                    return first, j
                break
    fail("function %s (definition %d) not found" % (name, nth))


def block_end(lines, first):
    """The last line of the construct that starts at first."""
    state = {"comment": False}
    depth = 0
    for j in range(first, len(lines)):
        code = strip_code(lines[j], state)
        depth += code.count("{") - code.count("}") + code.count("(") - code.count(")")
        if depth == 0 and not lines[j].endswith("\\"):
            return j
    fail("block at line %d does not end" % (first + 1))


def read_spec(spec, seen=()):
    """(file, items) of a spec, with the items of the specs it includes."""
    path = None
    items = []
    if spec in seen:
        fail("%s includes itself" % spec)
    for raw in open(spec):
        raw = raw.rstrip("\n")
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        kind, _, arg = raw.partition(" ")
        if kind == "file":
            path = arg.strip()
        elif kind == "out":
            pass
        elif kind == "include":
            other = os.path.join(os.path.dirname(spec), arg.strip())
            other_path, other_items = read_spec(other, seen + (spec,))
            if path is None or other_path != path:
                fail("%s: includes %s, a spec of %s, not of %s" % (spec, other, other_path, path))
            items.extend(other_items)
        elif kind in ("line", "func", "block", "from"):
            items.append((kind, arg))
        elif kind == "to":
            if not items or items[-1][0] != "from":
                fail("%s: 'to' without a 'from' before it: %s" % (spec, raw))
            items[-1] = ("from", (items[-1][1], arg))
        else:
            fail("%s: unknown spec line: %s" % (spec, raw))
    return path, items


def main():
    if len(sys.argv) != 4:
        fail("usage: extract.py SPEC TREE_DIR OUT")
    spec, tree, out = sys.argv[1:]
    path, items = read_spec(spec)
    if not path:
        fail("%s: no 'file' line" % spec)
    lines = open("%s/%s" % (tree, path)).read().split("\n")

    spans = []
    for kind, arg in items:
        if kind == "line":
            found = [i for i, l in enumerate(lines) if l == arg]
            if len(found) != 1:
                fail("line %r found %d times in %s" % (arg, len(found), path))
            spans.append((found[0], found[0], arg))
        elif kind == "block":
            found = [i for i, l in enumerate(lines) if l == arg]
            if len(found) != 1:
                fail("block %r found %d times in %s" % (arg, len(found), path))
            spans.append((found[0], block_end(lines, found[0]), arg))
        elif kind == "from":
            if isinstance(arg, str):
                fail("from %r has no 'to' after it" % arg)
            first_text, last_text = arg
            found = [i for i, l in enumerate(lines) if l == first_text]
            if len(found) != 1:
                fail("from %r found %d times in %s" % (first_text, len(found), path))
            ends = [i for i in range(found[0], len(lines)) if lines[i] == last_text]
            if not ends:
                fail("to %r not found after %r in %s" % (last_text, first_text, path))
            spans.append((found[0], ends[0], first_text))
        else:
            name, _, nth = arg.partition("@")
            first, last = function_span(lines, name, int(nth or 1))
            spans.append((first, last, name))
    spans.sort()
    for a, b in zip(spans, spans[1:]):
        if b[0] <= a[1]:
            fail("%s and %s overlap" % (a[2], b[2]))

    with open(out, "w") as f:
        f.write("/* Generated by wasm/tools/extract.py from %s: do not edit. */\n" % path)
        for first, last, _ in spans:
            f.write('#line %d "%s"\n' % (first + 1, path))
            f.write("\n".join(lines[first:last + 1]) + "\n")


if __name__ == "__main__":
    main()
