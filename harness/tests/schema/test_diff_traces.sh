#!/usr/bin/env bash
# test_diff_traces.sh - the bundled MCP schemas against the official ones on
# every message the scenario library exchanges with the reference server:
# test_schema_diff --traces on the traces of each protocol version that
# scenario/library-refserver's run wrote (it keeps its report in REPORT_DIR,
# the fixture library-run; the whole library, every version the server
# speaks). Every version the report says ran must have its traces.
# usage: test_diff_traces.sh REPORT_DIR TEST_SCHEMA_DIFF BUNDLED_DIR OFFICIAL_DIR
set -u
REPORT=$1 DIFF=$2 BUNDLED=$3 OFFICIAL=$4
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ ! -d "$OFFICIAL" ]; then
    echo "FAIL: official schemas not found at $OFFICIAL (the spec is expected at ../shared/spec)"
    exit 1
fi
if [ ! -f "$REPORT/report.json" ] || [ ! -d "$REPORT/traces" ]; then
    echo "FAIL: no report with traces in $REPORT (scenario/library-refserver writes it)"
    exit 1
fi
versions=$(python3 -c 'import json, sys
print(" ".join(sorted({s["version"] for s in json.load(open(sys.argv[1]))["scenarios"]})))' \
    "$REPORT/report.json")
args=()
for v in $versions; do
    mkdir -p "$T/$v"
    for f in "$REPORT/traces/"*"@$v.jsonl"; do
        [ -f "$f" ] && ln -s "$f" "$T/$v/"
    done
    n=$(ls "$T/$v" | wc -l)
    echo "run at $v: $n traces"
    if [ "$n" -eq 0 ]; then
        echo "FAIL: the report lists runs at $v but no trace of them"
        exit 1
    fi
    args+=(--traces "$v" "$T/$v")
done
if [ "${#args[@]}" -eq 0 ]; then
    echo "FAIL: no version ran"
    exit 1
fi
"$DIFF" "$BUNDLED" "$OFFICIAL" "${args[@]}" | grep -v "^deliberate"
exit "${PIPESTATUS[0]}"
