# SPDX-License-Identifier: GPL-2.0-only
#
# Reclaim Lab. Two commands:
#
#   make start   install what is missing, build, serve http://localhost:5173
#   make test    install what is missing, build, run every test suite
#
# Both redo nothing that is up to date. Other targets: dev, kernel-tree, native,
# native64, wasm, wasm64, web, lint, test-native, test-determinism, test-selftest, test-kunit, test-unit, test-e2e,
# test-e2e-slow, test-wasm64, bench, bench-browser, kunit, kunit64, clean.

SHELL := /bin/bash
.DEFAULT_GOAL := help
NPX := npx --no-install

include wasm/build.mk
include kernel-tree/diffs.mk
include kernel-tree/kunit/kunit.mk

.PHONY: help deps kernel-tree build web dist start dev test test-unit test-e2e test-e2e-slow typecheck lint bench bench-browser clean

help:
	@echo "make start   set up, build and serve the app on http://localhost:5173"
	@echo "make test    set up, build and run every test suite"
	@echo "make dev     the development server with hot reload, on http://localhost:5173"
	@echo "make bench   simulated events per second, natively and in wasm; LRU batch locks; the memcg bitmap at scale; seed 004's inode table; the explorer's rates; the fuzzer's rate; the figures panels, frames and long runs in the page; a table of the figures against their goals"
	@echo "make bench-browser  in Chromium: the figures panels' wall time (memcg scale, inode table, RFC table), frames while playing lru-batch, and long runs (load, JS heap, End, Home, a scrub, a step back)"
	@echo "make explore the explorer's standard set: every schedule within a preemption bound, PCT (EXPLORE_SECONDS)"
	@echo "make dist    build dist/: the whole app as static files, for any server or none"
	@echo "make fuzz    libFuzzer on the real shrinker code (FUZZ_SECONDS, FUZZ_FORK)"
	@echo "make selftest  the kernel's own library tests (test_xarray ...) on the simulated machine, native and wasm"
	@echo "make selftest-wrong-shim  shims broken on purpose must fail those tests (minutes)"
	@echo "make torture  locktorture (spin_lock, mutex_lock, rwsem_lock, lock_busted; on 2, 3 and 4 CPUs) and rcutorture (rcu, busted) on the simulated machine, every scheduling policy (minutes)"
	@echo "make torture-explore  locktorture's short runs under the explorer: bounded and PCT; the busted lock's failing schedule replayed"
	@echo "make kunit   the sequential scenarios in User-Mode Linux with KUnit, compared with native and wasm"
	@echo "make kunit64 the same, compared with the 64-bit simulated machine (make native64), counts past 2^31 included (KUNIT_WASM64=1: wasm64 too)"
	@echo "make wasm64  the 64-bit simulated machine in wasm, for Node (its system libraries the first time: about two minutes)"
	@echo "make page64  the page's 64-bit modules, one per kernel (make build builds them: the page's default machine)"
	@echo "make test-wasm64  native64 = wasm64: every scenario's event log, the explorer's searches, v6.12's scenarios in Chromium, and every scene of the page at 64 bits"
	@echo "make variant FROM=<mbox|folder|branch> BASE=<branch> NAME=<name>  a reviewer's patch series as a kernel of the lab"
	@echo "make variants, make variant-rm NAME=<name>  list, remove them (make dist WITH_VARIANTS=1 ships them)"

deps:
	@scripts/ensure-deps.sh

# The companion kernel tree (kernel-tree/linux), from Debian's packages.
kernel-tree: deps
	@kernel-tree/build-tree.sh

kernel-tree/linux/.git/reclaim-lab-tree-key:
	@kernel-tree/build-tree.sh

# The page's 64-bit modules (page64) too: the machine the page runs by default.
build: kernel-tree native wasm page64

web: build
	@echo "[web] vite build"
	@$(NPX) vite build --logLevel warn

# The production build, compressed, under the Content-Security-Policy.
start: web
	@node scripts/serve.mjs --port 5173

# For working on the app: Vite's dev server, hot reload, no CSP.
dev: build
	@echo "[web] development server on http://localhost:5173/ (hot reload; Ctrl-C stops)"
	@$(NPX) vite --port 5173 --strictPort

typecheck: build
	@echo "[web] tsc"
	@$(NPX) tsc --noEmit -p tsconfig.json

# The import boundaries of web/src (engine, ui, scenes, lessons, talk, app)
# and no two file names that differ only by case: scripts/check-imports.mjs;
# the shared styles.css holds no scene's own classes, within a budget of rules:
# scripts/check-styles.mjs; the layers of wasm/ (includes, and the host
# code's calls as its objects link): wasm/tools/check-layers.py.
lint: deps
	@node scripts/check-imports.mjs
	@node scripts/check-styles.mjs
	@python3 wasm/tools/check-layers.py

# Lessons, talks and the figures they state are replayed on native64, the
# page's default machine.
test-unit: build $(FIXTURES) $(NATIVE64_PROGS)
	@echo "[web] unit tests (vitest)"
	@$(NPX) vitest run

test-e2e: web $(NATIVE64_PROGS)
	@echo "[web] end-to-end tests (Playwright, Debian's Chromium)"
	@$(NPX) playwright test --grep-invert '@slow|@wasm64'

# The end-to-end tests tagged @slow (minutes each: a run past the page's 2,000,000 events, a million-line trace, every slide at 3840×2160).
test-e2e-slow: web
	@$(NPX) playwright test --grep @slow

# Every suite, in order: native C (ASan + UBSan), native = wasm logs,
# the kernel's own fast library tests (native = wasm consoles),
# UML = native = wasm traces (when make kunit built the kernel before),
# make variant's refusals of series it cannot run,
# TypeScript types, web engine unit tests, end-to-end in Chromium.
test: build lint test-native test-determinism test-selftest test-kunit test-variant-quick typecheck test-unit test-e2e
	@echo "make test: every suite passed"

bench: web build/bench/v6.12/labrun build/bench/no-shrinker-bitmap/labrun \
		build/wasm/v6.12/labrun.cjs build/wasm/no-shrinker-bitmap/labrun.cjs build/bench/lru-batch/labrun \
		$(foreach v,$(INODE_VARIANTS),build/bench/$(v)/labrun build/wasm/$(v)/labrun.cjs) \
		build/bench/break-no-wait/labrun build/wasm/break-no-wait/labrun.cjs \
		build/bench/break-no-tryget/labrun build/bench/break-no-recheck/labrun build/fuzz/fuzz_shrinkers
	@$(MAKE) --no-print-directory $$(node wasm/explore.mjs targets)
	@wasm/bench-all.sh

# The explorer's standard set (not part of make test): JSON lines per bound,
# each small race of wasm/explore.json checked against what it expects.
.PHONY: explore
explore:
	@$(MAKE) --no-print-directory $$(node wasm/explore.mjs targets)
	@node wasm/explore.mjs

# One folder that any static server, or a laptop with no network, serves:
# the app, the wasm modules and the kernel sources of the code pane. The
# reviewer's variants (make variant) only with WITH_VARIANTS=1.
dist: build
	@echo "[web] vite build$(if $(WITH_VARIANTS),, (without the reviewer's variants: WITH_VARIANTS=1 includes them))"
	@RECLAIM_LAB_VARIANTS=$(if $(WITH_VARIANTS),all,none) $(NPX) vite build --logLevel warn
	@$(if $(WITH_VARIANTS),true,rm -rf dist/kernel/variant && \
		python3 kernel-tree/diffs.py kernel-tree/linux dist/kernel/diffs.json $(foreach v,$(VARIANTS),$(v)=$($(v)_BRANCH)))
	@echo "[dist] dist/ ($$(du -sh dist | cut -f1)): serve it with any static server, e.g. python3 -m http.server -d dist"

# A reviewer's patch series as a kernel of the lab (kernel-tree/variant.sh):
# branch variant/NAME of kernel-tree/linux, built natively and in wasm with
# the base's glue, registered in variants/NAME/ (git-ignored).
.PHONY: variant variants variant-rm variant-check variant-report test-variant test-variant-quick print-lab-variants print-explore-variants
variant: kernel-tree/linux/.git/reclaim-lab-tree-key
	@kernel-tree/variant.sh add "$(FROM)" "$(BASE)" "$(NAME)"
variants:
	@kernel-tree/variant.sh list
variant-rm:
	@kernel-tree/variant.sh rm "$(NAME)"
# NAME against REF (default its base) on every scenario, and natively against wasm.
variant-check:
	@kernel-tree/variant.sh check "$(NAME)" "$(REF)" $(or $(SEEDS),3)
# make variant end to end: a series exported from the project's own branches
# becomes a kernel equal to the built-in one; the refused series leave nothing.
test-variant: build/native/break-no-wait/labrun
	@kernel-tree/tests/test-variant.sh
# make test's share: the refusals that need no build (seconds).
test-variant-quick: kernel-tree/linux/.git/reclaim-lab-tree-key
	@kernel-tree/tests/test-variant.sh --quick
# The report: every scenario under the sanitizers, against the base and
# native = wasm, a fuzzing smoke run, the explorer; variants/NAME/report.txt.
variant-report:
	@kernel-tree/variant.sh report "$(NAME)"
# For kernel-tree/variant.sh: the kernels make explore runs shrinker-lifetime's
# small race on (wasm/explore.json, race shrinker-free), which its report repeats
print-explore-variants:
	@node wasm/explore.mjs variants shrinker-free
# For kernel-tree/variant.sh: name|branch|file list|sources|extraction specs|project sources|base
print-lab-variants:
	@$(foreach v,$(LAB_VARIANTS),printf '%s|%s|%s|%s|%s|%s|%s\n' '$(v)' '$($(v)_BRANCH)' '$($(v)_FILES)' \
		'$($(v)_SRCS)' '$($(v)_EXTRACT)' '$(call pobj_srcs,$(v))' '$($(v)_BASE)';)

clean:
	rm -rf build
	rm -rf dist web/public/kernel web/src/engine/generated test-results
