#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Page faults per virtual second for will-it-scale's page_fault1 over
# 6.12's folio LRU and the project's port of the 2018 lru_lock RFC on it
# (cover letter 20180131230413.27653-1-daniel.m.jordan@oracle.com): 1 to
# 64 tasks, each mapping 128 pages and unmapping them 3 times, on the
# registry's lru bench kernels (kernel-tree/manifest.json "bench"): v6.12
# (one lru_lock per lruvec), lru-batch (batch locks) and lru-splice (batch
# locks with splicing), each beside the first. Virtual time under the
# runtime's cost model (wasm/runtime/costs.c) and the scenario's stand-ins
# (a fault 400 ns, an unmapped page 100 ns); the bench build, --stress (no
# whole-list checks), seed 1, timed policy.
set -eu
kernels=$(python3 kernel-tree/kernels.py list --bench lru)
echo
echo "benchmark: page_fault1 on 6.12's folio LRU and the RFC's port (project port), faults per virtual second"
printf '  %-16s' tasks
for t in 1 4 16 32 64; do printf '%20s' "$t"; done
echo
first=
for k in $kernels; do
	[ -n "$first" ] || first=$k
	printf '  %-16s' "$k"
	for t in 1 4 16 32 64; do
		r=$(build/bench/$k/labrun --scenario lru-batch --tasks "$t" --objects 128 --rounds 3 --stress --meta |
			K=$k python3 -c '
import json, os, sys
m = json.load(sys.stdin)
if m["status"] != "done":
    sys.exit("bench: lru-batch on %s ended %s" % (os.environ["K"], m["status"]))
f = next(c for c in m["stats"]["calls"] if c["name"] == "fault")
print("%.0f" % (f["returns"] * 1e9 / m["end_time"]))')
		if [ "$k" = "$first" ]; then
			eval "base_$t=$r"
			printf '%20s' "$r"
		else
			eval "b=\$base_$t"
			printf '%20s' "$r ($(python3 -c "print('%+.1f%%' % (($r / $b - 1) * 100))"))"
		fi
	done
	echo
done
echo "  the RFC (will-it-scale page_fault1, processes, over its baseline kernel), at 1, 4, 16, 32, 64 tasks:"
echo "    batch locks     +2.6%  +2.3%  +18.3%  +16.1%  +15.0%"
echo "    batch + splice  +2.3%  +4.7%  +28.2%  +26.2%  +21.9%"
