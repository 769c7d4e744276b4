#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Usage: determinism.sh SEEDS VARIANT...
# Runs every scenario of each variant on seeds 1..SEEDS natively and as
# wasm under Node, under the three scheduling policies in turn, and
# compares the digests of their JSON-lines event logs. Every fourth seed
# runs on the stress scale (--stress: real-length grace periods). The
# first MEMORY_SEEDS seeds (default 2) run again under the tso and the
# relaxed memory models.
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
	wasm="node --no-experimental-fetch $LAB_WASM/$variant/labrun.cjs"
	scenarios=$($native --list | cut -f1) || true
	if [ -z "$scenarios" ] || [ ! -f "$LAB_WASM/$variant/labrun.cjs" ]; then
		echo "determinism: $variant: no native labrun with scenarios, or no wasm build"
		exit 1
	fi
	memseeds=${MEMORY_SEEDS:-2}
	[ "$memseeds" -le "$seeds" ] || memseeds=$seeds
	err=$(mktemp)
	trap 'rm -f "$err"' EXIT
	for scenario in $scenarios; do
		same=0
		runs=0
		skipped=0
		for run in $(seq 1 "$seeds") $(seq 1 "$memseeds" | sed 's/$/:tso/') $(seq 1 "$memseeds" | sed 's/$/:relaxed/'); do
			seed=${run%%:*}
			memory=sc
			case $run in *:*) memory=${run#*:} ;; esac
			case $((seed % 3)) in 0) policy=timed ;; 1) policy=rr ;; *) policy=random ;; esac
			stress=
			[ $((seed % 4)) -ne 0 ] || stress=--stress
			# The lru-batch scenario on the real folio LRU under relaxed is not
			# compared yet (docs/memory-model.md, "The folio LRU under relaxed"):
			# on 6.12 its runs end clean, but their stale reads of the shim's
			# static counters differ natively and in wasm; on the RFC port's
			# kernels they crash in check_list()'s walk of the list or do not
			# end. None of it is read yet; each run is said skipped.
			if [ "$scenario:$memory" = lru-batch:relaxed ]; then
				echo "determinism: $variant $scenario seed $seed ($policy, $memory): skipped, the folio LRU under relaxed is not yet read (docs/memory-model.md)"
				skipped=$((skipped + 1))
				continue
			fi
			# Under relaxed, reclaim can call a shrinker whose count_objects its
			# CPU has not seen (docs/memory-model.md, "A NULL count_objects under
			# relaxed": shrinker-churn on the 6.12 kernels with the memcg bitmap,
			# shrinker-lifetime on no-shrinker-bitmap): the native run stops at a
			# call through NULL (pc 0), where wasm traps, so that run alone is
			# skipped, said so and counted; every other run is compared.
			# (a run that ends in a report exits 1, its hash printed all the same)
			a=$(ASAN_OPTIONS=detect_leaks=0 $native --scenario "$scenario" --seed "$seed" --policy $policy \
				--memory $memory $stress --hash 2>"$err") || true
			if [ -n "$a" ]; then
				:
			elif [ "$memory" = relaxed ] && grep -q 'SEGV on unknown address 0x0* (pc 0x0* ' "$err"; then
				echo "determinism: $variant $scenario seed $seed ($policy, $memory): skipped, the run calls a NULL count_objects (docs/memory-model.md)"
				skipped=$((skipped + 1))
				continue
			else
				echo "determinism: $variant $scenario seed $seed ($policy, $memory): the native run failed: $(tail -3 "$err")"
				fail=1
				continue
			fi
			b=$($wasm --scenario "$scenario" --seed "$seed" --policy $policy --memory $memory $stress --hash) || true
			runs=$((runs + 1))
			if [ "$a" = "$b" ]; then
				same=$((same + 1))
			else
				echo "determinism: $variant $scenario seed $seed ($policy, $memory) differs: native $a, wasm $b"
				fail=1
			fi
		done
		echo "determinism: $variant $scenario: $same of $runs runs ($seeds seeds under sc, $memseeds under tso and relaxed; policies timed, rr, random in turn) give the same log natively and in wasm ($LAB_NATIVE, $LAB_WASM)$([ "$skipped" = 0 ] || echo "; $skipped skipped, each said above")"
	done
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
