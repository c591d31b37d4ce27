#!/bin/sh
# Interop test: the official TypeScript SDK client against mcpcheck-refserver.
# usage: run.sh REFSERVER SCRATCH_DIR
# Installs @modelcontextprotocol/sdk into SCRATCH_DIR (kept between runs, so
# a second run is fast) and runs interop.mjs. Exits 77 (skip) with a reason
# when node/npm are missing or the package cannot be installed.
set -u
REFSERVER=$1
SCRATCH=$2
HERE=$(cd "$(dirname "$0")" && pwd)

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "SKIP: node and npm are needed for the SDK interop test"
    exit 77
fi
mkdir -p "$SCRATCH" || exit 1
if ! cmp -s "$HERE/package.json" "$SCRATCH/package.json" || [ ! -d "$SCRATCH/node_modules/@modelcontextprotocol/sdk" ]; then
    cp "$HERE/package.json" "$SCRATCH/package.json"
    if ! (cd "$SCRATCH" && timeout 300 npm install --no-audit --no-fund --loglevel=error >npm-install.log 2>&1); then
        echo "SKIP: npm install of @modelcontextprotocol/sdk failed (network?); see $SCRATCH/npm-install.log"
        rm -f "$SCRATCH/package.json"
        exit 77
    fi
fi
cp "$HERE/interop.mjs" "$SCRATCH/interop.mjs"
exec timeout 60 node "$SCRATCH/interop.mjs" "$REFSERVER"
