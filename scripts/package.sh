#!/usr/bin/env bash
# Builds the Debian package pocket_<version>_amd64.deb from scripts/run.sh's release build: the
# stripped binary with its resource bundles beside it (where Bundle.module looks) in
# /usr/lib/pocket, `pocket` on the PATH, the unit `pocket service unit` makes (reading the
# settings in /etc/default/pocket), the service user through sysusers.d, and Depends computed by
# dpkg-shlibdeps from what the binary loads, Built-Using naming the static archives linked in. The
# version is `pocket --version`'s (PocketVersion). lintian finds no errors once the two
# embedded-library overrides (zlib, expat) are read; scripts/debian/pocket.lintian-overrides says why.
#
#   scripts/package.sh [--revision N] [--output DIR]
#
# --revision N packages the same Pocket again as <version>-N (a Debian revision: a packaging
# change, ordered after the package without one), with no new build.
set -euo pipefail
umask 022
cd "$(dirname "$0")/.."
. scripts/lib.sh

revision="" output="$PWD"
while [ $# -gt 0 ]; do
  case "$1" in
    --revision) [[ "${2:-}" =~ ^[0-9][0-9a-z.+~]*$ ]] || { echo "pocket: --revision takes a number such as 2" >&2; exit 2; }; revision="$2"; shift 2 ;;
    --output) [ -n "${2:-}" ] || { echo "pocket: --output takes a folder" >&2; exit 2; }; output="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "pocket: unknown argument '$1' (scripts/package.sh --help)" >&2; exit 2 ;;
  esac
done
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || { echo "pocket: the package is built for amd64, on amd64" >&2; exit 1; }

require_swift
ensure_debs "${build_debs[@]}" dpkg-dev fakeroot binutils
echo "==> building Pocket (release)" >&2
release_build --product pocket >&2
bin="$(release_bin_path)"
version="$("$bin/pocket" --version)"
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || { echo "pocket: '$version' is not a Debian version" >&2; exit 1; }
package_version="$version${revision:+-$revision}"

work="$(mktemp -d "${TMPDIR:-/tmp}/pocket-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"
here="scripts/debian"

echo "==> staging pocket $package_version" >&2
install -d "$root/usr/lib/pocket" "$root/usr/bin" "$root/lib/systemd/system" "$root/usr/lib/sysusers.d" \
  "$root/etc/default" "$root/usr/share/doc/pocket" "$root/DEBIAN"
install -m 0755 "$bin/pocket" "$root/usr/lib/pocket/pocket"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/lib/pocket/pocket"
# Bundle.module looks beside the running binary (the symlink resolved), so the bundles go there.
for bundle in "$bin"/*.resources; do
  cp -R "$bundle" "$root/usr/lib/pocket/"
done
ln -s ../lib/pocket/pocket "$root/usr/bin/pocket"
# One source for the unit: the binary itself makes it, as `pocket service unit` does for anyone.
"$root/usr/lib/pocket/pocket" service unit --executable /usr/bin/pocket --environment-file /etc/default/pocket \
  >"$root/lib/systemd/system/pocket.service"
install -m 0644 "$here/pocket.sysusers" "$root/usr/lib/sysusers.d/pocket.conf"
install -m 0644 "$here/pocket.default" "$root/etc/default/pocket"
install -m 0644 "$here/copyright" "$root/usr/share/doc/pocket/copyright"
install -d "$root/usr/share/lintian/overrides"
install -m 0644 "$here/pocket.lintian-overrides" "$root/usr/share/lintian/overrides/pocket"
install -d "$root/usr/share/man/man1"
gzip -9n <"$here/pocket.1" >"$root/usr/share/man/man1/pocket.1.gz"
for script in postinst prerm postrm; do install -m 0755 "$here/$script" "$root/DEBIAN/$script"; done
echo /etc/default/pocket >"$root/DEBIAN/conffiles"
find "$root" -type d -exec chmod 0755 {} +
find "$root/usr/lib/pocket" -type f -name '*' ! -path "$root/usr/lib/pocket/pocket" -exec chmod 0644 {} +

# The changelog: a native package (no revision) has changelog.gz, a revised one changelog.Debian.gz.
maintainer="$(git log -1 --format='%an <%ae>' 2>/dev/null || echo "Pocket maintainers <pocket@localhost>")"
changelog="$root/usr/share/doc/pocket/changelog${revision:+.Debian}"
{
  echo "pocket ($package_version) stable; urgency=medium"
  echo
  echo "  * Pocket $version${revision:+, packaged again (revision $revision)}: see README.md."
  echo
  echo " -- $maintainer  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
} >"$changelog"
gzip -9n "$changelog"

# Depends: exactly the shared libraries the binary loads (dpkg-shlibdeps reads its NEEDED entries
# and the packages' symbol files; it wants a debian/control to sit in).
mkdir -p "$work/src/debian"
printf 'Source: pocket\n\nPackage: pocket\nArchitecture: amd64\n' >"$work/src/debian/control"
shlibs="$(cd "$work/src" && dpkg-shlibdeps -O -e"$root/usr/lib/pocket/pocket" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$shlibs" ] || { echo "pocket: dpkg-shlibdeps found no libraries in the binary" >&2; exit 1; }

# Built-Using: the Debian sources whose static archives scripts/ld-static-libs links in (Policy 7.8).
built_using="$(dpkg-query -W -f='${source:Package} (= ${source:Version}), ' libexpat1-dev libsqlite3-dev libdeflate-dev \
  "$(dpkg -S "$(gcc -print-file-name=libstdc++.a)" | cut -d: -f1)" | sed 's/, $//')"
[ -n "$built_using" ] || { echo "pocket: cannot name the static libraries' Debian sources" >&2; exit 1; }

cat >"$root/DEBIAN/control" <<CONTROL
Package: pocket
Version: $package_version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $shlibs, passwd
Built-Using: $built_using
Recommends: avahi-daemon, libnss-mdns, libjs-leaflet
Section: web
Priority: optional
Description: five classic mobile apps served to the household's phones
 Pocket serves five classic phone apps as mobile web apps from one machine on
 the home network: Conference (the Scripture Citation Index), Remote (a TV and
 DVR remote), Murals (the New Brighton murals on a map), Converter (an exact
 unit converter) and Plates (the license plate game), each person with their
 own data. It runs at boot as the unprivileged pocket user,
 serves HTTPS with its own certificate authority (ports 8443 and 8080), keeps
 its data in /var/lib/pocket and backs it up every day. Settings are in
 /etc/default/pocket; the owner's one-time setup link is printed by
 "sudo pocket setup-link".
CONTROL

(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum >DEBIAN/md5sums)

mkdir -p "$output"
deb="$output/pocket_${package_version}_amd64.deb"
fakeroot dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
