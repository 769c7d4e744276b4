# SPDX-License-Identifier: GPL-2.0-only
.DEFAULT_GOAL := help
include wasm/build.mk
help:
	@echo "make start | make test"
