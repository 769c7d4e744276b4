#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Page faults per virtual second for will-it-scale's page_fault1 over the
# project's port of the 2018 lru_lock RFC (branch lru-batch-locks; cover
# letter 20180131230413.27653-1-daniel.m.jordan@oracle.com): 1 to 64
# tasks, each mapping 128 pages and unmapping them 3 times, with one
# lru_lock, batch locks, and batch locks with splicing. Virtual time under
# the runtime's cost model (wasm/runtime/costs.c) and the scenario's
# stand-ins (a fault 400 ns, an unmapped page 100 ns); the bench build,
# --stress (no whole-list checks), seed 1, timed policy.
set -eu
# the kernel of the registry's lru bench (kernel-tree/manifest.json "bench")
bin=build/bench/$(python3 kernel-tree/kernels.py list --bench lru)/labrun
echo
echo "benchmark: page_fault1 over LRU batch locks (project port), faults per virtual second"
printf '  %-16s' tasks
for t in 1 4 16 32 64; do printf '%13s' "$t"; done
echo
for mode in 0 1 2; do
	case $mode in 0) name="one lru_lock" ;; 1) name="batch locks" ;; 2) name="batch + splice" ;; esac
	printf '  %-16s' "$name"
	for t in 1 4 16 32 64; do
		"$bin" --scenario lru-batch --tasks "$t" --lru-mode "$mode" --objects 128 --rounds 3 --stress --meta |
			python3 -c '
import json, sys
m = json.load(sys.stdin)
if m["status"] != "done":
    sys.exit("bench: lru-batch ended " + m["status"])
f = next(c for c in m["stats"]["calls"] if c["name"] == "fault")
print("%13.0f" % (f["returns"] * 1e9 / m["end_time"]), end="")'
	done
	echo
done
echo "  the RFC (will-it-scale page_fault1, processes, over its baseline kernel), at 1, 4, 16, 32, 64 tasks:"
echo "    batch locks     +2.6%  +2.3%  +18.3%  +16.1%  +15.0%"
echo "    batch + splice  +2.3%  +4.7%  +28.2%  +26.2%  +21.9%"
