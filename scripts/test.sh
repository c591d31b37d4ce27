#!/usr/bin/env bash
# test.sh - install what is missing, build the default and the ASan+UBSan
# trees, and run every test on both. Ends with ctest's summary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/setup.sh" default asan

jobs="$(nproc 2>/dev/null || echo 2)"
status=0
for dir in build build-asan; do
  echo "test.sh: ctest in $dir/"
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 600 || status=1
done
exit $status
