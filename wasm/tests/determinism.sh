#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Usage: determinism.sh SEEDS VARIANT...
# Runs every scenario of each variant on seeds 1..SEEDS natively and as
# wasm under Node, under the three scheduling policies in turn, and
# compares the digests of their JSON-lines event logs. Every fourth seed
# runs on the stress scale (--stress: real-length grace periods). The
# first MEMORY_SEEDS seeds (default 2) run again under the tso and the
# relaxed memory models. Each native run is a process of its own; a
# variant's wasm runs follow in one Node process, each a fresh instance
# of the module compiled once (wasm/tools/labrun-pool.mjs --keep-workers).
# Variants are checked side by side, DETERMINISM_JOBS at a time (default:
# the number of CPUs); each variant's lines are printed together.
# LAB_NATIVE and LAB_WASM: the builds compared (build/native and
# build/wasm; make test-wasm64: build/native64 and build/wasm64).
set -eu
: "${LAB_NATIVE:=build/native}" "${LAB_WASM:=build/wasm}"
export LAB_NATIVE LAB_WASM
if [ "${1:-}" = --one ]; then
	seeds=$2
	variant=$3
	fail=0
	native=$LAB_NATIVE/$variant/labrun
	cjs=$LAB_WASM/$variant/labrun.cjs
	scenarios=$($native --list | cut -f1) || true
	if [ -z "$scenarios" ] || [ ! -f "$cjs" ]; then
		echo "determinism: $variant: no native labrun with scenarios, or no wasm build"
		exit 1
	fi
	memseeds=${MEMORY_SEEDS:-2}
	[ "$memseeds" -le "$seeds" ] || memseeds=$seeds
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# Each run: its seed, then :tso or :relaxed past the sc seeds.
	runs_of() {
		seq 1 "$seeds"
		seq 1 "$memseeds" | sed 's/$/:tso/'
		seq 1 "$memseeds" | sed 's/$/:relaxed/'
	}
	# A run's seed, memory model, policy and stress flag, from its line.
	parse_run() {
		seed=${1%%:*}
		memory=sc
		case $1 in *:*) memory=${1#*:} ;; esac
		case $((seed % 3)) in 0) policy=timed ;; 1) policy=rr ;; *) policy=random ;; esac
		stress=
		[ $((seed % 4)) -ne 0 ] || stress=--stress
	}
	# First every native run, a process each; each run numbered n leaves
	# $tmp/n.native (its hash), n.skip or n.fail (the line to print), and
	# a job for the wasm runs, which follow in one Node process.
	n=0
	for scenario in $scenarios; do
		for run in $(runs_of); do
			n=$((n + 1))
			parse_run "$run"
			what="$variant $scenario seed $seed ($policy, $memory)"
			# Under relaxed, reclaim can call a shrinker whose count_objects its
			# CPU has not seen (docs/memory-model.md, "A NULL count_objects under
			# relaxed": shrinker-churn on the 6.12 kernels with the memcg bitmap,
			# shrinker-lifetime on no-shrinker-bitmap): the native run stops at a
			# call through NULL (pc 0), where wasm traps, so that run alone is
			# skipped, said so and counted; every other run is compared.
			# (a run that ends in a report exits 1, its hash printed all the same)
			a=$(ASAN_OPTIONS=detect_leaks=0 $native --scenario "$scenario" --seed "$seed" --policy $policy \
				--memory $memory $stress --hash 2>"$tmp/$n.err") || true
			if [ -n "$a" ]; then
				echo "$a" >"$tmp/$n.native"
				printf '%s\t%s\t%s\t--scenario\t%s\t--seed\t%s\t--policy\t%s\t--memory\t%s%s\t--hash\n' \
					"$tmp/$n.wasm" "$tmp/$n.secs" "$cjs" "$scenario" "$seed" $policy $memory \
					"${stress:+	$stress}" >>"$tmp/jobs"
			elif [ "$memory" = relaxed ] && grep -q 'SEGV on unknown address 0x0* (pc 0x0* ' "$tmp/$n.err"; then
				echo "determinism: $what: skipped, the run calls a NULL count_objects (docs/memory-model.md)" >"$tmp/$n.skip"
			else
				echo "determinism: $what: the native run failed: $(tail -3 "$tmp/$n.err")" >"$tmp/$n.fail"
			fi
		done
	done
	# The wasm runs: one worker thread, each run a fresh instance of the
	# module compiled once (a fresh boot; wasm/tools/labrun-pool.mjs), not a
	# Node process of its own, which costs about 120 ms a run. A run that
	# ends in a report exits 1, as natively; its hash is compared all the same.
	rc=0
	if [ -s "$tmp/jobs" ]; then
		node --no-experimental-fetch "$(dirname "$0")/../tools/labrun-pool.mjs" --jobs 1 --keep-workers --ok 1 \
			<"$tmp/jobs" 2>"$tmp/pool.err" || rc=$?
	fi
	if [ "$rc" -gt 1 ]; then
		echo "determinism: $variant: the wasm runs could not start: $(head -5 "$tmp/pool.err")"
		exit 1
	fi
	# Then the comparison, in the same order.
	n=0
	for scenario in $scenarios; do
		same=0
		runs=0
		skipped=0
		for run in $(runs_of); do
			n=$((n + 1))
			parse_run "$run"
			if [ -e "$tmp/$n.skip" ]; then
				cat "$tmp/$n.skip"
				skipped=$((skipped + 1))
				continue
			fi
			if [ -e "$tmp/$n.fail" ]; then
				cat "$tmp/$n.fail"
				fail=1
				continue
			fi
			a=$(cat "$tmp/$n.native")
			b=$(cat "$tmp/$n.wasm" 2>/dev/null) || b=
			runs=$((runs + 1))
			if [ "$a" = "$b" ]; then
				same=$((same + 1))
			else
				echo "determinism: $variant $scenario seed $seed ($policy, $memory) differs: native $a, wasm ${b:-(no hash)}"
				fail=1
			fi
		done
		echo "determinism: $variant $scenario: $same of $runs runs ($seeds seeds under sc, $memseeds under tso and relaxed; policies timed, rr, random in turn) give the same log natively and in wasm ($LAB_NATIVE, $LAB_WASM)$([ "$skipped" = 0 ] || echo "; $skipped skipped, each said above")"
	done
	if [ "$fail" != 0 ] && [ -s "$tmp/pool.err" ]; then
		echo "determinism: $variant: the wasm runs' errors (at most 40 lines):"
		head -40 "$tmp/pool.err"
	fi
	exit $fail
fi
seeds=$1
shift
jobs=${DETERMINISM_JOBS:-$(nproc)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for variant in "$@"; do echo "$variant"; done |
	xargs -P "$jobs" -I{} sh -c '"$0" --one "$1" "$2" >"$3/$2.log" 2>&1 || touch "$3/$2.failed"' "$0" "$seeds" {} "$out"
fail=0
for variant in "$@"; do
	cat "$out/$variant.log"
	[ ! -e "$out/$variant.failed" ] || fail=1
done
exit $fail
