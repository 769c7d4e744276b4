#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-tree/kunit/run.sh BRANCH
#
# Builds BRANCH of kernel-tree/linux as User-Mode Linux with KUnit and runs
# the project's suite (reclaim_lab_kunit.c, with the scenario bodies it
# shares with the simulated machine), then writes the suite's normalised
# trace to build/kunit/BRANCH/trace-uml.txt.
#
# The branch is never touched: build/kunit/BRANCH/src is a copy made with
# git archive (again only when the branch moves), the suite is copied into
# its mm/ with one line added to mm/Makefile (on 6.12 and later, and the
# hook of the folio LRU's case at the end of mm/vmscan.c), and kunit.py from
# that copy builds into build/kunit/BRANCH/out, which is kept for
# incremental builds. In a kernel with tracing, the shrink_slab tracepoints
# each case fired in a boot of its own, as tracefs printed them, go to
# build/kunit/BRANCH/ftrace-uml.txt.
set -euo pipefail

branch=${1:?usage: run.sh BRANCH}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tree=$top/kernel-tree/linux
b=$top/build/kunit/$branch
src=$b/src
# RL_KUNITCONFIG: another branch's (a reviewer's variant is built as its base);
# a branch with none of its own takes its base's (kernel-tree/kernels.py
# branches), as inode-lru-before takes v6.12's
config=${RL_KUNITCONFIG:-$here/$branch.kunitconfig}
if [ -z "${RL_KUNITCONFIG:-}" ] && [ ! -f "$config" ]; then
	base=$(python3 "$top/kernel-tree/kernels.py" branches | awk -v b="$branch" '$1 == b { print $2 }')
	[ -z "$base" ] || config=$here/$base.kunitconfig
fi
. "$here/cases.sh"

[ -f "$config" ] || { echo "kunit: no $config" >&2; exit 2; }
commit=$(git -C "$tree" rev-parse "$branch^{commit}")

if [ "$(cat "$b/src.commit" 2>/dev/null)" != "$commit" ]; then
	echo "[kunit] copying branch $branch of kernel-tree/linux to build/kunit/$branch/src"
	rm -rf "$src" "$b/src.commit"
	mkdir -p "$src"
	# -m: the files get the time of the copy, not the commit's, so that make
	# rebuilds what the branch changed (the kept build may be newer than
	# the commit)
	git -C "$tree" archive "$commit" | tar -x -m -C "$src"
	echo "$commit" > "$b/src.commit"
fi

# The suite, the list of its scenarios (kunit.def) and the bodies it shares
# with the simulated machine's wasm/scenarios/; copied only when they
# changed, so an unchanged suite rebuilds nothing.
install_if_changed() {
	cmp -s "$1" "$2" || cp "$1" "$2"
}
install_if_changed "$here/reclaim_lab_kunit.c" "$src/mm/reclaim_lab_kunit.c"
for h in "$top"/wasm/scenarios/kunit_*.h "$top"/wasm/scenarios/kunit.def; do
	install_if_changed "$h" "$src/mm/${h##*/}"
done
if branch_runs "$branch" FOLIO_LRU; then
	# 6.12's folio LRU: shrink_inactive_list() is static in mm/vmscan.c,
	# so scenario kunit-lru's hook goes at its end (kunit_lru_vmscan.h)
	grep -q '^#include "kunit_lru_vmscan.h"$' "$src/mm/vmscan.c" ||
		printf '\n#ifdef CONFIG_KUNIT\n#include "kunit_lru_vmscan.h"\n#endif\n' >> "$src/mm/vmscan.c"
fi
if branch_runs "$branch" INODE; then
	# scenario kunit-shadow's calls of the shadow-node shrinker, whose
	# functions are static in mm/workingset.c (kunit_inode_workingset.h)
	grep -q '^#include "kunit_inode_workingset.h"$' "$src/mm/workingset.c" ||
		printf '\n#ifdef CONFIG_KUNIT\n#include "kunit_inode_workingset.h"\n#endif\n' >> "$src/mm/workingset.c"
fi
if [ -f "$src/mm/shrinker.c" ]; then
	# 6.7 and later: shrink_slab() is declared in mm/internal.h
	grep -q '^obj-$(CONFIG_KUNIT) += reclaim_lab_kunit.o$' "$src/mm/Makefile" ||
		echo 'obj-$(CONFIG_KUNIT) += reclaim_lab_kunit.o' >> "$src/mm/Makefile"
else
	# before: shrink_slab() is static in mm/vmscan.c, so the suite goes at its end
	grep -q '^#include "reclaim_lab_kunit.c"$' "$src/mm/vmscan.c" ||
		printf '\n#ifdef CONFIG_KUNIT\n#include "reclaim_lab_kunit.c"\n#endif\n' >> "$src/mm/vmscan.c"
fi

echo "[kunit] building $branch as User-Mode Linux and running the reclaim_lab suite"
cd "$src"
status=0
python3 tools/testing/kunit/kunit.py run --kunitconfig="$config" --build_dir="$b/out" \
	--jobs="$(nproc)" --timeout=300 'reclaim_lab' > "$b/kunit.log" 2>&1 || status=$?
if [ "$status" != 0 ]; then
	grep -v '^\$ \|^Populating\|^Generating\|^Building with' "$b/kunit.log" | tail -n 30
	echo "kunit: kunit.py failed ($status); the whole output is in build/kunit/$branch/kunit.log" >&2
	exit 1
fi
# The kernel's own build warnings are not ours; the suite's are.
grep -A3 'mm/reclaim_lab_kunit.c:\|mm/kunit_[a-z_]*\.h:' "$b/kunit.log" || true
grep -E '^\[[0-9:]+\] (Testing complete|Elapsed time)' "$b/kunit.log" || true
# The console, with printk's timestamp and level cut off; not KUnit's own
# "# reclaim_lab: pass:N fail:N ..." summary of the suite.
trace() {
	sed -n '/# reclaim_lab[a-z_]*: /d; s/^.*\(reclaim_lab: \)/\1/p' "$b/out/test.log"
}
trace > "$b/trace-uml.txt"
cp "$b/out/test.log" "$b/test-reclaim_lab.log"

# boot_alone GLOB LOG [KERNEL_ARG]: one more boot of the built kernel running
# only the cases GLOB names; its kunit.py output in LOG, its console kept
# beside it.
boot_alone() {
	local status=0
	python3 tools/testing/kunit/kunit.py exec --build_dir="$b/out" --timeout=300 \
		${3:+--kernel_args="$3"} "$1" > "$b/kunit-$2.log" 2>&1 || status=$?
	if [ "$status" != 0 ]; then
		tail -n 30 "$b/kunit-$2.log"
		echo "kunit: $1${3:+ ($3)} in a boot of its own failed ($status); see build/kunit/$branch/kunit-$2.log" >&2
		exit 1
	fi
	cp "$b/out/test.log" "$b/test-$2.log"
}

# The cases again in a second order, a shuffle seeded with
# KUNIT_SHUFFLE_SEED (a new seed each run when it is not set; printed, so
# that the order can be replayed): first all of them in one boot in that
# order (the suite's reclaim_lab_order= parameter), then each in a boot of
# its own, in the same order. compare.sh requires each trace of both to be
# the one the first shared boot printed: a case whose trace depends on
# what the cases before it left in the kernel (a freed shrinker's
# nr_deferred at its id in the root memcg, a memcg id) fails there.
seed=${KUNIT_SHUFFLE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
case $seed in ''|*[!0-9]*) echo "kunit: KUNIT_SHUFFLE_SEED must be a number, not '$seed'" >&2; exit 2 ;; esac
# Python's random.Random(seed).shuffle() gives the same order for a seed
# on every Python 3 (Fisher-Yates over _randbelow()); "ident name" lines
shuffled=$(branch_scenarios "$branch" | awk '$3 != "PLANTED" { print $1, $2 }' |
	python3 -c 'import random, sys; c = sys.stdin.read().splitlines(); random.Random(int(sys.argv[1])).shuffle(c); print("\n".join(c))' "$seed")
order=$(echo "$shuffled" | cut -d' ' -f1 | paste -sd' ')
names=$(echo "$shuffled" | cut -d' ' -f2 | paste -sd' ')
echo "[kunit] shuffle seed $seed (KUNIT_SHUFFLE_SEED=$seed replays it): $order"
echo "$seed $order" > "$b/shuffle.txt"
start=$SECONDS
boot_alone reclaim_lab shuffled "reclaim_lab_order=${order// /,}"
trace > "$b/trace-uml-shuffled.txt"
ran=$(sed -n 's/^reclaim_lab: scenario //p' "$b/trace-uml-shuffled.txt" | tr '\n' ' ')
if [ "${ran% }" != "$names" ]; then
	echo "kunit: the shuffled boot ran '${ran% }', not '$names' (build/kunit/$branch/test-shuffled.log)" >&2
	exit 1
fi
echo "[kunit] the cases in that order in one boot: $(wc -l < "$b/trace-uml-shuffled.txt") trace lines ($((SECONDS - start)) s)"
start=$SECONDS
: > "$b/trace-uml-alone.txt"
alone=0
for ident in $order; do
	boot_alone "reclaim_lab.reclaim_lab_$ident" "alone-$ident"
	trace >> "$b/trace-uml-alone.txt"
	alone=$((alone + 1))
done
echo "[kunit] $alone cases again, each in a boot of its own, in that order: $(wc -l < "$b/trace-uml-alone.txt") trace lines ($((SECONDS - start)) s)"

# In a kernel with tracing, the shrink_slab tracepoints of each case as its
# trace instance's "trace" file printed them, after a "scenario NAME" line
# (reclaim_lab_kunit.c), for compare.sh: from the boots of one case each,
# since the simulation starts each scenario from a fresh machine, and the
# tracepoints show what a case inherits in the shared boot (a freed
# shrinker's nr_deferred at its id, for the next shrinker to take it),
# which the "reclaim_lab: " lines do not print. The shared boot's are kept
# in ftrace-uml-shared.txt.
rm -f "$b/ftrace-uml.txt" "$b/ftrace-uml-shared.txt" "$b/ftrace-uml-shuffled.txt"
if grep -q 'reclaim_lab_ftrace: scenario ' "$b/test-reclaim_lab.log"; then
	sed -n 's/^.*reclaim_lab_ftrace: //p' "$b/test-reclaim_lab.log" > "$b/ftrace-uml-shared.txt"
	sed -n 's/^.*reclaim_lab_ftrace: //p' "$b/test-shuffled.log" > "$b/ftrace-uml-shuffled.txt"
	for ident in $(branch_scenarios "$branch" | awk '$3 != "PLANTED" { print $1 }'); do
		sed -n 's/^.*reclaim_lab_ftrace: //p' "$b/test-alone-$ident.log"
	done > "$b/ftrace-uml.txt"
	echo "[kunit] the shrink_slab tracepoints read from tracefs in those boots: $(grep -c ': mm_shrink_slab_' "$b/ftrace-uml.txt") lines in build/kunit/$branch/ftrace-uml.txt"
fi

# The folio LRU suite (reclaim_lab_folio_lru, kunit_folio_lru_body.h: the walk
# through the per-CPU batch, isolation, putback and release; 20,000 random
# LRU operations on thousands of folios; release_pages() of the RFC's 537),
# 6.12 and later: a boot of its own, its "reclaim_lab: " lines in
# build/kunit/BRANCH/folio-lru-uml.txt. Its checks of each list fail the
# suite; on the RFC's ports they check the batches too.
rm -f "$b/folio-lru-uml.txt" "$b/test-folio-lru.log"
if branch_runs "$branch" FOLIO_LRU; then
	start=$SECONDS
	boot_alone reclaim_lab_folio_lru folio-lru
	sed -n '/# reclaim_lab[a-z_]*: /d; s/^.*\(reclaim_lab: \)/\1/p' "$b/test-folio-lru.log" > "$b/folio-lru-uml.txt"
	echo "[kunit] suite reclaim_lab_folio_lru, in a boot of its own: $(wc -l < "$b/folio-lru-uml.txt") trace lines in build/kunit/$branch/folio-lru-uml.txt ($((SECONDS - start)) s)"
fi

# With the kernel's checkers built in, nothing the suite ran may have set
# them off: a report here is a bug in the suite, the port, or the kernel.
# (Only from the suite's start: UML's own boot warns that no virtio PCI
# device is configured.)
dotconfig=$b/out/.config
if grep -q '^CONFIG_PROVE_LOCKING=y' "$dotconfig" && grep -q '^CONFIG_KASAN=y' "$dotconfig"; then
	if for log in "$b/test-reclaim_lab.log" "$b/test-shuffled.log" "$b"/test-alone-*.log \
			$([ -f "$b/test-folio-lru.log" ] && echo "$b/test-folio-lru.log"); do
		sed -n '/^KTAP version/,$p' "$log"; done |
	   grep -E 'BUG: |WARNING: |INFO: |Disabling lock debugging' > "$b/reports.txt"; then
		cat "$b/reports.txt"
		echo "kunit: the kernel reported the above while running the reclaim_lab suites (build/kunit/$branch/test-reclaim_lab.log, test-shuffled.log, test-alone-*.log, test-folio-lru.log)" >&2
		exit 1
	fi
	checkers="KASAN and lockdep"
	! grep -q '^CONFIG_DEBUG_ATOMIC_SLEEP=y' "$dotconfig" || checkers="KASAN, lockdep and might_sleep()"
	echo "[kunit] $checkers reported nothing while the suite ran"
	# The planted bugs: lockdep and KASAN report once per boot, so one boot each.
	if planted_kernel "$dotconfig"; then
		for suite in $(kunit_def | awk '$3 == "PLANTED" { print "reclaim_lab_" $1 }'); do
			boot_alone "$suite" "$suite"
			trace >> "$b/trace-uml.txt"
			echo "[kunit] suite $suite, in a boot of its own: $(trace | wc -l) trace lines"
		done
	fi
fi
echo "[kunit] $(wc -l < "$b/trace-uml.txt") trace lines in build/kunit/$branch/trace-uml.txt"
