#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Usage: scripts/test-suite.sh NAME KIND -- COMMAND...
#
# make test's runner of one suite: runs COMMAND, its output shown as it
# comes, each line led by [NAME] (make test runs suites side by side), and
# kept whole in build/test-results/NAME.log; then writes NAME.json (its
# exit status, wall and CPU seconds) for scripts/test-summary.mjs, which
# reads the counts out of the log by KIND. A NAME with a slash is part of
# a group (test-native/v6.12.test_fuzz_ops), summed under its first word.
set -u
name=$1 kind=$2
shift 2
[ "${1:-}" = -- ] && shift
dir=build/test-results
file=$dir/${name//\//@}
mkdir -p "$dir"
start=$(date +%s.%N)
echo "[$name] started"
"$@" 2>&1 | tee "$file.log" | sed -u "s|^|[$name] |"
status=${PIPESTATUS[0]}
end=$(date +%s.%N)
# The second line of times: the CPU of this shell's children (the command, tee, sed), "XmY.YYYs XmY.YYYs";
# written to a file, since times in a pipe or $(...) would speak for the subshell.
times >"$file.times"
cpu=$(tail -1 "$file.times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); n += t[1] * 60 + t[2] } printf "%.1f", n }')
rm -f "$file.times"
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
printf '{"name":"%s","kind":"%s","status":%d,"wall":%s,"cpu":%s}\n' "$name" "$kind" "$status" "$wall" "$cpu" >"$file.json"
if [ "$status" -eq 0 ]; then
	echo "[$name] done in $wall s (CPU $cpu s)"
else
	echo "[$name] FAILED (exit $status) in $wall s: build/test-results/${name//\//@}.log"
fi
exit "$status"
