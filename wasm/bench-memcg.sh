#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The memcg shrinker bitmap at the seed's scale: Kirill Tkhai's "Improve
# shrink_slab() scalability" (2018, merged in 4.19; cover letter
# 153112469064.4097.2581798353485457328.stgit@localhost.localdomain), on
# v6.12 (the bitmap) and no-shrinker-bitmap (every memcg-aware shrinker for
# every memcg). Scenario memcg-bitmap, --quiet, one run of each (without
# the bitmap a run takes half a minute to minutes: no best of three).
#  1. 200 containers x 10 mounts x 10 memcgs (2000 shrinkers, 2000 memcgs),
#     one global reclaim pass, natively (bench build) and as wasm under
#     Node: its do_shrink_slab() calls (the RETURN of "global_reclaim_pass"
#     in meta's stats), its wall time (the "pass start"/"pass end" wall
#     marks: the simulation itself, no start-up) and its virtual time
#     (total_ns: the runtime's cost model, not a measurement).
#  2. The seed's drop_caches test (4001 containers of one tmpfs and one
#     memcg; echo 3 > drop_caches twice), natively: each echo's calls
#     (the passes' RETURNs, read from --dump's events.bin), wall time
#     (the "drop_caches start"/"drop_caches end" marks) and virtual time
#     (its CALL to its RETURN).
# Timings are printed, never checked. The call counts are checked, since
# they are the code's, not the machine's; for N shrinkers and G memcgs
# (the root's walk calls every shrinker, then each memcg's):
#   with the bitmap    N + G        (one set bit per memcg)
#   without            N + G * N    (every shrinker for every memcg)
# and in the drop_caches test, with the bitmap: the first echo's first pass
# N + G frees everything, its second N + 2G (each memcg's shrinker says
# SHRINK_EMPTY: shrink_slab_memcg() clears the bit and calls it again, the
# recheck), the second echo's one pass N (every bit clear).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
args="--scenario memcg-bitmap --quiet --max-steps 2000000000"

# Figures from one run's meta (and events.bin): python3 -c "$py" CMD ...
py='
import json, struct, sys

def load(path):
    with open(path) as f:
        return json.load(f)

def call(meta, name):
    for c in meta["stats"]["calls"]:
        if c["name"] == name:
            return c
    sys.exit("bench: no %r in stats.calls" % name)

def spans(meta, what):
    """Wall ms between each "<what> start" and the next "<what> end"."""
    out, t = [], None
    for m in meta["wall_marks"]:
        if m["name"] == what + " start":
            t = m["ms"]
        elif m["name"] == what + " end" and t is not None:
            out.append(m["ms"] - t)
            t = None
    return out

def echoes(meta, events):
    """Per drop_caches echo: its passes do_shrink_slab() calls, its virtual ns."""
    kinds = {k["name"]: i for i, k in enumerate(meta["kinds"])}
    names = meta["names"]
    out = []
    with open(events, "rb") as f:
        log = f.read()
    for off in range(0, len(log), 32):	# struct sim_event, 32 bytes
        t, _, kind, _, _, a0, a1, _, _ = struct.unpack_from("<QIHBBiiii", log, off)
        if kind == kinds["CALL"] and names[a0] == "drop_caches":
            out.append({"passes": [], "t0": t})
        elif kind == kinds["RETURN"] and names[a0] == "global_reclaim_pass" and out:
            out[-1]["passes"].append(a1)
        elif kind == kinds["RETURN"] and names[a0] == "drop_caches" and out:
            out[-1]["ns"] = t - out[-1]["t0"]
    return out

def check(what, got, want):
    if got != want:
        sys.exit("bench: %s: %s do_shrink_slab() calls, expected %s" % (what, got, want))

KERNELS = ("v6.12 (bitmap)", "no-shrinker-bitmap")

def ms(x):
    return "%.2f ms" % x if x < 10 else "%.1f ms" % x if x < 1000 else "%.2f s" % (x / 1000)

def scale(label, bitmap, nobitmap, n, g):
    """Experiment 1: a runtime flavour, both kernels."""
    r = []
    for kernel, path, want in ((KERNELS[0], bitmap, n + g), (KERNELS[1], nobitmap, n + g * n)):
        m = load(path)
        c = call(m, "global_reclaim_pass")
        check("%s %s, passes and calls" % (label, kernel), (c["calls"], c["ret_sum"]), (1, want))
        r.append((c["ret_sum"], spans(m, "pass")[0], c["total_ns"]))
    for kernel, (calls, wall, ns) in zip(KERNELS, r):
        print("  %s %-19s %9s calls (= formula), pass %s wall, %.2f ms virtual"
              % (label, kernel + ":", "{:,}".format(calls), ms(wall), ns / 1e6))
    print("  %s without/with the bitmap: calls %.0fx, pass wall time %.0fx,"
          " virtual time %.0fx (under the runtime cost model)"
          % (label, r[1][0] / r[0][0], r[1][1] / r[0][1], r[1][2] / r[0][2]))

def drop(bitmap, nobitmap, n, g):
    """Experiment 2: the drop_caches test, natively."""
    r = []
    for kernel, d, wants in ((KERNELS[0], bitmap, [[n + g, n + 2 * g], [n]]),
                             (KERNELS[1], nobitmap, [[n + g * n] * 2, [n + g * n]])):
        m = load(d + "/meta.json")
        e = echoes(m, d + "/events.bin")
        check("drop_caches %s, each echo its passes" % kernel, [x["passes"] for x in e], wants)
        check("drop_caches %s, stats" % kernel, call(m, "global_reclaim_pass")["ret_sum"],
              sum(map(sum, wants)))
        r.append([(sum(x["passes"]), len(x["passes"]), w, x["ns"])
                  for x, w in zip(e, spans(m, "drop_caches"))])
    for kernel, ech in zip(KERNELS, r):
        for i, (calls, passes, wall, ns) in enumerate(ech):
            echo = "echo %d (%d pass%s):" % (i + 1, passes, "es" if passes > 1 else "")
            print("  native %-19s %-19s %10s calls (= formula), %s wall, %.2f ms virtual"
                  % (kernel + ":", echo, "{:,}".format(calls), ms(wall), ns / 1e6))
    (c0, _, w0, v0), (c1, _, w1, v1) = r[0][1], r[1][1]
    print("  native second echo without/with the bitmap: calls %.0fx, wall time %.0fx,"
          " virtual time %.0fx (under the runtime cost model)"
          % (c1 / c0, w1 / w0, v1 / v0))

cmd = sys.argv[1]
if cmd == "scale":
    scale(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
else:
    drop(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
'

run() {
	# $1: label, $2: where stdout goes; rest: the command. Fails loudly if
	# the run does not finish clean (done, nothing left allocated).
	label=$1 out=$2
	shift 2
	echo "running $label ..."
	"$@" >"$out" || { echo "bench: $label failed" >&2; exit 1; }
}

echo
echo "benchmark: memcg shrinker bitmap at the seed's scale: 200 containers x 10 mounts x 10 memcgs"
echo "  (2000 shrinkers, 2000 memcgs), one global reclaim pass (priority 12), one run each"
scale="--containers 200 --mounts 10 --memcgs 10"
for v in v6.12 no-shrinker-bitmap; do
	run "native $v" "$tmp/native-$v.json" build/bench/$v/labrun $args $scale --meta
done
# The two kernels at once, each in its own Node process, as the page's
# figure runs them in two workers (the machine's cores permitting).
t0=$(date +%s.%N)
pids=
for v in v6.12 no-shrinker-bitmap; do
	run "wasm (Node $(node --version)) $v" "$tmp/wasm-$v.json" \
		node --no-experimental-fetch build/wasm/$v/labrun.cjs $args $scale --meta &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || exit 1; done
t1=$(date +%s.%N)
python3 -c "$py" scale native "$tmp/native-v6.12.json" "$tmp/native-no-shrinker-bitmap.json" 2000 2000
python3 -c "$py" scale "wasm  " "$tmp/wasm-v6.12.json" "$tmp/wasm-no-shrinker-bitmap.json" 2000 2000
printf "  wasm, both kernels' runs whole (start-up included, side by side): %.1f s wall\n" "$(echo "$t1 - $t0" | bc)"
[ -z "${BENCH_ROWS:-}" ] || printf 'memcg scale run, 2000 x 2000, both kernels, wasm under Node\t%.1f\ts\t<=\t5\n' \
	"$(echo "$t1 - $t0" | bc)" >>"$BENCH_ROWS"
echo "  seed (2018): 4,000,000 do_shrink_slab() calls in a global pass without the bitmap;"
echo "  its drop_caches test (below): 5.48 s without, 0.01 s with, \"at least 548 times\""

echo
echo "benchmark: the seed's drop_caches test: 4001 containers of one tmpfs and one memcg,"
echo "  echo 3 > drop_caches twice (the first frees everything in 2 passes, the second makes 1),"
echo "  natively, one run each (minutes without the bitmap)"
drop="--containers 4001 --mounts 1 --memcgs 1 --rounds 2"
for v in v6.12 no-shrinker-bitmap; do
	mkdir "$tmp/drop-$v"
	run "native $v" /dev/null build/bench/$v/labrun $args $drop --dump "$tmp/drop-$v"
done
python3 -c "$py" drop "$tmp/drop-v6.12" "$tmp/drop-no-shrinker-bitmap" 4001 4001
echo "  seed (2018), 5 echoes: the first 13.78 s before the bitmap, 1.10 s after; the 4 that free"
echo "  nothing 5.48-8.35 s before, 0.01 s after (time(1)'s resolution): \"at least 548 times\""
