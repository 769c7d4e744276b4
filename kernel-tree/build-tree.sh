#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Materialise kernel-tree/linux: a git repository holding the real kernel
# sources from Debian's linux-source-6.1 and linux-source-6.12 packages.
#
#   branch v6.1   the whole 6.1 tree
#   branch v6.12  the whole 6.12 tree, parent v6.1
#   one branch per directory of kernel-tree/patches/: its series applied,
#   in order, on the base manifest.json gives for it (as git am would, with
#   each patch's author and date, so commit ids are reproducible)
#   variant/*: the reviewer's series (kernel-tree/variant.sh), kept as they are
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

# The base trees depend only on the package versions (and this script's
# layout); the cache holds them. The patch series go on top in seconds.
base_key_input() {
	local line branch pkg date ver
	for line in "${trees[@]}"; do
		IFS=$'\t' read -r branch pkg date <<<"$line"
		ver=$(pkg_version "$pkg")
		[ -n "$ver" ] || die "Debian package $pkg is not installed (apt-get install $pkg)"
		printf '%s %s %s\n' "$branch" "$pkg" "$ver"
	done
	# Bump when a change to this script changes the trees it builds.
	echo "layout 1"
}

# "<branch> <base>" for each branch made from patches: the registry's
# kernels that are not upstream (kernel-tree/kernels.py).
series_bases() {
	python3 "$here/kernels.py" branches
}

key_input() {
	echo "base $base_key"
	echo "series 1"
	(cd "$here" && find patches -type f -print0 | sort -z | xargs -0 -r sha256sum)
	series_bases
}

base_key=$(base_key_input | sha256sum | cut -c1-16)
key=$(key_input | sha256sum | cut -c1-16)
stamp=$out/.git/reclaim-lab-tree-key
base_stamp=$out/.git/reclaim-lab-base-key

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
	[ "${1:-}" = --check ] && exit 0
	say "up to date ($(git -C "$out" for-each-ref --format='%(refname:short)' refs/heads | tr '\n' ' ' | sed 's/ $//'))"
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

# Apply kernel-tree/patches/<series>/ onto its base without a checkout: a
# scratch index, git apply --cached, and a commit carrying each patch's
# author, date and message, as git am records them.
apply_series() {
	local name base dir patch parent tree commit info msg idx
	while read -r name base; do
		dir=$here/patches/$name
		[ -f "$dir/series" ] || die "patches/$name has no series file"
		say "$name: applying $(grep -c . "$dir/series") patches on $base ($(elapsed))"
		idx=$(mktemp)
		parent=$(gitc rev-parse "$base")
		GIT_INDEX_FILE=$idx gitc read-tree "$parent"
		while read -r patch; do
			[ -n "$patch" ] || continue
			info=$(mktemp)
			msg=$(mktemp)
			git mailinfo "$msg" /dev/null <"$dir/$patch" >"$info"
			GIT_INDEX_FILE=$idx gitc apply --cached "$dir/$patch" ||
				die "patches/$name/$patch does not apply on $base"
			tree=$(GIT_INDEX_FILE=$idx gitc write-tree)
			commit=$(
				export GIT_AUTHOR_NAME="$(sed -n 's/^Author: //p' "$info")"
				export GIT_AUTHOR_EMAIL="$(sed -n 's/^Email: //p' "$info")"
				export GIT_AUTHOR_DATE="$(sed -n 's/^Date: //p' "$info")"
				export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
				export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
				{ sed -n 's/^Subject: //p' "$info"; echo; cat "$msg"; } |
					gitc commit-tree "$tree" -p "$parent"
			)
			parent=$commit
			rm -f "$info" "$msg"
		done <"$dir/series"
		rm -f "$idx"
		gitc update-ref "refs/heads/$name" "$parent"
	done < <(series_bases)
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
if [ -f "$base_stamp" ] && [ "$(cat "$base_stamp")" = "$base_key" ]; then
	# Only the series changed: redo them in place.
	say "base trees up to date; reapplying the patch series"
	tmp=$out
	gitc for-each-ref --format='%(refname:short)' refs/heads |
		grep -v -x -e v6.1 -e v6.12 | grep -v '^variant/' | xargs -r git -C "$out" branch -q -D
	apply_series
else
	cached=$cache_root/kernel-tree/$base_key.git
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
	apply_series
	printf '%s\n' "$base_key" >"$tmp/.git/reclaim-lab-base-key"
	# The reviewer's branches (kernel-tree/variant.sh) outlive a rebuild.
	if [ -d "$out/.git" ]; then
		gitc fetch -q "$out" 'refs/heads/variant/*:refs/heads/variant/*' || true
	fi
	rm -rf "$out"
	mv "$tmp" "$out"
fi

printf '%s\n' "$key" >"$stamp"
say "done in $(elapsed): $(git -C "$out" for-each-ref --format='%(refname:short) %(objectname:short)' refs/heads | tr '\n' ';' | sed 's/;$//; s/;/; /')"
