#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The explorer's rates: executions per second of the optimised native
# labrun (each run in the process, its memory put back after it; and,
# for comparison, each in a child of the fork server: labrun --fork,
# wasm/explore/), per second of wall time and per second of CPU
# time (user + system, children included: the machine may be shared),
# the reduction factor of sleep sets (executions with them / without, both
# searches run to exhaustion on explore-litmus, reaching the same end
# states), and for each small race of wasm/explore.json on each of its
# kernels the time to run its bound, natively and as wasm under Node (each
# execution there a fresh boot by writing the boot's memory back, not a
# fork); and PCT on each of them, against its bound.
set -eu
field() { sed -n "s/.*\"$1\":\([0-9.a-z-]*\).*/\1/p" | tail -1; }
cpu=$(mktemp)
trap 'rm -f "$cpu"' EXIT
# A search's last summary line; its CPU seconds in $cpu.
timed() {
	/usr/bin/time -f "%U %S" -o "$cpu" "$@" 2>/dev/null | tail -1
}
cpu_rate() { tail -1 "$cpu" | awk -v n="$1" '{ s = $1 + $2; printf "%.0f", (s > 0 ? n / s : 0) }'; }
echo "benchmark: the explorer (native, optimised; wasm under Node)"
plain=$(build/bench/v6.12/labrun --explore --scenario explore-litmus --bound 64 --no-por 2>/dev/null | tail -1)
por=$(build/bench/v6.12/labrun --explore --scenario explore-litmus --bound 64 2>/dev/null | tail -1)
pe=$(echo "$plain" | field executions_total); re=$(echo "$por" | field executions_total)
echo "explore-litmus (2 CPUs), exhausted: $pe executions plainly, $re with sleep sets" \
	"($(echo "$por" | field blocked_total) blocked), $(echo "$por" | field end_states) end states both;" \
	"reduction factor $(awk "BEGIN{printf \"%.2f\", $re/$pe}"); $(echo "$por" | field rate) executions/s"
wasm=$(node --no-experimental-fetch build/wasm/v6.12/labrun.cjs --explore --scenario explore-litmus --bound 64 2>/dev/null | tail -1)
echo "explore-litmus as wasm under Node: $(echo "$wasm" | field executions_total) executions," \
	"$(echo "$wasm" | field rate) executions/s"
# Each small race of wasm/explore.json on each of its kernels (the
# registry's), to its bound: natively, then as wasm under Node.
node wasm/explore.mjs races | while read -r id v bound scenario args; do
	# shellcheck disable=SC2086 # args are labrun flags, split on purpose
	out=$(timed build/bench/$v/labrun --explore --scenario "$scenario" $args --bound "$bound")
	n=$(echo "$out" | field executions_total)
	here=$(cpu_rate "$n")
	# shellcheck disable=SC2086
	forked=$(timed build/bench/$v/labrun --explore --fork --scenario "$scenario" $args --bound "$bound")
	fork_cpu=$(cpu_rate "$(echo "$forked" | field executions_total)")
	# shellcheck disable=SC2086
	wasm=$(node --no-experimental-fetch build/wasm/$v/labrun.cjs --explore --scenario "$scenario" $args --bound "$bound" 2>/dev/null | tail -1)
	echo "$id on $v, bound $bound: $n executions in" \
		"$(echo "$out" | field seconds) s, $(echo "$out" | field rate) executions/s natively" \
		"($here per CPU second; forked: $(echo "$forked" | field rate)/s, $fork_cpu per CPU second)," \
		"$(echo "$out" | field failing_executions) failing; as wasm under Node" \
		"$(echo "$wasm" | field executions_total) in $(echo "$wasm" | field seconds) s," \
		"$(echo "$wasm" | field rate) executions/s"
	# inode-put-isolate's runs are ten times longer (7,400 events): its goal is 1,000.
	goal=10000
	[ "$id" != inode-put-isolate ] || goal=1000
	[ -z "${BENCH_ROWS:-}" ] || printf "explorer, %s on %s: executions per CPU second, native\t%s\t/s\t>=\t%s\n" \
		"$id" "$v" "$here" "$goal" >> "$BENCH_ROWS"
done
# The snapshot lever (docs/explorer.md): each two-CPU race on each kernel
# one bound deeper than its own where that is at most 2 (thousands of
# executions, so the program's start weighs little), executions per CPU
# second with each run resumed from a snapshot where one serves, and from
# the boot (XP_NO_SNAPSHOTS=1); the summaries must be the same.
node wasm/explore.mjs races | while read -r id v bound scenario args; do
	[ "$bound" -lt 2 ] && [ "$id" != inode-put-isolate ] || continue
	# shellcheck disable=SC2086 # args are labrun flags, split on purpose
	snap=$(timed build/bench/$v/labrun --explore --scenario "$scenario" $args --bound 2)
	n=$(echo "$snap" | field executions_total)
	with=$(cpu_rate "$n")
	# shellcheck disable=SC2086
	boot=$(timed env XP_NO_SNAPSHOTS=1 build/bench/$v/labrun --explore --scenario "$scenario" $args --bound 2)
	without=$(cpu_rate "$(echo "$boot" | field executions_total)")
	same=$([ "$(echo "$snap" | sed 's/,"seconds".*//')" = "$(echo "$boot" | sed 's/,"seconds".*//')" ] &&
		echo "the same summary" || echo "DIFFERENT summaries")
	echo "$id on $v, bound 2: $n executions, $with per CPU second from snapshots," \
		"$without from the boot ($same)"
	[ -z "${BENCH_ROWS:-}" ] || printf "explorer, %s on %s at bound 2: executions per CPU second, native\t%s\t/s\t>=\t15000\n" \
		"$id" "$v" "$with" >> "$BENCH_ROWS"
done
# PCT on each race and kernel (wasm/explore.mjs pct: depth the expected
# preemptions + 1, or the bound + 1 where nothing may fail): the runs that
# fail against what PCT's bound 1/(n k^(d-1)) promises, natively.
node wasm/explore.mjs pct | while read -r id v depth args; do
	# shellcheck disable=SC2086 # args are labrun flags, split on purpose
	out=$(build/bench/$v/labrun --explore $args 2>/dev/null | tail -1)
	echo "PCT $id on $v, depth $depth: $(echo "$out" | field failing_executions) of" \
		"$(echo "$out" | field runs) runs fail; the bound promises $(echo "$out" | field p_per_run) a run" \
		"(k = $(echo "$out" | field k) decisions, $(echo "$out" | field cpus) CPUs); $(echo "$out" | field seconds) s"
done
