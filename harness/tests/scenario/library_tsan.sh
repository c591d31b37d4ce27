#!/usr/bin/env bash
# library_tsan.sh SRC_DIR TREE_DIR REFSERVER - the run's worker threads
# under ThreadSanitizer: builds mcpcheck alone with MC_TSAN=ON (Debug) into
# TREE_DIR, then runs the whole library at every version against the
# default tree's REFSERVER, over stdio and over Streamable HTTP, with
# --jobs 4 (more workers than cores: more interleavings). The workers share
# the parsed scenarios, the schemas and the suite's tables; a data race on
# any of them (json-c keeps a value's serialized text inside the value, so
# even reading one as text writes to it) fails the test with TSan's report.
# Each run must also write its report and pass every scenario.
set -u
SRC=$1 TREE=$2 RS=$3
. "$(dirname "$0")/../testenv.sh"

# ccache, when installed, as scripts/setup.sh uses it.
launcher=()
if command -v ccache >/dev/null 2>&1 && [[ -z ${MCPCHECK_NO_CCACHE:-} ]]; then
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$SRC}
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
if [[ ! -f $TREE/CMakeCache.txt ]]; then
    cmake -S "$SRC" -B "$TREE" -DCMAKE_BUILD_TYPE=Debug -DMC_TSAN=ON "${launcher[@]}" \
        >"$TREE.configure.log" 2>&1 || {
        cat "$TREE.configure.log"
        echo "FAIL: a ThreadSanitizer tree does not configure here"
        exit 1
    }
fi
if ! cmake --build "$TREE" --target mcpcheck -j "$(nproc 2>/dev/null || echo 2)" \
    >"$TREE.build.log" 2>&1; then
    tail -40 "$TREE.build.log"
    echo "FAIL: mcpcheck does not build with ThreadSanitizer ($TREE.build.log)"
    exit 1
fi

TMP=$(mktemp -d)
mkdir -p "$TMP/root"
# A race halts mcpcheck at once (TSan's exit), before it can stop the server
# it started: the marker in the server's arguments (an empty --root) finds
# what is left.
cleanup() {
    pkill -KILL -f -- "--root $TMP/root" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
# halt_on_error: the first race ends the run with TSan's exit code (66).
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
status=0
run() {
    local name=$1 last
    shift
    timeout $((600 * MC_TEST_MULT)) "$TREE/bin/mcpcheck" run --jobs 4 --spec-version all \
        --scenarios "$SRC/scenarios" --report-dir "$TMP/$name" "$@" \
        >"$TMP/$name.out" 2>"$TMP/$name.err"
    local rc=$?
    last=$(tail -1 "$TMP/$name.out")
    if grep -q "ThreadSanitizer" "$TMP/$name.err"; then
        echo "FAIL: $name: ThreadSanitizer reports a race (exit $rc):"
        grep -A40 "WARNING: ThreadSanitizer" "$TMP/$name.err" | head -80
        status=1
    elif [[ $rc -ne 0 || ! -f $TMP/$name/report.json || $last != *" 0 failed"* ]]; then
        echo "FAIL: $name: exit $rc, report $([[ -f $TMP/$name/report.json ]] && echo written || echo missing): $last"
        tail -20 "$TMP/$name.err"
        status=1
    else
        echo "ok: $name: $last"
    fi
}
run stdio -- "$RS" --root "$TMP/root"
run http --url http://127.0.0.1:0/mcp -- "$RS" --http 127.0.0.1:0 --root "$TMP/root"
exit $status
