#!/usr/bin/env bash
# Builds Pocket in release mode and serves it (default http://127.0.0.1:8080).
# Extra arguments go to `pocket serve`, e.g. scripts/run.sh --host 0.0.0.0 --port 8443.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
require_swift
ensure_debs "${build_debs[@]}" libjs-leaflet
echo "==> building Pocket (release)"
release_build --product pocket
exec "$(release_bin_path)/pocket" serve "$@"
