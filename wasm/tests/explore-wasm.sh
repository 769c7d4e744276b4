#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The explorer natively = in wasm under Node: the same searches print the
# same summaries (all but their wall seconds and rate), though natively
# each execution is a forked child and in wasm the one module's memory is
# put back after each (wasm/explore/). LAB_NATIVE and LAB_WASM:
# the builds compared (build/native and build/wasm; make test-wasm64:
# build/native64 and build/wasm64).
set -eu
: "${LAB_NATIVE:=build/native}" "${LAB_WASM:=build/wasm}"
fail=0
same() {
	variant=$1
	shift
	a=$(ASAN_OPTIONS=detect_leaks=0 $LAB_NATIVE/$variant/labrun --explore "$@" 2>/dev/null |
		sed 's/"seconds":[0-9.]*,"rate":[0-9.]*//') || [ $? -eq 1 ]
	b=$(node --no-experimental-fetch $LAB_WASM/$variant/labrun.cjs --explore "$@" 2>/dev/null |
		sed 's/"seconds":[0-9.]*,"rate":[0-9.]*//') || [ $? -eq 1 ]
	n=$(printf '%s\n' "$a" | grep -c '"mode"' || true)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		echo "explore: $variant $*: the same $n summaries natively and in wasm ($LAB_NATIVE, $LAB_WASM)"
	else
		echo "explore: $variant $*: native and wasm differ"
		printf 'native: %s\nwasm:   %s\n' "$a" "$b"
		fail=1
	fi
}
same v6.12 --scenario explore-litmus --bound 64
same v6.12 --scenario explore-litmus --bound 64 --no-por
same break-no-wait --scenario shrinker-lifetime --rounds 1 --objects 1 --bound 1
same break-no-wait --scenario shrinker-lifetime --rounds 1 --objects 1 --pct 2 --runs 100
same v6.1 --scenario shrinker-churn --tasks 2 --rounds 1 --objects 1 --bound 1
same v6.12 --scenario explore-choice --bound 3 --choice-bound litmus=1
same v6.12 --scenario explore-choice --pct 3 --runs 100 --choice-bound litmus=1
# The memory models' choices searched with the scheduler's, to the end (explore-litmus's reader under tso: 118
# executions, 4 end states; under relaxed: 246, 5; never the WARN, the acquire pairs with the release).
same v6.12 --scenario explore-litmus --memory tso --bound 64 --choice-bound mem-drain=2
same v6.12 --scenario explore-litmus --memory relaxed --bound 64 --choice-bound mem-load=2
exit $fail
