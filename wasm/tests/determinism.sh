#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs each scenario on seeds 1..N natively and as wasm under Node, under
# the three scheduling policies in turn, and compares the digests of their
# JSON-lines event logs. make test runs a sample; make determinism, 100.
set -eu
seeds=${1:-20}
native=build/native/labrun
wasm="node --no-experimental-fetch build/wasm/labrun.cjs"
fail=0
for scenario in $($native --list | cut -f1); do
	same=0
	for seed in $(seq 1 "$seeds"); do
		case $((seed % 3)) in 0) policy=timed ;; 1) policy=rr ;; *) policy=random ;; esac
		a=$(ASAN_OPTIONS=detect_leaks=0 $native --scenario "$scenario" --seed "$seed" --policy $policy --hash 2>/dev/null)
		b=$($wasm --scenario "$scenario" --seed "$seed" --policy $policy --hash)
		if [ "$a" = "$b" ]; then
			same=$((same + 1))
		else
			echo "determinism: $scenario seed $seed ($policy) differs: native $a, wasm $b"
			fail=1
		fi
	done
	echo "determinism: $scenario: $same of $seeds seeds (policies timed, rr, random in turn) give the same log natively and in wasm"
done
exit $fail
