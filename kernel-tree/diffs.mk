# SPDX-License-Identifier: GPL-2.0-only
#
# The "What changed" panel's data: real diffs between the branches of
# kernel-tree/linux (each registry kernel's against its base, v6.1..v6.12
# function by function), with the real line numbers of both sides. See the top of
# kernel-tree/diffs.py for the JSON it writes.
#
# web/public/kernel/ is removed and remade by the rule for
# web/public/kernel/.stamp (wasm/build.mk), so the stamp is a normal
# prerequisite: when that directory is remade, so is this file.

# It also maps each variant to the branch it is built from (wasm/build.mk's
# <variant>_BRANCH), so that the panel finds a variant's comparisons, and
# compares each reviewer variant (make variant) with its base.
web/public/kernel/diffs.json: kernel-tree/diffs.py kernel-tree/linux/.git/reclaim-lab-tree-key \
		web/public/kernel/.stamp wasm/build.mk kernel-tree/manifest.json kernel-tree/kernels.py \
		$(wildcard variants/*/variant.json)
	@python3 kernel-tree/diffs.py kernel-tree/linux $@ $(foreach v,$(LAB_VARIANTS),$(v)=$($(v)_BRANCH)) \
		$(foreach r,$(REVIEW_VARIANTS),--review variants/$(r)/variant.json)
	@echo "  GEN $@ (diffs for the What changed panel)"
