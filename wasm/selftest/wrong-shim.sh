#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wasm/selftest/wrong-shim.sh [WRONG]
#
# Shows that the kernel's own tests see a wrong shim. Copies the build
# files and wasm/ into build/selftest/wrong-shim/, breaks the copy's shim,
# builds that copy's native selftest labrun and runs wasm/selftest/run.sh
# with it. Succeeds when every test the wrong shim touches fails, and
# prints what the test printed. WRONG is one of:
#
#   find_bit   (default) find_next_bit() and friends miss the last word
#              of the bitmap: a bit set (or clear) only there is not
#              found (selftest-ida: its 1024-bit chunks' last 32 ids;
#              selftest-xarray: the marks of a node's last 32 slots)
#   atomic64   atomic64_t's read-modify-write operations keep only the
#              low 32 bits of the result, as a shim that stored it in the
#              event's 32-bit arguments would (selftest-atomic64)
set -euo pipefail

wrong=${1:-find_bit}
cd "$(dirname "$0")/../.."
w=build/selftest/wrong-shim

wasm/tools/build-copy.sh "$w"

# Each break: the file it edits, what it does, the tests it must fail.
case $wrong in
find_bit)
	file=$w/wasm/include/linux/find.h what="find_next_bit() misses the last word"
	sed -i 's#^\twhile (offset < size) {$#\twhile (BIT_WORD(offset) + 1 < BITS_TO_LONGS(size)) {\t/* WRONG on purpose */#' "$file"
	scenarios="selftest-ida selftest-xarray" ;;
atomic64)
	file=$w/wasm/include/linux/atomic.h what="atomic64_t keeps only 32 bits"
	sed -i '/^static inline s64 sim_atomic64_rmw(/,/^}/ s#^\tv->counter = new;#\tv->counter = (s64)(int)new;\t/* WRONG on purpose */#' "$file"
	scenarios="selftest-atomic64" ;;
*)	echo "wrong-shim: WRONG is find_bit or atomic64, not $wrong" >&2
	exit 2 ;;
esac
wasm/tools/build-copy.sh "$w" "$file" "$what" build/native/selftest/labrun

status=0
for s in $scenarios; do
	rc=0
	LABRUN_NATIVE="$w/build/native/selftest/labrun" wasm/selftest/run.sh --native-only "$s" || rc=$?
	case $rc in
	0)	echo "wrong-shim: $s passed with a wrong shim: the test is blind to it" >&2
		status=1 ;;
	1)	echo "[wrong-shim] $s: the kernel's test failed, as it must" ;;
	*)	exit "$rc" ;;
	esac
done
exit $status
