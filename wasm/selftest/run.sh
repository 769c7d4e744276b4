#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wasm/selftest/run.sh [--native-only] [--policy timed|rr|random] [--cpus N] [SCENARIO...]
#
# Runs the kernel's own tests (the selftest-* scenarios of the selftest
# variant; all of them when none is named) on the simulated machine,
# natively (ASan + UBSan) and in wasm under Node, side by side. For each,
# reads the pass and fail counts from what the test itself printed (its
# console, labrun --console), prints one line
#
#   selftest-xarray: 6782044 passed, 0 failed (native 10.2 s, wasm 14.5 s, same console)
#
# and fails when a test failed or did not finish, when the run left a
# report (WARN, BUG, lockdep, KASAN, hung task) or an object behind, or
# when the native and wasm consoles differ. Warnings a test provokes on
# purpose are the ones it brackets, as the kernel's tests do, between
# 'vvv Ignore ...' and '^^^ Warnings over' lines (test_ida's bad frees).
#
# The tests print their results in four forms, read here:
#   "XArray: N of M tests passed"          (test_xarray, test_ida: "IDA:")
#   "all N tests passed" / "failed F out of N tests"   (kselftest_module.h)
#   "# suite: pass:N fail:F skip:S total:T"  (KUnit's summary per suite)
#   "passed"                               (atomic64_test: no count, it
#                                           BUG()s or WARN()s on failure)
# The torture tests (selftest-locktorture-*, selftest-rcutorture-*) are
# read from their own verdict instead: "End of test: SUCCESS" with
# "Fail: 0" in the final statistics (rcutorture: a "Reader Pipe" with
# nothing past index 1), or, for the busted flavours, "FAILURE" and
# "Fail: 1 !!!" (rcutorture: readers past their grace period).
# --policy picks the scheduling policy (labrun's; timed by default),
# --cpus the simulated CPUs of the tests that take a count (labrun's).
# LABRUN_NATIVE and LABRUN_WASM name other builds (wrong-shim.sh's).
# The runs keep no schedule (labrun --no-schedule): rcutorture's busted
# flavour on four CPUs makes more scheduler decisions than a 32-bit
# process can record.
set -uo pipefail
cd "$(dirname "$0")/../.."

native=${LABRUN_NATIVE:-build/native/selftest/labrun}
wasm=${LABRUN_WASM:-build/wasm/selftest/labrun.cjs}
only_native=0
policy=timed
cpus=()
while [ $# -gt 0 ]; do
	case $1 in
	--native-only) only_native=1; shift ;;
	--policy) policy=$2; shift 2 ;;
	--cpus) cpus=(--cpus "$2"); shift 2 ;;
	*) break ;;
	esac
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run_opts=(--quiet --no-schedule --max-events 4000000000 --max-steps 4000000000 --policy "$policy" "${cpus[@]}" --console --summary)

scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
	mapfile -t scenarios < <(ASAN_OPTIONS=detect_leaks=0 "$native" --list 2>/dev/null | cut -f1 | grep '^selftest-')
fi
[ ${#scenarios[@]} -gt 0 ] || { echo "selftest: no selftest-* scenario in $native" >&2; exit 2; }

# $1 scenario, $2 build (native|wasm): console in $out/$1.$2, seconds in $out/$1.$2.time
run_one() {
	local start end rc=0
	start=$(date +%s.%N)
	if [ "$2" = native ]; then
		ASAN_OPTIONS=detect_leaks=0 "$native" --scenario "$1" "${run_opts[@]}" > "$out/$1.$2" 2> "$out/$1.$2.err" || rc=$?
	else
		node --no-experimental-fetch "$wasm" --scenario "$1" "${run_opts[@]}" > "$out/$1.$2" 2> "$out/$1.$2.err" || rc=$?
	fi
	end=$(date +%s.%N)
	echo "$rc" > "$out/$1.$2.rc"
	printf '%.1f' "$(echo "$end - $start" | bc)" > "$out/$1.$2.time"
}

# The counts the test printed: "PASSED FAILED", or nothing.
counts() {
	grep -v '^# Totals: ' "$1" | sed -n -E \
		-e 's/^.*: ([0-9]+) of ([0-9]+) tests passed$/\1 \2 of/p' \
		-e 's/^.*: all ([0-9]+) tests passed$/\1 0/p' \
		-e 's/^.*: failed ([0-9]+) out of ([0-9]+) tests$/\1 \2 out/p' \
		-e 's/^# [^ ]+: pass:([0-9]+) fail:([0-9]+) skip:[0-9]+ total:[0-9]+$/\1 \2/p' \
		-e 's/^[a-z0-9_]+: passed$/1 0 whole/p' |
	awk '{ if ($3 == "of") { p += $1; f += $2 - $1 } else if ($3 == "out") { f += $1; p += $2 - $1 }
	       else { p += $1; f += $2 }; if ($3 == "whole") w = 1; n++ }
	     END { if (n) print p, f, (w ? "whole" : "") }'
}

for s in "${scenarios[@]}"; do
	run_one "$s" native &
	[ $only_native = 1 ] || run_one "$s" wasm &
done
wait

# A torture test's verdict, in its own words: its last statistics lines
# ("Writes:  Total: N  Max/Min: ...  Fail: F" and "Reads : ..."), and the
# tag of its "--- End of test: SUCCESS|FAILURE" line. Prints
# "VERDICT WRITES READS FAIL", or nothing.
torture_verdict() {
	awk '/^(Writes|Reads ): +Total: / { t = ($1 == "Writes:") ? "w" : "r"; v = $0;
		sub(/.*Total: /, "", v); sub(/ .*/, "", v); n[t] = v; f[t] = ($0 ~ /Fail: 1/) ? 1 : 0 }
	     /-torture:--- End of test: / { v = $0; sub(/.*End of test: /, "", v); sub(/:.*/, "", v) }
	     END { if (v != "") print v, n["w"] + 0, n["r"] + 0, f["w"] + f["r"] }' "$1"
}

# same_console SCENARIO: its native and wasm consoles are equal (sets the
# caller's same), or why says they differ, with the first differing lines.
same_console() {
	if cmp -s "$out/$1.native" "$out/$1.wasm"; then
		same=", same console"
	else
		why="${why:+$why; }native and wasm consoles differ"
		diff "$out/$1.native" "$out/$1.wasm" | head -5
	fi
}

# rcutorture's verdict, in its own words: the last "Reader Pipe:" and
# "Reader Batch:" histograms of its statistics (how many grace periods a
# reader saw its element pass through: past index 1, a grace period ended
# under a reader), the writer's count of updates ("ver: N") and the tag of
# its "--- End of test:" line. Prints "VERDICT WRITES PIPE... / BATCH...",
# eleven counts each, or nothing.
rcu_verdict() {
	awk '/Reader Pipe: / { p = $0; sub(/.*Reader Pipe: +/, "", p) }
	     /Reader Batch: / { b = $0; sub(/.*Reader Batch: +/, "", b) }
	     / [vV][eE][rR]: [0-9]/ { w = $0; sub(/.* [vV][eE][rR]: /, "", w); sub(/ .*/, "", w) }
	     /-torture:--- End of test: / { v = $0; sub(/.*End of test: /, "", v); sub(/:.*/, "", v) }
	     END { if (v != "" && p != "") print v, w + 0, p, "/", b }' "$1"
}

# $1 scenario, $2 the test's verdict, $3 the failures its statistics
# count, $4 what they say, $5 what a busted run lacks when $3 is 0. A busted
# flavour (the kernel's name for a lock that excludes nothing, an RCU whose
# grace period waits for nothing) passes when the test reports its
# failure, with the WARNs it met on the way; any other must end in
# SUCCESS, without a report.
torture_report() {
	local s=$1 verdict=$2 fails=$3 detail=$4 why= same= summary want=SUCCESS virt
	summary=$(grep "^scenario $s seed" "$out/$s.native" || true)
	case $s in *busted*) want=FAILURE ;; esac
	[ "$verdict" = "$want" ] || why="the test said $verdict"
	if [ $want = FAILURE ]; then
		[ "$fails" -gt 0 ] || why="${why:+$why; }$5"
		case $summary in *": done, "*", 0 objects left, "*) ;; *) why="${why:+$why; }run: ${summary#*: }" ;; esac
	else
		case $summary in *": done, "*", 0 objects left, 0 reports") ;; *) why="${why:+$why; }run: ${summary#*: }" ;; esac
	fi
	[ $only_native = 1 ] || same_console "$s"
	virt=${summary##*steps, }
	virt=${virt%% ns virtual*}
	[ $want = FAILURE ] || [ "$fails" = 0 ] || why="${why:+$why; }its statistics count $fails failures"
	echo "$s: End of test: $verdict, $detail" \
	     "($(echo "scale=2; ${virt:-0} / 1000000000" | bc) s virtual${cpus:+, ${cpus[1]} CPUs}; native $(cat "$out/$s.native.time") s$([ $only_native = 1 ] || echo ", wasm $(cat "$out/$s.wasm.time") s")$same)"
	if [ -n "$why" ]; then
		echo "  FAILED: $why; its console (the last 4 lines):"
		grep -v "^scenario $s seed" "$out/$s.native" | tail -4 | cut -c1-200 | sed 's/^/    /'
		return 1
	fi
}

fail=0
for s in "${scenarios[@]}"; do
	rv=$(rcu_verdict "$out/$s.native")
	if [ -n "$rv" ]; then
		read -r verdict writes pipe <<< "${rv%% / *}"
		past=$(echo $pipe | awk '{ for (i = 3; i <= NF; i++) n += $i; print n + 0 }')
		torture_report "$s" "$verdict" "$past" "writes $writes, Reader Pipe $pipe, Reader Batch ${rv##* / }, $past reads past their grace period" \
			"no reader past its grace period in the Reader Pipe" || fail=1
		continue
	fi
	tv=$(torture_verdict "$out/$s.native")
	if [ -n "$tv" ]; then
		read -r verdict writes reads fails <<< "$tv"
		torture_report "$s" "$verdict" "$fails" "writes $writes, reads $reads, fail $fails" \
			"no Fail: 1 !!! in its statistics" || fail=1
		continue
	fi
	c=$(counts "$out/$s.native")
	summary=$(grep "^scenario $s seed" "$out/$s.native" || true)
	why=
	note=
	if [ -z "$c" ]; then
		why="no result printed"
	else
		[ "${c##* }" != whole ] || note="the module as one test: it prints no counts; "
		c=${c% whole}
		c=${c% }
	fi
	if [ -n "$c" ] && [ "${c#* }" != 0 ]; then
		why="the test failed"
	fi
	expected=$(awk '/^vvv Ignore/ { in_ = 1 } /^\^\^\^ Warnings over/ { in_ = 0 }
			 in_ && /^WARNING: / { n++ } END { print n + 0 }' "$out/$s.native")
	case $summary in
	*": done, "*", 0 objects left, $expected reports") ;;
	*) why="${why:+$why; }run: ${summary#*: } ($expected provoked on purpose)" ;;
	esac
	same=
	if [ $only_native = 0 ]; then
		same_console "$s"
		times="${note:-}native $(cat "$out/$s.native.time") s, wasm $(cat "$out/$s.wasm.time") s"
	else
		times="${note:-}native $(cat "$out/$s.native.time") s"
	fi
	if [ -n "$c" ]; then
		echo "$s: ${c% *} passed, ${c#* } failed ($times$same)"
	else
		echo "$s: 0 passed, 1 failed (the module: it printed no result; $times$same)"
	fi
	if [ -n "$why" ]; then
		echo "  FAILED: $why; its console (the first 12 lines, and its last):"
		grep -v "^scenario $s seed" "$out/$s.native" | head -12 | sed 's/^/    /'
		echo "    ..."
		grep -v "^scenario $s seed" "$out/$s.native" | tail -2 | sed 's/^/    /'
		fail=1
	fi
done
exit $fail
