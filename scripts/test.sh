#!/usr/bin/env bash
# test.sh - install what is missing, build the default and the ASan+UBSan
# trees, and run every test on both. Ends with each tree's ctest summary.
#
# The default tree is built first and its tests start at once; the sanitizer
# tree is built (at a lower priority) and tested beside them. Most tests wait
# on servers rather than compute, and the default tree's longest tests run
# alone at its end (RUN_SERIAL): the sanitizer tree's tests fill that time.
# Each line of the sanitizer tree's output is prefixed with "asan| ".
#
# Usage: scripts/test.sh [--one-tree-at-a-time] [CTEST_ARGS...]
#   --one-tree-at-a-time  build and test the trees one after the other (a
#                         quieter machine for a test that is being debugged)
#   CTEST_ARGS            given to both ctest runs, e.g. -R '^report/'
#                         (.ci/run gives none: every test)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

together=1
if [[ ${1:-} == --one-tree-at-a-time ]]; then
  together=0
  shift
fi
ctest_args=("$@")

jobs="$(nproc 2>/dev/null || echo 2)"
run_ctest() {
  echo "test.sh: ctest in $1/"
  ctest --test-dir "$1" -j "$jobs" --output-on-failure --timeout 600 "${ctest_args[@]}"
}

if ((!together)); then
  "$ROOT/scripts/setup.sh" default asan
  status=0
  run_ctest build || status=1
  run_ctest build-asan || status=1
  exit $status
fi

"$ROOT/scripts/setup.sh" default
# The sanitizer tree's half runs as a job of its own (its own process group),
# so that an interrupted or failed run can stop all of it. Its build is
# niced (the default tree's tests start beside it), its tests are not: its
# strict runs (scenario/library-refserver, http/library) judge how soon the
# reference server answers, and a niced run beside the default tree's busy
# tests would be starved into findings the server does not have.
set -m
(
  set -o pipefail
  { nice -n 10 "$ROOT/scripts/setup.sh" asan && run_ctest build-asan; } 2>&1 | sed -u 's/^/asan| /'
) &
asan_pid=$!
set +m
trap 'kill -TERM -- "-$asan_pid" 2>/dev/null || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

status=0
run_ctest build || status=1
wait "$asan_pid" || status=1
trap - EXIT
if ((status)); then
  echo "test.sh: FAILED (see the summaries above: build/ unprefixed, build-asan/ as asan|)"
else
  echo "test.sh: both trees passed"
fi
exit $status
