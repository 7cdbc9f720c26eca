#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (browser downloads are impossible on our machines).
# `npm test` runs this first, so a fresh machine needs no hand-installed browser.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[heed] $browser is missing: installing Debian's chromium (once)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "[heed] the browser tests need Chromium at $browser: install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH" >&2
exit 1
