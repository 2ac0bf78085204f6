#!/usr/bin/env bash
# Issue #14's measurement: the Conference talk page and the Plates list rendered three ways side by
# side in one release run (today's Mustache, Mustache with MustacheParent models and explicit
# templates from bench/templates, Plot), after checking that the three give the same HTML.
# Counts heap allocations by preloading bench/malloc-count.c when a C compiler is at hand, then
# times the type-checking of the page files (bench/render-typecheck.py). Writes bench/results/render.txt.
#   bench/render.sh [--renders N] [--warmup N] [--html DIR]   (options go to pocket-bench render)
# POCKET_BENCH_BIN: a prebuilt binary (skips the build). POCKET_BENCH_SCRATCH: the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
require_swift

scratch=()
[ -n "${POCKET_BENCH_SCRATCH:-}" ] && scratch=(--scratch-path "$POCKET_BENCH_SCRATCH")
if [ -z "${POCKET_BENCH_BIN:-}" ]; then
  echo "==> swift build -c release (PocketBench)" >&2
  release_build "${scratch[@]}" --product PocketBench >&2
fi
bench="${POCKET_BENCH_BIN:-$(swift build "${release_flags[@]}" "${scratch[@]}" --show-bin-path)/PocketBench}"

work="$(mktemp -d "${TMPDIR:-/tmp}/pocket-bench-render-XXXXXX")"
trap 'rm -rf "$work"' EXIT
preload=""
if cc -O2 -shared -fPIC -o "$work/malloc-count.so" bench/malloc-count.c 2>"$work/cc.log"; then
  preload="$work/malloc-count.so"
else
  echo "==> no C compiler: allocations are not counted" >&2
fi

mkdir -p bench/results
LD_PRELOAD="$preload" "$bench" render --root "$PWD" "$@" | tee bench/results/render.txt

# The build folder whose release.yaml holds PocketBench's compiler arguments: three levels above the binary.
build="$(cd "$(dirname "$(realpath "$bench")")/../.." && pwd)"
if [ -f "$build/release.yaml" ]; then
  { echo; python3 bench/render-typecheck.py "$build"; } | tee -a bench/results/render.txt
else
  echo "==> no $build/release.yaml: type-checking time not measured" >&2
fi
echo "==> wrote bench/results/render.txt" >&2
