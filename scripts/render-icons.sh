#!/usr/bin/env bash
# Render the Pocket icon family (hand-written SVGs) to the PNG sizes used by
# the web app manifest, iOS home-screen bookmarks and the favicon.
#
# Usage (from the repository root):   scripts/render-icons.sh
#
# Sources:  Sources/PocketWeb/Resources/Public/icons/pocket.svg
#           Sources/PocketWeb/Resources/Public/icons/apps/<name>.svg
# Outputs:  PNGs next to the SVGs (committed as assets).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ICONS="Sources/PocketWeb/Resources/Public/icons"

if ! command -v rsvg-convert >/dev/null 2>&1; then
  echo "rsvg-convert not found; installing librsvg2-bin" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y librsvg2-bin
fi

render() { # render <svg> <size> <png>
  rsvg-convert --width "$2" --height "$2" --keep-aspect-ratio \
    --format png --output "$3" "$1"
  echo "  $3 (${2}x${2})"
}

echo "Rendering Pocket icons into $ICONS"

# Web app manifest (purpose "any" and "maskable"). The artwork is full-bleed
# with the motif kept inside the central safe zone, so the maskable icon is the
# same render.
render "$ICONS/pocket.svg" 192 "$ICONS/pocket-192.png"
render "$ICONS/pocket.svg" 512 "$ICONS/pocket-512.png"
render "$ICONS/pocket.svg" 512 "$ICONS/pocket-maskable-512.png"

# iOS home-screen icons (iOS applies its own rounded mask).
render "$ICONS/pocket.svg" 180 "$ICONS/apple-touch-icon.png"
render "$ICONS/pocket.svg" 120 "$ICONS/pocket-120.png"
render "$ICONS/pocket.svg" 152 "$ICONS/pocket-152.png"
render "$ICONS/pocket.svg" 167 "$ICONS/pocket-167.png"

# Favicon.
render "$ICONS/pocket.svg" 32 "$ICONS/favicon-32.png"

# Springboard icons for each app.
for svg in "$ICONS"/apps/*.svg; do
  name="$(basename "$svg" .svg)"
  render "$svg" 180 "$ICONS/apps/$name-180.png"
done

echo "Done."
