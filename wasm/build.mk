# SPDX-License-Identifier: GPL-2.0-only
#
# The C side: real kernel files from kernel-tree/linux, the shim, the
# runtime and the scenarios, built three ways from the same sources:
#
#   build/native/   clang-14 -m32 with AddressSanitizer + UBSan (tests, labrun)
#   build/wasm/     emcc for Node: labrun.cjs, the same CLI as wasm
#   web/src/engine/generated/  emcc for the browser worker, events.ts
#
# Native builds use clang-14 -m32: the same front end as emcc 3.1.6 (so
# __LINE__ inside a macro call spanning lines names the same line: clang
# names the closing line, gcc the opening one), and a 32-bit target because
# wasm32 is a 32-bit kernel (BITS_PER_LONG 32, so
# SHRINKER_UNIT_BITS 32); the native build must run the same code to give
# the same event log.

TREE_V612   := build/kernel/v6.12
KERNEL_LIST := wasm/kernel-files-v6.12.txt
KERNEL_SRCS := mm/shrinker.c mm/list_lru.c lib/xarray.c lib/list_debug.c
GLUE_SRCS   := wasm/glue/memcg.c wasm/glue/radix_tree.c
SCEN_SRCS   := wasm/scenarios/shrinker_lifetime.c wasm/scenarios/planted_bugs.c \
               wasm/scenarios/fuzz_ops.c
HOST_SRCS   := wasm/runtime/core.c wasm/runtime/rcu.c wasm/runtime/locks.c \
               wasm/runtime/slab.c wasm/runtime/costs.c wasm/runtime/fiber.c \
               wasm/runtime/sched.c wasm/runtime/reports.c wasm/runtime/strbuf.c \
               wasm/runtime/kasan.c \
               wasm/runtime/lab.c wasm/scenarios/registry.c
SHIM_DEPS   := $(shell find wasm/include wasm/overlay -name '*.h') \
               wasm/runtime/sim.h wasm/runtime/events.def wasm/build.mk
HOST_DEPS   := $(wildcard wasm/runtime/*.h) wasm/runtime/events.def \
               wasm/scenarios/scenario.h wasm/build.mk

# Kernel-side code: the kernel's own flags, the shim first (-nostdinc).
# __FILE__ becomes the path inside the tree (mm/shrinker.c), or inside
# this repository for project code (wasm/scenarios/...).
KCFLAGS = -std=gnu11 -nostdinc -D__KERNEL__ -Iwasm/include -Iwasm/runtime \
          -I$(TREE_V612)/include -I$(TREE_V612)/include/uapi \
          -include linux/kconfig.h -include linux/compiler_types.h \
          -fno-strict-aliasing -fno-strict-overflow -fno-common -fno-delete-null-pointer-checks \
          -Wall -Wno-unused-function -Wno-address -Wno-pointer-sign \
          -ffile-prefix-map=$(CURDIR)/$(TREE_V612)/= -ffile-prefix-map=$(TREE_V612)/= \
          -ffile-prefix-map=$(CURDIR)/= -fdebug-compilation-dir=.
HCFLAGS = -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare
# KASAN for kernel-side code: outline instrumentation whose callbacks are
# the runtime's (wasm/runtime/kasan.c), in every flavour.
KASAN_FLAGS = -fsanitize=address -mllvm -asan-instrumentation-with-call-threshold=0 \
              -mllvm -asan-stack=0 -mllvm -asan-globals=0 -mllvm -asan-use-after-return=never \
              -mllvm -asan-memory-access-callback-prefix=__sim_kasan_

NATIVE_CC    := clang-14 -m32
NATIVE_FLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined
EMCC         := NODE_PATH=/usr/share/nodejs EM_FROZEN_CACHE= emcc
WASM_FLAGS   := -O2

# The kernel sources and headers the build reads, from branch v6.12.
$(TREE_V612)/.stamp: $(KERNEL_LIST) kernel-tree/linux/.git/reclaim-lab-tree-key \
		$(shell find wasm/overlay -type f)
	@echo "[wasm] reading $$(grep -cv '^#\|^$$' $(KERNEL_LIST)) files from branch v6.12 of kernel-tree/linux"
	@rm -rf $(TREE_V612) && mkdir -p $(TREE_V612)
	@grep -v '^#' $(KERNEL_LIST) | grep . | xargs git -C kernel-tree/linux archive v6.12 -- \
		| tar -x -C $(TREE_V612)
	@cp -r wasm/overlay/v6.12/. $(TREE_V612)/
	@touch $@

# Objects: build/<flavour>/obj/<k|p|h>-<name>.o, for kernel files (k, from
# the tree), project code compiled as kernel code (p) and host code (h).
# Flavours: native (ASan + UBSan, for tests), bench (optimised, no
# sanitizers, for measuring) and wasm.
CC_native := $(NATIVE_CC) $(NATIVE_FLAGS)
CC_bench  := $(NATIVE_CC) -O2 -g
CC_wasm   := $(EMCC) $(WASM_FLAGS)
CC_fuzz   := $(NATIVE_CC) $(NATIVE_FLAGS) -fsanitize=fuzzer-no-link
FLAVOURS  := native bench wasm fuzz

KOBJ = $(addprefix build/$(1)/obj/k-,$(notdir $(KERNEL_SRCS:.c=.o))) \
       $(addprefix build/$(1)/obj/p-,$(notdir $(GLUE_SRCS:.c=.o) $(SCEN_SRCS:.c=.o)))
HOBJ = $(addprefix build/$(1)/obj/h-,$(notdir $(HOST_SRCS:.c=.o)))
KOBJ_NATIVE = $(call KOBJ,native)
HOBJ_NATIVE = $(call HOBJ,native)
KOBJ_WASM   = $(call KOBJ,wasm)
HOBJ_WASM   = $(call HOBJ,wasm)

# $(1) flavour, $(2) source
define kernel_rule
build/$(1)/obj/k-$(notdir $(2:.c=.o)): $(TREE_V612)/.stamp $(SHIM_DEPS)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $(2) (v6.12)"
	@$$(CC_$(1)) $(KCFLAGS) $(KASAN_FLAGS) -DSIM_TREE='"v6.12"' -c $(TREE_V612)/$(2) -o $$@
endef
define project_rule
build/$(1)/obj/p-$(notdir $(2:.c=.o)): $(2) $(TREE_V612)/.stamp $(SHIM_DEPS) wasm/scenarios/scenario.h wasm/glue/glue.h
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $(2)"
	@$$(CC_$(1)) $(KCFLAGS) $(KASAN_FLAGS) -DSIM_TREE='"project"' -c $(2) -o $$@
endef
define host_rule
build/$(1)/obj/h-$(notdir $(2:.c=.o)): $(2) $(HOST_DEPS)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $(2)"
	@$$(CC_$(1)) $(HCFLAGS) -c $(2) -o $$@
endef
HOST_PROGS := wasm/cli/labrun.c wasm/bridge/bridge.c wasm/tests/test_runtime.c \
              wasm/tests/test_shrinker_lifetime.c wasm/tests/test_planted_bugs.c \
              wasm/tests/test_kernel_api.c wasm/tests/test_fuzz_ops.c wasm/fuzz/fuzz_shrinkers.c
$(eval $(call project_rule,native,wasm/tests/litmus_kernel.c))
$(foreach f,$(FLAVOURS),$(foreach s,$(KERNEL_SRCS),$(eval $(call kernel_rule,$(f),$(s)))))
$(foreach f,$(FLAVOURS),$(foreach s,$(GLUE_SRCS) $(SCEN_SRCS),$(eval $(call project_rule,$(f),$(s)))))
$(foreach f,$(FLAVOURS),$(foreach s,$(HOST_SRCS) $(HOST_PROGS),$(eval $(call host_rule,$(f),$(s)))))

build/native/labrun: $(KOBJ_NATIVE) $(HOBJ_NATIVE) build/native/obj/h-labrun.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@
build/bench/labrun: $(call KOBJ,bench) $(call HOBJ,bench) build/bench/obj/h-labrun.o
	@echo "  LD [bench] $@"
	@$(CC_bench) $^ -o $@

# The event ABI for TypeScript, generated from events.def by a C program.
build/native/gen_events_ts: wasm/tools/gen_events_ts.c $(HOST_DEPS)
	@mkdir -p $(@D)
	@gcc -m32 $(HCFLAGS) $< -o $@
web/src/engine/generated/events.ts: build/native/gen_events_ts
	@mkdir -p $(@D)
	@$< > $@.tmp && mv $@.tmp $@
	@echo "  GEN $@"

# wasm: every exported function of the bridge, listed once.
WASM_EXPORTS := $(shell tr -d ' \n' < wasm/bridge/exports.json)
WASM_LINK := -sASYNCIFY -sASYNCIFY_STACK_SIZE=65536 -sALLOW_MEMORY_GROWTH=1 \
             -sINITIAL_MEMORY=33554432 -sTOTAL_STACK=1048576

build/wasm/labrun.cjs: $(KOBJ_WASM) $(HOBJ_WASM) build/wasm/obj/h-labrun.o
	@echo "  LD [wasm]   $@ (Node)"
	@$(EMCC) $(WASM_FLAGS) $(WASM_LINK) -sENVIRONMENT=node -sEXIT_RUNTIME=1 \
		-sNODERAWFS=0 $^ -o $@

web/src/engine/generated/reclaimlab.mjs: $(KOBJ_WASM) $(HOBJ_WASM) build/wasm/obj/h-bridge.o wasm/bridge/exports.json
	@mkdir -p $(@D)
	@echo "  LD [wasm]   $@ (browser worker)"
	@$(EMCC) $(WASM_FLAGS) $(WASM_LINK) -sENVIRONMENT=worker -sMODULARIZE=1 -sEXPORT_ES6=1 \
		-sEXPORT_NAME=createReclaimLab -sEXIT_RUNTIME=0 \
		-sEXPORTED_FUNCTIONS='$(WASM_EXPORTS)' \
		-sEXPORTED_RUNTIME_METHODS='["UTF8ToString","stringToUTF8","lengthBytesUTF8"]' \
		$(filter %.o,$^) -o $@

.PHONY: native wasm
native: build/native/labrun
wasm: build/wasm/labrun.cjs web/src/engine/generated/reclaimlab.mjs web/src/engine/generated/events.ts \
      web/public/kernel/.stamp

# Native tests, with AddressSanitizer and UBSan.
build/native/test_runtime: $(filter-out build/native/obj/h-registry.o,$(HOBJ_NATIVE)) build/native/obj/h-test_runtime.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@
build/native/test_shrinker_lifetime: $(KOBJ_NATIVE) $(HOBJ_NATIVE) build/native/obj/h-test_shrinker_lifetime.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@

build/native/test_planted_bugs: $(KOBJ_NATIVE) $(HOBJ_NATIVE) build/native/obj/h-test_planted_bugs.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@

build/native/test_kernel_api: $(filter-out build/native/obj/h-registry.o,$(HOBJ_NATIVE)) \
		build/native/obj/p-litmus_kernel.o build/native/obj/h-test_kernel_api.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@

build/native/test_fuzz_ops: $(KOBJ_NATIVE) $(HOBJ_NATIVE) build/native/obj/h-test_fuzz_ops.o
	@echo "  LD [native] $@"
	@$(CC_native) $^ -o $@

NATIVE_TESTS := build/native/test_runtime build/native/test_kernel_api \
                build/native/test_shrinker_lifetime build/native/test_planted_bugs \
                build/native/test_fuzz_ops

.PHONY: test-native test-determinism determinism
test-native: $(NATIVE_TESTS)
	@for t in $(NATIVE_TESTS); do ASAN_OPTIONS=detect_leaks=0 $$t || exit 1; done

# The same seed gives the same log natively and in wasm under Node.
test-determinism: build/native/labrun build/wasm/labrun.cjs
	@wasm/tests/determinism.sh 20
determinism: build/native/labrun build/wasm/labrun.cjs
	@wasm/tests/determinism.sh 100

# The files the code pane shows: each kernel file the build reads, exactly
# as it is on its branch (not the overlay), and the project's own files
# events can point into, under web/public/kernel/<tree>/<path>.
web/public/kernel/.stamp: $(TREE_V612)/.stamp $(GLUE_SRCS) $(SCEN_SRCS)
	@rm -rf web/public/kernel && mkdir -p web/public/kernel/v6.12 web/public/kernel/project
	@grep -v '^#' $(KERNEL_LIST) | grep . | xargs git -C kernel-tree/linux archive v6.12 -- \
		| tar -x -C web/public/kernel/v6.12
	@cp --parents $(GLUE_SRCS) $(SCEN_SRCS) web/public/kernel/project/
	@touch $@
	@echo "  GEN web/public/kernel (sources for the code pane)"

# Real runs for the web engine's unit tests, written by the native CLI.
build/fixtures/shrinker-lifetime-1/events.bin: build/native/labrun
	@mkdir -p $(@D)
	@ASAN_OPTIONS=detect_leaks=0 build/native/labrun --scenario shrinker-lifetime --seed 1 --dump $(@D) 2>/dev/null

# libFuzzer (clang's, from Debian): random programs and schedules against
# the real shrinker and list_lru code. make fuzz FUZZ_SECONDS=600
FUZZ_SECONDS ?= 60
build/fuzz/fuzz_shrinkers: $(call KOBJ,fuzz) $(call HOBJ,fuzz) build/fuzz/obj/h-fuzz_shrinkers.o
	@echo "  LD [fuzz] $@"
	@$(CC_fuzz) -fsanitize=fuzzer $^ -o $@

.PHONY: fuzz
fuzz: build/fuzz/fuzz_shrinkers
	@mkdir -p build/fuzz/corpus build/fuzz/crashes
	@echo "[fuzz] $(FUZZ_SECONDS) s; corpus in build/fuzz/corpus, crashes in build/fuzz/crashes"
	@ASAN_OPTIONS=detect_leaks=0 build/fuzz/fuzz_shrinkers -max_total_time=$(FUZZ_SECONDS) \
		-max_len=256 -artifact_prefix=build/fuzz/crashes/ -print_final_stats=1 build/fuzz/corpus
