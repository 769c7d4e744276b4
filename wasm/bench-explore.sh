#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The explorer's rates: executions per second (each a fresh boot in a
# forked child, wasm/runtime/explore.c) of the optimised native labrun,
# the reduction factor of sleep sets (executions with them / without, both
# searches run to exhaustion on explore-litmus, reaching the same end
# states), and the time to exhaust bound 1 of shrinker-lifetime (one
# mount, one object); the same searches as wasm under Node (each execution
# there a fresh boot by putting the module's memory back, not a fork).
set -eu
field() { sed -n "s/.*\"$1\":\([0-9.a-z]*\).*/\1/p" | tail -1; }
echo "benchmark: the explorer (native, optimised; wasm under Node)"
plain=$(build/bench/v6.12/labrun --explore --scenario explore-litmus --bound 64 --no-por 2>/dev/null | tail -1)
por=$(build/bench/v6.12/labrun --explore --scenario explore-litmus --bound 64 2>/dev/null | tail -1)
pe=$(echo "$plain" | field executions_total); re=$(echo "$por" | field executions_total)
echo "explore-litmus (2 CPUs), exhausted: $pe executions plainly, $re with sleep sets" \
	"($(echo "$por" | field blocked_total) blocked), $(echo "$por" | field end_states) end states both;" \
	"reduction factor $(awk "BEGIN{printf \"%.2f\", $re/$pe}"); $(echo "$por" | field rate) executions/s"
for v in v6.12 break-no-wait; do
	out=$(build/bench/$v/labrun --explore --scenario shrinker-lifetime --rounds 1 --objects 1 --bound 1 2>/dev/null | tail -1)
	echo "shrinker-lifetime on $v (2 CPUs, 1 mount, 1 object), bound 1:" \
		"$(echo "$out" | field executions_total) executions in $(echo "$out" | field seconds) s," \
		"$(echo "$out" | field rate) executions/s, $(echo "$out" | field failing_executions) failing"
done
wasm=$(node --no-experimental-fetch build/wasm/v6.12/labrun.cjs --explore --scenario explore-litmus --bound 64 2>/dev/null | tail -1)
echo "explore-litmus as wasm under Node: $(echo "$wasm" | field executions_total) executions," \
	"$(echo "$wasm" | field rate) executions/s"
for v in v6.12 break-no-wait; do
	out=$(node --no-experimental-fetch build/wasm/$v/labrun.cjs --explore --scenario shrinker-lifetime --rounds 1 --objects 1 --bound 1 2>/dev/null | tail -1)
	echo "shrinker-lifetime on $v as wasm under Node, bound 1:" \
		"$(echo "$out" | field executions_total) executions in $(echo "$out" | field seconds) s," \
		"$(echo "$out" | field rate) executions/s"
done
