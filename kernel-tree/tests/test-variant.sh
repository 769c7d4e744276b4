#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make test-variant: kernel-tree/variant.sh end to end.
#
#   - the project's own break-no-wait branch, exported with git format-patch
#     (cover letter with a subject and Message-ID, threaded) onto v6.12 as an
#     mbox, becomes a variant: its subject and Message-ID are the cover's,
#     make variants lists it, its event logs equal the built-in
#     break-no-wait's on every scenario (seeds 1..VARIANT_SEEDS, natively,
#     with the branch names replaced) and its own native and wasm logs are
#     equal; with slow shrinkers its shrinker-lifetime run reports KASAN's
#     slab-use-after-free, and so does its report (make variant-report:
#     under slow shrinkers and from the explorer; the UML referee's traces, where
#     v6.12 has a User-Mode Linux build); the page opens it and reads its What changed
#     (web/e2e/variant.spec.ts, unless VARIANT_E2E=0); make variant-rm
#     removes every trace of it;
#   - the SRCU series (branch srcu-shrinkers), exported onto v6.1, becomes a
#     variant whose event logs equal the built-in srcu's on every scenario:
#     its extraction spec is v6.1's followed through the series;
# --quick (make test): only the first four refusals, which need no build, and
# the SRCU series' extraction spec.
#
#   - a series that does not apply, one that touches no compiled file, one
#     that changes a function the lab does not compile, one that changes an
#     interface the glue calls and one that does not compile against the
#     shim each fail with their message and leave no branch, build or
#     registry entry behind.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
TREE=kernel-tree/linux
SEEDS=${VARIANT_SEEDS:-2}
PORT=${E2E_PORT:-4173}
tmp=$(mktemp -d)
made=()
cleanup() {
	local n
	for n in "${made[@]}"; do kernel-tree/variant.sh rm "$n" >/dev/null 2>&1 || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
ok() { printf 'test-variant: ok: %s\n' "$*"; }
bad() { printf 'test-variant: FAIL: %s\n' "$*"; fails=$((fails + 1)); }

# Nothing of NAME is left: no branch, build directory or registry entry.
left_nothing() {
	local name=$1 f
	git -C "$TREE" rev-parse -q --verify "refs/heads/variant/$name" >/dev/null && { echo "branch variant/$name left"; return 1; }
	for f in build/native/$name build/wasm/$name build/kernel/$name variants/$name web/public/kernel/variant/$name; do
		[ ! -e "$f" ] || { echo "$f left"; return 1; }
	done
	! grep -q "\"$name\"" web/public/kernel/diffs.json 2>/dev/null || { echo "diffs.json still names $name"; return 1; }
}

# A one-patch mbox: BASE's FILE edited by the python expression EDIT (on s,
# the file's text), as a commit no ref holds, exported by git format-patch.
mkpatch() {
	local base=$1 file=$2 edit=$3 subject=$4 out=$5 blob idx tree commit
	blob=$(git -C "$TREE" show "$base:$file" | python3 -c "import re, sys; s = sys.stdin.read(); $edit; sys.stdout.write(s)" |
		git -C "$TREE" hash-object -w --stdin)
	idx=$tmp/index
	GIT_INDEX_FILE=$idx git -C "$TREE" read-tree "$base"
	GIT_INDEX_FILE=$idx git -C "$TREE" update-index --cacheinfo "100644,$blob,$file"
	tree=$(GIT_INDEX_FILE=$idx git -C "$TREE" write-tree)
	commit=$(GIT_AUTHOR_NAME='A Reviewer' GIT_AUTHOR_EMAIL=reviewer@example.org GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
		GIT_COMMITTER_NAME='A Reviewer' GIT_COMMITTER_EMAIL=reviewer@example.org GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		git -C "$TREE" commit-tree "$tree" -p "$base" -m "$subject")
	git -C "$TREE" format-patch -q --stdout -1 "$commit" >"$out"
	rm -f "$idx"
}

# expect_refusal NAME BASE MBOX WHAT PATTERN...: make variant fails, says
# every PATTERN (grep -E), and leaves nothing.
expect_refusal() {
	local name=$1 base=$2 from=$3 what=$4 out p
	shift 4
	made+=("$name")
	if out=$(make -s --no-print-directory variant FROM="$from" BASE="$base" NAME="$name" 2>&1); then
		bad "$what: made a variant"
		return
	fi
	for p in "$@"; do
		grep -qE -- "$p" <<<"$out" || { bad "$what: no /$p/ in:"; sed 's/^/    /' <<<"$out"; return; }
	done
	local why
	if why=$(left_nothing "$name"); then
		ok "$what: refused ($(grep -m1 'error:' <<<"$out" | sed 's/^\[variant\] error: //' | cut -c1-110)), nothing left"
	else
		bad "$what: $why"
	fi
}

# ---- refusals (fast: none but the last builds) --------------------------------
mkpatch v6.12 mm/shrinker.c "s = s.replace('\twait_for_completion(&shrinker->done);\n', '\twait_for_completion(&shrinker->done);\n\tsmp_mb();\n', 1)" \
	'mm: shrinker: a barrier after the wait' "$tmp/wait.mbox"
expect_refusal t-noapply v6.1 "$tmp/wait.mbox" "a series against 6.12 onto v6.1" \
	'patch 1/1 .* does not apply on v6.1' 'mm/shrinker.c'

mkpatch v6.12 fs/super.c "s = re.sub(r'(static int thaw_super_locked\([^;{]*\)\s*\{\n)', r'\1\t/* reviewed */\n', s, 1)" \
	'fs: a comment' "$tmp/super.mbox"
expect_refusal t-nocompiled v6.12 "$tmp/super.mbox" "a series on fs/super.c" \
	'changes nothing the lab compiles' 'fs/super.c: thaw_super_locked' 'the lab compiles \(v6.12\): mm/shrinker.c'

mkpatch v6.1 mm/vmscan.c "s = re.sub(r'(static unsigned int shrink_folio_list\([^;{]*\)\s*\{\n)', r'\1\t/* reviewed */\n', s, 1)" \
	'mm: vmscan: a comment' "$tmp/folio.mbox"
expect_refusal t-nofunc v6.1 "$tmp/folio.mbox" "a series on a function of mm/vmscan.c the lab does not extract" \
	'changes nothing the lab compiles' 'mm/vmscan.c: shrink_folio_list' 'from mm/vmscan.c only the functions and structures .*do_shrink_slab'

mkpatch v6.12 include/linux/shrinker.h "s = s.replace('void shrinker_register(struct shrinker *shrinker);', 'void shrinker_register(struct shrinker *shrinker, int flags);', 1)" \
	'mm: shrinker: shrinker_register() takes flags' "$tmp/iface.mbox"
expect_refusal t-iface v6.12 "$tmp/iface.mbox" "a series that changes shrinker_register()" \
	'changes an interface the glue calls' 'shrinker_register\(\) .*called at wasm/'

# The SRCU series (the project's port onto v6.1) changes mm/vmscan.c, which
# the lab compiles from extracted pieces: v6.1's spec followed through it is
# the spec of the built-in srcu kernel, item for item.
if kernel-tree/variant.sh spec "$TREE" v6.1 srcu-shrinkers wasm/extract/v6.1-vmscan.txt "$tmp/srcu-spec.txt" >"$tmp/spec.out" &&
		diff <(grep -v '^#' "$tmp/srcu-spec.txt") <(grep -v '^#' wasm/extract/srcu-vmscan.txt) >"$tmp/spec.diff"; then
	ok "v6.1's extraction spec followed through the SRCU series = srcu's ($(paste -sd';' "$tmp/spec.out" | cut -c1-150))"
else
	bad "v6.1's extraction spec through the SRCU series:"; sed 's/^/    /' "$tmp/spec.out" "$tmp/spec.diff"
fi

if [ "${1:-}" = --quick ]; then
	# make test's share: the refusals that need no build, in seconds.
	[ "$fails" = 0 ] || { echo "test-variant: $fails failed"; exit 1; }
	echo "test-variant --quick: the four refusals before a build and the SRCU series' extraction spec passed"
	exit 0
fi

mkpatch v6.12 mm/shrinker.c "s = s.replace('\twait_for_completion(&shrinker->done);\n', '\twait_for_completion(&shrinker->done);\n\tfolio_batch_release(&shrinker->fbatch);\n', 1)" \
	'mm: shrinker: release a folio batch' "$tmp/nocc.mbox"
expect_refusal t-nocc v6.12 "$tmp/nocc.mbox" "a series that does not compile against the shim" \
	'does not compile against the shim' 'mm/shrinker.c:[0-9]+:[0-9]+: (fatal )?error:'

# ---- break-no-wait as a reviewer's series ----------------------------------------
git -C "$TREE" format-patch -q --cover-letter --thread -o "$tmp/bnw" v6.12..break-no-wait
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/mm: shrinker: free shrinkers without waiting/; s/\*\*\* BLURB HERE \*\*\*/Exported from the project branch./' \
	"$tmp/bnw/0000-cover-letter.patch"
cover_mid=$(sed -n 's/^Message-I[Dd]: <\(.*\)>/\1/p' "$tmp/bnw/0000-cover-letter.patch")
# lore's order: the patches first, the cover letter after.
cat "$tmp"/bnw/0001-*.patch "$tmp/bnw/0000-cover-letter.patch" >"$tmp/bnw.mbox"
name=t-bnw
made+=("$name")
t0=$SECONDS
make -s --no-print-directory variant FROM="$tmp/bnw.mbox" BASE=v6.12 NAME=$name REPORT=0
ok "make variant: an mbox of $(grep -c '^From [0-9a-f]\{40\}' "$tmp/bnw.mbox") messages to a kernel built natively and in wasm in $((SECONDS - t0)) s"
python3 - "variants/$name/variant.json" "$cover_mid" <<'PY' && ok "variant.json: the cover letter's subject and Message-ID" || bad "variant.json"
import json, sys
v = json.load(open(sys.argv[1]))
assert v['subject'] == 'mm: shrinker: free shrinkers without waiting', v['subject']
assert v['messageId'] == sys.argv[2], (v['messageId'], sys.argv[2])
assert v['base'] == 'v6.12' and v['branch'] == 'variant/t-bnw' and v['touched'] == ['mm/shrinker.c'], v
PY
if [ "$(git -C "$TREE" rev-parse "variant/$name^{tree}")" = "$(git -C "$TREE" rev-parse "break-no-wait^{tree}")" ]; then
	ok "branch variant/$name holds the tree of break-no-wait"
else bad "branch variant/$name differs from break-no-wait"; fi
out=$(make -s --no-print-directory variants)
grep -q "^$name	on v6.12" <<<"$out" && ok "make variants lists it" || bad "make variants does not list it: $out"
if out=$(kernel-tree/variant.sh check "$name" break-no-wait "$SEEDS"); then
	ok "$(grep -c '^check: .*on '"$SEEDS"' of' <<<"$out") scenarios: event logs equal break-no-wait's and native = wasm on seeds 1..$SEEDS"
else
	bad "check against break-no-wait:"; sed 's/^/    /' <<<"$out"
fi
out=$(ASAN_OPTIONS=detect_leaks=0 build/native/$name/labrun --scenario shrinker-lifetime --slow-ns 3000 --console 2>&1 || true)
if grep -q 'BUG: KASAN: slab-use-after-free' <<<"$out"; then
	ok "shrinker-lifetime with slow shrinkers: $(grep -m1 'BUG: KASAN' <<<"$out")"
else bad "no KASAN report on shrinker-lifetime --slow-ns 3000"; fi
# The report: KASAN's use-after-free under slow shrinkers, from the fuzzer
# and from the explorer, each with how to replay it.
t0=$SECONDS
if VARIANT_SEEDS=1 VARIANT_FUZZ_RUNS=${VARIANT_FUZZ_RUNS:-500} kernel-tree/variant.sh report "$name" >"$tmp/report.out" 2>&1 &&
		python3 - "variants/$name/report.txt" <<'PY'
import re, sys
r = open(sys.argv[1]).read()
sec = dict(re.findall(r'^(\d)\. (.*?)(?=^\d\. |\Z)', r, re.S | re.M))
assert re.search(r'--slow-ns 3000\)\n     report: BUG: KASAN: slab-use-after-free', sec['1']), sec['1']
assert re.search(r'in the page: http://localhost:5173/\?scene=planted-bugs&variant=t-bnw&seed=1&sched=', sec['1'])
assert 'on 1 of 1 seeds; native = wasm on 1 of 1' in sec['2'], sec['2']
assert 'KASAN: slab-use-after-free' in sec['3'] or 'no crash' in sec['3'], sec['3']
assert 'replayed: KASAN: slab-use-after-free' in sec['4'], sec['4']
# The UML referee: where v6.12 has a User-Mode Linux build, the variant's
# traces equal the real kernel's built from its branch; else it says why not.
import os
if os.path.exists('build/kunit/v6.12/out/linux'):
    assert 'compare: variant/t-bnw: UML, native and wasm traces identical' in sec['5'], sec['5']
else:
    assert 'not run: no User-Mode Linux build of v6.12' in sec['5'], sec['5']
PY
then
	ok "make variant-report ($((SECONDS - t0)) s): KASAN slab-use-after-free under slow shrinkers and from the explorer; fuzzing: $(grep -m1 -E 'a crash|no crash' "variants/$name/report.txt" | cut -c1-120)"
else
	bad "report:"; tail -40 "$tmp/report.out" | sed 's/^/    /'
fi
# The check fails where it should: the variant against its base.
if kernel-tree/variant.sh check "$name" v6.12 1 >"$tmp/check.out" 2>&1; then
	bad "check finds t-bnw equal to v6.12"
elif ! grep -q 'shrinker-lifetime seed 1: t-bnw differs from v6.12 at event [0-9]' "$tmp/check.out" ||
		! grep -q '^  v6.12: {"i":' "$tmp/check.out" || ! grep -q '^  t-bnw: {"i":' "$tmp/check.out"; then
	bad "check against v6.12 fails without naming the first differing event:"; sed 's/^/    /' "$tmp/check.out"
else
	ok "check against v6.12 differs: $(grep -m1 -A2 'differs from' "$tmp/check.out" | tr '\n' ' ' | cut -c1-300)"
fi

if [ "${VARIANT_E2E:-1}" = 1 ]; then
	npx --no-install vite build --logLevel warn >/dev/null
	if RECLAIM_LAB_VARIANT=$name E2E_PORT=$PORT npx --no-install playwright test web/e2e/variant.spec.ts >"$tmp/e2e.out" 2>&1; then
		ok "the page lists $name, runs it and reads its What changed (web/e2e/variant.spec.ts)"
	else bad "web/e2e/variant.spec.ts:"; tail -30 "$tmp/e2e.out" | sed 's/^/    /'; fi
fi

make -s --no-print-directory variant-rm NAME=$name >/dev/null
if why=$(left_nothing "$name"); then ok "make variant-rm leaves nothing of $name"; else bad "variant-rm: $why"; fi
if [ "${VARIANT_E2E:-1}" = 1 ]; then
	# The page without it again.
	npx --no-install vite build --logLevel warn >/dev/null
fi

# ---- the SRCU series onto v6.1 ------------------------------------------------------
# Exported from the project's srcu-shrinkers branch as an mbox: it changes
# mm/vmscan.c's extracted pieces (a new function, a mutex and an SRCU domain
# for the rwsem), struct shrinker_info and mm/shrinker_debug.c (which
# CONFIG_SHRINKER_DEBUG=n does not build); the variant runs as the built-in srcu.
git -C "$TREE" format-patch -q --stdout v6.1..srcu-shrinkers >"$tmp/srcu.mbox"
name=t-srcu
made+=("$name")
t0=$SECONDS
if out=$(make -s --no-print-directory variant FROM="$tmp/srcu.mbox" BASE=v6.1 NAME=$name REPORT=0 2>&1); then
	ok "the SRCU series onto v6.1: made in $((SECONDS - t0)) s"
	grep -q 'mm/shrinker_debug.c: CONFIG_SHRINKER_DEBUG is not set' <<<"$out" && ok "mm/shrinker_debug.c: not built (CONFIG_SHRINKER_DEBUG unset)" ||
		bad "no word on mm/shrinker_debug.c:"$'\n'"$out"
	grep -q "^${name}_EXTRACT_OWN := variants/$name/extract/v6.1-vmscan.txt variants/$name/extract/v6.1-memcontrol.txt" "variants/$name/variant.mk" &&
		ok "its extraction spec is v6.1's followed through the series" || bad "variant.mk: $(cat "variants/$name/variant.mk")"
	if out=$(kernel-tree/variant.sh check "$name" srcu "$SEEDS"); then
		ok "$(grep -c '^check: .*on '"$SEEDS"' of' <<<"$out") scenarios: event logs equal the built-in srcu's and native = wasm on seeds 1..$SEEDS"
	else
		bad "check against srcu:"; sed 's/^/    /' <<<"$out"
	fi
else
	bad "the SRCU series onto v6.1:"; sed 's/^/    /' <<<"$out"
fi
make -s --no-print-directory variant-rm NAME=$name >/dev/null
if why=$(left_nothing "$name"); then ok "make variant-rm leaves nothing of $name"; else bad "variant-rm: $why"; fi

[ "$fails" = 0 ] || { echo "test-variant: $fails failed"; exit 1; }
echo "test-variant: every check passed"
