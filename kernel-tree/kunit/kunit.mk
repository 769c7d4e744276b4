# SPDX-License-Identifier: GPL-2.0-only
#
# The real kernel as referee (kernel-tree/kunit/): make kunit builds each
# branch in KUNIT_BRANCHES as User-Mode Linux with KUnit, runs the
# project's suite and requires its traces to equal the native and wasm
# traces of the same scenarios. make test-kunit does the same only when a
# UML build is already there (the kernel build is minutes; the check
# after it, seconds), and says that it skipped otherwise.
# The branches (KUNIT_BRANCHES) and the variants built from each
# (kunit_variant_<branch>) are the registry's kernels whose "kunit" says
# "referee" (kernel-tree/manifest.json, through build/gen/kernels.mk);
# KUNIT_DEF_VARIANTS run the kunit.def scenarios that name a variant
# (kunit-inode: inode, v6.12's fs/inode.c); KUNIT_COMPARED_VARIANTS must
# give their base's traces, or must not, as their "base_traces" says.
kunit_variant = $(kunit_variant_$(1))
KUNIT_PROGS := $(foreach v,$(KUNIT_REFEREE_VARIANTS) $(KUNIT_DEF_VARIANTS),build/native/$(v)/labrun \
		build/wasm/$(v)/labrun.cjs) \
		$(foreach v,$(KUNIT_COMPARED_VARIANTS),build/native/$(v)/labrun)

.PHONY: kunit test-kunit kunit64
kunit: kernel-tree native $(KUNIT_PROGS)
	@for b in $(KUNIT_BRANCHES); do kernel-tree/kunit/run.sh $$b || exit 1; done
	@kernel-tree/kunit/compare.sh $(KUNIT_BRANCHES)

test-kunit: native $(KUNIT_PROGS)
	@$(SUITE) test-kunit kunit -- bash -c 'for b in $(KUNIT_BRANCHES); do \
		if [ -x build/kunit/$$b/out/linux ] && \
		   [ "$$(cat build/kunit/$$b/src.commit 2>/dev/null)" = "$$(git -C kernel-tree/linux rev-parse $$b)" ]; then \
			kernel-tree/kunit/run.sh $$b && kernel-tree/kunit/compare.sh $$b || exit 1; \
			echo "test-kunit: $$b: UML = native = wasm"; \
		else \
			echo "test-kunit: skipped $$b: no User-Mode Linux build of it yet (make kunit builds one)"; \
		fi; \
	done'

# The same referee for the 64-bit simulated machine (native64: clang -m64,
# BITS_PER_LONG 64, as UML and the kernels people run): UML's traces, built
# and booted as make kunit does, against every variant's native64 traces,
# with the scenarios only a 64-bit long can run (kunit.def's WORD64).
# KUNIT_WASM64=1: the wasm64 build's traces too (make wasm64).
KUNIT_WASM64 ?= 0
kunit64: kernel-tree native64 $(if $(filter 1,$(KUNIT_WASM64)),wasm64)
	@for b in $(KUNIT_BRANCHES); do kernel-tree/kunit/run.sh $$b || exit 1; done
	@KUNIT_WORD=64 KUNIT_WASM64=$(KUNIT_WASM64) kernel-tree/kunit/compare.sh $(KUNIT_BRANCHES)

# Branches made from patches that only User-Mode Linux boots so far (the
# manifest's "tree_branches"): each boots the reclaim_lab suites (run.sh)
# with CONFIG_DEBUG_VM. None today: the 2018 lru_lock RFC's port branches
# (kernel-tree/docs/lru-batch-port.md) are the lab's kernels lru-batch and
# lru-splice, and make kunit referees them as it does every kernel.
KUNIT_PORT_BRANCHES := $(shell python3 kernel-tree/kernels.py tree-branches)

.PHONY: kunit-lru-port
kunit-lru-port: kernel-tree
	@[ -n "$(strip $(KUNIT_PORT_BRANCHES))" ] || echo "kunit-lru-port: no tree_branches in kernel-tree/manifest.json (make kunit boots every kernel's branch)"
	@for b in $(KUNIT_PORT_BRANCHES); do kernel-tree/kunit/run.sh $$b || exit 1; done
