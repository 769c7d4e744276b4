#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Seed 004's table: the share of kswapd's reclaim time spent in
# shrink_slab() while drop-behind reclaim streams past a page cache
# workingset held by N inodes x P active pages each (Johannes Weiner, in
# the thread of "vfs: keep inodes with page cache off the inode shrinker
# LRU", 20210614211904.14420-1-hannes@cmpxchg.org), on v6.12 (variant
# inode: such inodes stay off the LRU), inode-before (they stay on it and
# are rotated) and inode-rotate (Dave Chinner's
# LRU_ROTATE_NODEFER), natively (bench build) and as wasm under Node.
#
# Method: scenario inode-lru, --stress --quiet, seed 1, timed policy, one
# run per row. Each row runs scaled by 2^k (the smallest k that brings the
# simulated workingset within 65,536 pages and 50,000 inodes): N / 2^k
# inodes (rounded), P pages each, the inactive list / 2^k, reclaim at
# priority 12 - k and shrinker batches of 1024 >> k (the super block's)
# and 128 >> k (the shadow nodes', SHRINK_BATCH), so that every
# shrink_slab() and page scan asks for what it would at full size. The
# share is shrink_slab()'s CPU time over shrink_slab()'s plus
# shrink_inactive_list()'s (virtual time, calls' time less time off CPU).
#
# Cost model (virtual ns): the runtime's for each lock, atomic and list
# operation (wasm/runtime/costs.c); 1,600 per reclaimed page for the rest
# of its reclaim; per inode the shrinker visits one memory access, 5 on a
# hit and 300 on a DRAM miss, in the proportion of the modelled inodes
# (N x 1 KiB) that overflow a 64 MiB last-level cache; the inactive list
# gets what 16 GiB leaves after the workingset (N x P pages) and the inodes
# (N x 1 KiB). Stand-ins, not measurements: the shape is the claim, not
# the numbers. Wall times are printed, never checked; the runs go as many
# at a time as the machine has cores, so a cell's time includes sharing it.
set -eu
args="--scenario inode-lru --stress --quiet --meta --policy timed --max-steps 2000000000"

program() {
	# model_inodes pages: the key/value records of the scenario's program
	python3 -c '
import struct, sys
kv = {1: 0, 4: int(sys.argv[1]), 2: int(sys.argv[2]), 6: 0, 5: 0, 7: 4096}
print(",".join(",".join(map(str, [k] + list(struct.pack("<I", v)))) for k, v in kv.items()))
' "$1" "$2"
}

share='
import json, sys
m = json.load(open(sys.argv[1]))
if m["status"] != "done" or m["live_objects"] or m.get("reports"):
    sys.exit("bench: the run did not finish clean: %s" % m["status"])
c = {x["name"]: x for x in m["stats"]["calls"]}
s = c["shrink_slab"]["total_ns"] - c["shrink_slab"]["off_cpu_ns"]
p = c["shrink_inactive_list"]["total_ns"] - c["shrink_inactive_list"]["off_cpu_ns"]
print("%.2f" % (100.0 * s / (s + p)))
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

rows="1000:3072:0.39 10000:307:0.39 100000:32:1.29 500000:6:11.36 1000000:3:26.40 1500000:2:42.97 3000000:1:45.22"
# the kernels of the registry's inode bench (kernel-tree/manifest.json "bench")
kernels=$(python3 kernel-tree/kernels.py list --bench inode)
jobs=$(nproc)
# One native cell, a process: $1 flavour, $2 kernel, $3 inodes, $4 pages;
# its meta in $tmp/$1-$2-$3.json, its wall seconds in $tmp/$1-$2-$3.s.
cell='
tmp=$1 flavour=$2 v=$3 n=$4 p=$5 args=$6 prog=$7
t0=$(date +%s.%N)
build/bench/$v/labrun $args --program "$prog" >"$tmp/$flavour-$v-$n.json" || { echo "bench: $flavour $v $n failed" >&2; exit 255; }
t1=$(date +%s.%N)
echo "$t1 - $t0" | bc >"$tmp/$flavour-$v-$n.s"
'

echo
echo "benchmark: seed 004's table, shrink_slab() share of kswapd's reclaim time"
echo "  (drop-behind past N inodes x P active pages; one run per row, scaled; cost model above;"
echo "   the 21 runs of each flavour $jobs at a time, as the page's figure runs them in workers)"
for flavour in native wasm; do
	for row in $rows; do
		n=${row%%:*} rest=${row#*:}
		p=${rest%%:*}
		for v in $kernels; do
			if [ $flavour = native ]; then
				printf '%s\0' "$tmp" "$flavour" "$v" "$n" "$p" "$args" "$(program "$n" "$p")"
			else
				# shellcheck disable=SC2086 # $args: labrun's arguments, one field each
				printf '%s\t' "$tmp/$flavour-$v-$n.json" "$tmp/$flavour-$v-$n.s" "build/wasm/$v/labrun.cjs" $args --program
				printf '%s\n' "$(program "$n" "$p")"
			fi
		done
	done >"$tmp/cells"
	t0=$(date +%s.%N)
	if [ $flavour = native ]; then
		xargs -0 -n 7 -P "$jobs" sh -c "$cell" sh <"$tmp/cells"
	else
		# As the page runs the table: each kernel's module compiled once, every
		# run a fresh instance of it in a worker thread, $jobs at a time
		# (wasm/tools/labrun-pool.mjs).
		node --no-experimental-fetch wasm/tools/labrun-pool.mjs --jobs "$jobs" <"$tmp/cells" || { echo "bench: a wasm run failed" >&2; exit 1; }
	fi
	t1=$(date +%s.%N)
	[ $flavour = native ] || wasm_s=$(echo "$t1 - $t0" | bc)
	printf '  %-6s %-20s' "$flavour" "inodes x pages"
	for v in $kernels; do printf '%16s' "$v"; done
	printf '%10s\n' "seed"
	for row in $rows; do
		n=${row%%:*} rest=${row#*:}
		p=${rest%%:*} seed=${rest#*:}
		printf '  %-6s %-20s' "" "$(printf "%'d x %d" "$n" "$p" 2>/dev/null || echo "$n x $p")"
		for v in $kernels; do
			printf '%9s%% %4.1fs' "$(python3 -c "$share" "$tmp/$flavour-$v-$n.json")" "$(cat "$tmp/$flavour-$v-$n.s")"
		done
		printf '%9s%%\n' "$seed"
	done
done
echo "  (each cell: the share, then the run's wall time; seed: Johannes Weiner's perf"
echo "   profile of kswapd with the workingset's inodes rotated on the LRU, shrink_slab's share of its cycles)"
printf "  wasm, the whole table (21 runs, %d at a time): %.1f s wall\n" "$jobs" "$wasm_s"
[ -z "${BENCH_ROWS:-}" ] || printf "seed 004's inode table, 3 kernels x 7 rows, wasm under Node\t%.1f\ts\t<=\t10\n" \
	"$wasm_s" >>"$BENCH_ROWS"
