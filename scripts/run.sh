#!/usr/bin/env bash
# run.sh - build if needed, then run the conformance library against a server.
#
#   scripts/run.sh                        test the bundled reference server
#   scripts/run.sh -- CMD ARGS...         test another server, started from CMD
#   scripts/run.sh [RUN-OPTIONS] -- CMD   pass options to `mcpcheck run`
#                                         (e.g. --profile FILE, --strict, --filter GLOB)
#
# CMD runs in the directory run.sh was started from, so a relative path
# (python3 server.py) names the caller's file; relative option values
# (--profile FILE) are read from there too. Reports go to the mcpcheck
# folder's reports/latest/ unless --report-dir says otherwise; the console
# ends with "N passed, N failed".
set -euo pipefail

CALLER="$PWD"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
(cd "$ROOT" && "$ROOT/scripts/setup.sh" default)
cd "$CALLER"

opts=()
report_dir=("--report-dir" "$ROOT/reports/latest")
while (($#)) && [[ $1 != "--" ]]; do
  [[ $1 == --report-dir || $1 == --report-dir=* ]] && report_dir=()
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
"$ROOT/build/bin/mcpcheck" run --jobs "$(nproc 2>/dev/null || echo 2)" "${report_dir[@]}" \
  "${opts[@]}" -- "${target[@]}"
status=$?
set -e
if ((${#report_dir[@]})); then
  echo "run.sh: reports are in ${ROOT}/reports/latest/ (exit $status)"
else
  echo "run.sh: exit $status"
fi
exit $status
