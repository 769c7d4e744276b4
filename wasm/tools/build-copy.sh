#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wasm/tools/build-copy.sh DIR
#
# A copy of what builds the simulated kernel (wasm/ and the make files),
# in DIR, over the same kernel tree (a link), for a build that breaks the
# copy on purpose: the wrong-shim runs (kernel-tree/kunit/wrong-shim.sh,
# wasm/selftest/wrong-shim.sh). DIR's wasm/ is replaced; its build/ is
# kept, so a second run rebuilds only what the break changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
w=$1
mkdir -p "$w/kernel-tree/kunit"
rm -rf "$w/wasm" && cp -a wasm "$w/wasm"
cp Makefile "$w/"
cp kernel-tree/diffs.mk "$w/kernel-tree/"
cp kernel-tree/kunit/kunit.mk "$w/kernel-tree/kunit/"
ln -sfn "$PWD/kernel-tree/linux" "$w/kernel-tree/linux"
