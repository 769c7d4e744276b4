#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wasm/selftest/wrong-shim.sh [WRONG|all]
#
# Shows that the kernel's own tests see a wrong shim. Copies the build
# files and wasm/ into build/selftest/wrong-shim/, breaks the copy's shim,
# builds that copy's native selftest labrun and runs wasm/selftest/run.sh
# with it. Succeeds when every test the wrong shim touches fails, and
# prints what the test printed. WRONG is one of (all: each in turn,
# which make selftest-wrong-shim runs):
#
#   find_bit   (default) find_next_bit() and friends miss the last word
#              of the bitmap: a bit set (or clear) only there is not
#              found (selftest-ida: its 1024-bit chunks' last 32 ids;
#              selftest-xarray: the marks of a node's last 32 slots;
#              selftest-bitmap: every bitmap function built on them)
#   atomic64   atomic64_t's read-modify-write operations keep only the
#              low 32 bits of the result, as a shim that stored it in the
#              event's 32-bit arguments would (selftest-atomic64)
#   xa_lock    spin_lock() and spin_unlock() of an XArray's xa_lock take
#              the time a lock takes and nothing else: it excludes nobody
#              (selftest-ida-threads: the radix-tree harness's 20 threads
#              on one IDA)
#   atomic     atomic_t's read-modify-write operations can be preempted
#              between their read and their write (a preemption point,
#              sim_preempt_schedule(), where the task may yield its CPU):
#              an update in between is lost (selftest-locktorture-rwsem_lock_short:
#              its readers count themselves in lock_is_read_held, which the
#              writers find not zero)
set -euo pipefail

wrong=${1:-find_bit}
cd "$(dirname "$0")/../.."
if [ "$wrong" = all ]; then	# make selftest-wrong-shim
	for w in find_bit atomic64 xa_lock atomic; do
		"$0" "$w" || exit 1
	done
	exit 0
fi
w=build/selftest/wrong-shim

wasm/tools/build-copy.sh "$w"

# Each break: the file it edits, what it does, the tests it must fail.
case $wrong in
find_bit)
	file=$w/wasm/include/linux/find.h what="find_next_bit() misses the last word"
	sed -i 's#^\twhile (offset < size) {$#\twhile (BIT_WORD(offset) + 1 < BITS_TO_LONGS(size)) {\t/* WRONG on purpose */#' "$file"
	scenarios="selftest-ida selftest-xarray selftest-bitmap" ;;
atomic64)
	file=$w/wasm/include/linux/atomic.h what="atomic64_t keeps only 32 bits"
	sed -i '/^static inline s64 sim_atomic64_rmw(/,/^}/ s#^\tv->counter = new;#\tv->counter = (s64)(int)new;\t/* WRONG on purpose */#' "$file"
	scenarios="selftest-atomic64" ;;
xa_lock)
	file=$w/wasm/include/linux/spinlock.h what="xa_lock excludes nobody"
	# it still costs what a lock costs (and is a point where the CPU can
	# be preempted), as a lock that did nothing else would
	sed -i -E 's#^\#define (spin_lock|spin_unlock)\(lock\)(\t+)(sim_spin_(lock|unlock)\((.*), (SIM_SITE_EXPR\(\#lock\))\))$#\#define \1(lock)\2(__builtin_strstr(\#lock, "xa_lock") ? sim_step(\6, SIM_COST_SPIN_\U\4\E) : \3)\t/* WRONG on purpose */#' "$file"
	scenarios="selftest-ida-threads" ;;
atomic)
	file=$w/wasm/include/linux/atomic.h what="atomic_t is not atomic across a preemption point"
	sed -i '/^static inline int sim_atomic_rmw(/,/^}/ s#^\tv->counter = new;#\tsim_preempt_schedule(site);\t/* WRONG on purpose */\n\tv->counter = new;#' "$file"
	scenarios="selftest-locktorture-rwsem_lock_short" ;;
*)	echo "wrong-shim: WRONG is find_bit, atomic64, xa_lock or atomic, not $wrong" >&2
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
