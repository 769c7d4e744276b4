# SPDX-License-Identifier: GPL-2.0-only
#
# The C side: real kernel files from kernel-tree/linux, the shim, the
# runtime and the scenarios.
#
# Variants. A variant is a kernel: the files read from one branch of
# kernel-tree/linux (compiled whole, or extracted function by function),
# plus the project glue that variant needs. Each variant is its own
# program: build/<flavour>/<variant>/labrun natively, and its own wasm
# module (build/wasm/<variant>/labrun.cjs for Node,
# web/src/engine/generated/reclaimlab-<variant>.mjs for the browser), so
# two kernels' symbols never meet.
#
# Flavours: native (clang-14 -m32, AddressSanitizer + UBSan: tests, labrun),
# native64 (the same at -m64: a 64-bit kernel, BITS_PER_LONG 64, as the
# kernels people run and User-Mode Linux; make native64, make kunit64),
# bench (optimised, no sanitizers: make bench), fuzz (libFuzzer) and wasm
# (emcc). Native builds use clang-14 -m32: the same front end as emcc 3.1.6
# (so __LINE__ inside a macro call spanning lines names the same line:
# clang names the closing line, gcc the opening one), and a 32-bit target
# because wasm32 is a 32-bit kernel (BITS_PER_LONG 32, so SHRINKER_UNIT_BITS
# 32); the native build must run the same code to give the same event log.

# The kernels: one registry, the "kernels" and "recipes" of
# kernel-tree/manifest.json (docs/adding-a-kernel.md). kernel-tree/kernels.py
# writes build/gen/kernels.mk from it: VARIANTS, and for each variant
# <variant>_BRANCH, _FILES (the kernel files read from the branch), _SRCS
# (compiled whole), _EXTRACT (extraction specs), _GLUE, _DEFS, _OVERLAY,
# _SCEN (scenario files only it runs) and _RECIPE (a file rewritten only
# when its recipe changes, which its tree and objects depend on); the
# lists of the kernels each native test (<test>_VARIANTS), each make bench
# script (bench_<name>_VARIANTS) and the User-Mode Linux referee
# (KUNIT_*) run. make reads it, remaking it first when the registry changed.
KERNELS_MK := build/gen/kernels.mk
KERNEL_RECIPES := build/gen/kernels
include $(KERNELS_MK)
$(KERNELS_MK): kernel-tree/manifest.json kernel-tree/kernels.py kernel-tree/kunitdef.py \
		wasm/scenarios/kunit.def wasm/explore.json
	@mkdir -p $(KERNEL_RECIPES)
	@python3 kernel-tree/kernels.py mk $@ $(KERNEL_RECIPES)
INODE_VARIANTS := $(inode_RECIPE_VARIANTS)

# The folio LRU of v6.12 (mm/swap.c, mm/vmscan.c, mm/memcontrol.c,
# include/linux/mm_inline.h...), extracted with its line numbers: the
# registry's recipe folio-lru, v6.12's own, and the RFC's port on it
# (recipes lru-batch, lru-splice), whose specs include v6.12's.
LRU_EXTRACT       := $(v6.12_EXTRACT)
LRU_PORT_VARIANTS := $(lru-batch_RECIPE_VARIANTS) $(lru-splice_RECIPE_VARIANTS)

# selftest: the kernel's own library tests of 6.12 (lib/test_xarray.c ...)
# over the library code they test, run on the simulated machine by
# wasm/selftest/ (make selftest). Not a scene's kernel: it holds only its
# own scenarios (<variant>_ALONE: no shrinker glue, no scene scenarios),
# so it is outside VARIANTS and the suites that iterate over them.
selftest_BRANCH  := v6.12
selftest_FILES   := wasm/kernel-files-selftest.txt
selftest_SRCS    := lib/xarray.c lib/list_debug.c lib/test_xarray.c lib/idr-extract.c lib/test_ida.c \
                    lib/atomic64_test.c lib/klist.c lib/list-test.c \
                    lib/test_bitmap.c lib/bitmap.c lib/bitmap-str.c lib/find_bit.c lib/ctype.c lib/hexdump.c
selftest_EXTRACT := wasm/extract/selftest-idr-h.txt wasm/extract/selftest-idr.txt \
                    wasm/extract/selftest-vsprintf.txt wasm/extract/selftest-kasprintf.txt \
                    wasm/extract/selftest-libfs.txt wasm/extract/selftest-kstrtox.txt \
                    wasm/extract/selftest-string.txt wasm/extract/selftest-idr-test.txt \
                    wasm/extract/selftest-torture.txt wasm/extract/selftest-locktorture.txt \
                    wasm/extract/selftest-rcu-h.txt wasm/extract/selftest-rcutorture.txt \
                    wasm/extract/selftest-srcutiny-h.txt wasm/extract/selftest-srcu-h.txt \
                    wasm/extract/selftest-srcutiny.txt wasm/extract/selftest-rcupdate-wait.txt \
                    wasm/extract/selftest-rcu-update.txt
selftest_GLUE    := wasm/glue/radix_tree.c wasm/glue/sched.c wasm/glue/kunit.c wasm/glue/vsprintf.c \
                    wasm/glue/lib.c wasm/glue/kthread.c wasm/glue/torture.c wasm/glue/locktorture.c \
                    wasm/glue/rcutorture.c
# SIM_KERNEL_BITMAP: the kernel's own include/linux/bitmap.h and find.h
# around the shim's bit operations (wasm/include/linux/bitmap.h);
# SIM_KERNEL_VSPRINTF: printk() and snprintf() format with the kernel's
# vsnprintf() (wasm/glue/vsprintf.c), which has the %*pb and %*pbl formats;
# CONFIG_PRINTK: lib/hexdump.c builds print_hex_dump(); CONFIG_PREEMPTION,
# as Debian's 6.12 kernels (PREEMPT_DYNAMIC): locktorture's
# torture_preempt_schedule() is a preemption point (linux/preempt.h). Not
# SIM_FOLIO_LRU: the v6.12 kernel's recipe (folio-lru) adds its folio LRU.
selftest_DEFS    := $(filter-out -DSIM_FOLIO_LRU,$(v6.12_DEFS)) -DSIM_SELFTEST -DSIM_KERNEL_BITMAP -DSIM_KERNEL_VSPRINTF -DCONFIG_PRINTK=1 \
                    -DCONFIG_PREEMPTION=1
selftest_OVERLAY := wasm/overlay/v6.12
selftest_SCEN    := wasm/scenarios/selftest.c wasm/scenarios/selftest_locktorture.c \
                    wasm/scenarios/selftest_rcutorture.c
selftest_ALONE   := 1
# Compiled without optimisation in wasm: emcc 3.1.6 at -O1 and above makes
# list_test_list_cut_position() pass &entries[0] where the source says
# &entries[1] (the list then loops; clang-14 natively, at -O1 and -O2, and
# emcc at -O0 run it right). A toolchain bug, worked around here.
selftest_WASM_O0 := lib/list-test.c
# The wasm module's data starts above the first page, as a kernel's does:
# lib/vsprintf.c prints a pointer below PAGE_SIZE as "(efault)", and
# emcc puts static data from address 1024 by default.
selftest_WASM_LINK := -sGLOBAL_BASE=4096
SELFTEST_VARIANTS := selftest

# litmus: the kernel's own litmus tests (tools/memory-model/litmus-tests,
# Documentation/litmus-tests of v6.12) as scenarios, one per test, made by
# wasm/litmus/litmus2c.py from every .litmus file of the branch; no kernel
# source, only the shim. Outside VARIANTS, as selftest (make test-litmus).
litmus_BRANCH  := v6.12
litmus_FILES   := wasm/kernel-files-litmus.txt
litmus_SRCS    :=
litmus_EXTRACT :=
litmus_GLUE    :=
litmus_DEFS    := $(v6.12_DEFS)
litmus_SCEN    := build/litmus/litmus.c
litmus_ALONE   := 1
SELFTEST_VARIANTS += litmus
LITMUS_DIRS    := tools/memory-model/litmus-tests Documentation/litmus-tests
# And the project's own (wasm/litmus/tests): the seeds' code cut down to a
# litmus test, each with herd7's Result for v6.12's LKMM, said so.
LITMUS_OWN     := $(sort $(wildcard wasm/litmus/tests/*.litmus))
build/litmus/litmus.c: wasm/litmus/litmus2c.py kernel-tree/linux/.git/reclaim-lab-tree-key $(LITMUS_OWN)
	@rm -rf build/litmus && mkdir -p build/litmus/tests
	@git -C kernel-tree/linux archive v6.12 -- $(LITMUS_DIRS) | tar -x -C build/litmus/tests
	@python3 wasm/litmus/litmus2c.py $@ build/litmus/litmus.json \
		$$(cd build/litmus/tests && find . -name '*.litmus' | sed 's|^\./|build/litmus/tests/|' | LC_ALL=C sort) \
		$(LITMUS_OWN)
	@echo "  GEN $@ ($$(grep -c '"scenario"' build/litmus/litmus.json) litmus tests)"

# Reviewer variants: kernels `make variant` made from a patch series
# (kernel-tree/variant.sh), each on its branch variant/<name> of
# kernel-tree/linux and built as its base variant is, with the base's file
# list, extraction specs, glue and overlay. The registry is variants/
# (git-ignored): variants/<name>/variant.mk says REVIEW_VARIANTS += <name>
# and <name>_BASE (and <name>_EXTRACT_OWN, its extraction specs followed
# through the series, when it changes an extracted file); a fresh clone has none. Their browser modules go to
# variants/<name>/, which the page build reads (vite.config.ts).
-include $(wildcard variants/*/variant.mk)
define review_variant
$(1)_BRANCH  := variant/$(1)
$(1)_FILES   := $($(2)_FILES)
$(1)_SRCS    := $($(2)_SRCS)
$(1)_EXTRACT := $(or $($(1)_EXTRACT_OWN),$($(2)_EXTRACT))
$(1)_GLUE    := $($(2)_GLUE)
$(1)_DEFS    := $($(2)_DEFS)
$(1)_OVERLAY := $(or $($(2)_OVERLAY),wasm/overlay/$(2))
$(1)_SCEN    := $($(2)_SCEN)
$(1)_RECIPE  := $($(2)_RECIPE)
endef
$(foreach r,$(REVIEW_VARIANTS),$(eval $(call review_variant,$(r),$($(r)_BASE))))
LAB_VARIANTS := $(VARIANTS) $(REVIEW_VARIANTS)
# The browser module of a variant: $(1) variant
browser_module = $(if $(filter $(1),$(REVIEW_VARIANTS)),variants/$(1)/reclaimlab-$(1).mjs,web/src/engine/generated/reclaimlab-$(1).mjs)
# The same at 64 bits (the 64-bit machine the page runs by default)
browser_module64 = $(if $(filter $(1),$(REVIEW_VARIANTS)),variants/$(1)/reclaimlab64-$(1).mjs,web/src/engine/generated/reclaimlab64-$(1).mjs)

COMMON_GLUE := wasm/glue/memcg.c wasm/glue/radix_tree.c
SCEN_SRCS   := wasm/scenarios/shrinker_lifetime.c wasm/scenarios/planted_bugs.c \
               wasm/scenarios/fuzz_ops.c wasm/scenarios/shrinker_churn.c \
               wasm/scenarios/memcg_bitmap.c wasm/scenarios/kunit_seq.c \
               wasm/scenarios/explore_litmus.c wasm/scenarios/planted_race.c
# The runtime (the simulated machine, heap.c below it all), the run of a
# scenario (lab/) and the explorer over runs (explore/): one layer each,
# as wasm/tools/check-layers.py checks. The memory model and the race
# detector are rooms of the runtime (memmodel/, kcsan/).
RUNTIME_SRCS := wasm/runtime/heap.c wasm/runtime/core.c wasm/runtime/rcu.c wasm/runtime/locks.c \
               wasm/runtime/slab.c wasm/runtime/costs.c wasm/runtime/fiber.c \
               wasm/runtime/sched.c wasm/runtime/reports.c wasm/runtime/lockdep.c wasm/runtime/strbuf.c \
               wasm/runtime/ftrace.c wasm/runtime/percpu.c wasm/runtime/footprint.c wasm/runtime/choice.c \
               wasm/runtime/kasan.c wasm/runtime/stats.c \
               wasm/runtime/memmodel/memmodel.c wasm/runtime/kcsan/kcsan.c
EXPLORE_SRCS := $(wildcard wasm/explore/*.c)
HOST_SRCS   := $(RUNTIME_SRCS) wasm/lab/lab.c $(EXPLORE_SRCS)
SHIM_DEPS   := $(shell find wasm/include wasm/overlay -name '*.h') wasm/glue/inode/inode.h \
               wasm/runtime/sim.h wasm/runtime/memmodel/memmodel.h wasm/runtime/kcsan/kcsan.h \
               wasm/runtime/events.def wasm/runtime/choice.h wasm/runtime/choice.def wasm/build.mk \
               wasm/scenarios/scenario.h wasm/glue/glue.h $(wildcard wasm/scenarios/kunit_*.h) \
               wasm/scenarios/kunit.def wasm/scenarios/locktorture.def wasm/scenarios/rcutorture.def
HOST_DEPS   := $(wildcard wasm/runtime/*.h wasm/runtime/memmodel/*.h wasm/runtime/kcsan/*.h wasm/lab/*.h wasm/explore/*.h) \
               wasm/runtime/events.def wasm/runtime/params.def \
               wasm/runtime/choice.def \
               wasm/scenarios/scenario.h wasm/scenarios/kunit.def wasm/scenarios/locktorture.def wasm/scenarios/rcutorture.def wasm/build.mk

# Kernel-side code: the kernel's own flags, the shim first (-nostdinc).
# __FILE__ becomes the path inside the tree (mm/shrinker.c), or inside
# this repository for project code (wasm/scenarios/...). $(1): variant.
tree = build/kernel/$(1)
kcflags = -std=gnu11 -nostdinc -D__KERNEL__ $($(1)_DEFS) -DSIM_KERNEL_TREE='"$($(1)_BRANCH)"' \
          -Iwasm/include -Iwasm/runtime \
          -I$(tree)/include -I$(tree)/include/uapi -I$(tree) \
          -include linux/kconfig.h -include linux/compiler_types.h \
          -fno-strict-aliasing -fno-strict-overflow -fno-common -fno-delete-null-pointer-checks \
          -Wall -Wno-unused-function -Wno-address -Wno-pointer-sign \
          -ffile-prefix-map=$(CURDIR)/$(tree)/= -ffile-prefix-map=$(tree)/= \
          -ffile-prefix-map=$(CURDIR)/= -fdebug-compilation-dir=. \
          $(KASAN_FLAGS)
HCFLAGS = -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare
# KASAN for kernel-side code: outline instrumentation whose callbacks are
# the runtime's (wasm/runtime/kasan.c), in every flavour. Every access is
# instrumented: each of a basic block, not only its first to an address
# (asan-opt-same-temp=0: the store of l->nr_items++ is a write), and those
# to static variables (asan-opt-globals=0: shrinker_list's links), which
# the explorer's footprints and the memory model must see.
KASAN_FLAGS = -fsanitize=address -mllvm -asan-instrumentation-with-call-threshold=0 \
              -mllvm -asan-opt-same-temp=0 -mllvm -asan-opt-globals=0 \
              -mllvm -asan-stack=0 -mllvm -asan-globals=0 -mllvm -asan-use-after-return=never \
              -mllvm -asan-memory-access-callback-prefix=__sim_kasan_

NATIVE_CC    := clang-14 -m32
NATIVE_FLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined
EMCC         := NODE_PATH=/usr/share/nodejs EM_FROZEN_CACHE= emcc
WASM_FLAGS   := -O2
CC_native := $(NATIVE_CC) $(NATIVE_FLAGS)
CC_native64 := clang-14 -m64 $(NATIVE_FLAGS)
# bench: DWARF 4, which valgrind --tool=callgrind reads (not clang-14's default 5)
CC_bench  := $(NATIVE_CC) -O2 -gdwarf-4
CC_wasm   := $(EMCC) $(WASM_FLAGS)
CC_fuzz   := $(NATIVE_CC) $(NATIVE_FLAGS) -fsanitize=fuzzer-no-link
# cov: every kernel-side function reporting its entry (-finstrument-functions,
# wasm/cli/functions.c), for docs/lru.md's inventory of what the lru-batch
# scene runs: unoptimised, and with the attributes that would keep a
# function from its hook made harmless (the kernel's inline is notrace,
# no_instrument_function; clang hooks no always_inline function), so that
# every function the code calls counts. The runtime is left alone.
CC_cov    := $(NATIVE_CC) -O0 -g -finstrument-functions -D__always_inline__=__unused__ -D__no_instrument_function__=__unused__
HCC_cov   := $(CC_bench)
# wasm64: emcc -sMEMORY64=2, a 64-bit machine in wasm (make wasm64, not part
# of make build). `long` and pointers are 8 bytes in C, as at native64; the
# module is lowered to 32-bit memory after linking, so no engine needs
# memory64. Its wasm64 system libraries, only the members our links use,
# are built into a private emcc cache (WASM64_CACHE) by the cache's rule
# below, and the links take them alone (WASM64_SYSLIBS);
# wasm/runtime/library_wasm64.js replaces the few imports whose JavaScript
# in emcc 3.1.6 is not 64-bit.
WASM64_CACHE := build/wasm64-syslibs
EMCC64_ENV   := NODE_PATH=/usr/share/nodejs EM_FROZEN_CACHE= EM_CACHE=$(CURDIR)/$(WASM64_CACHE) \
                EM_NODE_JS=$(CURDIR)/wasm/tools/node-wasm64.sh
EMCC64       := $(EMCC64_ENV) emcc -sMEMORY64=2
CC_wasm64    := $(EMCC64) $(WASM_FLAGS)
# The runtime guides the fuzzer by its edges alone: tracing its comparisons
# (slab lookups on every access) took a quarter of each execution.
HCC_fuzz  := $(CC_fuzz) -fno-sanitize-coverage=trace-cmp
FLAVOURS  := native native64 bench wasm wasm64 fuzz cov

# ---- the kernel sources a variant reads ------------------------------------
# $(1): variant. Files come out of the branch with git archive;
# extraction specs make .c files (and headers) from them; then overlay
# headers (wasm/overlay/<variant>, or <variant>_OVERLAY) go next to the
# compiled files (after the extraction, which reads the real ones: the
# folio LRU's helpers of mm/internal.h).
# The specs an extraction spec includes (extract.py's "include" lines,
# paths beside it): a port's tree is remade when its base's specs change.
spec_includes = $(foreach s,$(1),$(addprefix $(dir $(s)),$(shell sed -n 's/^include //p' $(s))))
define tree_rule
$(tree)/.stamp: $($(1)_FILES) $($(1)_EXTRACT) $(call spec_includes,$($(1)_EXTRACT)) $($(1)_RECIPE) \
		wasm/tools/extract.py \
		kernel-tree/linux/.git/reclaim-lab-tree-key $(shell find wasm/overlay -type f)
	@echo "[wasm] reading $$$$(grep -cv '^#\|^$$$$' $($(1)_FILES)) files from branch $($(1)_BRANCH) of kernel-tree/linux"
	@rm -rf $(tree) && mkdir -p $(tree)
	@grep -v '^#' $($(1)_FILES) | grep . | xargs git -C kernel-tree/linux archive $($(1)_BRANCH) -- \
		| tar -x -C $(tree)
	@for spec in $($(1)_EXTRACT); do \
		out=$(tree)/$$$$(sed -n 's/^out //p' $$$$spec); \
		[ "$$$$out" != $(tree)/ ] || \
			out=$(tree)/$$$$(sed -n 's/^file //p' $$$$spec | sed 's/\.\([ch]\)$$$$/-extract.\1/'); \
		python3 wasm/tools/extract.py $$$$spec $(tree) $$$$out || exit 1; \
		echo "  EXTRACT $$$$spec -> $$$$out"; \
	done
	@if [ -d $(or $($(1)_OVERLAY),wasm/overlay/$(1)) ]; then \
		cp -r $(or $($(1)_OVERLAY),wasm/overlay/$(1))/. $(tree)/; fi
	@touch $$@
endef
$(foreach v,$(LAB_VARIANTS) $(SELFTEST_VARIANTS),$(eval $(call tree_rule,$(v))))

# ---- objects ---------------------------------------------------------------------
# build/<flavour>/<variant>/<k|p>-<name>.o for kernel files (k, from the
# tree) and project code built as kernel code (p); build/<flavour>/host/
# for the runtime, shared by every variant.
kobjs = $(addprefix build/$(1)/$(2)/k-,$(notdir $($(2)_SRCS:.c=.o))) \
        $(addprefix build/$(1)/$(2)/p-,$(notdir $(patsubst %.c,%.o,$(call pobj_srcs,$(2)))))
# project code a variant compiles as kernel code: $(1) variant
pobj_srcs = $(if $($(1)_ALONE),,$(COMMON_GLUE) $(SCEN_SRCS)) $($(1)_GLUE) $($(1)_SCEN)
hobjs = $(addprefix build/$(1)/host/,$(notdir $(HOST_SRCS:.c=.o)))

# wasm64 compiles against the private sysroot that $(WASM64_CACHE)/.ready
# installs (its libc headers): an order-only prerequisite, so make -j does
# not start them before it. $(1) flavour
sysroot_first = $(if $(filter wasm64,$(1)),| $(WASM64_CACHE)/.ready)
# $(1) flavour, $(2) variant, $(3) source
define kernel_rule
build/$(1)/$(2)/k-$(notdir $(3:.c=.o)): build/kernel/$(2)/.stamp $(SHIM_DEPS) $(call sysroot_first,$(1))
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $(3) ($(2))"
	@$$(CC_$(1)) $(if $(and $(filter wasm wasm64,$(1)),$(filter $(3),$($(2)_WASM_O0))),-O0) \
		$$(call kcflags,$(2)) -DKBUILD_MODNAME='"$(subst -,_,$(basename $(notdir $(3))))"' \
		-DSIM_MODULE=$(subst -,_,$(basename $(notdir $(3)))) \
		-c build/kernel/$(2)/$(3) -o $$@
endef
define project_rule
build/$(1)/$(2)/p-$(notdir $(3:.c=.o)): $(3) build/kernel/$(2)/.stamp $(SHIM_DEPS) $(call sysroot_first,$(1))
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $(3) ($(2))"
	@$$(CC_$(1)) $$(call kcflags,$(2)) -c $(3) -o $$@
endef
# The runtime in wasm: compiled for link-time optimization (-flto), so that
# the link inlines across its files what every step of the simulation calls
# (sim_step()'s cost and random jitter, the preemption point's checks, the
# event filter): a sixth less CPU for the memcg scale run's 49 million
# steps. Not fiber.c, whose functions must stay functions of their own
# (wasm/tools/asyncify.py), nor kernel-side code (KASAN-instrumented).
WASM_LTO_SRCS := $(filter-out wasm/runtime/fiber.c,$(HOST_SRCS))
define host_rule
build/$(1)/host/$(notdir $(2:.c=.o)): $(2) $(HOST_DEPS) $(call sysroot_first,$(1))
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $(2)"
	@$$(or $$(HCC_$(1)),$$(CC_$(1))) $(HCFLAGS) $(if $(and $(filter wasm wasm64,$(1)),$(filter $(2),$(WASM_LTO_SRCS))),-flto) \
		-c $(2) -o $$@
endef
# Programs: the CLI, the tests, the fuzzer, the browser bridge.
HOST_PROGS := wasm/cli/labrun.c wasm/bridge/bridge.c wasm/scenarios/registry.c \
              wasm/tests/test_runtime.c wasm/tests/test_shrinker_lifetime.c \
              wasm/tests/test_planted_bugs.c wasm/tests/test_kernel_api.c \
              wasm/tests/test_fuzz_ops.c wasm/tests/test_shrinker_churn.c \
              wasm/tests/test_churn_figures.c wasm/tests/test_memcg_bitmap.c \
              wasm/tests/test_lru_batch.c wasm/tests/test_inode_lru.c \
              wasm/tests/test_explore.c wasm/tests/test_params.c wasm/tests/test_kcsan.c wasm/fuzz/fuzz_shrinkers.c \
              wasm/cli/functions.c
$(foreach f,$(FLAVOURS),$(foreach v,$(LAB_VARIANTS) $(SELFTEST_VARIANTS),\
	$(foreach s,$($(v)_SRCS),$(eval $(call kernel_rule,$(f),$(v),$(s))))\
	$(foreach s,$(call pobj_srcs,$(v)),$(eval $(call project_rule,$(f),$(v),$(s))))))
$(foreach f,$(FLAVOURS),$(foreach s,$(HOST_SRCS) $(HOST_PROGS),$(eval $(call host_rule,$(f),$(s)))))
$(eval $(call project_rule,native,v6.12,wasm/tests/litmus_kernel.c))

# ---- programs ----------------------------------------------------------------------
# The CLI per variant, natively and optimised; the same as wasm for Node.
define program_rules
build/native/$(1)/labrun: $(call kobjs,native,$(1)) $(call hobjs,native) build/native/host/labrun.o build/native/host/registry.o
	@echo "  LD [native] $$@"
	@$(CC_native) $$^ -o $$@
build/native64/$(1)/labrun: $(call kobjs,native64,$(1)) $(call hobjs,native64) build/native64/host/labrun.o build/native64/host/registry.o
	@echo "  LD [native64] $$@"
	@$(CC_native64) $$^ -o $$@
build/bench/$(1)/labrun: $(call kobjs,bench,$(1)) $(call hobjs,bench) build/bench/host/labrun.o build/bench/host/registry.o
	@echo "  LD [bench] $$@"
	@$(CC_bench) $$^ -o $$@
build/cov/$(1)/labrun: $(call kobjs,cov,$(1)) $(call hobjs,cov) build/cov/host/labrun.o build/cov/host/registry.o \
		build/cov/host/functions.o
	@echo "  LD [cov] $$@"
	@$(CC_cov) $$^ -o $$@
build/wasm/$(1)/labrun.cjs: $(call kobjs,wasm,$(1)) $(call hobjs,wasm) build/wasm/host/labrun.o build/wasm/host/registry.o \
		$(FIBER_LIBJS) $(NODE_PREJS) wasm/tools/asyncify.py
	@echo "  LD [wasm] $$@ (Node)"
	@$(EMCC) $(WASM_FLAGS) $(WASM_BASE_LINK) $(FIBER_LINK) $(NODE_LINK) $($(1)_WASM_LINK) -sENVIRONMENT=node -sEXIT_RUNTIME=1 \
		$$(filter %.o,$$^) -o $$@
	@python3 wasm/tools/asyncify.py $$(@:.cjs=.wasm)
build/wasm64/$(1)/labrun.cjs: $(call kobjs,wasm64,$(1)) $(call hobjs,wasm64) build/wasm64/host/labrun.o \
		build/wasm64/host/registry.o $(FIBER_LIBJS) $(WASM64_LIBJS) $(NODE_PREJS) $(WASM64_CACHE)/.ready wasm/tools/asyncify.py
	@echo "  LD [wasm64] $$@ (Node)"
	@$(EMCC64) $(WASM_FLAGS) $(WASM_BASE_LINK) $(FIBER_LINK) $(WASM64_LINK) $(NODE_LINK) $($(1)_WASM_LINK) -sENVIRONMENT=node -sEXIT_RUNTIME=1 \
		$$(filter %.o,$$^) $(WASM64_SYSLIBS) -o $$@
	@python3 wasm/tools/asyncify.py $$(@:.cjs=.wasm)
build/wasm64/$(1)/labrun-web.js: $(call kobjs,wasm64,$(1)) $(call hobjs,wasm64) build/wasm64/host/labrun.o \
		build/wasm64/host/registry.o $(FIBER_LIBJS) $(WASM64_LIBJS) $(WASM64_CACHE)/.ready wasm/tools/asyncify.py
	@echo "  LD [wasm64] $$@ (a page)"
	@$(EMCC64) $(WASM_FLAGS) $(WASM_BASE_LINK) $(FIBER_LINK) $(WASM64_LINK) $($(1)_WASM_LINK) -sENVIRONMENT=web -sEXIT_RUNTIME=1 \
		$$(filter %.o,$$^) $(WASM64_SYSLIBS) -o $$@
	@python3 wasm/tools/asyncify.py $$(@:.js=.wasm)
$(call browser_module,$(1)): $(call kobjs,wasm,$(1)) $(call hobjs,wasm) build/wasm/host/bridge.o \
		build/wasm/host/registry.o wasm/bridge/exports.json $(FIBER_LIBJS) wasm/tools/asyncify.py
	@mkdir -p $$(@D)
	@echo "  LD [wasm] $$@ (browser worker)"
	@$(EMCC) $(WASM_FLAGS) $(WASM_BASE_LINK) $(FIBER_LINK) -sENVIRONMENT=worker -sMODULARIZE=1 -sEXPORT_ES6=1 \
		-sEXPORT_NAME=createReclaimLab -sEXIT_RUNTIME=0 \
		-sEXPORTED_FUNCTIONS='$(WASM_EXPORTS)' \
		-sEXPORTED_RUNTIME_METHODS='["UTF8ToString","stringToUTF8","lengthBytesUTF8"]' \
		$$(filter %.o,$$^) -o $$@
	@python3 wasm/tools/asyncify.py $$(@:.mjs=.wasm)
	@python3 wasm/tools/bridge-exports.py check wasm/bridge/exports.json $$(@:.mjs=.wasm) 32
$(call browser_module64,$(1)): $(call kobjs,wasm64,$(1)) $(call hobjs,wasm64) build/wasm64/host/bridge.o \
		build/wasm64/host/registry.o wasm/bridge/exports.json wasm/tools/bridge-exports.py $(FIBER_LIBJS) \
		wasm/runtime/library_wasm64.js $(WASM64_CACHE)/.ready wasm/tools/asyncify.py
	@mkdir -p $$(@D)
	@echo "  LD [wasm64] $$@ (browser worker)"
	@$(EMCC64) $(WASM_FLAGS) $(WASM_BASE_LINK) $(FIBER_LINK) --js-library wasm/runtime/library_wasm64.js \
		-sENVIRONMENT=worker -sMODULARIZE=1 -sEXPORT_ES6=1 \
		-sEXPORT_NAME=createReclaimLab -sEXIT_RUNTIME=0 \
		-sEXPORTED_FUNCTIONS='$(WASM_EXPORTS)' \
		-sEXPORTED_RUNTIME_METHODS='["UTF8ToString","stringToUTF8","lengthBytesUTF8"]' \
		$$(filter %.o,$$^) $(WASM64_SYSLIBS) -o $$@
	@python3 wasm/tools/asyncify.py $$(@:.mjs=.wasm)
	@python3 wasm/tools/bridge-exports.py check wasm/bridge/exports.json $$(@:.mjs=.wasm) 64
endef
WASM_EXPORTS := $(shell python3 wasm/tools/bridge-exports.py names wasm/bridge/exports.json)
WASM_BASE_LINK := -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sTOTAL_STACK=1048576
# emcc's own Asyncify: only the wasm64 libraries' probe link below uses it
WASM_LINK := -sASYNCIFY -sASYNCIFY_STACK_SIZE=65536 $(WASM_BASE_LINK)
# Fibers switch over Asyncify from C (runtime/fiber.c), at 32 bits and at
# 64 (after the 64-bit module's lowering to a 32-bit memory), with no
# JavaScript: the module is linked without emcc's Asyncify, its names kept,
# and wasm/tools/asyncify.py instruments only the functions a switch can
# pass through (the module's call graph says which), then strips the
# names. The "asyncify" imports Binaryen replaces need stand-ins for emcc's
# JavaScript compiler.
FIBER_LIBJS := wasm/runtime/library_asyncify.js
FIBER_LINK  := --js-library wasm/runtime/library_asyncify.js --profiling-funcs
# The Node command line's output, written whole before it exits (a pre-js).
NODE_PREJS := wasm/runtime/pre_node.js
NODE_LINK  := --pre-js $(NODE_PREJS)
# wasm64's own JavaScript: the imports emcc 3.1.6 passes BigInts to
# without converting them (a library replacing the system functions of the
# same name), and main()'s argv of 8-byte pointers (a pre-js).
WASM64_LIBJS := wasm/runtime/library_wasm64.js wasm/runtime/pre_wasm64.js
WASM64_LINK  := --js-library wasm/runtime/library_wasm64.js --pre-js wasm/runtime/pre_wasm64.js
# The wasm64 system libraries the links take, alone (built below), after
# the objects as emcc puts its own: wasm-ld then resolves libc's and
# compiler_rt's differing declarations of __eqtf2 and its kind as emcc's
# links do (libraries first: a module wasm-opt rejects).
WASM64_SYSLIBS := -nostdlib $(addprefix -l,$(patsubst lib%.a,%,$(shell sed 's/\#.*//' wasm/tools/wasm64-syslibs.txt | awk 'NF && !seen[$$1]++ {print $$1}')))
$(foreach v,$(LAB_VARIANTS) $(SELFTEST_VARIANTS),$(eval $(call program_rules,$(v))))

# The wasm64 system libraries: the members of emcc's libc, dlmalloc,
# compiler_rt and stubs that our wasm64 links extract
# (wasm/tools/wasm64-syslibs.txt), built from emscripten's sources with its
# own flags by wasm/tools/wasm64-syslibs.py into the private cache, where
# emcc would otherwise build every library whole (most of an hour on two
# cores). The probe links what labrun uses from them and makes emcc write
# the cache's wasm64 struct layouts.
$(WASM64_CACHE)/.ready: wasm/tools/node-wasm64.sh wasm/tools/wasm64-syslibs.py wasm/tools/wasm64-syslibs.txt
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "  SYSLIBS [wasm64] $(WASM64_CACHE) ($$(grep -c '^lib' wasm/tools/wasm64-syslibs.txt) objects of emcc's libc, dlmalloc, compiler_rt, stubs)"
	@$(EMCC64_ENV) python3 wasm/tools/wasm64-syslibs.py wasm/tools/wasm64-syslibs.txt
	@printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n#include <emscripten/fiber.h>\nint main(int c, char **v) { char b[64]; struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); snprintf(b, sizeof(b), "%%d %%f", c, 1.5); void *p = malloc(1 << 20); memcpy(p, b, sizeof(b)); FILE *f = fopen(v[0], "r"); if (f) fclose(f); puts(p); free(p); return 0; }\n' > $(@D)/probe.c
	@$(EMCC64) $(WASM_FLAGS) $(WASM_LINK) $(WASM64_SYSLIBS) -sENVIRONMENT=node -sEXIT_RUNTIME=1 $(@D)/probe.c -o $(@D)/probe.cjs
	@touch $@

# The event ABI for TypeScript, generated from events.def by a C program.
build/native/gen_events_ts: wasm/tools/gen_events_ts.c $(HOST_DEPS)
	@mkdir -p $(@D)
	@gcc -m32 $(HCFLAGS) $< -o $@
web/src/engine/generated/events.ts: build/native/gen_events_ts
	@mkdir -p $(@D)
	@$< > $@.tmp && mv $@.tmp $@
	@echo "  GEN $@"
# The kernels for the page (SCENE_KERNELS, KERNELS), from the registry.
web/src/engine/generated/kernels.ts: kernel-tree/manifest.json kernel-tree/kernels.py kernel-tree/kunitdef.py
	@mkdir -p $(@D)
	@python3 kernel-tree/kernels.py ts $@
	@touch $@
	@echo "  GEN $@"
web/src/engine/generated/params.ts: build/native/gen_events_ts
	@mkdir -p $(@D)
	@$< params > $@.tmp && mv $@.tmp $@
	@echo "  GEN $@"

# The files the code pane shows: each kernel file the builds read, exactly
# as it is on its branch (not the overlay), and the project's own files
# events can point into, under web/public/kernel/<tree>/<path>.
web/public/kernel/.stamp: $(foreach v,$(LAB_VARIANTS),build/kernel/$(v)/.stamp) $(COMMON_GLUE) \
		$(foreach v,$(LAB_VARIANTS),$($(v)_GLUE) $($(v)_SCEN)) $(SCEN_SRCS)
	@rm -rf web/public/kernel && mkdir -p web/public/kernel/project \
		$(foreach v,$(LAB_VARIANTS),web/public/kernel/$($(v)_BRANCH))
	@$(foreach v,$(LAB_VARIANTS),grep -v '^#' $($(v)_FILES) | grep . | xargs git -C kernel-tree/linux archive $($(v)_BRANCH) -- \
		| tar -x -C web/public/kernel/$($(v)_BRANCH) &&) true
	@cp --parents $(sort $(COMMON_GLUE) $(foreach v,$(LAB_VARIANTS),$($(v)_GLUE) $($(v)_SCEN)) $(SCEN_SRCS)) web/public/kernel/project/
	@touch $@
	@echo "  GEN web/public/kernel (sources for the code pane)"

NATIVE_PROGS := $(foreach v,$(VARIANTS),build/native/$(v)/labrun)
WASM_PROGS   := $(foreach v,$(VARIANTS),build/wasm/$(v)/labrun.cjs web/src/engine/generated/reclaimlab-$(v).mjs) \
                $(foreach v,$(REVIEW_VARIANTS),$(call browser_module,$(v)))

.PHONY: native native64 wasm
native: $(NATIVE_PROGS)
# The same programs as a 64-bit machine (not part of make build).
NATIVE64_PROGS := $(foreach v,$(VARIANTS),build/native64/$(v)/labrun)
native64: $(NATIVE64_PROGS)
# The same in wasm at 64 bits, for Node (make wasm64; make test-wasm64).
WASM64_PROGS := $(foreach v,$(VARIANTS),build/wasm64/$(v)/labrun.cjs)
.PHONY: wasm64 test-wasm64
wasm64: $(WASM64_PROGS)
# The page's 64-bit modules (the machine it runs by default), one per
# variant of the registry (make page64).
PAGE64_PROGS := $(foreach v,$(VARIANTS),$(call browser_module64,$(v)))
.PHONY: page64
page64: $(PAGE64_PROGS)
wasm: $(WASM_PROGS) web/src/engine/generated/events.ts web/src/engine/generated/params.ts web/src/engine/generated/kernels.ts web/public/kernel/.stamp web/public/kernel/diffs.json

# ---- tests ---------------------------------------------------------------------------
# Native tests, with AddressSanitizer and UBSan, on v6.12 unless named.
build/native/test_runtime: $(call hobjs,native) build/native/host/test_runtime.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@
build/native/test_kernel_api: $(call hobjs,native) build/native/v6.12/p-litmus_kernel.o \
		build/native/v6.12/p-sched.o build/native/host/test_kernel_api.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@
# $(1) test, $(2) variant
define scenario_test
build/native/$(2)/$(1): $(call kobjs,native,$(2)) $(call hobjs,native) build/native/host/registry.o build/native/host/$(1).o
	@echo "  LD [native] $$@"
	@$(CC_native) $$^ -o $$@
endef
# Each test of the registry's (SCENARIO_TESTS: a kernel's "tests") on the
# kernels that run it (<test>_VARIANTS); test_fuzz_ops on every kernel.
# Those tests read what the registry expects of their kernel
# (wasm/tests/lab_kernels.h).
$(foreach t,$(SCENARIO_TESTS),$(foreach v,$($(t)_VARIANTS),$(eval $(call scenario_test,$(t),$(v)))))
$(foreach v,$(VARIANTS),$(eval $(call scenario_test,test_fuzz_ops,$(v))))
build/gen/lab_kernels_table.h: kernel-tree/manifest.json kernel-tree/kernels.py
	@mkdir -p $(@D)
	@python3 kernel-tree/kernels.py c $@
	@touch $@
$(foreach f,$(FLAVOURS),$(foreach t,$(SCENARIO_TESTS),build/$(f)/host/$(t).o)): build/gen/lab_kernels_table.h
CHURN_VARIANTS := $(test_shrinker_churn_VARIANTS)
# The run parameters' limits (params.def) on selftest too, whose torture
# tests are the ones that read --cpus.
$(eval $(call scenario_test,test_params,selftest))
build/native/test_churn_figures: build/native/host/test_churn_figures.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@

NATIVE_TESTS := build/native/test_runtime build/native/test_kernel_api \
                $(foreach v,$(VARIANTS),build/native/$(v)/test_fuzz_ops) \
                $(foreach t,$(filter-out test_shrinker_churn,$(SCENARIO_TESTS)),\
                  $(foreach v,$($(t)_VARIANTS),build/native/$(v)/$(t)))
NATIVE_TESTS += build/native/selftest/test_params
CHURN_TESTS  := $(foreach v,$(CHURN_VARIANTS),build/native/$(v)/test_shrinker_churn)

# Each test binary is a suite of its own (scripts/test-suite.sh), so that
# make -j runs them side by side; the churn tests write the figures that
# test_churn_figures then compares across the three kernels.
NATIVE_RUNS := $(patsubst build/native/%,test-native/%,$(NATIVE_TESTS))
CHURN_RUNS  := $(patsubst build/native/%,test-native/%,$(CHURN_TESTS))
.PHONY: test-native test-native/churn-figures $(NATIVE_RUNS) $(CHURN_RUNS) test-determinism determinism
test-native: $(NATIVE_RUNS) $(CHURN_RUNS) test-native/churn-figures
$(NATIVE_RUNS): test-native/%: build/native/%
	@$(SUITE) $@ ctest -- env ASAN_OPTIONS=detect_leaks=0 $<
$(CHURN_RUNS): test-native/%: build/native/%
	@$(SUITE) $@ ctest -- env ASAN_OPTIONS=detect_leaks=0 $< $(<D)/churn-figures.txt
test-native/churn-figures: $(CHURN_RUNS) build/native/test_churn_figures
	@$(SUITE) $@ ctest -- build/native/test_churn_figures $(foreach v,$(CHURN_VARIANTS),build/native/$(v)/churn-figures.txt)

# docs/lru.md: the inventory of the folio LRU code the lab runs, made from
# the extraction specs, the kernel tree and a run of the scene on each
# kernel (wasm/tools/lru-inventory.py); test-native/lru-inventory checks
# it is what they say.
LRU_INVENTORY = python3 wasm/tools/lru-inventory.py --tree kernel-tree/linux --specs '$(LRU_EXTRACT)' \
	$(foreach v,$(LRU_PORT_VARIANTS),--port-specs '$(v):$($(v)_BRANCH)=$($(v)_EXTRACT)') \
	$(foreach v,v6.12 $(LRU_PORT_VARIANTS),--labrun $(v)=build/cov/$(v)/labrun)
LRU_INVENTORY_DEPS = wasm/tools/lru-inventory.py wasm/tools/extract.py $(LRU_EXTRACT) \
	$(foreach v,$(LRU_PORT_VARIANTS),$($(v)_EXTRACT)) $(foreach v,v6.12 $(LRU_PORT_VARIANTS),build/cov/$(v)/labrun)
docs/lru.md: $(LRU_INVENTORY_DEPS)
	@mkdir -p $(@D)
	@$(LRU_INVENTORY) --write $@
	@echo "  GEN $@ (the folio LRU's inventory)"
.PHONY: test-native/lru-inventory
test-native: test-native/lru-inventory
test-native/lru-inventory: $(LRU_INVENTORY_DEPS)
	@$(SUITE) $@ ctest -- $(LRU_INVENTORY) --check docs/lru.md

# docs/page-cache.md: the same for the inode-lru scene, on v6.12 (variant
# inode) and the two inode series over it: the inode LRU, the page cache
# and the folio LRU it runs, each item upstream or patched, and the shim.
INODE_PORT_VARIANTS := $(filter-out inode,$(INODE_VARIANTS))
PAGE_CACHE_INVENTORY = python3 wasm/tools/lru-inventory.py --doc page-cache --tree kernel-tree/linux \
	--specs '$(inode_EXTRACT)' --srcs '$(inode_SRCS)' \
	$(foreach v,$(INODE_PORT_VARIANTS),--port-specs '$(v):$($(v)_BRANCH)=$($(v)_EXTRACT)') \
	$(foreach v,$(INODE_VARIANTS),--labrun $(v)=build/cov/$(v)/labrun)
PAGE_CACHE_INVENTORY_DEPS = wasm/tools/lru-inventory.py wasm/tools/extract.py $(inode_EXTRACT) \
	$(foreach v,$(INODE_VARIANTS),build/cov/$(v)/labrun)
docs/page-cache.md: $(PAGE_CACHE_INVENTORY_DEPS)
	@mkdir -p $(@D)
	@$(PAGE_CACHE_INVENTORY) --write $@
	@echo "  GEN $@ (the inode scene's inventory)"
.PHONY: test-native/page-cache-inventory
test-native: test-native/page-cache-inventory
test-native/page-cache-inventory: $(PAGE_CACHE_INVENTORY_DEPS)
	@$(SUITE) $@ ctest -- $(PAGE_CACHE_INVENTORY) --check docs/page-cache.md

# The memory models' referee: the kernel's 47 litmus tests and the project's (the litmus
# variant, made by wasm/litmus/litmus2c.py) searched to the end under sc,
# tso and relaxed, each verdict against wasm/litmus/verdicts.txt; one
# table (wasm/litmus/referee.py). The optimised build: about 85,000
# executions, 34 times faster there than under the sanitizers, whose
# native tests run the model through every other suite.
.PHONY: test-litmus
test-litmus: build/bench/litmus/labrun build/litmus/litmus.c
	@$(SUITE) test-litmus ctest -- python3 wasm/litmus/referee.py build/bench/litmus/labrun \
		build/litmus/litmus.json wasm/litmus/verdicts.txt --jobs 2 --out build/litmus/table.txt

# The same seed gives the same log natively and in wasm under Node: each
# variant a suite of its own, and the explorer's searches.
DETERMINISM_RUNS := $(foreach v,$(VARIANTS),test-determinism/$(v))
.PHONY: $(DETERMINISM_RUNS) test-determinism/explore test-determinism/explore-shards
test-determinism: $(DETERMINISM_RUNS) test-determinism/explore test-determinism/explore-shards
$(DETERMINISM_RUNS): test-determinism/%: build/native/%/labrun build/wasm/%/labrun.cjs
	@$(SUITE) $@ determinism -- wasm/tests/determinism.sh --one 20 $*
test-determinism/explore: $(NATIVE_PROGS) $(foreach v,$(VARIANTS),build/wasm/$(v)/labrun.cjs)
	@$(SUITE) $@ determinism -- wasm/tests/explore-wasm.sh
# A search split into shards (labrun --jobs, --shard, --explore-merge) equals
# the one search, on every race of wasm/explore.json and the litmus tests.
test-determinism/explore-shards: $(shell node wasm/explore.mjs targets 2>/dev/null)
	@$(SUITE) $@ shards -- wasm/tests/explore-shards.sh
# The same at 64 bits: native64 = wasm64 (make test-wasm64, not in make
# test: the native64 and wasm64 builds of every variant and their runs
# took 19 min on the shared two-core machine).
# And in Chromium: labrun built for a page, every scenario of
# WASM64_BROWSER_VARIANTS (wasm/tests/wasm64-browser.mjs).
# WASM64_SEEDS seeds a scenario (timed, rr, random and the stress scale
# among the first four): wasm64 runs take about a third longer than wasm32's.
WASM64_BROWSER_VARIANTS := v6.12
WASM64_SEEDS ?= 4
test-wasm64: $(NATIVE64_PROGS) $(WASM64_PROGS) $(foreach v,$(WASM64_BROWSER_VARIANTS),build/wasm64/$(v)/labrun-web.js) page64
	@LAB_NATIVE=build/native64 LAB_WASM=build/wasm64 wasm/tests/determinism.sh $(WASM64_SEEDS) $(VARIANTS)
	@LAB_NATIVE=build/native64 LAB_WASM=build/wasm64 wasm/tests/explore-wasm.sh
	@for v in $(WASM64_BROWSER_VARIANTS); do node wasm/tests/wasm64-browser.mjs $$v || exit 1; done
	@$(MAKE) --no-print-directory web
	@echo "[web] the page at 64 bits (Playwright, @wasm64): every scene on every kernel = native64"
	@npx --no-install playwright test --grep @wasm64
determinism: $(NATIVE_PROGS) $(foreach v,$(VARIANTS),build/wasm/$(v)/labrun.cjs)
	@wasm/tests/determinism.sh 100 $(VARIANTS)

# Real runs for the web engine's unit tests, written by the native CLI.
build/fixtures/shrinker-lifetime-1/events.bin: build/native/v6.12/labrun
	@mkdir -p $(@D)
	@ASAN_OPTIONS=detect_leaks=0 $< --scenario shrinker-lifetime --seed 1 --dump $(@D) 2>/dev/null

build/fixtures/inode-lru-1/events.bin: build/native/inode/labrun
	@mkdir -p $(@D)
	@ASAN_OPTIONS=detect_leaks=0 $< --scenario inode-lru --seed 1 --dump $(@D) 2>/dev/null
build/fixtures/inode-lru-before-1/events.bin: build/native/inode-before/labrun
	@mkdir -p $(@D)
	@ASAN_OPTIONS=detect_leaks=0 $< --scenario inode-lru --seed 1 --dump $(@D) 2>/dev/null
FIXTURES := build/fixtures/shrinker-lifetime-1/events.bin build/fixtures/inode-lru-1/events.bin \
            build/fixtures/inode-lru-before-1/events.bin

# libFuzzer (clang's, from Debian): random programs and schedules against
# the real shrinker and list_lru code. make fuzz FUZZ_SECONDS=600 FUZZ_JOBS=2
# (FUZZ_JOBS: independent fuzzing processes sharing the corpus, each logging
# to build/fuzz/fuzz-<n>.log, libFuzzer's -jobs; FUZZ_FORK: its -fork mode,
# whose short-lived jobs reload the corpus: about half the executions per
# second here).
FUZZ_SECONDS ?= 60
FUZZ_FORK ?= 1
FUZZ_JOBS ?= 1
build/fuzz/fuzz_shrinkers: $(call kobjs,fuzz,v6.12) $(call hobjs,fuzz) build/fuzz/host/registry.o \
		build/fuzz/host/fuzz_shrinkers.o
	@echo "  LD [fuzz] $@"
	@$(CC_fuzz) -fsanitize=fuzzer $^ -o $@

# The same fuzzer on a reviewer's variant (kernel-tree/variant.sh report).
define review_fuzz_rule
build/fuzz/$(1)/fuzz_shrinkers: $(call kobjs,fuzz,$(1)) $(call hobjs,fuzz) build/fuzz/host/registry.o \
		build/fuzz/host/fuzz_shrinkers.o
	@echo "  LD [fuzz] $$@"
	@$(CC_fuzz) -fsanitize=fuzzer $$^ -o $$@
endef
$(foreach v,$(REVIEW_VARIANTS),$(eval $(call review_fuzz_rule,$(v))))

.PHONY: fuzz
fuzz: build/fuzz/fuzz_shrinkers
	@mkdir -p build/fuzz/corpus build/fuzz/crashes
	@echo "[fuzz] $(FUZZ_SECONDS) s; corpus in build/fuzz/corpus, crashes in build/fuzz/crashes$(if $(filter-out 1,$(FUZZ_JOBS)), logs in build/fuzz/fuzz-*.log)"
	@cd build/fuzz && ASAN_OPTIONS=detect_leaks=0 ./fuzz_shrinkers -max_total_time=$(FUZZ_SECONDS) \
		$(if $(filter-out 1,$(FUZZ_FORK)),-fork=$(FUZZ_FORK)) \
		$(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) \
		-max_len=256 -artifact_prefix=crashes/ -print_final_stats=1 corpus

# ---- the kernel's own tests ---------------------------------------------------------
# make selftest: every selftest-* scenario natively and in wasm, a line per
# test with its own counts (wasm/selftest/run.sh); make test runs those in
# SELFTEST_FAST.
SELFTEST_PROGS := build/native/selftest/labrun build/wasm/selftest/labrun.cjs
SELFTEST_FAST  := selftest-xarray selftest-ida selftest-atomic64 selftest-list selftest-bitmap \
                  selftest-ida-threads
.PHONY: selftest test-selftest
selftest: $(SELFTEST_PROGS)
	@wasm/selftest/run.sh
# Each fast test a suite of its own (run.sh runs its native and wasm runs at once).
SELFTEST_RUNS := $(addprefix test-selftest/,$(SELFTEST_FAST))
.PHONY: $(SELFTEST_RUNS)
test-selftest: $(SELFTEST_RUNS)
$(SELFTEST_RUNS): test-selftest/%: $(SELFTEST_PROGS)
	@$(SUITE) $@ selftest -- wasm/selftest/run.sh $*
# make torture: locktorture's and rcutorture's runs (wasm/scenarios/locktorture.def,
# rcutorture.def), natively and in wasm, under each scheduling policy, a
# group per count of simulated CPUs: on two, locktorture's and the
# rcutorture scenarios on two; on each of TORTURE_CPUS, locktorture's
# (labrun --cpus), then the rcutorture scenarios on that many (their
# count in labrun --list). Minutes of CPU time, so not in make test;
# TORTURE_BUDGET seconds of wall time at most per group and policy.
TORTURE_POLICIES := timed rr random
TORTURE_CPUS     := 3 4
TORTURE_BUDGET   := 1200
.PHONY: torture
torture: $(SELFTEST_PROGS)
	@wasm/selftest/verdict-test.sh || exit 1; \
	list=$$(ASAN_OPTIONS=detect_leaks=0 build/native/selftest/labrun --list); \
	lock=$$(echo "$$list" | cut -f1 | grep '^selftest-locktorture-'); \
	rcu() { echo "$$list" | grep "^selftest-rcutorture-.*, $$1 CPUs)$$" | cut -f1; }; \
	over() { [ $$? -ne 124 ] || echo "make torture: the group took more than $(TORTURE_BUDGET) s"; exit 1; }; \
	for p in $(TORTURE_POLICIES); do \
		echo "locktorture and rcutorture, 2 CPUs, --policy $$p:"; \
		timeout $(TORTURE_BUDGET) wasm/selftest/run.sh --policy $$p $$lock $$(rcu 2) || over; \
	done; \
	for c in $(TORTURE_CPUS); do for p in $(TORTURE_POLICIES); do \
		echo "locktorture and rcutorture, $$c CPUs, --policy $$p:"; \
		end=$$(( $$(date +%s) + $(TORTURE_BUDGET) )); \
		timeout $(TORTURE_BUDGET) wasm/selftest/run.sh --policy $$p --cpus $$c $$lock || over; \
		r=$$(rcu $$c); left=$$(( end - $$(date +%s) )); \
		[ -z "$$r" ] || { [ $$left -gt 0 ] && timeout $$left wasm/selftest/run.sh --policy $$p $$r; } || over; \
	done; done
# make torture-explore: the explore-locktorture-* and explore-rcutorture-*
# runs (a short configuration each) searched by the explorer, bounded to
# TORTURE_EXPLORE_LOCK_BOUND and TORTURE_EXPLORE_RCU_BOUND preemptions and
# by PCT (wasm/selftest/explore.mjs), with the optimised native build;
# each search stops after TORTURE_EXPLORE_SECONDS. locktorture's runs make
# 14,000 to 20,000 decisions each, rcutorture's 33 to 812 choices where
# both CPUs can run: bound 1 takes one execution per choice.
TORTURE_EXPLORE_LOCK_BOUND := 0
TORTURE_EXPLORE_RCU_BOUND  := 1
TORTURE_EXPLORE_SECONDS    := 900
.PHONY: torture-explore
torture-explore: build/bench/selftest/labrun
	@node wasm/selftest/explore.mjs --bound $(TORTURE_EXPLORE_LOCK_BOUND) --seconds $(TORTURE_EXPLORE_SECONDS) \
		--pct 2 --runs 50 --match '^explore-locktorture-' && \
	node wasm/selftest/explore.mjs --bound $(TORTURE_EXPLORE_RCU_BOUND) --seconds $(TORTURE_EXPLORE_SECONDS) \
		--pct 2 --runs 50 --match '^explore-rcutorture-'
# Each wrong shim of wasm/selftest/wrong-shim.sh must fail the kernel's
# tests it touches: a copy of the native build per shim (minutes, so not
# in make test).
.PHONY: selftest-wrong-shim
selftest-wrong-shim: $(SELFTEST_PROGS)
	@wasm/selftest/wrong-shim.sh all
