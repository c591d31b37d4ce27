#!/usr/bin/env bash
# run.sh - build if needed, then test an MCP server.
#
#   scripts/run.sh                 test the bundled reference server
#   scripts/run.sh -- CMD ARGS...  test another server, started from CMD
#
# For now the job is `mcpcheck ping` (initialize + ping); it becomes the full
# scenario run once the scenario runner lands.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/setup.sh" default

if [[ ${1:-} == "--" ]]; then
  shift
  (($#)) || { echo "run.sh: no server command after --" >&2; exit 2; }
  target=("$@")
elif (($#)); then
  echo "usage: scripts/run.sh [-- CMD ARGS...]" >&2
  exit 2
else
  target=("$ROOT/build/bin/mcpcheck-refserver")
fi

echo "run.sh: running 'mcpcheck ping' (initialize + ping) against: ${target[*]}"
exec "$ROOT/build/bin/mcpcheck" ping -- "${target[@]}"
