#!/usr/bin/env bash
# Times every Conference screen's query (p50/p99) on the full-size synthetic database, through
# the real ConferenceLibrary, in a release build. Writes bench/results/conference-queries.txt.
#   bench/conference-queries.sh [--iterations N]      (extra options go to pocket-bench)
# POCKET_BIN / POCKET_BENCH_BIN: prebuilt binaries (skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
require_swift

if [ -z "${POCKET_BIN:-}" ] || [ -z "${POCKET_BENCH_BIN:-}" ]; then
  echo "==> swift build -c release (pocket, PocketBench)" >&2
  swift build -c release --product pocket >&2
  swift build -c release --product PocketBench >&2
  bin="$(swift build -c release --show-bin-path)"
fi
pocket="${POCKET_BIN:-$bin/pocket}"
bench="${POCKET_BENCH_BIN:-$bin/PocketBench}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/pocket-bench-queries-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
"$pocket" conference generate-synthetic "$scratch/synthetic.db" >&2

mkdir -p bench/results
"$bench" conference-queries --database "$scratch/synthetic.db" "$@" 2>"$scratch/stderr.log" | tee bench/results/conference-queries.txt \
  || { cat "$scratch/stderr.log" >&2; exit 1; }
echo "==> wrote bench/results/conference-queries.txt" >&2
