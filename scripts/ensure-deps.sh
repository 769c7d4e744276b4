#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Make sure what the build needs is installed: Debian packages (installed
# with apt-get when run as root, otherwise one message with the exact
# command), Node.js 20 or later, and the npm dependencies (npm ci, only
# when package-lock.json changed). Quiet and quick when nothing is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Debian packages, and why:
#   linux-source-6.1, linux-source-6.12  the kernel sources (kernel-tree/linux)
#   emscripten                           emcc for the wasm build
#   clang-14, libclang-rt-14-dev         native builds with ASan + UBSan
#   gcc-multilib, lib32stdc++-12-dev     32-bit C (and, for libFuzzer, C++) libraries
#                                        for -m32 native builds
#   chromium                             the browser the end-to-end tests drive
#   git, xz-utils, make                  building the kernel tree
#   flex, bison, bc, libelf-dev, python3 building the kernel as User-Mode Linux
#                                        and running kunit.py (make kunit)
packages=(linux-source-6.1 linux-source-6.12 emscripten clang-14 libclang-rt-14-dev
	  gcc-multilib lib32stdc++-12-dev chromium git xz-utils make
	  flex bison bc libelf-dev python3)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	cmd="apt-get install -y ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "Reclaim Lab needs Debian packages that are not installed. As root, run:" >&2
		echo "    apt-get update && $cmd" >&2
		exit 1
	fi
	echo "[deps] installing ${missing[*]} (a few minutes the first time)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q "${missing[@]}"
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "Reclaim Lab needs Node.js 20 or later with npm (node and npm are not on PATH)." >&2
	exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
	echo "Reclaim Lab needs Node.js 20 or later; this is $(node --version)." >&2
	exit 1
fi

# npm dependencies: reinstall only when the lock file is newer than the install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "[deps] npm ci"
	npm ci --no-audit --no-fund --loglevel=error
	touch node_modules/.package-lock.json
fi
