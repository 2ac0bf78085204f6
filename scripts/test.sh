#!/usr/bin/env bash
# Runs every test: the Swift build, `swift test`, the JavaScript tests, then the command-line and
# browser suites against the real server, built for release as scripts/run.sh builds it, and the
# Debian package made from that build.
# Installs what is missing (libsqlite3-dev, zlib1g-dev, libqrencode-dev, libexpat1-dev, libdeflate-dev, libjs-leaflet, chromium, chromium-driver, caddy, nodejs, libnss3-tools, systemd for systemd-analyze, WebKitGTK's driver with xvfb, mmdebstrap, lintian and dpkg-dev for the package, selenium, pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
require_swift
ensure_debs "${build_debs[@]}" libjs-leaflet chromium chromium-driver openssl curl iproute2 units caddy nodejs libnss3-tools systemd \
  webkit2gtk-driver xvfb gir1.2-webkit2-4.1 python3-gi mmdebstrap lintian dpkg-dev fakeroot binutils
if ! python3 -c "import selenium, pytest" >/dev/null 2>&1; then
  echo "==> installing the browser suite's Python packages"
  python3 -m pip install --quiet --disable-pip-version-check -r e2e/browser/requirements.txt
fi

echo "==> swift build"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests --explicit-target-dependency-import-check error >"$log" 2>&1; then cat "$log"; exit 1; fi
# Pocket builds without warnings; the only ones allowed are dependencies' notes about files they do not use.
if grep -E "(error|warning):" "$log" | grep -vE "unhandled|/\.build/checkouts/"; then
  echo "pocket: the build printed warnings (above)" >&2; exit 1
fi

# Every module a target imports is declared in Package.swift (SwiftPM's own check above does
# nothing on Linux with Swift 6.3, so a script reads the imports).
python3 scripts/check-imports.py

echo "==> swift test"
swift test --skip-build

echo "==> JavaScript unit tests (node --test)"
# Pocket's modules are plain .js files served as ES modules; Node 20 reads them as such with
# --experimental-detect-module (the default from Node 22).
node --experimental-detect-module --test Tests/JavaScript/

# The suites run the binary people run: scripts/run.sh's release build, linked as it links it.
# The optimiser can break what -Onone gets right (docs/testing.md: a Swift 6.3.1 miscompile that
# only the browser suite against a release build showed).
echo "==> swift build -c release (pocket, as scripts/run.sh builds it)"
if ! release_build --product pocket >"$log" 2>&1; then cat "$log"; exit 1; fi
if grep -E "(error|warning):" "$log" | grep -vE "unhandled|/\.build/checkouts/"; then
  echo "pocket: the release build printed warnings (above)" >&2; exit 1
fi
pocket="$(release_bin_path)/pocket"

echo "==> command-line suite"
POCKET_BIN="$pocket" python3 -m pytest e2e/cli -q

echo "==> browser suite"
POCKET_BIN="$pocket" python3 -m pytest e2e/browser -q "$@"

# A phone reaches Pocket over its own HTTPS, with HTTP/2: the service worker's offline behaviour,
# cache keys and the outbox again that way, in a Chromium that trusts Pocket's certificate authority.
echo "==> browser suite over Pocket's own HTTPS (offline and outbox)"
POCKET_E2E_HTTPS=1 POCKET_BIN="$pocket" python3 -m pytest -q e2e/browser/test_offline.py e2e/browser/test_outbox.py \
  e2e/browser/test_conference_offline.py e2e/browser/test_converter_offline.py e2e/browser/test_murals_offline.py \
  e2e/browser/test_plates_offline.py

# Every iPhone browser is WebKit: the smoke set and the Murals map's tiles again, in WebKitGTK.
echo "==> WebKit suite"
POCKET_BIN="$pocket" python3 -m pytest e2e/webkit -q

# A household installs the Debian package: built from the same release build, installed, upgraded
# and removed in a throwaway Debian root (needs root for chroot).
echo "==> package suite"
POCKET_BIN="$pocket" python3 -m pytest e2e/package -q
