#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fuzzer's rate (make fuzz's target, libFuzzer on fuzz-ops over v6.12
# with AddressSanitizer and UBSan): executions in BENCH_FUZZ_SECONDS
# (default 20) from an empty corpus, per second of wall time and per
# second of CPU time (user + system: the machine may be shared), and the
# coverage it reached. Each execution is one input's run, ended by
# sim_fini(), whose cost once grew with the runtime's tables (a free() per
# empty slot, each unwound by the sanitizer): this row is what guards it.
set -eu
secs=${BENCH_FUZZ_SECONDS:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/corpus"
ASAN_OPTIONS=detect_leaks=0 /usr/bin/time -f "%U %S %e" -o "$dir/time" \
	build/fuzz/fuzz_shrinkers -max_total_time="$secs" -max_len=256 -print_final_stats=1 \
	"$dir/corpus" > "$dir/log" 2>&1
n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | cut -d' ' -f2)
read -r user sys wall < "$dir/time"
cpu=$(awk -v n="$n" -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", n / (u + s) }')
rate=$(awk -v n="$n" -v w="$wall" 'BEGIN { printf "%.0f", n / w }')
echo "benchmark: fuzzing fuzz-ops on v6.12 (libFuzzer, ASan + UBSan) from an empty corpus, ${secs} s:" \
	"$n executions, $rate per second, $cpu per CPU second ($user s user, $sys s system), coverage $cov edges"
[ -z "${BENCH_ROWS:-}" ] || printf "fuzzing, from an empty corpus: executions per CPU second\t%s\t/s\t>=\t3000\n" \
	"$cpu" >> "$BENCH_ROWS"
