# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by run.sh and compare.sh: the refereed scenarios of
# wasm/scenarios/kunit.def (the one list), and which of them a branch's
# User-Mode Linux runs, by the same facts the suite's #ifs test.
# Needs $top (the repository) set.

# kunit.def read once, by its one reader (kernel-tree/kunitdef.py), which
# refuses an entry it cannot read: the shell's lists never leave one out.
KUNIT_DEF_ROWS=$(python3 "$top/kernel-tree/kunitdef.py" "$top/wasm/scenarios/kunit.def") || {
	echo "cases.sh: wasm/scenarios/kunit.def could not be read (above)" >&2
	exit 2
}

# kunit_def: "ident name where variant" per scenario, in kunit.def's order.
kunit_def() {
	printf '%s\n' "$KUNIT_DEF_ROWS"
}

# planted_kernel DOTCONFIG: the kernel has what the planted suites need
# (reclaim_lab_kunit.c's RL_PLANTED).
planted_kernel() {
	local c
	for c in KASAN_GENERIC PROVE_LOCKING DEBUG_ATOMIC_SLEEP PREEMPT_RCU; do
		grep -q "^CONFIG_$c=y" "$1" || return 1
	done
}

# branch_runs BRANCH WHERE: whether the suite built from BRANCH runs the
# scenarios of kunit.def's column "where".
branch_runs() {
	local branch=$1 where=$2 tree=$top/kernel-tree/linux version
	case $where in
	ALL|WORD64)	return 0 ;;
	INODE|FOLIO_LRU)	# LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
		version=$(git -C "$tree" show "$branch:Makefile" |
			  sed -n '1,5{s/^VERSION = //p; s/^PATCHLEVEL = //p}' | tr '\n' ' ')
		set -- $version
		[ "$1" -gt 6 ] || { [ "$1" = 6 ] && [ "$2" -ge 12 ]; } ;;
	PLANTED)
		planted_kernel "$top/build/kunit/$branch/out/.config" 2>/dev/null ;;
	*)	echo "kunit.def: unknown where '$where'" >&2; return 2 ;;
	esac
}

# branch_scenarios BRANCH: "ident name where variant" of each scenario the
# branch's suite runs, in order.
branch_scenarios() {
	local ident name where variant
	kunit_def | while read -r ident name where variant; do
		if branch_runs "$1" "$where"; then
			echo "$ident $name $where $variant"
		fi
	done
}
