#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-tree/kunit/compare.sh BRANCH...
#
# The real kernel as referee: for each branch, the normalised trace the
# KUnit suite printed inside User-Mode Linux (build/kunit/BRANCH/trace-uml.txt,
# written by run.sh) must be identical, line for line, to the trace of the
# same scenario (kunit-seq) run natively and in wasm under Node by the
# variant of the same name. Prints the first differing line and fails.
# Then the variants built on the branch: each must give the same trace, or
# must not, as the list below says.
#
# NATIVE_LABRUN and WASM_LABRUN override the programs (with BRANCH in
# them replaced by the branch), to referee another build of the shim.
set -euo pipefail

cd "$(dirname "$0")/../.."
native_tpl=${NATIVE_LABRUN:-build/native/BRANCH/labrun}
wasm_tpl=${WASM_LABRUN:-build/wasm/BRANCH/labrun.cjs}
scenarios=(kunit-seq)	# the scenarios the suite runs, in its order
fail=0

# Variants built from a branch on top of BRANCH, and whether their native
# trace must equal that kernel's (same) or must not (differs): the break
# kernels that only matter under concurrency, the ports, and those whose
# change shows even when nothing races (break-no-recheck drops the second
# call after SHRINK_EMPTY clears a bit; no-shrinker-bitmap has no bits).
declare -A variants=(
	[v6.12]="break-no-tryget:same break-no-wait:same break-no-recheck:differs no-shrinker-bitmap:differs lru-batch:same"
	[v6.1]="srcu:same"
)

# first_diff A B: the first line number where files A and B differ, or nothing.
first_diff() {
	awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	     !found && (!(FNR in a) || a[FNR] != $0) { print FNR; found = 1 }
	     { m = FNR }
	     END { if (!found && n != m) print (n < m ? n : m) + 1 }' "$1" "$2"
}

for branch in "$@"; do
	uml=build/kunit/$branch/trace-uml.txt
	native=${native_tpl//BRANCH/$branch}
	wasm=${wasm_tpl//BRANCH/$branch}
	if [ ! -s "$uml" ]; then
		echo "compare: no UML trace for $branch ($uml): run make kunit" >&2
		exit 2
	fi
	dir=build/kunit/$branch
	: > "$dir/trace-native.txt"
	: > "$dir/trace-wasm.txt"
	for s in "${scenarios[@]}"; do
		ASAN_OPTIONS=detect_leaks=0 "$native" --scenario "$s" --trace 2>/dev/null >> "$dir/trace-native.txt"
		node --no-experimental-fetch "$wasm" --scenario "$s" --trace >> "$dir/trace-wasm.txt"
	done
	for build in native wasm; do
		line=$(first_diff "$uml" "$dir/trace-$build.txt")
		if [ -n "$line" ]; then
			echo "compare: $branch: the $build trace differs from User-Mode Linux's at line $line"
			echo "  UML:     $(sed -n "${line}p" "$uml")"
			echo "  $(printf '%-8s' "$build:") $(sed -n "${line}p" "$dir/trace-$build.txt")"
			echo "  (both traces in $dir/trace-uml.txt, $dir/trace-$build.txt)"
			fail=1
		fi
	done
	[ "$fail" = 1 ] ||
		echo "compare: $branch: UML, native and wasm traces identical ($(wc -l < "$uml") lines, scenarios: ${scenarios[*]})"

	for entry in ${variants[$branch]:-}; do
		v=${entry%%:*}
		want=${entry#*:}
		prog=${native_tpl//BRANCH/$v}
		[ -x "$prog" ] || continue
		: > "$dir/trace-$v.txt"
		for s in "${scenarios[@]}"; do
			ASAN_OPTIONS=detect_leaks=0 "$prog" --scenario "$s" --trace 2>/dev/null >> "$dir/trace-$v.txt"
		done
		line=$(first_diff "$uml" "$dir/trace-$v.txt")
		if [ -z "$line" ] && [ "$want" = same ]; then
			echo "compare: $branch: variant $v gives the same trace, as it must"
		elif [ -n "$line" ] && [ "$want" = differs ]; then
			echo "compare: $branch: variant $v differs from UML's trace at line $line, as it must: $(sed -n "${line}p" "$uml")"
		else
			if [ "$want" = same ]; then
				echo "compare: $branch: variant $v must give UML's trace, and differs at line $line: $dir/trace-$v.txt"
			else
				echo "compare: $branch: variant $v must not give UML's trace, and gives it"
			fi
			fail=1
		fi
	done
done
exit $fail
