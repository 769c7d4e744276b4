#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wasm/tools/build-copy.sh DIR
# wasm/tools/build-copy.sh DIR FILE WHAT TARGET
#
# For the wrong-shim runs (kernel-tree/kunit/wrong-shim.sh,
# wasm/selftest/wrong-shim.sh), which break a copy of the shim on purpose.
# With DIR alone: a copy of what builds the simulated kernel (wasm/ and
# the make files) in DIR, over the same kernel tree (a link); DIR's wasm/
# is replaced, its build/ kept, so a second run rebuilds only what the
# break changed. With FILE WHAT TARGET, once the caller has broken FILE
# in the copy: check that FILE holds the break's "WRONG on purpose" mark
# and build the copy's TARGET.
set -euo pipefail
cd "$(dirname "$0")/../.."
w=$1
if [ $# -eq 4 ]; then
	file=$2 what=$3 target=$4
	grep -q 'WRONG on purpose' "$file" || { echo "wrong-shim: could not break $what in $file" >&2; exit 2; }
	echo "[wrong-shim] $what in $file; building $target"
	make -s -C "$w" "$target" >/dev/null
	exit 0
fi
mkdir -p "$w/kernel-tree/kunit"
# The files the last break edited: cp -a gives them back their old times,
# older than the objects built from the broken text, so make would keep
# those; touched, they and what includes them are built again.
broken=$( [ ! -d "$w/wasm" ] || grep -rl 'WRONG on purpose' "$w/wasm" || true)
rm -rf "$w/wasm" && cp -a wasm "$w/wasm"
for f in $broken; do
	[ ! -e "$f" ] || touch "$f"
done
cp Makefile "$w/"
# The kernel registry and the tools that read it (build/gen/kernels.mk).
cp kernel-tree/diffs.mk kernel-tree/manifest.json kernel-tree/kernels.py kernel-tree/kunitdef.py "$w/kernel-tree/"
# kernels.py checks that each kernel's scenes and patch series exist: linked.
mkdir -p "$w/web/src"
ln -sfn "$PWD/web/src/scenes" "$w/web/src/scenes"
ln -sfn "$PWD/kernel-tree/patches" "$w/kernel-tree/patches"
cp kernel-tree/kunit/kunit.mk "$w/kernel-tree/kunit/"
ln -sfn "$PWD/kernel-tree/linux" "$w/kernel-tree/linux"
