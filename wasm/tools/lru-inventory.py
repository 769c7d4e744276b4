#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a scene's inventory of the kernel code the lab runs for it.

For every function, block and line the scene's extraction specs take from
the kernel (wasm/extract/*.txt, as wasm/build.mk lists them for v6.12 and
for the kernels built on a series over it), where it comes from and
whether a series changes it, with the patches that do; then the project's
own code around it (glue, shim headers), each function with its line
count; then the totals. Whether a function shows in the scene's events is
read from runs of labrun (the scene's default setup). Two documents:
--doc lru, docs/lru.md (the lru-batch scene over the folio LRU, and the
RFC's port), and --doc page-cache, docs/page-cache.md (the inode-lru
scene over the inode LRU, the page cache and the folio LRU).

Usage:
  lru-inventory.py --doc DOC --tree kernel-tree/linux --specs 'SPEC...' --port-specs
      'VARIANT:BRANCH=SPEC...' ... --labrun 'VARIANT=PROG' ... [--srcs 'PATH...']
      (--write FILE | --check FILE)
--check exits 1, naming the first differing line, when FILE is not what
would be written (make test-native runs it).
"""
import argparse
import functools
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import extract  # noqa: E402  (wasm/tools/extract.py: the specs and how items are found)

# The project's code the LRU compiles with, each file a kind of its own.
LRU_SHIM_FILES = [
    ("wasm/glue/lru/lru.h", "glue"),
    ("wasm/glue/lru/mm.c", "glue"),
    ("wasm/glue/lru/swap.c", "glue"),
    ("wasm/glue/lru/vmscan.c", "glue"),
    ("wasm/glue/lru/memcontrol.c", "glue"),
    ("wasm/include/linux/mm_types.h", "shim"),
    ("wasm/include/linux/mmzone.h", "shim"),
    ("wasm/include/linux/mmdebug.h", "shim"),
    ("wasm/include/linux/local_lock.h", "shim"),
    ("wasm/include/linux/tracepoint-defs.h", "shim"),
    ("wasm/include/linux/percpu.h", "shim"),
    ("wasm/include/generated/bounds.h", "shim"),
    ("wasm/runtime/percpu.c", "runtime"),
]
# Real headers the LRU code uses whole, as the branch has them.
WHOLE = ["include/linux/page-flags.h", "include/linux/page_ref.h", "include/linux/pagevec.h",
         "include/linux/page-flags-layout.h", "include/linux/vm_event_item.h"]

PROFILES = {
    "lru": {
        "make": "make docs/lru.md",
        "title": "The folio LRU in the lab: what runs, and whose it is",
        "scenario": "lru-batch",
        "intro": [
            "The lru-batch scene runs will-it-scale's page_fault1 over the kernel's own folio LRU: v6.12's code,",
            "extracted function by function with `#line` kept (wasm/extract/lru-*.txt, wasm/tools/extract.py),",
            "so every event names its real line; or the project's port of the 2018 lru_lock RFC",
            "(20180131230413.27653-1-daniel.m.jordan@oracle.com, never merged) as a patch series on it",
            "(kernel-tree/patches/lru-batch-port, lru-splice-port: variants lru-batch and lru-splice).",
            "The LRU is the classic active/inactive one: CONFIG_LRU_GEN is off (Debian's 6.12 builds the",
            "multi-generational LRU; the RFC predates it). wasm/glue/lru/lru.h says what stands around the",
            "extracted code, and why.",
        ],
        "series": "the port's series",
        "added": "Added by the port (not upstream code)",
        "shim_files": LRU_SHIM_FILES,
        "glue_dirs": "(wasm/glue/lru/)",
        "other": "page_ref.h), the shim headers' inline functions (locks, atomics, lists) and the scenario.",
    },
    "page-cache": {
        "make": "make docs/page-cache.md",
        "title": "The page cache in the lab: what the inode scene runs, and whose it is",
        "scenario": "inode-lru",
        "intro": [
            "The inode-lru scene (seed 004: drop-behind reclaim past inodes that hold page cache) runs",
            "v6.12's fs/inode.c inode LRU, its page cache (mm/filemap.c, mm/truncate.c, mm/workingset.c's",
            "shadow entries and shadow-node shrinker, mm/vmscan.c's __remove_mapping()) and the folio LRU",
            "of docs/lru.md, each extracted function by function with `#line` kept (wasm/extract/inode-*.txt,",
            "lru-*.txt), over the real mm/list_lru.c, mm/shrinker.c and lib/xarray.c compiled whole.",
            "No project-written page cache is left: wasm/glue/inode/filemap.c stands only where the rest",
            "of the kernel would be (no shmem, DAX, huge or large folios, writeback or rmap), and says so.",
            "The kernels inode-before and inode-rotate are project patches on v6.12",
            "(kernel-tree/patches/inode-lru-before, inode-lru-rotate): the items they change are marked.",
        ],
        "series": "the series",
        "added": "Added by a series (not upstream code)",
        "shim_files": [
            ("wasm/glue/inode/inode.c", "glue"),
            ("wasm/glue/inode/inode.h", "glue"),
            ("wasm/glue/inode/filemap.c", "glue"),
            ("wasm/include/linux/fs.h", "shim"),
        ] + LRU_SHIM_FILES,
        "glue_dirs": "(wasm/glue/inode/, wasm/glue/lru/)",
        "other": "page_ref.h), the files compiled whole, the shim headers' inline functions (locks, atomics,"
                 " lists) and the scenario.",
    },
}
BASE = "v6.12"


def git(tree, *args):
    return subprocess.run(["git", "-C", tree] + list(args), check=True, capture_output=True,
                          text=True).stdout


@functools.lru_cache(maxsize=None)
def show(tree, branch, path):
    try:
        return tuple(git(tree, "show", "%s:%s" % (branch, path)).split("\n"))
    except subprocess.CalledProcessError:
        return None


def item_text(lines, kind, arg):
    """The text of one spec item in a file's lines, or None where it is not."""
    if lines is None:
        return None
    lines = list(lines)
    try:
        if kind == "func":
            name, _, nth = arg.partition("@")
            first, last = quiet(extract.function_span, lines, name, int(nth or 1))
        elif kind == "line":
            found = [i for i, l in enumerate(lines) if l == arg]
            if len(found) != 1:
                return None
            first = last = found[0]
        elif kind == "block":
            found = [i for i, l in enumerate(lines) if l == arg]
            if len(found) != 1:
                return None
            first, last = found[0], quiet(extract.block_end, lines, found[0])
        else:
            a, b = arg
            found = [i for i, l in enumerate(lines) if l == a]
            if len(found) != 1:
                return None
            ends = [i for i in range(found[0], len(lines)) if lines[i] == b]
            if not ends:
                return None
            first, last = found[0], ends[0]
    except SystemExit:
        return None
    return first + 1, "\n".join(lines[first:last + 1])


@functools.lru_cache(maxsize=None)
def item_text_at(tree, commit, path, kind, arg):
    return item_text(show(tree, commit, path), kind, arg)


def quiet(fn, *args):
    """extract.py's helpers fail with a message on stderr: here a missing item is an answer."""
    err, sys.stderr = sys.stderr, open(os.devnull, "w")
    try:
        return fn(*args)
    finally:
        sys.stderr.close()
        sys.stderr = err


def item_name(kind, arg):
    if kind == "func":
        return arg.partition("@")[0] + "()"
    if kind == "from":
        return arg[0].strip()
    return arg.strip().rstrip("{").strip()


@functools.lru_cache(maxsize=None)
def series_commits(tree, base, tip, path):
    """(commit, subject, parent) of each commit of base..tip touching path, oldest first."""
    out = git(tree, "log", "--reverse", "--format=%h %H %s", "%s..%s" % (base, tip), "--", path)
    commits = []
    for line in out.splitlines():
        short, full, subject = line.split(" ", 2)
        commits.append((short, full, subject))
    return commits


@functools.lru_cache(maxsize=None)
def series_numbers(tree, base, tip):
    """Each commit of base..tip (full id) -> its number in the series, from 1.

    The inventory names a patch by its number and subject, not its commit
    id: the ids follow the base tree, which is Debian's linux-source
    package of the day (kernel-tree/build-tree.sh), and change with it."""
    out = git(tree, "log", "--reverse", "--format=%H", "%s..%s" % (base, tip))
    return {full: i for i, full in enumerate(out.split(), 1)}


def patched_by(tree, tip, path, kind, arg):
    """The series' patches (base..tip) that change the item, and the item's text at tip."""
    commits = []
    numbers = series_numbers(tree, BASE, tip)
    for short, full, subject in series_commits(tree, BASE, tip, path):
        before = item_text_at(tree, full + "^", path, kind, arg)
        after = item_text_at(tree, full, path, kind, arg)
        if (before and before[1]) != (after and after[1]):
            commits.append("patch %d (%s)" % (numbers[full], subject))
    return commits


def count(text):
    return len(text.split("\n"))


def shim_functions(path):
    """(name, lines) of each function or macro a project file defines at column 0."""
    lines = open(path).read().split("\n")
    out = []
    head = re.compile(r"^(?:static\s+)?(?:inline\s+)?(?:__always_inline\s+)?[\w\s\*]*?\b([a-z_][a-z_0-9]*)\s*\(")
    i = 0
    while i < len(lines):
        l = lines[i]
        m = head.match(l)
        if m and not l.rstrip().endswith(";") and not l.startswith(("#", " ", "\t")):
            depth, opened, j = 0, False, i
            while j < len(lines):
                code = lines[j].split("//")[0]
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                if opened and depth == 0:
                    break
                if not opened and code.rstrip().endswith(";"):
                    break
                j += 1
            if opened:
                out.append((m.group(1) + "()", j - i + 1))
                i = j + 1
                continue
        m = re.match(r"^#define\s+([a-z_][a-z_0-9]*)\(", l)
        if m:
            j = i
            while lines[j].endswith("\\"):
                j += 1
            out.append((m.group(1) + "() (macro)", j - i + 1))
            i = j + 1
            continue
        i += 1
    return out


def first_line_kind(path):
    """Customised / Stubbed / Duplicated, or the glue's own words."""
    text = open(path).read()
    m = re.search(r"\b(Customised|Stubbed|Duplicated)\b", text[:800])
    return m.group(1) if m else "project code"


def scene_functions(runs, scenario):
    """The functions each variant's run of the scene entered: its cov build
    (wasm/cli/functions.c) writes their addresses, nm names them."""
    seen = {}
    for variant, prog in runs:
        out = os.path.join(os.path.dirname(prog), scenario + ".functions")
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", LAB_FUNCS_OUT=out)
        r = subprocess.run([prog, "--scenario", scenario, "--summary"], capture_output=True, text=True, env=env)
        if r.returncode != 0:
            sys.exit("lru-inventory: %s --scenario %s failed: %s" % (prog, scenario, r.stderr[-400:]))
        symbols = {}
        for line in subprocess.run(["nm", prog], check=True, capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTW":
                symbols[int(parts[0], 16)] = parts[2]
        main_at = next(a for a, n in symbols.items() if n == "main")
        text = open(out).read().split()
        offset = int(text[1], 16) - main_at
        funcs = set()
        for a in text[2:]:
            name = symbols.get(int(a, 16) - offset)
            if name:
                funcs.add(name.split(".")[0] + "()")  # clang's name.N of a static copy
        seen[variant] = funcs
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", choices=sorted(PROFILES), default="lru")
    ap.add_argument("--tree", required=True)
    ap.add_argument("--specs", required=True, help="v6.12's specs")
    ap.add_argument("--port-specs", action="append", default=[], help="VARIANT:BRANCH=SPEC... of a port kernel")
    ap.add_argument("--labrun", action="append", default=[], help="VARIANT=PROGRAM, for the scene's events")
    ap.add_argument("--srcs", default="", help="kernel files compiled whole")
    ap.add_argument("--write")
    ap.add_argument("--check")
    a = ap.parse_args()
    prof = PROFILES[a.doc]
    tree = a.tree
    ports = []
    for p in a.port_specs:
        head, _, specs = p.partition("=")
        variant, _, branch = head.partition(":")
        ports.append((variant, branch, specs.split()))
    runs = [tuple(r.split("=", 1)) for r in a.labrun]
    events = scene_functions(runs, prof["scenario"])

    rows = []
    totals = {"extracted": 0, "items": 0}
    port_only = []
    base_items = set()
    for spec in a.specs.split():
        path, items = extract.read_spec(spec)
        lines = show(tree, BASE, path)
        for kind, arg in items:
            found = item_text(lines, kind, arg)
            if not found:
                sys.exit("lru-inventory: %s: %s not found on %s" % (spec, arg, BASE))
            line, text = found
            key = (path, kind, repr(arg))
            base_items.add(key)
            status = []
            for variant, branch, _ in ports:
                commits = patched_by(tree, branch, path, kind, arg)
                if commits:
                    status.append("%s: patched by %s" % (variant, ", ".join(commits)))
            ran = [v for v, funcs in events.items() if kind == "func" and item_name(kind, arg) in funcs]
            rows.append((path, line, item_name(kind, arg), kind, count(text), status, ran))
            totals["extracted"] += count(text)
            totals["items"] += 1
    for variant, branch, specs in ports:
        for spec in specs:
            path, items = extract.read_spec(spec)
            lines = show(tree, branch, path)
            for kind, arg in items:
                key = (path, kind, repr(arg))
                if key in base_items or any(k == key for k, _, _ in port_only):
                    continue
                found = item_text(lines, kind, arg)
                if not found:
                    sys.exit("lru-inventory: %s: %s not found on %s" % (spec, arg, branch))
                line, text = found
                commits = [c for c in patched_by(tree, branch, path, kind, arg)]
                port_only.append((key, (path, line, item_name(kind, arg), kind, count(text), branch, commits),
                                  [v for v, funcs in events.items()
                                   if kind == "func" and item_name(kind, arg) in funcs]))

    out = []
    w = out.append
    w("<!-- Generated by wasm/tools/lru-inventory.py (%s); make test-native checks it. -->" % prof["make"])
    w("# " + prof["title"])
    w("")
    for line in prof["intro"]:
        w(line)
    w("")
    w("## Extracted from %s" % BASE)
    w("")
    w("Status: upstream-unmodified on every kernel, or patched by %s (the patches that" % prof["series"])
    w("change the item, by their number in the kernel's series, on each port kernel). Scene: the")
    w("kernels whose run of the scene (its default setup) entered the function, as a build of the")
    w("same code with -finstrument-functions records it (wasm/cli/functions.c; inline functions too:")
    w("that build is unoptimised and drops `notrace` and `__always_inline`'s attributes).")
    w("")
    w("| file | line | item | lines | status | scene |")
    w("|---|---:|---|---:|---|---|")
    runs = {}
    for path, line, name, kind, n, status, ran in rows:
        st = "; ".join(status) if status else "upstream-unmodified"
        for v in ran:
            patched = any(x.startswith(v + ":") for x in status)
            runs.setdefault(v, {}).setdefault("patched" if patched else "upstream", set()).add((path, name))
        w("| %s | %d | `%s` | %d | %s | %s |" % (path, line, name, n, st, ", ".join(ran) or "—"))
    w("")
    w("## " + prof["added"])
    w("")
    w("| file | line | item | lines | branch | added or changed by | scene |")
    w("|---|---:|---|---:|---|---|---|")
    port_lines = 0
    for _, (path, line, name, kind, n, branch, commits), ran in port_only:
        port_lines += n
        for v in ran:
            runs.setdefault(v, {}).setdefault("port", set()).add((path, name))
        w("| %s | %d | `%s` | %d | %s | %s | %s |" % (path, line, name, n, branch, ", ".join(commits) or "—",
                                                    ", ".join(ran) or "—"))
    w("")
    w("## Real headers used whole")
    w("")
    w("| header | lines on %s |" % BASE)
    w("|---|---:|")
    whole = 0
    for h in WHOLE:
        n = len(show(tree, BASE, h)) - 1
        whole += n
        w("| %s | %d |" % (h, n))
    if a.srcs:
        w("")
        w("## Real files compiled whole")
        w("")
        w("| file | lines on %s |" % BASE)
        w("|---|---:|")
        for f in a.srcs.split():
            n = len(show(tree, BASE, f)) - 1
            whole += n
            w("| %s | %d |" % (f, n))
    w("")
    w("## The project's code around it (shim)")
    w("")
    w("Each shim header opens with whether it duplicates, stubs or customises the kernel's; the glue")
    w("%s is project code that stands where the rest of mm would be." % prof["glue_dirs"])
    w("")
    w("Scene: as above; a macro runs where it is used, and has no entry to count.")
    w("")
    w("| file | what | function or macro | lines | scene |")
    w("|---|---|---|---:|---|")
    shim_total = 0
    for path, kind in prof["shim_files"]:
        n = len(open(path).read().rstrip("\n").split("\n"))
        shim_total += n
        funcs = shim_functions(path)
        w("| %s | %s, %d lines | %s | | |" % (path, first_line_kind(path) if kind == "shim" else kind, n,
                                              "" if funcs else "(types and constants)"))
        for name, m in funcs:
            ran = [v for v, f in events.items() if name in f]
            for v in ran:
                runs.setdefault(v, {}).setdefault("shim", set()).add(name)
            w("| | | `%s` | %d | %s |" % (name, m, ", ".join(ran) or "—"))
    w("")
    w("## What the scene runs")
    w("")
    w("The functions each kernel's run of the scene entered (as the Scene columns say), by whose they are;")
    w("other: those of no table above, the real headers used whole (page-flags.h's folio tests,")
    w(prof["other"])
    w("")
    w("| kernel | functions | upstream-unmodified | upstream-patched | added by %s | shim | other |"
      % ("the port" if a.doc == "lru" else "a series"))
    w("|---|---:|---:|---:|---:|---:|---:|")
    for v in events:
        c = runs.get(v, {})
        n = [len(c.get(k, ())) for k in ("upstream", "patched", "port", "shim")]
        named = {x[1] for k in ("upstream", "patched", "port") for x in c.get(k, ())} | c.get("shim", set())
        other = len(events[v] - named)
        w("| %s | %d | %d | %d | %d | %d | %d |" % (v, sum(n) + other, *n, other))
    w("")
    w("## Totals")
    w("")
    stat = {}
    for variant, branch, _ in ports:
        stat[variant] = git(tree, "diff", "--shortstat", BASE, branch).strip()
    w("- extracted from %s: %d lines in %d items, by %d specs" % (BASE, totals["extracted"], totals["items"],
                                                                  len(a.specs.split())))
    if a.srcs:
        w("- real headers used whole and files compiled whole: %d lines (%d headers, %d files)"
          % (whole, len(WHOLE), len(a.srcs.split())))
    else:
        w("- real headers used whole: %d lines (%d headers)" % (whole, len(WHOLE)))
    w("- extracted for %s only: %d lines in %d items" % ("the port" if a.doc == "lru" else "a series", port_lines,
                                                          len(port_only)))
    for variant, s in stat.items():
        w("- %s, %s..%s: %s" % (prof["series"], BASE, dict((v, b) for v, b, _ in ports)[variant], s))
    w("- shim (glue, shim headers, the per-CPU runtime): %d lines in %d files" % (shim_total, len(prof["shim_files"])))
    text = "\n".join(out) + "\n"
    if a.write:
        open(a.write, "w").write(text)
    if a.check:
        have = open(a.check).read() if os.path.exists(a.check) else ""
        if have != text:
            hl, tl = have.split("\n"), text.split("\n")
            n = next((i for i in range(max(len(hl), len(tl)))
                      if i >= len(hl) or i >= len(tl) or hl[i] != tl[i]), 0)
            sys.exit("lru-inventory: %s is not what the code says, from line %d:\n  has:    %s\n  should: %s\n"
                     "(make docs/lru.md writes it)" % (a.check, n + 1, hl[n] if n < len(hl) else "",
                                                         tl[n] if n < len(tl) else ""))


main()
