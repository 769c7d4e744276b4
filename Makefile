# SPDX-License-Identifier: GPL-2.0-only
#
# Reclaim Lab. Two commands:
#
#   make start   install what is missing, build, serve http://localhost:5173
#   make test    install what is missing, build, run every test suite
#
# Both redo nothing that is up to date. make help lists the other targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help
NPX := npx --no-install

include wasm/build.mk
include kernel-tree/diffs.mk
include kernel-tree/kunit/kunit.mk

.PHONY: help deps kernel-tree build web dist start dev test test-unit test-e2e test-e2e-slow typecheck lint bench bench-browser screenshots clean

help:
	@echo "make start   set up, build and serve the app on http://localhost:5173"
	@echo "make test    set up, build and run every test suite, TEST_JOBS at a time (one per core), then one summary"
	@echo "make dev     the development server with hot reload, on http://localhost:5173"
	@echo "make bench   simulated events per second, natively and in wasm; LRU batch locks; the memcg bitmap at scale; seed 004's inode table; the explorer's rates; the fuzzer's rate; the figures panels, frames and long runs in the page; a table of the figures against their goals"
	@echo "make bench-browser  in Chromium: the figures panels' wall time (memcg scale, inode table, RFC table), frames while playing lru-batch, and long runs (load, JS heap, End, Home, a scrub, a step back)"
	@echo "make screenshots  the README's pictures (docs/img/*.png): every scene and the landing view in Chromium at 1280x720"
	@echo "make explore the explorer's standard set: every schedule within a preemption bound, PCT (EXPLORE_SECONDS)"
	@echo "make dist    build dist/: the whole app as static files, for any server or none"
	@echo "make fuzz    libFuzzer on the real shrinker code (FUZZ_SECONDS, FUZZ_FORK)"
	@echo "make test-litmus  the memory models' referee: the kernel's 47 litmus tests and the project's own (wasm/litmus/tests) searched to the end under sc, tso and relaxed, one table (part of make test)"
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
# One rule runs build-tree.sh, at every make (it does nothing when the tree
# is up to date, and leaves the key alone then): what reads the tree
# depends on the key, so under make -j nothing reads it while it is made,
# and no second build-tree.sh runs beside the first.
kernel-tree: deps kernel-tree/linux/.git/reclaim-lab-tree-key

kernel-tree/linux/.git/reclaim-lab-tree-key: FORCE
	@kernel-tree/build-tree.sh

.PHONY: FORCE
FORCE:

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

# The type check needs the generated TypeScript alone (the event ABI and the run's parameters).
typecheck: deps web/src/engine/generated/events.ts web/src/engine/generated/params.ts
	@$(SUITE) typecheck one -- $(NPX) tsc --noEmit -p tsconfig.json

# The import boundaries of web/src (engine, ui, scenes, lessons, talk, app)
# and no two file names that differ only by case: scripts/check-imports.mjs;
# the shared styles.css holds no scene's own classes, within a budget of rules:
# scripts/check-styles.mjs; the layers of wasm/ (includes, and the host
# code's calls as its objects link): wasm/tools/check-layers.py.
lint: deps
	@$(SUITE) lint one -- sh -c 'node scripts/check-imports.mjs && node scripts/check-styles.mjs && \
		python3 wasm/tools/check-layers.py'

# The Python side's unit tests (kernel-tree/tests, the standard library's
# unittest): the kernel registry and the lists made from it (adding a
# scratch kernel as docs/adding-a-kernel.md says), kunit.def's reader,
# make variant's modules. Seconds; no build needed.
.PHONY: test-py
test-py:
	@$(SUITE) test-py unittest -- python3 -m unittest discover -s kernel-tree/tests -p 'test_*.py'

# Lessons, talks and the figures they state are replayed on native64, the
# page's default machine. Vitest's JSON report gives the summary its counts.
test-unit: build $(FIXTURES) $(NATIVE64_PROGS)
	@$(SUITE) test-unit vitest -- $(NPX) vitest run --reporter=default --reporter=json \
		--outputFile.json=build/test-results/test-unit.report.json

# Playwright's workers (E2E_WORKERS, by default TEST_JOBS) share no state: each test has a browser context of its
# own, and the files a spec writes are in its own output folder. Its JSON report gives the summary each skip's reason.
E2E_WORKERS ?= $(TEST_JOBS)
test-e2e: web $(NATIVE64_PROGS)
	@PLAYWRIGHT_JSON_OUTPUT_NAME=build/test-results/test-e2e.report.json \
		$(SUITE) test-e2e playwright -- $(NPX) playwright test --grep-invert '@slow|@wasm64' \
		--workers=$(E2E_WORKERS) --reporter=list,json

# The end-to-end tests tagged @slow (minutes each: a run past the page's 2,000,000 events, a million-line trace, every slide at 3840×2160).
test-e2e-slow: web
	@$(NPX) playwright test --grep @slow

# make test: every suite, side by side where they do not depend on each other
# (TEST_JOBS at a time, by default one per core; make -k, so that one
# failure stops no other suite), each run by scripts/test-suite.sh, which
# keeps its log and times in build/test-results/; then one summary
# (scripts/test-summary.mjs): each suite and its counts, every skip with
# its reason and the command that runs it, N passed, N failed, N skipped.
# The suites: the Python side's unit tests, native C (ASan + UBSan), the memory models'
# litmus referee, native = wasm logs, the kernel's own
# fast library tests, UML = native = wasm traces (when make kunit built the
# kernel before), make variant's refusals of series it cannot run, the
# import and style rules, TypeScript types, the web engine's unit tests,
# end to end in Chromium. The long ones are behind targets of their own:
TEST_SUITES := lint typecheck test-py test-native test-litmus test-determinism test-selftest test-kunit test-variant-quick test-unit test-e2e
TEST_ELSEWHERE := make test-e2e-slow, make test-wasm64, make kunit, make kunit64, make test-variant, make explore, \
		  make determinism, make selftest, make torture, make torture-explore, make selftest-wrong-shim, make fuzz, make bench
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
SUITE := scripts/test-suite.sh
test: deps
	@rm -rf build/test-results
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) $(TEST_SUITES); s=$$?; \
		TEST_SUITES='$(TEST_SUITES)' TEST_ELSEWHERE='$(TEST_ELSEWHERE)' node scripts/test-summary.mjs $$s

# The kernels each bench script runs are the registry's (kernel-tree/manifest.json
# "bench"); the explorer's, its races' (make explore); the fuzzer's rate, make fuzz's target.
bench: web $(foreach v,$(BENCH_VARIANTS),build/bench/$(v)/labrun build/wasm/$(v)/labrun.cjs) build/fuzz/fuzz_shrinkers
	@$(MAKE) --no-print-directory $$(node wasm/explore.mjs targets)
	@wasm/bench-all.sh

# The page's figures in Chromium, against the production build (the rows of
# make bench that need a browser): scripts/bench-figures.mjs, scripts/bench-page.mjs.
bench-browser: web
	@node scripts/bench-figures.mjs
	@node scripts/bench-page.mjs

screenshots: web
	@node scripts/screenshots.mjs

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
	@$(SUITE) test-variant-quick variant -- kernel-tree/tests/test-variant.sh --quick
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
