#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Node for emcc's wasm64 builds (EM_NODE_JS in wasm/build.mk): emcc 3.1.6
# runs its struct-layout probe with --experimental-wasm-bigint, an option
# Node 20 refuses ("bad option"); BigInt integration is on by default there.
for a in "$@"; do
	shift
	[ "$a" = --experimental-wasm-bigint ] || set -- "$@" "$a"
done
exec node "$@"
