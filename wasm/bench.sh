#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Simulated events per second, natively (optimised, no sanitizers) and as
# wasm under Node, on the same runs, and their ratio. Each figure is the
# best of three runs of the simulation itself (the CLI's --stats time,
# which excludes start-up and printing).
set -eu
rounds=${BENCH_ROUNDS:-400}
best() {
	# $@: command; prints the best events/s of three runs
	for i in 1 2 3; do
		"$@" --summary --stats 2>&1 >/dev/null | sed -n 's/.* \([0-9][0-9]*\) events\/s/\1/p'
	done | sort -n | tail -1
}
echo "benchmark: scenario shrinker-lifetime, --rounds $rounds (mount/unmount cycles), 2 simulated CPUs"
for seed in 1 2 3; do
	events=$(build/bench/v6.12/labrun --seed "$seed" --rounds "$rounds" --summary | sed -n 's/.*: done, \([0-9]*\) events.*/\1/p')
	n=$(best build/bench/v6.12/labrun --seed "$seed" --rounds "$rounds")
	w=$(best node --no-experimental-fetch build/wasm/v6.12/labrun.cjs --seed "$seed" --rounds "$rounds")
	echo "seed $seed: $events events; native $n events/s, wasm (Node $(node --version)) $w events/s, wasm/native $(awk "BEGIN{printf \"%.2f\", $w/$n}")"
done
