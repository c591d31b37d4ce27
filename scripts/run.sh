#!/usr/bin/env bash
# run.sh - build if needed, then run the conformance library against a server.
#
#   scripts/run.sh                        test the bundled reference server
#   scripts/run.sh -- CMD ARGS...         test another server, started from CMD
#   scripts/run.sh [RUN-OPTIONS] -- CMD   pass options to `mcpcheck run`
#                                         (e.g. --profile FILE, --strict, --filter GLOB)
#
# Reports go to reports/latest/ (report.json); the console shows one line per
# scenario and ends with "N passed, N failed".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/setup.sh" default

opts=()
while (($#)) && [[ $1 != "--" ]]; do
  opts+=("$1")
  shift
done
if [[ ${1:-} == "--" ]]; then
  shift
  (($#)) || { echo "run.sh: no server command after --" >&2; exit 2; }
  target=("$@")
else
  target=("$ROOT/build/bin/mcpcheck-refserver")
fi

echo "run.sh: mcpcheck run ${opts[*]:-} -- ${target[*]}"
set +e
"$ROOT/build/bin/mcpcheck" run --jobs "$(nproc 2>/dev/null || echo 2)" "${opts[@]}" -- "${target[@]}"
status=$?
set -e
echo "run.sh: reports are in ${ROOT}/reports/latest/ (exit $status)"
exit $status
