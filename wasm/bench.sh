#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Simulated events per second, natively (optimised, no sanitizers) and as
# wasm under Node, on the same runs, and their ratio. Each figure is events
# per second of CPU time of the simulation itself (labrun --stats, which
# excludes start-up and printing; CPU time, not wall time, since the
# machine may be shared), the best of three. Two figures each:
#   first   the first run in a fresh process: in wasm this includes V8
#           compiling the module (Node's process.cpuUsage() counts its
#           compiler threads), as a page's first run pays it;
#   steady  the best of runs 2 to 5 of the same run in one process
#           (labrun --repeat 5): the module compiled, the code warm. A
#           process is one boot: runs 2 to 5 start from the kernel state
#           run 1 left, and are one run a little unlike the first (seed 1:
#           328,780 events against 332,900), the same natively and in
#           wasm.
# The table's rows (BENCH_ROWS, wasm/bench-all.sh) are the means over the
# three seeds.
set -eu
rounds=${BENCH_ROUNDS:-400}
# $@: command; prints the best first-run rate of three processes, and in
# wasm that run's CPU seconds on Node's main thread and on its other threads
first() {
	for i in 1 2 3; do
		"$@" --summary --stats 2>&1 >/dev/null | awk '
			/events per CPU second/ { r = $(NF - 4) }
			/^of which/ { m = $3; o = $9 }
			END { if (m != "") print r, m, o; else print r }'
	done | sort -n | tail -1
}
# $@: command; prints the best rate of runs 2 to 5 in one process
steady() {
	"$@" --summary --stats --repeat 5 2>&1 >/dev/null | sed -n 's/.* \([0-9][0-9]*\) events per CPU second/\1/p' |
		tail -n +2 | sort -n | tail -1
}
ratio() {
	awk "BEGIN{printf \"%.2f\", $1 / $2}"
}
echo "benchmark: scenario shrinker-lifetime, --rounds $rounds (mount/unmount cycles), 2 simulated CPUs"
nf=0 ns=0 wf=0 ws=0
native=build/bench/v6.12/labrun
wasm="node --no-experimental-fetch build/wasm/v6.12/labrun.cjs"
for seed in 1 2 3; do
	events=$($native --seed "$seed" --rounds "$rounds" --summary | sed -n 's/.*: done, \([0-9]*\) events.*/\1/p')
	a=$(first $native --seed "$seed" --rounds "$rounds")
	b=$(steady $native --seed "$seed" --rounds "$rounds")
	set -- $(first $wasm --seed "$seed" --rounds "$rounds")
	c=$1
	d=$(steady $wasm --seed "$seed" --rounds "$rounds")
	echo "seed $seed: $events events; native $a events/s (steady $b), wasm (Node $(node --version)) $c events/s" \
		"(steady $d); wasm/native first $(ratio "$c" "$a"), steady $(ratio "$d" "$b")"
	[ $# -lt 3 ] || echo "  wasm's first run: $2 s of CPU on Node's main thread, $3 s on its other threads (V8 tiering the module up)"
	nf=$((nf + a)) ns=$((ns + b)) wf=$((wf + c)) ws=$((ws + d))
done
# The first run's cost of compiling is paid once: the same first-run
# ratio on the longest run of the scenario (1000 rounds, seed 1).
a=$(first $native --seed 1 --rounds 1000)
set -- $(first $wasm --seed 1 --rounds 1000)
echo "seed 1 at --rounds 1000: native $a events/s, wasm $1 events/s first run; wasm/native first $(ratio "$1" "$a")"
if [ -n "${BENCH_ROWS:-}" ]; then
	printf 'native speed\t%s\tM events/s\t>=\t5.7\n' \
		"$(awk "BEGIN{printf \"%.2f\", $nf / 3e6}")" >>"$BENCH_ROWS"
	printf 'wasm speed under Node\t%s\tM events/s\t>=\t1.0\n' \
		"$(awk "BEGIN{printf \"%.2f\", $wf / 3e6}")" >>"$BENCH_ROWS"
	printf 'wasm / native, first run\t%s\t\t>=\t0.67\n' "$(awk "BEGIN{printf \"%.3f\", $wf / $nf}")" >>"$BENCH_ROWS"
	printf 'wasm / native, steady state\t%s\t\t>=\t0.67\n' "$(awk "BEGIN{printf \"%.3f\", $ws / $ns}")" >>"$BENCH_ROWS"
fi
