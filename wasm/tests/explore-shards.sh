#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A search split into shards equals the one search: for each small race of
# wasm/explore.json on each of its kernels (or those whose id is given; the
# races under tso and relaxed among them, the model's choices searched with
# the scheduler's and split with them), and
# for searches many bounds deep (explore-litmus and explore-choice to the
# end, shrinker-free to bound 2 on break-no-wait, where a shortest failing
# schedule is found early and kept), the optimised labrun searches it in
# one process, with --jobs 2,
# and as shards run one after another (--shard 0/2 and 1/2, and 0/3 to
# 2/3) merged by --explore-merge; every bound's summary must be the same
# (executions, blocked, deferred, end states, failing executions by kind,
# the shortest failing schedule and its replay, exhausted), all but the
# seconds and the rate; and each shard checks that it ran its executions
# in the order the merge takes the one search's to be (report.c,
# xp_order_next()). LAB_BIN: the builds' folder (build/bench).
set -eu
bin=${LAB_BIN:-build/bench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
strip() { sed 's/,"seconds":[0-9.]*,"rate":[0-9.]*}$/}/' "$1"; }
fail=0 n=0
races=$(node wasm/explore.mjs races)
races="$races
explore-litmus v6.12 64 explore-litmus
explore-litmus-no-por v6.12 64 explore-litmus --no-por
explore-choice v6.12 64 explore-choice --choice-bound litmus=1
shrinker-free-deeper break-no-wait 2 shrinker-lifetime --rounds 1 --objects 1"
[ $# -eq 0 ] || races=$(echo "$races" | awk -v ids=" $* " 'index(ids, " " $1 " ")')
echo "$races" | {
while read -r id v bound scenario args; do
	[ -n "$id" ] || continue
	bad=0
	lab="$bin/$v/labrun"
	# shellcheck disable=SC2086 # args are labrun flags, split on purpose
	set -- --explore --scenario "$scenario" $args --bound "$bound"
	"$lab" "$@" > "$dir/one" 2>/dev/null </dev/null || [ $? -eq 1 ]
	"$lab" "$@" --jobs 2 > "$dir/jobs" 2>/dev/null </dev/null || [ $? -eq 1 ]
	for k in 2 3; do
		i=0
		while [ "$i" -lt "$k" ]; do
			"$lab" "$@" --shard "$i/$k" > "$dir/shard$i" 2>"$dir/err" </dev/null || [ $? -eq 1 ] ||
				{ echo "FAIL $id on $v: shard $i/$k: $(cat "$dir/err")"; bad=1; }
			i=$((i + 1))
		done
		# shellcheck disable=SC2046 # the records, one a word
		"$lab" --explore-merge $(i=0; while [ "$i" -lt "$k" ]; do echo "$dir/shard$i"; i=$((i + 1)); done) \
			> "$dir/merged$k" 2>/dev/null </dev/null || [ $? -eq 1 ]
	done
	strip "$dir/one" > "$dir/one.s"
	for w in jobs merged2 merged3; do
		strip "$dir/$w" > "$dir/$w.s"
		if [ ! -s "$dir/one.s" ] || ! cmp -s "$dir/one.s" "$dir/$w.s"; then
			echo "FAIL $id on $v: $w differs from the one search"
			diff "$dir/one.s" "$dir/$w.s" | head -6
			bad=1
		fi
	done
	n=$((n + 1))
	[ "$bad" = 0 ] || { fail=1; continue; }
	execs=$(tail -1 "$dir/one" | sed -n 's/.*"executions_total":\([0-9]*\).*/\1/p')
	echo "ok   $id on $v, bound $bound: one search = --jobs 2 = 2 shards = 3 shards ($execs executions)"
done
echo "explore-shards: $n searches, $([ "$fail" = 0 ] && echo "every one equal" || echo "some differ")"
exit "$fail"
}
