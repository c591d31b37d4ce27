#!/usr/bin/env bash
# test_diff_traces.sh - the bundled MCP schemas against the official ones on
# every message the scenario library exchanges with the reference server:
# `mcpcheck run` at each protocol version it runs, then test_schema_diff
# --traces on the traces it wrote. A version the run does not support yet
# (exit 2) is reported and left out; at least one version must run.
# usage: test_diff_traces.sh MCPCHECK REFSERVER TEST_SCHEMA_DIFF BUNDLED_DIR OFFICIAL_DIR
set -u
MC=$1 REF=$2 DIFF=$3 BUNDLED=$4 OFFICIAL=$5
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ ! -d "$OFFICIAL" ]; then
    echo "FAIL: official schemas not found at $OFFICIAL (the spec is expected at ../shared/spec)"
    exit 1
fi
args=()
for v in 2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28; do
    "$MC" run --spec-version "$v" --jobs 2 --report-dir "$T/$v" -- "$REF" >"$T/$v.log" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] || [ ! -d "$T/$v/traces" ]; then
        echo "note: no run at $v (mcpcheck run exit $rc): $(tail -1 "$T/$v.log")"
        continue
    fi
    echo "run at $v: $(ls "$T/$v/traces" | wc -l) traces ($(tail -1 "$T/$v.log"))"
    args+=(--traces "$v" "$T/$v/traces")
done
if [ "${#args[@]}" -eq 0 ]; then
    echo "FAIL: no version ran"
    exit 1
fi
"$DIFF" "$BUNDLED" "$OFFICIAL" "${args[@]}" | grep -v "^deliberate"
exit "${PIPESTATUS[0]}"
