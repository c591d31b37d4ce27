#!/bin/sh
# Interop test: the official TypeScript SDK client against mcpcheck-refserver.
# usage: run.sh REFSERVER SCRATCH_DIR
# Installs @modelcontextprotocol/sdk into SCRATCH_DIR (kept between runs, so
# a second run is fast) and runs interop.mjs. Exits 77 (skip) with a reason
# when node/npm are missing or the package cannot be installed; when CI is
# set (as .ci/run sets it) that is a failure instead (exit 1), as in
# harness/tests/testenv.sh. MCPCHECK_TEST_TIMEOUT_MULTIPLIER stretches its
# time limits.
set -u
REFSERVER=$1
SCRATCH=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../testenv.sh"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    unavailable "node and npm are needed for the SDK interop test"
fi
mkdir -p "$SCRATCH" || exit 1
if ! cmp -s "$HERE/package.json" "$SCRATCH/package.json" || [ ! -d "$SCRATCH/node_modules/@modelcontextprotocol/sdk" ]; then
    cp "$HERE/package.json" "$SCRATCH/package.json"
    if ! (cd "$SCRATCH" && timeout $((300 * MC_TEST_MULT)) npm install --no-audit --no-fund --loglevel=error >npm-install.log 2>&1); then
        rm -f "$SCRATCH/package.json"
        unavailable "npm install of @modelcontextprotocol/sdk failed (network?); see $SCRATCH/npm-install.log"
    fi
fi
cp "$HERE/interop.mjs" "$SCRATCH/interop.mjs"
exec timeout $((60 * MC_TEST_MULT)) node "$SCRATCH/interop.mjs" "$REFSERVER"
