#!/usr/bin/env bash
# package.sh - build the Debian package of mcpcheck, and check it.
#
# Usage: scripts/package.sh [BUILD_DIR]   (default: build-package)
# Configures a release tree without tests (if it is not there), builds the
# two programs and their manuals, packs mcpcheck_VERSION_ARCH.deb with cpack
# into BUILD_DIR/package/, and runs lintian on it when lintian is installed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$ROOT/build-package}"
if [[ ! -f $dir/CMakeCache.txt ]]; then
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
fi
cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
(cd "$dir" && cpack -G DEB >/dev/null)
deb=$(ls -t "$dir"/package/mcpcheck_*.deb | head -n 1)
if command -v lintian >/dev/null; then
  lintian --fail-on error "$deb"
fi
echo "package: $deb"
