#!/usr/bin/env bash
# Times every Conference screen's query (p50/p99) through the real ConferenceLibrary, in a release
# build, on the full-size synthetic database (1×) and on the same database with 7× as much older
# history behind it (8×), side by side, asking both the same questions. Writes
# bench/results/conference-queries.txt.
#   bench/conference-queries.sh [--iterations N]      (extra options go to PocketBench)
# POCKET_BIN / POCKET_BENCH_BIN: prebuilt binaries (skips the build).
# SCALE: the larger database's size in full sizes (default 8; 1 measures the full size alone).
# RESULTS: where to write the table (default bench/results/conference-queries.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
require_swift

if [ -z "${POCKET_BIN:-}" ] || [ -z "${POCKET_BENCH_BIN:-}" ]; then
  echo "==> swift build -c release (pocket, PocketBench)" >&2
  release_build --product pocket >&2
  release_build --product PocketBench >&2
  bin="$(release_bin_path)"
fi
pocket="${POCKET_BIN:-$bin/pocket}"
bench="${POCKET_BENCH_BIN:-$bin/PocketBench}"
scale="${SCALE:-8}"
results="${RESULTS:-bench/results/conference-queries.txt}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/pocket-bench-queries-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
"$pocket" conference generate-synthetic "$scratch/synthetic.db" >&2
databases=(--database "$scratch/synthetic.db")
if [ "$scale" != 1 ]; then
  "$pocket" conference generate-synthetic --scale "$scale" "$scratch/synthetic-${scale}x.db" >&2
  databases+=(--database "$scratch/synthetic-${scale}x.db")
fi

mkdir -p "$(dirname "$results")"
"$bench" conference-queries "${databases[@]}" "$@" 2>"$scratch/stderr.log" | tee "$results" \
  || { cat "$scratch/stderr.log" >&2; exit 1; }
echo "==> wrote $results" >&2
