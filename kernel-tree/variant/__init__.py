# SPDX-License-Identifier: GPL-2.0-only
"""A reviewer's kernel: any patch series against the files the lab compiles,
applied on a branch the lab builds and built as that branch's variant is.

  kernel-tree/variant.sh add FROM BASE NAME   (make variant FROM=... BASE=... NAME=...)
  kernel-tree/variant.sh list                 (make variants)
  kernel-tree/variant.sh rm NAME              (make variant-rm NAME=...)
  kernel-tree/variant.sh check NAME [REF] [SEEDS]   (make variant-check)
  kernel-tree/variant.sh report NAME          (make variant-report)
  kernel-tree/variant.sh spec TREE BASE NEW SPEC OUT   (an extraction spec
                                              followed through a series)

FROM is an mbox (as lore and b4 give it: cover letter, patches in any
order, replies skipped), a folder of git format-patch files, or a branch
or commit range of kernel-tree/linux (a branch: its commits on top of
BASE). BASE is a branch of kernel-tree/linux that a kernel of the registry
(kernel-tree/manifest.json "kernels") is built from (v6.12, v6.1,
srcu-shrinkers, break-no-wait...) or that kernel's name. The series is
applied as git am applies it (git mailinfo, git apply, a commit per patch
with its author, date and message, and its Message-ID as git am
--message-id records it) onto branch variant/NAME, without touching the
checkout. Then:

  - every line the series changes must be in what the lab compiles for
    BASE: its file list (wasm/kernel-files-*.txt) and, for a file compiled
    from extracted functions (wasm/extract/*.txt), those functions;
    PARTIAL=1 accepts a series that also changes other code (listed);
  - a function whose declaration changes must not be one the glue or the
    scenarios call;
  - NAME is built natively (ASan + UBSan) and in wasm, for Node and the
    page, with BASE's glue, file list, extraction specs and overlay;
  - then the report (below) is made, unless REPORT=0.

The reviewer's registry is variants/NAME/ (git-ignored): variant.json
(what the page and the What changed panel read), variant.mk (what
wasm/build.mk reads), series.mbox (the patches as applied) and the browser
module. Any failure removes the branch, the build directories and the
registry entry.

check compares NAME with REF (default: its base) on every scenario NAME
runs, seeds 1..SEEDS (default 3): natively, the event logs with each
kernel's own branch name replaced by one placeholder, and NAME natively
against NAME in wasm; the first differing event is printed with both lines.

report writes variants/NAME/report.txt: every scenario natively (ASan +
UBSan, the simulated KASAN and lockdep), seeds 1..VARIANT_SEEDS (3), each
report with its schedule, a replay command and a link that opens it in
the page (the scene the registry says runs that scenario on the base);
check against the base; VARIANT_FUZZ_RUNS (2000) executions of libFuzzer
on the variant; the explorer on shrinker-lifetime's small race where the
base is searched on it; the UML referee where the base has a User-Mode
Linux build (make kunit).

Modules: lab (the lab's kernels and the reviewer's registry), series (the
messages of a series, sorted), apply (git am on a scratch index), spec
(an extraction spec followed through a series), compiled (what a series
changes against what the lab compiles), check, report, cli.
"""
