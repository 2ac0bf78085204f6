#!/usr/bin/env bash
# What one Plates change costs as a person's change log grows (issue #23, D11), in a release build:
# a tap now, a late spot from an outbox, a late Reset Game and a New Trip, after 10, 1,000 and
# 10,000 changes of history, side by side with 10 (the baseline) in one run.
# Writes bench/results/plates-changes.txt.
#   bench/plates-changes.sh [--histories 10,1000,10000] [--rounds N]   (options go to pocket-bench plates-changes)
# POCKET_BENCH_BIN: a prebuilt binary (skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
require_swift

if [ -z "${POCKET_BENCH_BIN:-}" ]; then
  echo "==> swift build -c release (PocketBench)" >&2
  release_build --product PocketBench >&2
fi
bench="${POCKET_BENCH_BIN:-$(release_bin_path)/PocketBench}"
mkdir -p bench/results
"$bench" plates-changes "$@" | tee bench/results/plates-changes.txt
echo "==> wrote bench/results/plates-changes.txt" >&2
