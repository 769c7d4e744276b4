#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-tree/kunit/compare.sh BRANCH...
#
# The real kernel as referee: for each branch, the normalised trace the
# KUnit suite printed inside User-Mode Linux (build/kunit/BRANCH/trace-uml.txt,
# written by run.sh) must be identical, line for line, to the traces of the
# same scenarios (wasm/scenarios/kunit.def, in the suite's order) run natively and
# in wasm under Node by the branch's variant. Each scenario's trace begins
# with "scenario NAME"; they are compared one by one, and for every
# scenario that differs its first differing line is printed, then every
# difference with two lines of context (diff -U2, up to KUNIT_DIFF_LINES
# lines of it, 40 unless set). Then the variants built on the branch: each
# must give the same traces, or must not, as the list below says. When
# run.sh wrote build/kunit/BRANCH/trace-uml-shuffled.txt (the cases in a
# seeded shuffled order, in one boot) and trace-uml-alone.txt (each case
# in a boot of its own, in that order), each scenario's trace in both must
# equal the first shared boot's: no case may depend on the ones before it.
#
# When the kernel was built with tracing (run.sh wrote
# build/kunit/BRANCH/ftrace-uml.txt), the mm_shrink_slab_start and
# mm_shrink_slab_end lines tracefs printed for each scenario must equal
# those of the native and the wasm build (labrun --ftrace), after
# ftrace_norm below: the line from the event's name on (no task, pid, CPU,
# flags or timestamp); only the lines of the scenarios' own shrinkers (the
# scan functions the bodies pass to rl_shrinker_register(); the kernel's
# own shrinkers fire too); the symbol's size dropped ("rl_scan+0x0/0x490"
# is "rl_scan+0x0": the offset is kept); each shrinker's address (hashed
# by the kernel's %p, an object id in the simulation) named by its first
# appearance in the scenario, "shrinker1", "shrinker2"... Everything else
# (nid, objects to shrink, gfp_flags, cache items, delta, total_scan,
# priority; unused and new scan count, return value) as printed.
#
# SCENARIOS (names, space-separated) compares only those. KUNIT_VARIANT names
# the variant built from BRANCH (a reviewer's: variant/NAME is built as NAME). NATIVE_LABRUN and
# WASM_LABRUN override the programs (with BRANCH in them replaced by the
# variant), to referee another build of the shim.
#
# KUNIT_WORD=64 (make kunit64) referees the 64-bit simulated machine
# instead: the traces of build/native64/<variant>/labrun (clang -m64,
# BITS_PER_LONG 64, as UML), in build/kunit/BRANCH/traces64, against the
# same UML traces, the variants' too, and the scenarios kunit.def marks
# WORD64 with them. At 32 bits (native, wasm32) those are left out, and
# said to be. KUNIT_WASM64=1 adds the 64-bit wasm build to the comparison.
set -euo pipefail

cd "$(dirname "$0")/../.."
word=${KUNIT_WORD:-32}
# the builds compared with UML, and the program of each (BRANCH: the variant)
declare -A tpl=()
if [ "$word" = 64 ]; then
	builds=(native64)
	tpl[native64]=${NATIVE_LABRUN:-build/native64/BRANCH/labrun}
	traces=traces64
	label=native64
	# KUNIT_WASM64=1 (make kunit64 KUNIT_WASM64=1): the same machine in
	# wasm too, build/wasm64/<variant>/labrun.cjs (make wasm64)
	if [ "${KUNIT_WASM64:-0}" = 1 ]; then
		builds+=(wasm64)
		tpl[wasm64]=${WASM64_LABRUN:-build/wasm64/BRANCH/labrun.cjs}
		label="native64 and wasm64"
	fi
else
	builds=(native wasm)
	tpl[native]=${NATIVE_LABRUN:-build/native/BRANCH/labrun}
	tpl[wasm]=${WASM_LABRUN:-build/wasm/BRANCH/labrun.cjs}
	traces=traces
	label="native and wasm"
fi
native_tpl=${tpl[${builds[0]}]}
fail=0
# The longest trace line no kernel or build cuts: printk keeps 1,023
# characters of a message in 6.12 (PRINTKRB_RECORD_MAX, the newline
# included) and in the simulation (sim_printk()'s buffer in
# wasm/runtime/core.c), but 991 in 6.1 (LOG_LINE_MAX, 1,024 less the
# 32-character prefix room; 975 with PRINTK_CALLER). A line that long may
# have been cut by one side and not the other.
printk_max=974

# The scenarios each branch's suite runs, in its order, and the variant
# that runs each where the branch's own does not (kunit-inode: inode,
# built from v6.12, whose fs/ and mm/ page cache code the ports on it
# shares; a branch whose own variant runs it, inode-lru-before's
# inode-before, is compared with that): wasm/scenarios/kunit.def, read by
# cases.sh.
top=$PWD
. kernel-tree/kunit/cases.sh
declare -A scenario_variant=()
while read -r ident name where v; do
	[ "$v" = - ] || scenario_variant[$name]=$v
done <<<"$(kunit_def)"
# The variant built from each refereed branch, and the variants built on
# top of a branch whose native traces must equal that kernel's (same) or
# must not (differs), with the only scenarios some of them run: the
# registry's "kunit" (kernel-tree/manifest.json, kernel-tree/kernels.py).
declare -A variant_of=() variants=() variant_scenarios=()
kunit_rows=$(python3 kernel-tree/kernels.py kunit) || exit 2
while read -r what a b want only; do
	case $what in
	referee) variant_of[$a]=$b ;;
	compared)
		variants[$a]+=" $b:$want"
		[ "$only" = - ] || variant_scenarios[$b]=${only//,/ } ;;
	esac
done <<<"$kunit_rows"

# first_diff A B: the first line number where files A and B differ, or nothing.
first_diff() {
	awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	     !found && (!(FNR in a) || a[FNR] != $0) { print FNR; found = 1 }
	     { m = FNR }
	     END { if (!found && n != m) print (n < m ? n : m) + 1 }' "$1" "$2"
}

# show_diff A B LABEL_A LABEL_B: every difference between files A and B
# with two lines of context around each, indented; after KUNIT_DIFF_LINES
# lines (40), how many more there are.
show_diff() {
	{ diff -U2 --label "$3" --label "$4" "$1" "$2" || true; } |
		awk -v max="${KUNIT_DIFF_LINES:-40}" '
			/^@@/ { hunks++ }
			{ n++; if (n <= max) print "    " $0 }
			END { if (n > max) printf "    ... %d more lines of the diff (%d differences in all)\n", n - max, hunks }'
}

# split TRACE DIR SUFFIX: one file per scenario, DIR/<scenario>.SUFFIX.
split_trace() {
	awk -v dir="$2" -v suffix="$3" '
		/^reclaim_lab: scenario / { out = dir "/" $3 "." suffix }
		out { print > out }' "$1"
}

# variant_for SCENARIO: the branch's variant ($variant) when it runs the
# scenario ($own_scenarios: its native program's --list), else kunit.def's.
variant_for() {
	if [ -n "${scenario_variant[$1]:-}" ] && [[ "$own_scenarios" != *" $1 "* ]]; then
		echo "${scenario_variant[$1]}"
	else
		echo "$variant"
	fi
}

# run_traces TEMPLATE KIND DIR VARIANT SCENARIO...: the trace of each scenario,
# DIR/<scenario>.KIND, run by TEMPLATE with BRANCH replaced by VARIANT, or,
# when VARIANT is empty, by the scenario's variant (or the branch's);
# labrun's option $TRACE_OPT, --trace unless set (--ftrace)
run_traces() {
	local tpl=$1 kind=$2 out=$3 v=$4 s prog opt=${TRACE_OPT:---trace}
	shift 4
	for s in "$@"; do
		prog=${tpl//BRANCH/${v:-$(variant_for "$s")}}
		case $kind in
		*wasm|*wasm64)	node --no-experimental-fetch "$prog" --scenario "$s" "$opt" > "$out/$s.$kind" 2> "$out/$s.$kind.err" ;;
		*)	ASAN_OPTIONS=detect_leaks=0 "$prog" --scenario "$s" "$opt" > "$out/$s.$kind" 2> "$out/$s.$kind.err" ;;
		esac || {
			grep -v 'makecontext/swapcontext' "$out/$s.$kind.err" >&2
			echo "compare: $prog --scenario $s $opt failed (is it built from the current sources? make kunit builds it)" >&2
			exit 2
		}
	done
}

# The scan functions of the scenarios' own shrinkers, as the bodies name
# them to rl_shrinker_register(s, count, scan, private).
our_scans=$(sed -n 's/.*rl_shrinker_register([^,]*, *[a-z_0-9]*, *\([a-z_0-9]*\),.*/\1/p' \
	wasm/scenarios/kunit_*.h | sort -u | tr '\n' ' ')

# ftrace_norm FILE: its shrink_slab tracepoint lines, normalised (see the top).
ftrace_norm() {
	awk -v ours="$our_scans" '
		BEGIN { split(ours, o, " "); for (i in o) scan[o[i]] = 1 }
		match($0, / mm_shrink_slab_(start|end): /) {
			line = substr($0, RSTART + 1)
			split(line, w, " ")
			fn = w[2]; sub(/\+.*/, "", fn)
			if (!(fn in scan)) next
			sym = w[2]; sub(/\/0x[0-9a-f]+$/, "", sym)
			if (!(w[3] in id)) id[w[3]] = "shrinker" (++n) ":"
			print w[1], sym, id[w[3]], substr(line, length(w[1] w[2] w[3]) + 4)
		}' "$1"
}

for branch in "$@"; do
	dir=build/kunit/$branch
	uml=$dir/trace-uml.txt
	variant=${KUNIT_VARIANT:-${variant_of[$branch]:-$branch}}
	own_scenarios=" $(ASAN_OPTIONS=detect_leaks=0 "${native_tpl//BRANCH/$variant}" --list 2>/dev/null |
		cut -f1 | tr '\n' ' ')"
	scenarios=(${SCENARIOS:-$(branch_scenarios "$branch" | awk -v word="$word" \
		'$3 != "WORD64" || word == 64 { print $2 }')})
	word64_left=$(branch_scenarios "$branch" | awk -v word="$word" '$3 == "WORD64" && word != 64 { printf " %s", $2 }')
	if [ ! -s "$uml" ]; then
		echo "compare: no UML trace for $branch ($uml): run make kunit" >&2
		exit 2
	fi
	rm -rf "$dir/$traces" && mkdir -p "$dir/$traces"
	split_trace "$uml" "$dir/$traces" uml
	# the cases in a shuffled order in one boot, and each in a boot of
	# its own in that order (run.sh; its seed in shuffle.txt)
	for kind in shuffled alone; do
		[ ! -s "$dir/trace-uml-$kind.txt" ] || split_trace "$dir/trace-uml-$kind.txt" "$dir/$traces" "$kind"
	done
	seed_note=
	[ ! -s "$dir/shuffle.txt" ] || seed_note=" (KUNIT_SHUFFLE_SEED=$(cut -d' ' -f1 "$dir/shuffle.txt"))"
	for build in "${builds[@]}"; do
		run_traces "${tpl[$build]}" "$build" "$dir/$traces" "" "${scenarios[@]}"
	done
	branch_fail=0
	summary=
	alone_checked=
	shuffled_checked=
	for s in "${scenarios[@]}"; do
		t=$dir/$traces/$s
		if [ ! -s "$t.uml" ]; then
			echo "compare: $branch: User-Mode Linux printed no trace for scenario $s"
			branch_fail=1
			continue
		fi
		# a line that printk may have cut (printk_max above) would
		# differ, or not, for a reason that is not the shim's
		long=$(awk -v max="$printk_max" 'length($0) > max { print FNR ":" length($0); exit }' "$t.uml")
		if [ -n "$long" ]; then
			echo "compare: $branch: scenario $s: trace line ${long%%:*} is ${long#*:} characters long, more than every printk keeps ($printk_max): print it in shorter lines"
			branch_fail=1
			continue
		fi
		# the same cases in the shuffled order (run.sh): in one boot,
		# and each in a boot of its own
		for kind in shuffled alone; do
			[ -s "$dir/trace-uml-$kind.txt" ] && [ -e "$t.$kind" ] || continue
			line=$(first_diff "$t.uml" "$t.$kind")
			if [ -n "$line" ]; then
				case $kind in
				shuffled) what="in the shuffled order$seed_note" ;;
				alone)	what="in a boot of its own" ;;
				esac
				echo "compare: $branch: scenario $s: User-Mode Linux's trace $what differs from the shared boot's at line $line (the case depends on the cases before it)"
				echo "  shared:  $(sed -n "${line}p" "$t.uml")"
				echo "  $(printf '%-8s' "$kind:") $(sed -n "${line}p" "$t.$kind")"
				show_diff "$t.uml" "$t.$kind" "shared boot ($t.uml)" "$kind ($t.$kind)"
				branch_fail=1
			fi
			[ "$kind" = alone ] && alone_checked+=" $s" || shuffled_checked+=" $s"
		done
		for build in "${builds[@]}"; do
			line=$(first_diff "$t.uml" "$t.$build")
			if [ -n "$line" ]; then
				echo "compare: $branch: scenario $s: the $build trace differs from User-Mode Linux's at line $line"
				echo "  UML:     $(sed -n "${line}p" "$t.uml")"
				echo "  $(printf '%-8s' "$build:") $(sed -n "${line}p" "$t.$build")"
				show_diff "$t.uml" "$t.$build" "UML ($t.uml)" "$build ($t.$build)"
				branch_fail=1
			fi
		done
		summary+=" $s ($(wc -l < "$t.uml") lines)"
	done
	# The shrink_slab tracepoints, when the kernel was built with tracing.
	ftrace=$dir/ftrace-uml.txt
	fsummary=
	fnone=
	if [ -s "$ftrace" ]; then
		awk -v dir="$dir/$traces" '/^scenario / { out = dir "/" $2 ".ftrace-uml"; next }
			out { print > out }' "$ftrace"
		fscen=()
		for s in "${scenarios[@]}"; do
			[ ! -e "$dir/$traces/$s.ftrace-uml" ] || fscen+=("$s")
		done
		for build in "${builds[@]}"; do
			TRACE_OPT=--ftrace run_traces "${tpl[$build]}" "ftrace-$build" "$dir/$traces" "" "${fscen[@]}"
		done
		for s in "${fscen[@]}"; do
			t=$dir/$traces/$s
			for kind in ftrace-uml "${builds[@]/#/ftrace-}"; do
				ftrace_norm "$t.$kind" > "$t.$kind.norm"
			done
			if [ ! -s "$t.ftrace-uml.norm" ]; then
				# A scenario with no shrinker of its own (kunit-lru: the folio
				# LRU alone) fires none in any build: nothing to compare.
				ours=0
				for build in "${builds[@]}"; do
					[ ! -s "$t.ftrace-$build.norm" ] || ours=1
				done
				if [ "$ours" = 0 ]; then
					fnone+=" $s"
					continue
				fi
				echo "compare: $branch: scenario $s: User-Mode Linux's trace has no shrink_slab tracepoint of the scenario's shrinkers ($our_scans)"
				branch_fail=1
				continue
			fi
			for build in "${builds[@]}"; do
				line=$(first_diff "$t.ftrace-uml.norm" "$t.ftrace-$build.norm")
				if [ -n "$line" ]; then
					echo "compare: $branch: scenario $s: the $build shrink_slab tracepoints differ from User-Mode Linux's at line $line (normalised)"
					echo "  UML:     $(sed -n "${line}p" "$t.ftrace-uml.norm")"
					echo "  $(printf '%-8s' "$build:") $(sed -n "${line}p" "$t.ftrace-$build.norm")"
					show_diff "$t.ftrace-uml.norm" "$t.ftrace-$build.norm" \
						"UML ($t.ftrace-uml.norm)" "$build ($t.ftrace-$build.norm)"
					branch_fail=1
				fi
			done
			fsummary+=" $s ($(wc -l < "$t.ftrace-uml.norm") of $(grep -c ': mm_shrink_slab_' "$t.ftrace-uml") lines)"
		done
	fi

	if [ "$branch_fail" = 0 ]; then
		echo "compare: $branch: UML, $label traces identical ($word-bit simulated machine):$summary"
		[ -z "$word64_left" ] ||
			echo "compare: $branch: left out at 32 bits, where a long cannot hold their counts (make kunit64 compares them):$word64_left"
		[ -z "$fsummary" ] ||
			echo "compare: $branch: shrink_slab tracepoints from tracefs, $label identical (ours of all):$fsummary"
		[ -z "$fnone" ] ||
			echo "compare: $branch: no shrink_slab tracepoint of their own in UML or here (no shrinker):$fnone"
		[ -z "$shuffled_checked" ] ||
			echo "compare: $branch: in one boot in the shuffled order$seed_note, the same:$shuffled_checked"
		[ -z "$alone_checked" ] ||
			echo "compare: $branch: each alone in a boot of its own, in that order, the same:$alone_checked"
	else
		fail=1
	fi

	for entry in ${variants[$branch]:-}; do
		v=${entry%%:*}
		want=${entry#*:}
		prog=${native_tpl//BRANCH/$v}
		[ -x "$prog" ] || continue
		vscen=()
		for s in "${scenarios[@]}"; do
			if [ -n "${variant_scenarios[$v]:-}" ]; then
				[[ " ${variant_scenarios[$v]} " == *" $s "* ]] && vscen+=("$s")
			elif [ -z "${scenario_variant[$s]:-}" ]; then
				vscen+=("$s")
			fi
		done
		[ ${#vscen[@]} -gt 0 ] || continue
		run_traces "$native_tpl" "$v" "$dir/$traces" "$v" "${vscen[@]}"
		diffs=
		for s in "${vscen[@]}"; do
			line=$(first_diff "$dir/$traces/$s.uml" "$dir/$traces/$s.$v")
			[ -z "$line" ] || diffs+=" $s:$line"
		done
		if [ -z "$diffs" ] && [ "$want" = same ]; then
			echo "compare: $branch: variant $v gives the same traces, as it must"
		elif [ -n "$diffs" ] && [ "$want" = differs ]; then
			echo "compare: $branch: variant $v differs from UML's traces, as it must (scenario:first line):$diffs"
		else
			if [ "$want" = same ]; then
				echo "compare: $branch: variant $v must give UML's traces, and differs (scenario:first line):$diffs; in $dir/$traces/*.$v"
			else
				echo "compare: $branch: variant $v must not give UML's traces, and gives them"
			fi
			fail=1
		fi
	done
done
exit $fail
