#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: every benchmark script in turn, then one table of the
# figures that have a goal: each
# figure, its goal and the ratio, oriented so that 1.00 or more meets the
# goal (figure / goal for "at least", goal / figure for "at most"). Each
# script adds its rows to BENCH_ROWS: name, value, unit, >= or <=, goal,
# tab-separated. docs/performance.md says what each row measures.
set -eu
BENCH_ROWS=$(mktemp)
export BENCH_ROWS
trap 'rm -f "$BENCH_ROWS"' EXIT
trap 'exit 1' INT TERM
wasm/bench.sh
wasm/bench-lru.sh
wasm/bench-memcg.sh
wasm/bench-inode.sh
wasm/bench-explore.sh
wasm/bench-fuzz.sh
node scripts/bench-figures.mjs
node scripts/bench-page.mjs
echo
echo "make bench: the figures against their goals (ratio >= 1.00: goal met)"
python3 - "$BENCH_ROWS" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
w = max(len(r[0]) for r in rows)
print("  %-*s %16s %24s %7s" % (w, "figure", "measured", "goal", "ratio"))
for name, value, unit, op, goal in rows:
    v, g = float(value), float(goal)
    ratio = v / g if op == ">=" else g / v
    print("  %-*s %16s %24s %7.2f%s" % (w, name, (value + " " + unit).strip(),
          (("at least " if op == ">=" else "at most ") + goal + " " + unit).strip(),
          ratio, "" if ratio >= 1 else "  (not met)"))
PY
