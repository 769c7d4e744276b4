#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Materialise kernel-tree/linux: a git repository holding the real kernel
# sources from Debian's linux-source-6.1 and linux-source-6.12 packages.
#
#   branch v6.1   the whole 6.1 tree
#   branch v6.12  the whole 6.12 tree, parent v6.1
#
# Commits carry fixed author, committer and dates, so the same package
# versions always give the same commit ids on every machine.
#
# A finished repository is kept in a cache outside the project
# ($RECLAIM_LAB_CACHE, default ~/.cache/reclaim-lab) keyed by the package
# versions and the layout this script builds; a fresh clone of the project reuses it with a
# local clone (hard links) instead of extracting and hashing ~80,000 files
# per version again.
#
# Usage: kernel-tree/build-tree.sh [--check]
#   --check  exit 0 if kernel-tree/linux is up to date, 1 otherwise
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$here/linux
tmp=$here/linux.tmp
cache_root=${RECLAIM_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reclaim-lab}

# branch  Debian package  upstream release date (used as the commit date)
trees=(
	"v6.1	linux-source-6.1	2022-12-11T14:15:00-0800"
	"v6.12	linux-source-6.12	2024-11-17T14:15:00-0800"
)

say() { printf '[kernel-tree] %s\n' "$*"; }
die() { printf '[kernel-tree] error: %s\n' "$*" >&2; exit 1; }

pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true
}

key_input() {
	local line branch pkg date ver
	for line in "${trees[@]}"; do
		IFS=$'\t' read -r branch pkg date <<<"$line"
		ver=$(pkg_version "$pkg")
		[ -n "$ver" ] || die "Debian package $pkg is not installed (apt-get install $pkg)"
		printf '%s %s %s\n' "$branch" "$pkg" "$ver"
	done
	# Bump when a change to this script changes the repository it builds.
	echo "layout 1"
}

key=$(key_input | sha256sum | cut -c1-16)
stamp=$out/.git/reclaim-lab-tree-key

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
	[ "${1:-}" = --check ] && exit 0
	say "up to date ($(git -C "$out" rev-parse --short v6.1) v6.1, $(git -C "$out" rev-parse --short v6.12) v6.12)"
	exit 0
fi
[ "${1:-}" = --check ] && exit 1

start=$SECONDS
elapsed() { printf '%ds' $((SECONDS - start)); }

gitc() {
	git -C "$tmp" -c core.autocrlf=false -c gc.auto=0 "$@"
}

# Extract one Debian source tarball into $tmp, printing progress by bytes.
extract() {
	local tarball=$1 total
	total=$(xz --robot --list "$tarball" | awk '$1 == "totals" { print $5 }')
	# Each tar checkpoint is 20 records of 512 bytes.
	TOTAL=$total tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
		--checkpoint=20000 \
		--checkpoint-action=exec='sh -c "printf \"  extracting: %3d%%\\n\" \$((TAR_CHECKPOINT * 10240 * 100 / TOTAL))"'
}

# Stage the whole work tree, printing progress by files added, changed or
# removed. -f: Debian's tarball ships a .gitignore that ignores everything
# at the top level.
stage_all() {
	gitc add -A -f --verbose | awk '
		NR % 10000 == 0 { printf "  staged: %d files\n", NR; fflush() }
		END { printf "  staged: %d files in all\n", NR }'
}

commit_tree() {
	local branch=$1 pkg=$2 date=$3 ver=$4
	GIT_AUTHOR_NAME="Reclaim Lab kernel-tree" GIT_AUTHOR_EMAIL="kernel-tree@reclaim-lab.invalid" \
	GIT_COMMITTER_NAME="Reclaim Lab kernel-tree" GIT_COMMITTER_EMAIL="kernel-tree@reclaim-lab.invalid" \
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		gitc commit -q --no-verify -m "Linux ${branch#v} from Debian $pkg $ver" \
		-m "The whole tree of /usr/src/$pkg.tar.xz, as Debian ships it."
}

from_cache() {
	local cached=$1 line branch
	say "reusing cached tree $cached"
	git clone -q --local --no-checkout "$cached" "$tmp"
	for line in "${trees[@]}"; do
		branch=${line%%$'\t'*}
		gitc update-ref "refs/heads/$branch" "refs/remotes/origin/$branch"
	done
	gitc remote remove origin
	say "checking out v6.12 ($(elapsed))"
	gitc checkout -q v6.12
}

from_packages() {
	local line branch pkg date ver n=0
	gitc init -q -b v6.1 2>/dev/null || { git init -q "$tmp"; gitc symbolic-ref HEAD refs/heads/v6.1; }
	gitc config gc.auto 0
	for line in "${trees[@]}"; do
		IFS=$'\t' read -r branch pkg date <<<"$line"
		ver=$(pkg_version "$pkg")
		n=$((n + 1))
		if [ "$n" -gt 1 ]; then
			gitc checkout -q -b "$branch"
			find "$tmp" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
		fi
		say "$branch: extracting /usr/src/$pkg.tar.xz ($ver) ($(elapsed))"
		extract "/usr/src/$pkg.tar.xz"
		say "$branch: committing the whole tree ($(elapsed))"
		stage_all
		commit_tree "$branch" "$pkg" "$date" "$ver"
	done
}

rm -rf "$tmp"
cached=$cache_root/kernel-tree/$key.git
if [ -d "$cached" ] && git -C "$cached" rev-parse -q --verify v6.12 >/dev/null; then
	from_cache "$cached"
else
	say "building from Debian's packages (takes a minute or two; cached afterwards)"
	from_packages
	mkdir -p "$cache_root/kernel-tree"
	rm -rf "$cached.tmp"
	if git clone -q --bare --local "$tmp" "$cached.tmp"; then
		mv "$cached.tmp" "$cached"
		say "cached as $cached"
	else
		say "warning: could not write the cache at $cached"
	fi
fi

printf '%s\n' "$key" >"$tmp/.git/reclaim-lab-tree-key"
rm -rf "$out"
mv "$tmp" "$out"
say "done in $(elapsed): $(git -C "$out" log --oneline v6.12 | tr '\n' ';' | sed 's/;$//; s/;/; /')"
