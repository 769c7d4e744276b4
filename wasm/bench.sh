#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Simulated events per second, natively (optimised, no sanitizers) and as
# wasm under Node, on the same runs, and their ratio. Each figure is the
# best of three runs of the simulation itself (labrun --stats: events per
# second of CPU time of the run, which excludes start-up and printing; CPU
# time, not wall time, since the machine may be shared). The table's rows
# (BENCH_ROWS, wasm/bench-all.sh) are the means over the three seeds.
set -eu
rounds=${BENCH_ROUNDS:-400}
best() {
	# $@: command; prints the best events per CPU second of three runs
	for i in 1 2 3; do
		"$@" --summary --stats 2>&1 >/dev/null | sed -n 's/.* \([0-9][0-9]*\) events per CPU second/\1/p'
	done | sort -n | tail -1
}
echo "benchmark: scenario shrinker-lifetime, --rounds $rounds (mount/unmount cycles), 2 simulated CPUs"
sn=0 sw=0
for seed in 1 2 3; do
	events=$(build/bench/v6.12/labrun --seed "$seed" --rounds "$rounds" --summary | sed -n 's/.*: done, \([0-9]*\) events.*/\1/p')
	n=$(best build/bench/v6.12/labrun --seed "$seed" --rounds "$rounds")
	w=$(best node --no-experimental-fetch build/wasm/v6.12/labrun.cjs --seed "$seed" --rounds "$rounds")
	echo "seed $seed: $events events; native $n events/s, wasm (Node $(node --version)) $w events/s, wasm/native $(awk "BEGIN{printf \"%.2f\", $w/$n}")"
	sn=$((sn + n)) sw=$((sw + w))
done
if [ -n "${BENCH_ROWS:-}" ]; then
	printf 'native speed (shrinker-lifetime)\t%s\tM events/s\t>=\t5.7\n' \
		"$(awk "BEGIN{printf \"%.2f\", $sn / 3e6}")" >>"$BENCH_ROWS"
	printf 'wasm speed under Node (the same runs)\t%s\tM events/s\t>=\t1.0\n' \
		"$(awk "BEGIN{printf \"%.2f\", $sw / 3e6}")" >>"$BENCH_ROWS"
	printf 'wasm / native\t%s\t\t>=\t0.67\n' "$(awk "BEGIN{printf \"%.3f\", $sw / $sn}")" >>"$BENCH_ROWS"
fi
