#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-tree/kunit/wrong-shim.sh [BRANCH]
#
# Shows that the referee can see a wrong shim. Copies the build files and
# wasm/ into build/kunit/wrong-shim/, breaks the copy's shim so that
# clear_bit() does nothing (shrink_slab_memcg() then still gets
# SHRINK_EMPTY from an empty memcg's shrinker, but its bit is never
# cleared: reclaim keeps calling it), builds that copy's native labrun and
# runs compare.sh against the UML trace of BRANCH (default v6.12), which
# make kunit must have written. Succeeds when the comparison fails.
set -euo pipefail

branch=${1:-v6.12}
cd "$(dirname "$0")/../.."
top=$PWD
w=build/kunit/wrong-shim

mkdir -p "$w/kernel-tree/kunit"
rm -rf "$w/wasm" && cp -a wasm "$w/wasm"
cp Makefile "$w/"
cp kernel-tree/diffs.mk "$w/kernel-tree/"
cp kernel-tree/kunit/kunit.mk "$w/kernel-tree/kunit/"
ln -sfn "$top/kernel-tree/linux" "$w/kernel-tree/linux"

bitops=$w/wasm/include/linux/bitops.h
sed -i 's|^#define clear_bit(nr, addr)\t.*|#define clear_bit(nr, addr)\t((void)(nr), (void)(addr))\t/* WRONG on purpose */|' "$bitops"
grep -q 'WRONG on purpose' "$bitops" || { echo "wrong-shim: could not break clear_bit() in $bitops" >&2; exit 2; }
echo "[wrong-shim] clear_bit() does nothing in $bitops; building its native labrun"
make -s -C "$w" "build/native/$branch/labrun" >/dev/null

status=0
NATIVE_LABRUN="$w/build/native/BRANCH/labrun" kernel-tree/kunit/compare.sh "$branch" || status=$?
case $status in
0)	echo "wrong-shim: the comparison passed with a wrong shim: the referee is blind" >&2
	exit 1 ;;
1)	echo "[wrong-shim] the comparison failed, as it must" ;;
*)	exit "$status" ;;
esac
