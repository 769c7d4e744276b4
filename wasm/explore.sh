#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make explore: the explorer's standard set (wasm/runtime/explore.c), with
# the optimised native labrun of each kernel. Each line the explorer prints
# is one bound's summary (JSON); this script prints them under a heading
# per search. EXPLORE_SECONDS bounds each search's wall time (default 120):
# a search stopped by it says "stopped": true.
set -eu
secs=${EXPLORE_SECONDS:-120}
run() {
	variant=$1
	shift
	echo "== $variant: $*"
	build/bench/$variant/labrun --explore --time-limit "$secs" "$@" || [ $? -eq 1 ]
}
# Small enough to enumerate: every schedule, with sleep sets and without.
run v6.12 --scenario explore-litmus --bound 64
run v6.12 --scenario explore-litmus --bound 64 --no-por
# shrinker_free() against shrink_slab(): one mount, one object.
for v in v6.12 break-no-wait break-no-tryget; do
	run $v --scenario shrinker-lifetime --rounds 1 --objects 1 --bound 1
done
# The scene's own run (three mounts, six objects, slow shrinkers on the
# break kernel), so that its counterexample opens in the page.
run break-no-wait --scenario shrinker-lifetime --slow-ns 3000 --bound 1
# PCT for a bug of depth 2.
run break-no-wait --scenario shrinker-lifetime --rounds 1 --objects 1 --pct 2 --runs 1000
