#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Edit one of the project's patch series as commits.
#
#   kernel-tree/edit-series.sh open SERIES DIR
#       DIR becomes a small git repository holding, at the series' base
#       branch, the files the series touches, with the series applied on
#       top as commits. Edit them with git (commit --amend, rebase -i...).
#   kernel-tree/edit-series.sh export SERIES DIR
#       writes the commits back to kernel-tree/patches/SERIES/ (and its
#       series file), signed off, and runs the tree's scripts/checkpatch.pl
#       on them. kernel-tree/build-tree.sh then rebuilds the branch.
#
# Blob ids depend only on content, so the patches' index lines match the
# real tree even though DIR holds only a few files.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
linux=$here/linux

die() { printf 'edit-series: %s\n' "$*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: edit-series.sh open|export SERIES DIR"
cmd=$1 series=$2 dir=$3
patches=$here/patches/$series

base=$(python3 "$here/kernels.py" branches | awk -v b="$series" '$1 == b { print $2 }')
[ -n "$base" ] || die "no kernel of manifest.json is built from a branch $series made from patches"

case $cmd in
open)
	[ -d "$patches" ] || mkdir -p "$patches"
	[ ! -e "$dir" ] || die "$dir exists"
	mkdir -p "$dir"
	git -C "$dir" init -q
	git -C "$dir" config user.name "Reclaim Lab"
	git -C "$dir" config user.email "reclaim-lab@reclaim-lab.invalid"
	files=$(cat "$patches"/*.patch 2>/dev/null | sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u || true)
	[ -n "$files" ] || files=${FILES:-}
	[ -n "$files" ] || die "no patches yet: name the files to start from in FILES=\"mm/... \""
	for f in $files; do
		# a file the series creates is not in the base
		git -C "$linux" cat-file -e "$base:$f" 2>/dev/null || continue
		mkdir -p "$dir/$(dirname "$f")"
		git -C "$linux" show "$base:$f" >"$dir/$f"
	done
	git -C "$dir" add -A
	git -C "$dir" commit -q --allow-empty -m "$base: the files $series touches"
	git -C "$dir" tag base
	for p in $(cat "$patches/series" 2>/dev/null); do
		git -C "$dir" am -q --committer-date-is-author-date "$patches/$p"
	done
	echo "edit-series: $dir holds $series on $base; 'export' writes it back"
	;;
export)
	[ ! -d "$dir/.git/rebase-merge" ] && [ ! -d "$dir/.git/rebase-apply" ] ||
		die "$dir is in the middle of a rebase: finish it first"
	rm -f "$patches"/*.patch
	git -C "$dir" format-patch -q --signoff --no-signature --zero-commit -o "$patches" base..HEAD
	(cd "$patches" && ls -1 *.patch >series)
	for p in "$patches"/*.patch; do
		printf '%s: ' "$(basename "$p")"
		# checkpatch exits 1 on any warning; its total line says what it found
		(cd "$linux" && perl scripts/checkpatch.pl --strict "$p" 2>/dev/null | grep '^total:') || true
	done
	;;
*)
	die "usage: edit-series.sh open|export SERIES DIR"
	;;
esac
