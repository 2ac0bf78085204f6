# Shared by run.sh and test.sh: install what a fresh Debian/Ubuntu machine with Swift lacks.
# Sourced, not run.

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    echo "pocket: need root (or sudo) to install: $*" >&2; return 1; fi
}

apt_updated=0
# ensure_debs PACKAGE... : installs the Debian packages that are not installed yet.
ensure_debs() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "pocket: please install ${missing[*]} (no apt-get on this machine)" >&2; return 1
  fi
  echo "==> installing ${missing[*]}"
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

require_swift() {
  command -v swift >/dev/null 2>&1 && return 0
  [ -x /opt/swift/usr/bin/swift ] && { export PATH="/opt/swift/usr/bin:$PATH"; return 0; }
  echo "pocket: the Swift toolchain (6.2 or newer) is required: see https://www.swift.org/install/linux/" >&2
  return 1
}

# The release build every script uses (run.sh and bench/), with the same flags so that none of
# them rebuilds what another built. The Swift runtime and Foundation are linked into the binary
# (--static-swift-stdlib): a process then starts without loading and binding a dozen shared
# libraries, which was most of a `pocket convert` call (bench/README.md). lld links it (GNU ld
# warns about a mktemp call inside the toolchain's static Foundation, lld does not), through
# scripts/ld-static-libs, which takes libstdc++, SQLite and expat from their static archives for
# the same reason.
release_flags=(-c release --static-swift-stdlib -Xswiftc "-ld-path=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ld-static-libs")
# The Debian packages Pocket's own C libraries come from (system-library targets), needed by every
# build: run.sh, test.sh and the benchmarks all name this one list.
build_debs=(libsqlite3-dev zlib1g-dev libqrencode-dev libexpat1-dev libdeflate-dev)
release_build() { ensure_debs "${build_debs[@]}"; swift build "${release_flags[@]}" "$@"; }
release_bin_path() { swift build "${release_flags[@]}" --show-bin-path; }
