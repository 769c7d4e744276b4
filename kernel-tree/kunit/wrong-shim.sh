#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-tree/kunit/wrong-shim.sh [BRANCH [WRONG]]
#
# Shows that the referee can see a wrong shim. Copies the build files and
# wasm/ into build/kunit/wrong-shim/, breaks the copy's shim, builds that
# copy's native labrun for BRANCH (default v6.12) and runs compare.sh with
# it against the UML traces make kunit wrote. Succeeds when the comparison
# fails, in every scenario the wrong shim touches. WRONG is one of:
#
#   clear_bit   (default) clear_bit() does nothing: shrink_slab_memcg()
#               still gets SHRINK_EMPTY from an empty memcg's shrinker,
#               but its bit is never cleared, so reclaim keeps calling it
#               (kunit-seq, kunit-lifetime, kunit-churn, kunit-bitmap,
#               kunit-offline, kunit-reuse, kunit-runaway)
#   __set_bit   __set_bit() does nothing: __folio_set_swapbacked() leaves
#               the anonymous folios file-backed, so the folio LRU puts
#               them on the file lists (kunit-lru, on v6.12)
#   generic_drop_inode  generic_drop_inode() in wasm/include/linux/fs.h
#               always says drop: the final iput() evicts every inode
#               instead of keeping it cached (kunit-inode, built with
#               variant inode, on v6.12 or a port on it)
#   taint       a KASAN report leaves lockdep on (wasm/runtime/lockdep.c's
#               sim_lockdep_taint() does nothing), as the simulated kernel did
#               before User-Mode Linux showed otherwise: the inversion
#               after the use-after-free is reported (kunit-planted-taint,
#               on v6.12)
#   charging    an allocation for an offline memcg is charged to that memcg,
#               not to its nearest online ancestor (wasm/glue/memcg.c's
#               memcg_charge_target() takes every memcg as online), as the
#               simulator charged before the referee's kunit-offline
#               (kunit-offline, on v6.12 or v6.1)
#   tracepoint  the shim hands mm_shrink_slab_end's tracepoint the unused
#               scan count as the new one and the new as the unused
#               (wasm/include/trace/events/vmscan.h): the event log and the
#               "reclaim_lab: " lines stay right, the tracepoint lines tracefs
#               printed do not (kunit-seq, kunit-deferred, kunit-reuse,
#               kunit-runaway, on v6.12: a kernel built with tracing)
#   memcg_id    memcg ids come from a counter that never goes back
#               (memcg_id_remove() frees nothing), as the glue gave them
#               out before kunit-offline: new memcgs do not get the ids of
#               those taken offline (kunit-offline, on v6.12 or v6.1)
#   config_64bit  the 64-bit build (native64, compared as make kunit64 does)
#               without CONFIG_64BIT: long is 64 bits but BITS_PER_LONG 32,
#               so shrinker_info units hold 32 bits in longs of 64 and a
#               memcg's bits land on other shrinkers (kunit-bitmap), and
#               kunit-bigcount, which asks BITS_PER_LONG, runs nothing
#               (on v6.12)
set -euo pipefail

branch=${1:-v6.12}
wrong=${2:-clear_bit}
cd "$(dirname "$0")/../.."
w=build/kunit/wrong-shim
word=32		# the word size of the build the break is compared in
case $branch in lru-batch-port) variant=lru-batch ;; lru-splice-port) variant=lru-splice ;; *) variant=$branch ;; esac

wasm/tools/build-copy.sh "$w"

# Each break: the file it edits, what it does, the scenarios it must fail.
case $wrong in
clear_bit)
	file=$w/wasm/include/linux/bitops.h what="clear_bit() does nothing"
	sed -i 's|^#define clear_bit(nr, addr)\t.*|#define clear_bit(nr, addr)\t((void)(nr), (void)(addr))\t/* WRONG on purpose */|' "$file"
	scenarios="kunit-seq kunit-lifetime kunit-churn kunit-bitmap kunit-offline kunit-reuse kunit-runaway" ;;
__set_bit)
	file=$w/wasm/include/linux/bitops.h what="__set_bit() does nothing"
	sed -i '/^static inline void __set_bit(/,/^}/ s#^\t.*addr)*\[BIT_WORD(nr)\] |= BIT_MASK(nr);#\t(void)addr;\t/* WRONG on purpose */#' "$file"
	scenarios="kunit-lru" ;;
generic_drop_inode)
	# every inode dropped on its final iput(), as generic_delete_inode() does
	file=$w/wasm/include/linux/fs.h what="generic_drop_inode() drops every inode"
	variant=inode	# kunit-inode's
	sed -i '/^static inline int generic_drop_inode(/,/^}/ s#^\treturn !inode->i_nlink || inode_unhashed(inode);#\treturn 1;\t/* WRONG on purpose */#' "$file"
	scenarios="kunit-inode" ;;
taint)
	file=$w/wasm/runtime/lockdep.c what="sim_lockdep_taint() leaves lockdep on"
	sed -i '/^void sim_lockdep_taint(/,/^}/ s#^\tif (!debug_locks)$#\tif (1)\t/* WRONG on purpose */#' "$file"
	scenarios="kunit-planted-taint" ;;
charging)
	file=$w/wasm/glue/memcg.c what="allocations for an offline memcg charged to it"
	sed -i '/^static void \*memcg_charge_target(/,/^}/ s#^\t\tif (memcg->has_objcg)$#\t\tif (1)\t/* WRONG on purpose */#' "$file"
	scenarios="kunit-offline" ;;
memcg_id)
	file=$w/wasm/glue/memcg.c what="memcg ids never freed (a counter)"
	sed -i '/^static void memcg_id_remove(/,/^}/ s#^\t\tmemcg_ids\[memcg->id / BITS_PER_LONG\] &= .*#\t\t;\t/* WRONG on purpose */#' "$file"
	scenarios="kunit-offline" ;;
tracepoint)
	file=$w/wasm/include/trace/events/vmscan.h what="mm_shrink_slab_end's scan counts swapped"
	sed -i 's#^\t\t\tunused_scan_cnt, new_scan_cnt, total_scan);#\t\t\tnew_scan_cnt, unused_scan_cnt, total_scan); /* WRONG on purpose */#' "$file"
	scenarios="kunit-seq kunit-deferred kunit-reuse kunit-runaway" ;;
config_64bit)
	file=$w/wasm/include/generated/autoconf.h what="a 64-bit build without CONFIG_64BIT"
	sed -i 's|^#define CONFIG_64BIT 1\t.*|/* CONFIG_64BIT left out: WRONG on purpose */|' "$file"
	word=64
	scenarios="kunit-bitmap kunit-bigcount" ;;
*)	echo "wrong-shim: WRONG is clear_bit, __set_bit, generic_drop_inode, taint, charging, memcg_id, tracepoint or config_64bit, not $wrong" >&2
	exit 2 ;;
esac
native=native
[ "$word" = 32 ] || native=native64
wasm/tools/build-copy.sh "$w" "$file" "$what" "build/$native/$variant/labrun"

# Each scenario on its own, so that each must fail.
out=$w/compare.txt
status=0
for s in $scenarios; do
	rc=0
	SCENARIOS=$s NATIVE_LABRUN="$w/build/$native/BRANCH/labrun" KUNIT_WORD=$word \
		kernel-tree/kunit/compare.sh "$branch" > "$out" 2>&1 || rc=$?
	grep -A2 "$native trace differs\|$native shrink_slab tracepoints differ" "$out" || cat "$out"
	case $rc in
	0)	echo "wrong-shim: $s: the comparison passed with a wrong shim: the referee is blind" >&2
		status=1 ;;
	1)	echo "[wrong-shim] $s: the comparison failed, as it must" ;;
	*)	exit "$rc" ;;
	esac
done
exit $status
