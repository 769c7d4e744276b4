#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Build the wasm64 system libraries the 64-bit wasm links use, and no more.

emcc 3.1.6 builds a library whole the first time a link needs it (all of
libc: 995 files, compiler_rt: 174), about an hour on two cores at
-sMEMORY64=2, where Debian ships no wasm64 libraries. Our links extract a
hundred-odd members of them. This builds exactly the members named in the
list file (wasm/tools/wasm64-syslibs.txt: "<archive> <member>", from
wasm-ld --trace) with emscripten's own build logic: its Library classes in
tools/system_libs.py choose each library's variation for the settings
(-sMEMORY64=2, -O2 so no assertions), give its source files, its flags and
its per-file changes (libc's -O2 files), and name the objects as its build
does. The archives go into the emcc cache (EM_CACHE) under the names emcc
links, so the links (emcc -nostdlib -l<lib>) and emcc's own struct-layout
probe (which links libcompiler_rt from the cache) find them.

usage: wasm64-syslibs.py <list file>   (EM_CACHE set to the private cache)
"""
import os
import sys
import time

EMSCRIPTEN = os.environ.get('EMSCRIPTEN', '/usr/share/emscripten')
sys.path.insert(0, EMSCRIPTEN)

from tools.settings import settings  # noqa: E402
from tools import shared, system_libs  # noqa: E402

# The settings our links run with that choose a library's variation.
settings.MEMORY64 = 2
settings.ASSERTIONS = 0  # emcc's default at -O1 and above

# archive name in the list -> emscripten's library (Library.name)
LIBRARIES = {'libc.a': 'libc', 'libdlmalloc.a': 'libmalloc',
             'libcompiler_rt.a': 'libcompiler_rt', 'libstubs.a': 'libstubs'}


def read_list(path):
    wanted = {}
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].split()
            if not line:
                continue
            archive, member = line
            if archive not in LIBRARIES:
                sys.exit(f'{path}: unknown archive {archive}')
            wanted.setdefault(archive, set()).add(member)
    return wanted


def subset(lib, members):
    """The library's build of only `members`: its get_files() filtered to
    the sources whose object has that name (a duplicate basename's second
    file is <name>__1.o, as Library.build_objects names it)."""
    names = {}
    chosen = []
    found = set()
    for src in lib.get_files():
        base = shared.unsuffixed_basename(src)
        n = names.get(base, 0)
        names[base] = n + 1
        obj = f'{base}.o' if n == 0 else f'{base}__{n}.o'
        if obj in members:
            chosen.append(src)
            found.add(obj)
    missing = sorted(members - found)
    if missing:
        sys.exit(f'{lib.get_filename()}: no source for {" ".join(missing)}')
    return chosen


def main():
    if len(sys.argv) != 2 or not os.environ.get('EM_CACHE'):
        sys.exit(__doc__)
    wanted = read_list(sys.argv[1])
    variations = system_libs.Library.get_usable_variations()
    libdir = shared.Cache.get_lib_dir(absolute=True)
    os.makedirs(libdir, exist_ok=True)
    for archive, members in sorted(wanted.items()):
        lib = variations[LIBRARIES[archive]]
        if lib.get_filename() != archive:
            sys.exit(f'emscripten chose {lib.get_filename()} for {archive}: the settings differ')
        total = len(lib.get_files())
        files = subset(lib, members)
        lib.get_files = lambda files=files: files
        build_dir = shared.Cache.get_path(os.path.join('build', lib.get_base_name()))
        os.makedirs(build_dir, exist_ok=True)
        start = time.time()
        objects = lib.build_objects(build_dir)
        out = os.path.join(libdir, archive)
        if os.path.exists(out):
            os.unlink(out)
        system_libs.create_lib(out, objects)
        print(f'  {archive}: {len(objects)} of its {total} files, {time.time() - start:.1f} s', flush=True)


if __name__ == '__main__':
    main()
