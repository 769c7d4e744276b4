#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A reviewer's patch series as a kernel of the lab: make variant, variants,
# variant-rm, variant-check, variant-report. The logic is the Python
# package kernel-tree/variant/ (its __init__.py says what each command
# does; kernel-tree/tests/test_variant_*.py test it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHONPATH=kernel-tree${PYTHONPATH:+:$PYTHONPATH} exec python3 -m variant "$@"
