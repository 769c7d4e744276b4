#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A reviewer's kernel: any patch series against the files the lab compiles,
# applied on a branch the lab builds and built as that branch's variant is.
#
#   kernel-tree/variant.sh add FROM BASE NAME   (make variant FROM=... BASE=... NAME=...)
#   kernel-tree/variant.sh list                 (make variants)
#   kernel-tree/variant.sh rm NAME              (make variant-rm NAME=...)
#   kernel-tree/variant.sh check NAME [REF] [SEEDS]   (make variant-check)
#   kernel-tree/variant.sh report NAME          (make variant-report)
#
# FROM is an mbox (as lore and b4 give it: cover letter, patches in any
# order, replies skipped), a folder of git format-patch files, or a branch
# or commit range of kernel-tree/linux (a branch: its commits on top of
# BASE). BASE is a branch of kernel-tree/linux that a variant of
# wasm/build.mk is built from (v6.12, v6.1, srcu-shrinkers, break-no-wait...)
# or that variant's name. The series is applied as git am applies it
# (git mailinfo, git apply, a commit per patch with its author, date and
# message, and its Message-ID as git am --message-id records it) onto
# branch variant/NAME, without touching the checkout. Then:
#
#   - every line the series changes must be in what the lab compiles for
#     BASE: its file list (wasm/kernel-files-*.txt) and, for a file compiled
#     from extracted functions (wasm/extract/*.txt), those functions;
#     PARTIAL=1 accepts a series that also changes other code (listed);
#   - a function whose declaration changes must not be one the glue or the
#     scenarios call;
#   - NAME is built natively (ASan + UBSan) and in wasm, for Node and the
#     page, with BASE's glue, file list, extraction specs and overlay;
#   - then the report (below) is made, unless REPORT=0.
#
# The registry is variants/NAME/ (git-ignored): variant.json (what the page
# and the What changed panel read), variant.mk (what wasm/build.mk reads),
# series.mbox (the patches as applied) and the browser module. Any failure
# removes the branch, the build directories and the registry entry.
#
# check compares NAME with REF (default: its base) on every scenario NAME
# runs, seeds 1..SEEDS (default 3): natively, the event logs with each
# kernel's own branch name replaced by one placeholder, and NAME natively
# against NAME in wasm; the first differing event is printed with both lines.
#
# report writes variants/NAME/report.txt: every scenario natively (ASan +
# UBSan, the simulated KASAN and lockdep), seeds 1..VARIANT_SEEDS (3), each
# report with its schedule, a replay command and a link that opens it in
# the page; check against the base; VARIANT_FUZZ_RUNS (2000) executions of
# libFuzzer on the variant; the explorer on shrinker-lifetime's small race
# where the base is in the explorer's standard set; the UML referee where
# the base has a User-Mode Linux build (make kunit).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
TREE=kernel-tree/linux
REG=variants

say() { printf '[variant] %s\n' "$*"; }
die() { printf '[variant] error: %s\n' "$*" >&2; exit 1; }

# One line per variant of wasm/build.mk: name, branch, file list, compiled
# sources, extraction specs, project sources (glue and scenarios), base
# (reviewer variants only), separated by '|'.
lab_variants() {
	make -s --no-print-directory print-lab-variants
}

row_of() {
	lab_variants | awk -F'|' -v n="$1" '$1 == n'
}

remove_variant() {
	local name=$1 f
	git -C "$TREE" update-ref -d "refs/heads/variant/$name" 2>/dev/null || true
	for f in native bench wasm fuzz kernel kunit/variant; do rm -rf "build/$f/$name"; done
	rmdir build/kunit/variant 2>/dev/null || true
	rm -rf "${REG:?}/$name" "web/public/kernel/variant/$name"
	rmdir "$REG" web/public/kernel/variant 2>/dev/null || true
	# The What changed data and the code pane's sources no longer name it.
	if [ -f web/public/kernel/diffs.json ]; then
		rm -f web/public/kernel/diffs.json
		make -s --no-print-directory web/public/kernel/diffs.json >/dev/null 2>&1 || true
	fi
}

# ---- add -----------------------------------------------------------------------
# Sort the messages of a series: prints "cover FILE" (at most once) and
# "patch FILE" lines in order, or fails saying why. Then the series'
# subject and Message-ID, as "subject TEXT" and "message-id TEXT".
sort_series() {
	python3 - "$@" <<'PY'
import email, email.policy, re, sys

NUM = re.compile(r'^\s*\[[^\]]*?\b(\d+)/(\d+)\s*\]')
PREFIX = re.compile(r'^\s*(\[[^\]]*\]\s*)+')
cover, patches, numbered = None, [], {}
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        msg = email.message_from_binary_file(f, policy=email.policy.compat32)
    subject = ' '.join(str(email.header.make_header(email.header.decode_header(msg.get('Subject', '')))).split())
    mid = (msg.get('Message-ID') or '').strip().strip('<>')
    body = msg.get_payload(decode=True) if not msg.is_multipart() else b''.join(
        p.get_payload(decode=True) or b'' for p in msg.walk() if not p.is_multipart())
    text = (body or b'').decode('utf-8', 'replace')
    if re.match(r'^\s*(re|aw|fwd?):', subject, re.I):
        continue  # a reply in the thread
    has_diff = re.search(r'^(diff --git |--- a/|\+\+\+ b/)', text, re.M) is not None
    m = NUM.match(subject)
    n = int(m.group(1)) if m else None
    clean = PREFIX.sub('', subject).strip()
    if not has_diff:
        if n == 0 and cover is None:
            cover = (path, clean, mid)
        continue
    if n is not None:
        if n in numbered:
            sys.exit(f'the mbox holds two patches numbered {n}: "{numbered[n][1]}" and "{clean}"; '
                     'give one version of the series (b4 am -o - MESSAGE-ID gives one)')
        numbered[n] = (path, clean, mid)
    patches.append((n, len(patches), path, clean, mid))
if not patches:
    sys.exit('no patch in ' + ' '.join(sys.argv[1:2]) + ('...' if len(sys.argv) > 2 else '') +
             ': no message holds a diff')
patches.sort(key=lambda p: (p[0] if p[0] is not None else 0, p[1]))
if cover:
    print('cover', cover[0])
for p in patches:
    print('patch', p[2])
first = patches[0]
print('subject', cover[1] if cover else first[3])
print('message-id', cover[2] if cover else first[4])
PY
}

# What the series changes against what the lab compiles for the base:
# prints the verdict lines and exits 1 when nothing is compiled, 2 when some
# is not (and PARTIAL is not set), 3 when a declaration the glue calls changes.
compare_with_lab() {
	python3 - "$TREE" "$@" <<'PY'
import os, re, subprocess, sys
sys.path.insert(0, 'kernel-tree')
import diffs

tree, base, new, files_list, srcs, extract, project, partial, base_extract = sys.argv[1:10]
listed = [l.strip() for l in open(files_list) if l.strip() and not l.startswith('#')]
# What each extraction spec compiles of its file: functions and structures
# by name, file-scope lines by their text. `extract` holds the base's specs
# and, for a file the series changes, the spec followed through the series
# (kernel-tree/variant_spec.py); `base_specs` the base's own.
STRUCT = re.compile(r'^(struct|union|enum)\s+([A-Za-z_]\w*)')
def read_specs(paths):
    out = {}
    for spec in paths.split():
        fname, names, lines = None, set(), set()
        for l in open(spec):
            w = l.rstrip('\n').split(None, 1)
            if len(w) < 2 or l.startswith('#'):
                continue
            if w[0] == 'file':
                fname = w[1].strip()
            elif w[0] == 'func':
                names.add(w[1].split('@')[0].strip())
            elif w[0] == 'block' and STRUCT.match(w[1]):
                m = STRUCT.match(w[1])
                names.add(f'{m.group(1)} {m.group(2)}')
            elif w[0] in ('line', 'block'):
                lines.add(w[1].strip())
        f = out.setdefault(fname, (set(), set()))
        f[0].update(names)
        f[1].update(lines)
    return out
specs = read_specs(extract)
base_specs = read_specs(base_extract)
for f, (names, lines) in base_specs.items():
    specs.setdefault(f, (set(), set()))[1].update(lines)  # a line the series rewrites was compiled

# A file the base's configuration does not build, as the kernel's Makefile
# says (obj-$(CONFIG_X) += file.o, CONFIG_X unset in the lab's autoconf.h):
# a change there changes no kernel the lab (or that configuration) runs.
autoconf = open('wasm/include/generated/autoconf.h').read()
def unbuilt(path):
    if not path.endswith('.c'):
        return None
    d, f = os.path.split(path)
    try:
        mk = diffs.show(tree, new, f'{d}/Makefile')
    except subprocess.CalledProcessError:
        return None
    for l in mk:
        m = re.match(r'^obj-\$\((CONFIG_\w+)\)\s*\+?=.*\b' + re.escape(f[:-2]) + r'\.o\b', l)
        if m and not re.search(r'^#define ' + m.group(1) + r'\b', autoconf, re.M):
            return f'{m.group(1)} is not set (obj-$({m.group(1)}) in {d}/Makefile)'
    return None

touched = diffs.git(tree, 'diff', '--name-only', '--no-renames', base, new).split()
inside, outside, changed, off, includes = {}, {}, {}, {}, {}
for path in touched:
    hunks = diffs.git_diff(tree, base, new, [path])
    names = []
    for h in hunks:
        for op, o, n, text in h['lines']:
            if op == ' ':
                continue
            if path.endswith(('.c', '.h')):
                side, line = ('old', o) if op == '-' else ('new', n)
                name = diffs.enclosing(tree, h[side]['tree'], path, line)
                t = text.strip()
                if name == 'file scope' and path in specs:
                    # A file-scope line of an extracted file: compiled if a spec names it;
                    # comments and blank lines are not code; the glue's includes stand for the file's.
                    if not t or t.startswith(('/*', '*', '//')):
                        continue
                    if t.startswith('#include'):
                        includes.setdefault(path, []).append(t)
                        continue
                    name = 'file scope' if t in specs[path][1] else f'file scope: {t}'
                names.append(name)
            else:
                names.append('file scope')
    names = list(dict.fromkeys(names))
    changed[path] = names
    why = unbuilt(path) if path not in listed else None
    if why:
        off[path] = why
    elif path not in listed:
        outside[path] = names
    elif path in specs:
        ins = [f for f in names if f in specs[path][0] or f == 'file scope']
        out = [f for f in names if f not in ins]
        if ins:
            inside[path] = ins
        if out:
            outside[path] = out
    else:
        inside[path] = names

def show(d):
    return '; '.join(f'{p}: {", ".join(n)}' for p, n in d.items())

compiled = ', '.join(srcs.split())
for path, (funcs, lines) in specs.items():
    compiled += f'; from {path} only the functions and structures {", ".join(sorted(funcs))}'
    compiled += f' and {len(lines)} file-scope line(s)' if lines else ''
compiled += f'; the headers listed in {files_list}'
print('touched\t' + ' '.join(touched))
if off:
    print('unbuilt\t' + '; '.join(f'{p}: {w}' for p, w in off.items()))
if includes:
    print('includes\t' + '; '.join(f'{p}: {", ".join(i)}' for p, i in includes.items()))
print('changes\t' + show(changed))
print('compiled\t' + compiled)
if not inside:
    print('error\tThe series changes nothing the lab compiles for this base.')
    sys.exit(1)
if outside:
    print('outside\t' + show(outside))
    if partial != '1':
        print('error\tThe series changes code the lab does not compile, so the kernel the lab would run '
              'is not the series (make variant PARTIAL=1 ... runs the compiled part alone).')
        sys.exit(2)

# A declaration the series changes, of a function the glue or scenarios call.
DECL = re.compile(r'^(?![#\s/{}*])(?:[\w\s\*]+?)\b([A-Za-z_]\w*)\s*\(')
text = diffs.git(tree, 'diff', '-U0', '--no-renames', base, new, '--', *inside.keys())
removed = {}
for line in text.split('\n'):
    if line.startswith('-') and not line.startswith('---'):
        m = DECL.match(line[1:])
        if m and m.group(1) not in ('if', 'for', 'while', 'switch', 'return', 'sizeof'):
            removed.setdefault(m.group(1), line[1:].strip())
calls = []
for name, decl in removed.items():
    for src in project.split():
        for k, l in enumerate(open(src, encoding='utf-8', errors='replace'), 1):
            if re.search(r'\b' + re.escape(name) + r'\s*\(', l):
                calls.append(f'{name}() (was: {decl}), called at {src}:{k}')
                break
if calls:
    print('interface\t' + '; '.join(calls))
    print('error\tThe series changes an interface the glue calls: the glue (wasm/glue/) must follow '
          'it before the lab can run this series.')
    sys.exit(3)
PY
}

add() {
	local from=$1 base=$2 name=$3
	[ -n "$from" ] && [ -n "$base" ] && [ -n "$name" ] ||
		die "usage: make variant FROM=<mbox, folder of patches, or branch/range of kernel-tree/linux> BASE=<branch> NAME=<name>"
	[[ $name =~ ^[a-z0-9][a-z0-9._-]{0,40}$ ]] ||
		die "NAME '$name': lower-case letters, digits, '.', '_' and '-', starting with a letter or digit"
	local rows row
	rows=$(lab_variants)
	if awk -F'|' -v n="$name" '$1 == n { f = 1 } END { exit !f }' <<<"$rows" || [ "$name" = selftest ]; then
		die "NAME '$name' is taken by a variant of the lab (make variants lists the reviewer's; make variant-rm NAME=$name removes one)"
	fi
	git -C "$TREE" rev-parse -q --verify "refs/heads/variant/$name" >/dev/null &&
		die "branch variant/$name already exists in $TREE"
	# BASE: a built-in variant's name, or the branch one is built from.
	row=$(awk -F'|' -v b="$base" '$7 == "" && $1 == b { print; exit }' <<<"$rows")
	[ -n "$row" ] || row=$(awk -F'|' -v b="$base" '$7 == "" && $2 == b { print; exit }' <<<"$rows")
	[ -n "$row" ] || die "BASE '$base' is no branch the lab builds: $(awk -F'|' '$7 == "" { printf "%s%s", s, $2; s = ", " }' <<<"$rows")"
	local bvariant bbranch bfiles bsrcs bextract bproject
	IFS='|' read -r bvariant bbranch bfiles bsrcs bextract bproject _ <<<"$row"

	local start=$SECONDS
	tmp= ok=0 made=0
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"; [ "$ok" = 1 ] || [ "$made" = 0 ] || { remove_variant "$name"; say "removed what was made of $name (branch, build, registry)" >&2; }' EXIT

	# The messages of the series, one file each.
	mkdir "$tmp/msgs"
	local kind=
	if [ -f "$from" ]; then
		kind="mbox $from"
		git mailsplit -o"$tmp/msgs" "$from" >/dev/null || die "$from: not an mbox or patch file"
	elif [ -d "$from" ]; then
		kind="folder $from"
		local files=()
		mapfile -t files < <(find "$from" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.eml' -o -name '*.mbox' -o -name '*.mbx' \) | sort)
		[ ${#files[@]} -gt 0 ] || die "$from holds no *.patch, *.eml, *.mbox or *.mbx file"
		git mailsplit -o"$tmp/msgs" "${files[@]}" >/dev/null || die "$from: a file is not a patch"
	else
		local range=$from
		[[ $range == *..* ]] || range="$bbranch..$from"
		git -C "$TREE" rev-parse -q --verify "${range##*..}^{commit}" >/dev/null ||
			die "FROM '$from' is no file, folder, branch or commit range of $TREE"
		kind="commits $range of $TREE"
		git -C "$TREE" format-patch -q --stdout --no-signature "$range" >"$tmp/series.mbox"
		[ -s "$tmp/series.mbox" ] || die "$range holds no commit"
		git mailsplit -o"$tmp/msgs" "$tmp/series.mbox" >/dev/null
	fi
	local sorted
	sorted=$(sort_series "$tmp"/msgs/*) || die "$from: $(sort_series "$tmp"/msgs/* 2>&1 >/dev/null | tail -1)"
	local subject mid cover
	subject=$(sed -n 's/^subject //p' <<<"$sorted")
	mid=$(sed -n 's/^message-id //p' <<<"$sorted")
	cover=$(sed -n 's/^cover //p' <<<"$sorted")
	local patches=()
	mapfile -t patches < <(sed -n 's/^patch //p' <<<"$sorted")
	say "$name: ${#patches[@]} patch(es) from $kind${cover:+ (cover letter: $subject)} onto $bbranch (variant $bvariant)"

	# Apply as git am does, on a scratch index: nothing is checked out and
	# no ref changes until every patch applies.
	local parent idx k=0 p info msg err tree commit psubj pmid
	parent=$(git -C "$TREE" rev-parse "$bbranch^{commit}")
	local basecommit=$parent
	idx=$tmp/index
	GIT_INDEX_FILE=$idx git -C "$TREE" read-tree "$parent"
	: >"$tmp/applied.mbox"
	for p in "${patches[@]}"; do
		k=$((k + 1))
		info=$tmp/info.$k msg=$tmp/msg.$k
		git mailinfo "$msg" "$tmp/patch.$k" <"$p" >"$info"
		psubj=$(sed -n 's/^Subject: //p' "$info")
		pmid=$(sed -n 's/^Message-I[Dd]: *<\?\([^>]*\)>\?.*/\1/p' "$p" | head -1)
		if ! err=$(GIT_INDEX_FILE=$idx git -C "$TREE" apply --cached "$(realpath "$tmp/patch.$k")" 2>&1); then
			printf '[variant] error: patch %d/%d "%s" does not apply on %s (git am stops here: git apply says)\n%s\n' \
				"$k" "${#patches[@]}" "$psubj" "$bbranch" "$(sed 's/^/  /' <<<"$err")" >&2
			printf '[variant] the series must be against %s; files: %s\n' "$bbranch" \
				"$(grep -o '^+++ b/[^[:space:]]*' "$tmp/patch.$k" | cut -c7- | sort -u | tr '\n' ' ')" >&2
			exit 1
		fi
		tree=$(GIT_INDEX_FILE=$idx git -C "$TREE" write-tree)
		commit=$(
			export GIT_AUTHOR_NAME="$(sed -n 's/^Author: //p' "$info")"
			export GIT_AUTHOR_EMAIL="$(sed -n 's/^Email: //p' "$info")"
			export GIT_AUTHOR_DATE="$(sed -n 's/^Date: //p' "$info")"
			export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
			export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
			{ echo "$psubj"; echo; cat "$msg"; [ -z "$pmid" ] || printf '\nMessage-ID: <%s>\n' "$pmid"; } |
				git -C "$TREE" commit-tree "$tree" -p "$parent"
		)
		parent=$commit
		cat "$p" >>"$tmp/applied.mbox"
	done

	# A file the lab compiles from extracted pieces that the series changes:
	# the base's spec followed through the series (new functions the kept
	# code calls, the definitions that replace a rewritten line).
	local spec specs="" derived="" dspec dnotes
	mkdir "$tmp/extract"
	for spec in $bextract; do
		if git -C "$TREE" diff --quiet "$basecommit" "$parent" -- "$(sed -n 's/^file //p' "$spec")"; then
			specs+=" $spec"
			continue
		fi
		dspec=$tmp/extract/$(basename "$spec")
		dnotes=$(python3 kernel-tree/variant_spec.py "$TREE" "$basecommit" "$parent" "$spec" "$dspec") ||
			die "the series changes what the lab extracts from $(sed -n 's/^file //p' "$spec") ($spec)"
		specs+=" $dspec" derived+=" $(basename "$spec")"
		[ -z "$dnotes" ] || say "$spec, followed through the series: $(paste -sd'\t' <<<"$dnotes" | sed 's/\t/; /g')"
	done

	# Against what the lab compiles for the base.
	local verdict rc=0
	verdict=$(compare_with_lab "$basecommit" "$parent" "$bfiles" "$bsrcs" "$specs" "$bproject" "${PARTIAL:-0}" "$bextract") || rc=$?
	local touched
	touched=$(sed -n 's/^touched\t//p' <<<"$verdict")
	if [ "$rc" != 0 ]; then
		{
			printf '[variant] error: %s\n' "$(sed -n 's/^error\t//p' <<<"$verdict")"
			printf '  the series changes:   %s\n' "$(sed -n 's/^changes\t//p' <<<"$verdict")"
			[ "$rc" != 2 ] || printf '  not compiled:         %s\n' "$(sed -n 's/^outside\t//p' <<<"$verdict")"
			[ "$rc" != 3 ] || printf '  interface changed:    %s\n' "$(sed -n 's/^interface\t//p' <<<"$verdict")"
			printf '  the lab compiles (%s): %s\n' "$bbranch" "$(sed -n 's/^compiled\t//p' <<<"$verdict")"
		} >&2
		exit 1
	fi
	local outside unbuilt includes
	outside=$(sed -n 's/^outside\t//p' <<<"$verdict")
	[ -z "$outside" ] || say "PARTIAL=1: not compiled, so not run: $outside"
	unbuilt=$(sed -n 's/^unbuilt\t//p' <<<"$verdict")
	[ -z "$unbuilt" ] || say "not built in the lab's configuration (nor by the kernel's, with it): $unbuilt"
	includes=$(sed -n 's/^includes\t//p' <<<"$verdict")
	[ -z "$includes" ] || say "includes the series adds (the glue's includes stand for the file's; the shim must provide them): $includes"

	# The branch and the registry entry; from here a failure removes both.
	made=1
	git -C "$TREE" update-ref "refs/heads/variant/$name" "$parent" ""
	mkdir -p "$REG/$name"
	cp "$tmp/applied.mbox" "$REG/$name/series.mbox"
	local psubjects
	psubjects=$(for k in $(seq 1 ${#patches[@]}); do sed -n 's/^Subject: //p' "$tmp/info.$k"; done)
	V_NAME=$name V_BASE=$bvariant V_BASEBRANCH=$bbranch V_BASECOMMIT=$basecommit V_COMMIT=$parent \
	V_SUBJECT=$subject V_MID=$mid V_FROM=$kind V_PATCHES=$psubjects V_TOUCHED=$touched V_OUTSIDE=$outside \
	python3 - "$REG/$name/variant.json" <<'PY'
import json, os, sys
e = os.environ
json.dump({
    'name': e['V_NAME'],
    'base': e['V_BASE'],
    'baseBranch': e['V_BASEBRANCH'],
    'baseCommit': e['V_BASECOMMIT'],
    'branch': 'variant/' + e['V_NAME'],
    'commit': e['V_COMMIT'],
    'subject': e['V_SUBJECT'],
    'messageId': e['V_MID'],
    'from': e['V_FROM'],
    'patches': [l for l in e['V_PATCHES'].split('\n') if l],
    'touched': e['V_TOUCHED'].split(),
    'notCompiled': e['V_OUTSIDE'],
}, open(sys.argv[1], 'w'), indent=1, ensure_ascii=False)
PY
	printf '# Generated by kernel-tree/variant.sh: %s, the series on %s\nREVIEW_VARIANTS += %s\n%s_BASE := %s\n' \
		"$name" "$bbranch" "$name" "$name" "$bvariant" >"$REG/$name/variant.mk"
	if [ -n "$derived" ]; then
		mkdir -p "$REG/$name/extract"
		cp "$tmp"/extract/* "$REG/$name/extract/"
		local own=""
		for spec in $bextract; do
			if [ -f "$REG/$name/extract/$(basename "$spec")" ]; then own+=" $REG/$name/extract/$(basename "$spec")"; else own+=" $spec"; fi
		done
		printf '# The extraction specs followed through the series (kernel-tree/variant_spec.py)\n%s_EXTRACT_OWN :=%s\n' \
			"$name" "$own" >>"$REG/$name/variant.mk"
	fi

	# Build: natively (ASan + UBSan), wasm for Node and for the page.
	say "$name: building natively and in wasm ($((SECONDS - start)) s so far)"
	if ! nice -n 5 make -s --no-print-directory -j2 "build/native/$name/labrun" "build/wasm/$name/labrun.cjs" \
			"$REG/$name/reclaimlab-$name.mjs" web/public/kernel/.stamp web/public/kernel/diffs.json >"$tmp/build.log" 2>&1; then
		local at
		if at=$(grep -m1 -E "^build/kernel/$name/[^:]+:[0-9]+:[0-9]+: (fatal )?error:" "$tmp/build.log"); then
			at=${at#build/kernel/$name/}
			printf '[variant] error: the series does not compile against the shim:\n  %s (branch variant/%s)\n' "$at" "$name" >&2
			grep -A3 -m1 -F "build/kernel/$name/${at%%:*}" "$tmp/build.log" | tail -n +2 | sed 's/^/  /' >&2 || true
		elif at=$(grep -m1 -E "^wasm/[^:]+:[0-9]+:[0-9]+: (fatal )?error:|undefined symbol|undefined reference" "$tmp/build.log"); then
			printf '[variant] error: the series changes an interface the glue calls:\n  %s\n' "$at" >&2
		else
			printf '[variant] error: the build failed:\n' >&2
			tail -20 "$tmp/build.log" | sed 's/^/  /' >&2
		fi
		exit 1
	fi
	ok=1
	say "$name: made in $((SECONDS - start)) s: branch variant/$name ($(git -C "$TREE" rev-parse --short "$parent")) on $bbranch"
	say "  subject:    $subject"
	say "  message-id: ${mid:-(none in the series)}"
	say "  changes:    $(sed -n 's/^changes\t//p' <<<"$verdict")"
	say "  run it:     build/native/$name/labrun --list; in the page (make start), the kernel picker of every scene that runs $bvariant"
	# The report (REPORT=0: not now; make variant-report NAME=$name later).
	if [ "${REPORT:-1}" != 0 ]; then
		report "$name"
		say "$name: from the series to the finished report in $((SECONDS - start)) s"
	fi
}

# ---- list, rm --------------------------------------------------------------------
list() {
	local j any=0
	for j in "$REG"/*/variant.json; do
		[ -f "$j" ] || continue
		any=1
		python3 - "$j" <<'PY'
import json, os, sys
v = json.load(open(sys.argv[1]))
n = v['name']
built = [w for w, p in (('native', f'build/native/{n}/labrun'), ('wasm', f'build/wasm/{n}/labrun.cjs'),
                        ('page', f'variants/{n}/reclaimlab-{n}.mjs')) if os.path.exists(p)]
mid = f" <{v['messageId']}>" if v.get('messageId') else ''
print(f"{n}\ton {v['baseBranch']} ({v['base']}), branch {v['branch']}, {len(v['patches'])} patch(es), "
      f"built: {', '.join(built) or 'nothing'}\n\t{v['subject']}{mid}")
PY
	done
	[ "$any" = 1 ] || echo "no reviewer variants (make variant FROM=... BASE=... NAME=... makes one)"
}

rm_variant() {
	local name=${1:-}
	[ -n "$name" ] || die "usage: make variant-rm NAME=<name> (make variants lists them)"
	[ -f "$REG/$name/variant.json" ] || git -C "$TREE" rev-parse -q --verify "refs/heads/variant/$name" >/dev/null ||
		die "no reviewer variant '$name' (make variants lists them)"
	remove_variant "$name"
	say "removed $name: branch variant/$name, its builds and its registry entry"
}

# ---- check -----------------------------------------------------------------------
# The event log of a run (the command after BRANCH), with the kernel's
# branch name BRANCH replaced by one placeholder.
events() {
	local branch=$1
	shift
	{ "$@" 2>/dev/null || true; } | sed "s|\"tree\":\"$branch\"|\"tree\":\"@kernel\"|g"
}

# The first event where two logs differ, with both lines (or the end of one).
first_difference() {
	local a=$1 b=$2 an=$3 bn=$4 what=$5 n c
	c=$(cmp "$a" "$b" 2>&1 || true)
	n=$(sed -n '/EOF/!s/.* line \([0-9]*\).*/\1/p' <<<"$c")
	[ -n "$n" ] || n=$(($(wc -l <"$a") < $(wc -l <"$b") ? $(wc -l <"$a") + 1 : $(wc -l <"$b") + 1))
	echo "$what at event $((n - 1)):"
	echo "  $an: $(sed -n "${n}p" "$a" | grep . || echo '(end of its log)')"
	echo "  $bn: $(sed -n "${n}p" "$b" | grep . || echo '(end of its log)')"
	return 0
}

check() {
	local name=${1:-} ref=${2:-} seeds=${3:-3}
	[ -f "$REG/$name/variant.json" ] || die "no reviewer variant '$name'"
	[ -n "$ref" ] || ref=$(row_of "$name" | cut -d'|' -f7)
	local nbranch rbranch
	nbranch=$(row_of "$name" | cut -d'|' -f2)
	rbranch=$(row_of "$ref" | cut -d'|' -f2)
	[ -n "$rbranch" ] || die "no variant '$ref'"
	export ASAN_OPTIONS=detect_leaks=0
	local nat=build/native/$name/labrun rnat=build/native/$ref/labrun wasm=build/wasm/$name/labrun.cjs
	make -s --no-print-directory "$nat" "$rnat" "$wasm"
	local fail=0 s seed a b c same wsame total=0 tmp
	tmp=$(mktemp -d)
	for s in $(ASAN_OPTIONS=detect_leaks=0 $nat --list 2>/dev/null | cut -f1); do
		same=0 wsame=0
		for seed in $(seq 1 "$seeds"); do
			total=$((total + 1))
			ASAN_OPTIONS=detect_leaks=0 events "$nbranch" $nat --scenario "$s" --seed "$seed" >"$tmp/a"
			ASAN_OPTIONS=detect_leaks=0 events "$rbranch" $rnat --scenario "$s" --seed "$seed" >"$tmp/b"
			events "$nbranch" node --no-experimental-fetch "$wasm" --scenario "$s" --seed "$seed" >"$tmp/c"
			a=$(sha1sum <"$tmp/a" | cut -c1-16)
			b=$(sha1sum <"$tmp/b" | cut -c1-16)
			c=$(sha1sum <"$tmp/c" | cut -c1-16)
			if [ "$a" = "$b" ]; then same=$((same + 1)); else
				fail=1
				[ "$same" -lt "$((seed - 1))" ] ||
				first_difference "$tmp/b" "$tmp/a" "$ref" "$name" "check: $s seed $seed: $name differs from $ref"
			fi
			if [ "$a" = "$c" ]; then wsame=$((wsame + 1)); else
				fail=1
				echo "check: $s seed $seed: $name natively and in wasm differ"
			fi
		done
		echo "check: $s: $name = $ref on $same of $seeds seeds; native = wasm on $wsame of $seeds ($(wc -l <"$tmp/a") events on seed $seeds)"
	done
	rm -rf "$tmp"
	[ "$total" -gt 0 ] || die "$nat lists no scenario"
	return $fail
}

# ---- report ----------------------------------------------------------------------
# The scene of the page that runs a scenario, from the scenes' own
# definitions (web/src/scenes/*/index.ts*: id and scenario), or nothing.
scene_of() {
	local f
	for f in web/src/scenes/*/index.ts*; do
		if grep -q "^  scenario: '$1'," "$f"; then
			sed -n "s/^  id: '\([^']*\)',.*/\1/p" "$f" | head -1
			return
		fi
	done
}

# The report lines of a run's console: KASAN, lockdep, WARN, BUG, hung task.
report_titles() {
	{ grep -E '^(BUG|WARNING|INFO: task|Kernel panic|UBSAN|kernel BUG|list_(add|del) corruption)' || true; } |
		sort -u
}

# The real kernel as referee (kernel-tree/kunit/) on the reviewer's branch,
# where the base has a User-Mode Linux build (make kunit): the variant's
# build starts as a copy of the base's (its sources and objects, paths
# rewritten), the series' files written over the copy's sources, so that
# only what the series changes is rebuilt; then run.sh boots it with the
# base's kunitconfig and compare.sh compares its traces with the variant's.
referee() {
	local name=$1 bbranch=$2 top=$PWD
	local kb=build/kunit/$bbranch kv=build/kunit/variant/$name commit f t0=$SECONDS
	if [ ! -x "$kb/out/linux" ] || [ ! -f "$kb/src.commit" ] || [ ! -f "kernel-tree/kunit/$bbranch.kunitconfig" ]; then
		echo "not run: no User-Mode Linux build of $bbranch (make kunit builds one of each project branch, minutes each; then make variant-report NAME=$name)"
		return 0
	fi
	commit=$(git -C "$TREE" rev-parse "variant/$name^{commit}")
	if [ "$(cat "$kv/src.commit" 2>/dev/null)" != "$commit" ]; then
		rm -rf "$kv" && mkdir -p "$kv"
		cp -a "$kb/src" "$kb/out" "$kv/"
		grep -rlI -- "$top/$kb/" "$kv/out" | xargs -r sed -i "s|$top/$kb/|$top/$kv/|g"
		git -C "$TREE" diff --name-only --no-renames "$(cat "$kb/src.commit")" "$commit" | while read -r f; do
			if git -C "$TREE" cat-file -e "$commit:$f" 2>/dev/null; then
				mkdir -p "$kv/src/$(dirname "$f")"
				git -C "$TREE" show "$commit:$f" >"$kv/src/$f"
			else
				rm -f "$kv/src/$f"
			fi
		done
		echo "$commit" >"$kv/src.commit"
	fi
	if ! RL_KUNITCONFIG=$top/kernel-tree/kunit/$bbranch.kunitconfig kernel-tree/kunit/run.sh "variant/$name" >"$kv/run.out" 2>&1; then
		echo "User-Mode Linux of variant/$name did not pass the suite (whole output: $kv/run.out):"
		grep -E 'BUG: |WARNING: |INFO: |kunit: |error:' "$kv/run.out" | head -20
		return 0
	fi
	grep -E '^\[kunit\] (KASAN|the shrink_slab|[0-9]+ trace lines)' "$kv/run.out" || true
	KUNIT_VARIANT=$name kernel-tree/kunit/compare.sh "variant/$name" || true
	echo "(built and booted in $((SECONDS - t0)) s; the build in $kv)"
}

report() {
	local name=${1:-} seeds=${VARIANT_SEEDS:-3} fuzz_runs=${VARIANT_FUZZ_RUNS:-2000}
	[ -f "$REG/$name/variant.json" ] || die "no reviewer variant '$name' (make variants lists them)"
	export ASAN_OPTIONS=detect_leaks=0
	local row base bbranch start=$SECONDS
	row=$(row_of "$name")
	base=$(cut -d'|' -f7 <<<"$row")
	bbranch=$(row_of "$base" | cut -d'|' -f2)
	local nat=build/native/$name/labrun out=$REG/$name/report.txt s seed summary console titles sched scene
	make -s --no-print-directory "$nat" "build/wasm/$name/labrun.cjs" "build/native/$base/labrun" "build/fuzz/$name/fuzz_shrinkers"
	{
		echo "Report on $name: $(python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(v["subject"] + (" <" + v["messageId"] + ">" if v["messageId"] else ""))' "$REG/$name/variant.json")"
		echo "branch variant/$name ($(git -C "$TREE" rev-parse --short "variant/$name")) on $bbranch, built as $base"
		echo
		echo "1. Every scenario on $name natively (ASan + UBSan around the simulated kernel's KASAN and lockdep), seeds 1..$seeds, timed policy"
		for s in $($nat --list 2>/dev/null | cut -f1); do
			scene=$(scene_of "$s")
			for seed in $(seq 1 "$seeds"); do
				summary=$($nat --scenario "$s" --seed "$seed" --summary 2>&1 | grep '^scenario ' || echo "scenario $s seed $seed: labrun failed")
				case $summary in
				*", 0 reports") echo "   $summary" ;;
				*)
					echo "   $summary"
					console=$($nat --scenario "$s" --seed "$seed" --console 2>/dev/null || true)
					titles=$(report_titles <<<"$console")
					sched=$($nat --scenario "$s" --seed "$seed" --schedule-out 2>/dev/null || true)
					sed 's/^/     report: /' <<<"$titles"
					echo "     replay: $nat --scenario $s --seed $seed --schedule '$sched' --console"
					[ -z "$scene" ] || echo "     in the page: http://localhost:5173/?scene=$scene&variant=$name&seed=$seed&sched=$sched"
					;;
				esac
			done
		done
		echo "   shrinker-lifetime with slow shrinkers (count_objects sleeps 3 us, as the page runs the break-* kernels):"
		for seed in $(seq 1 "$seeds"); do
			summary=$($nat --scenario shrinker-lifetime --seed "$seed" --slow-ns 3000 --summary 2>&1 | grep '^scenario ' || true)
			echo "   $summary (--slow-ns 3000)"
			case $summary in *", 0 reports") ;; *)
				titles=$($nat --scenario shrinker-lifetime --seed "$seed" --slow-ns 3000 --console 2>/dev/null | report_titles || true)
				sched=$($nat --scenario shrinker-lifetime --seed "$seed" --slow-ns 3000 --schedule-out 2>/dev/null || true)
				sed 's/^/     report: /' <<<"$titles"
				echo "     replay: $nat --scenario shrinker-lifetime --seed $seed --slow-ns 3000 --schedule '$sched' --console"
				;;
			esac
		done
		echo
		echo "2. Against the base ($base) and native = wasm: every scenario, seeds 1..$seeds, branch names replaced in the event logs"
		check "$name" "$base" "$seeds" | sed 's/^/   /' || true
		echo
		echo "3. Fuzzing smoke run: libFuzzer (wasm/fuzz/fuzz_shrinkers.c, scenario fuzz-ops) on $name, $fuzz_runs executions from an empty corpus, -seed=1"
		local fz
		fz=$(mktemp -d)
		(cd "$fz" && "$OLDPWD/build/fuzz/$name/fuzz_shrinkers" -runs="$fuzz_runs" -seed=1 -max_len=256 \
			-artifact_prefix="$fz/" -print_final_stats=1 "$fz" >"$fz/log" 2>&1) || true
		grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec' "$fz/log" | sed 's/^/   /'
		if ls "$fz"/crash-* >/dev/null 2>&1; then
			echo "   a crash: $(grep -m1 '^fuzz: run ended' "$fz/log"); $(grep -m1 -E '^(BUG|WARNING|INFO: task|Kernel panic|UBSAN)' "$fz/log" | grep -v 'ASan')"
			mkdir -p "$REG/$name/fuzz" && cp "$fz"/crash-* "$REG/$name/fuzz/"
			echo "   replay: build/fuzz/$name/fuzz_shrinkers $REG/$name/fuzz/$(cd "$fz" && ls crash-* | head -1)"
		else
			echo "   no crash"
		fi
		rm -rf "$fz"
		echo
		echo "4. The explorer on the small race (shrinker-lifetime, one round, one object, bound 1)"
		if grep -qw -- "$base" <<<"$(make -s --no-print-directory print-explore-variants)"; then
			local ex
			ex=$($nat --explore --scenario shrinker-lifetime --rounds 1 --objects 1 --bound 1 2>/dev/null | tail -1 || true)
			python3 - "$ex" "$nat" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"   {r['executions_total']} executions, {r['end_states']} end states, "
      f"{r['failing_executions']} failing {r['failing']}, exhausted: {r['exhausted']}, {r['seconds']} s")
s = r.get('shortest')
if s:
    print(f"   shortest failing: {s['preemptions']} preemption(s), {s['decisions']} decisions, "
          f"{', '.join(s['kinds'])}; replayed: {s['replayed']['report']}")
    print(f"   replay: {sys.argv[2]} --scenario shrinker-lifetime --rounds 1 --objects 1 "
          f"--schedule '{s['schedule']}' --console")
PY
		else
			echo "   not run: the explorer's standard set runs $(make -s --no-print-directory print-explore-variants), not $base"
		fi
		echo
		echo "5. The UML referee (kernel-tree/kunit/): the project's KUnit suite in User-Mode Linux built from branch variant/$name, its traces against $name's natively and in wasm"
		referee "$name" "$bbranch" 2>&1 | sed 's/^/   /'
		echo
		echo "Report made in $((SECONDS - start)) s."
	} | tee "$out"
	say "written to $out"
}

cmd=${1:-}
shift || true
case $cmd in
add) add "${1:-}" "${2:-}" "${3:-}" ;;
list) list ;;
rm) rm_variant "${1:-}" ;;
check) check "$@" ;;
report) report "${1:-}" ;;
*) die "usage: kernel-tree/variant.sh add FROM BASE NAME | list | rm NAME | check NAME [REF] [SEEDS]" ;;
esac
