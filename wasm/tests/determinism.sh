#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs each scenario on seeds 1..N natively and as wasm under Node and
# compares the digests of their JSON-lines event logs.
set -eu
seeds=${1:-20}
native=build/native/labrun
wasm="node --no-experimental-fetch build/wasm/labrun.cjs"
fail=0
for scenario in $($native --list | cut -f1); do
	same=0
	for seed in $(seq 1 "$seeds"); do
		a=$(ASAN_OPTIONS=detect_leaks=0 $native --scenario "$scenario" --seed "$seed" --hash 2>/dev/null)
		b=$($wasm --scenario "$scenario" --seed "$seed" --hash)
		if [ "$a" = "$b" ]; then
			same=$((same + 1))
		else
			echo "determinism: $scenario seed $seed differs: native $a, wasm $b"
			fail=1
		fi
	done
	echo "determinism: $scenario: $same of $seeds seeds give the same log natively and in wasm"
done
exit $fail
