#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# wasm/selftest/verdict-test.sh: run.sh's reading of rcutorture's verdict
# can fail. Runs selftest-rcutorture-rcu and selftest-rcutorture-busted
# natively, then hands run.sh (through LABRUN_NATIVE, a stand-in labrun
# that prints a given console) consoles that must not pass:
#
#   busted's console as rcu's         the test said FAILURE, readers past
#                                     their grace period
#   busted's, its tag made SUCCESS,   the Reader Pipe alone: readers past
#   as rcu's                          their grace period
#   rcu's console as busted's         the test said SUCCESS, no reader past
#                                     its grace period
#
# and the true consoles, which must pass. Succeeds when every case ends
# as it should.
set -uo pipefail
cd "$(dirname "$0")/../.."

native=${LABRUN_NATIVE:-build/native/selftest/labrun}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
opts=(--quiet --max-events 4000000000 --max-steps 4000000000 --console --summary)

for t in rcu busted; do
	ASAN_OPTIONS=detect_leaks=0 "$native" --scenario "selftest-rcutorture-$t" "${opts[@]}" \
		> "$dir/$t.console" 2> "$dir/$t.err" &
done
wait

# The stand-in: prints $dir/cases/<scenario>, whatever else it is asked.
cat > "$dir/labrun" <<EOF
#!/bin/bash
while [ \$# -gt 0 ]; do [ "\$1" = --scenario ] && exec cat "$dir/cases/\$2"; shift; done
exit 2
EOF
chmod +x "$dir/labrun"
mkdir "$dir/cases"

# case NAME SCENARIO SOURCE WANT_RC WANT_TEXT [SED]: run.sh on SOURCE's
# console (edited by SED) given as SCENARIO's must exit WANT_RC and say WANT_TEXT.
fail=0
case_() {
	local name=$1 scen=selftest-rcutorture-$2 src=$3 want_rc=$4 want=$5 edit=${6:-} got why rc=0
	sed -e "s/^scenario selftest-rcutorture-$src seed/scenario $scen seed/" ${edit:+-e "$edit"} \
		"$dir/$src.console" > "$dir/cases/$scen"
	got=$(LABRUN_NATIVE="$dir/labrun" wasm/selftest/run.sh --native-only "$scen") || rc=$?
	if [ "$rc" = "$want_rc" ] && grep -qF -- "$want" <<< "$got"; then
		why=$(grep -m1 -o 'FAILED: .*' <<< "$got" | sed 's/; its console.*//')
		echo "verdict-test: $name: as it should (${why:-passed})"
	else
		echo "verdict-test: $name: FAILED (exit $rc, wanted $want_rc and \"$want\"):"
		sed 's/^/    /' <<< "$got"
		fail=1
	fi
}
case_ "rcu's console" rcu rcu 0 "End of test: SUCCESS"
case_ "busted's console" busted busted 0 "End of test: FAILURE"
case_ "busted's console as rcu's" rcu busted 1 "the test said FAILURE"
case_ "busted's console, SUCCESS, as rcu's" rcu busted 1 "its statistics count" \
	"s/End of test: FAILURE/End of test: SUCCESS/"
case_ "rcu's console as busted's" busted rcu 1 "no reader past its grace period"
exit $fail
