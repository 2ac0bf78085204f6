#!/usr/bin/env bash
# Murals benchmarks in a release build: full sync of 10,000 murals and incremental syncs of 10
# changes from a loopback service, ordering 10,000 murals by distance, and GET /murals with 1,000.
# Writes bench/results/murals.txt.
#   bench/murals.sh [--count N] [--full-rounds N] ...   (options go to pocket-bench murals)
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

log="$(mktemp "${TMPDIR:-/tmp}/pocket-bench-murals-XXXXXX.log")"
trap 'rm -f "$log"' EXIT
mkdir -p bench/results
# The servers' access log goes to stderr; only the results are kept.
"$bench" murals "$@" 2>"$log" | tee bench/results/murals.txt || { cat "$log" >&2; exit 1; }
echo "==> wrote bench/results/murals.txt" >&2
