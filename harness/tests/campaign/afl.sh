#!/usr/bin/env bash
# afl.sh MCPCHECK REFSERVER DRIVER DEEP_SRC [REFSERVER_AFL] - mcpcheck-afl-driver
# under afl-fuzz: two instances (-M, -S) sharing one sync directory against
# the reference server built by afl-clang-fast (REFSERVER_AFL, the build's
# mc-refserver-afl; the plain REFSERVER without it) with a violation switch
# find it; `mcpcheck fuzz --import-afl` turns
# the crashes into a scenario that fails against that server and passes
# against the clean one; the clean server gives no crash within the same
# budget. Then the server's own coverage: deep_target.c (DEEP_SRC) built by
# afl-clang-fast grows afl-fuzz's corpus, its plain build does not.
# Budgets are executions (afl-fuzz -E); the timeouts are hang budgets only.
set -u
MC=$1 RS=$2 DRV=$3 DEEP_SRC=$4 RS_AFL=${5:-}
. "$(dirname "$0")/../testenv.sh"
[[ -n $DRV && -x $DRV ]] || unavailable "mcpcheck-afl-driver was not built (no afl-clang-fast when configuring)"
command -v afl-fuzz >/dev/null || unavailable "afl-fuzz not found"
command -v afl-clang-fast >/dev/null || unavailable "afl-clang-fast not found"

EXECS=120         # per instance: the switch shows in 16 to 38 (six instances seen)
HANG=$((180 * MC_TEST_MULT))  # per afl-fuzz run; the ASan tree takes about 60 s
TMP=$(mktemp -d)
GROUPS_STARTED=()
cleanup() {
    local g
    for g in "${GROUPS_STARTED[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
    rm -rf "$TMP"
}
trap cleanup EXIT
[[ -n ${AFL_TEST_KEEP:-} ]] && trap - EXIT
fail() { echo "FAIL: $*"; exit 1; }
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
export AFL_NO_WARN_INSTABILITY=1 AFL_QUIET=1
# A marker in the server's arguments lets us look for leftover processes.
mkdir -p "$TMP/root"
left_behind() {
    local i
    for i in $(seq 1 $((20 * MC_TEST_MULT))); do
        pgrep -f -- "--root $TMP/root" >/dev/null || return 1
        sleep 0.25
    done
    return 0
}

# Seeds that show nothing on their own (afl-fuzz refuses crashing seeds):
# a sequence as JSON, and bytes the grammar decodes (no ping among them).
mkdir -p "$TMP/seeds"
printf '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]' >"$TMP/seeds/list.json"
head -c 16 /dev/zero >"$TMP/seeds/zeros"

# fuzz NAME SYNC ROLE [DRIVER_ARGS...] -- SERVER...: one afl-fuzz instance
# in a process group of its own, in the background; its pid in LAST.
fuzz() {
    local name=$1 sync=$2 role=$3
    shift 3
    setsid afl-fuzz -i "$TMP/seeds" -o "$sync" "$role" "$name" -E "$EXECS" -t 20000 \
        -- "$DRV" --hang-ms 2000 "$@" >"$sync.$name.log" 2>&1 &
    LAST=$!
    GROUPS_STARTED+=("$LAST")
}

# campaign SYNC SERVER...: -M and -S on one sync directory, waited for.
campaign() {
    local sync=$1 m s waited=0
    shift
    fuzz main "$sync" -M -- "$@"; m=$LAST
    fuzz s1 "$sync" -S -- "$@"; s=$LAST
    while kill -0 "$m" 2>/dev/null || kill -0 "$s" 2>/dev/null; do
        sleep 1
        waited=$((waited + 1))
        [[ $waited -lt $HANG ]] || { tail -5 "$sync".*.log; fail "afl-fuzz still runs after ${HANG}s"; }
    done
    wait "$m" "$s"
    echo "$(basename "$sync"): -M and -S ran $EXECS executions each in ${waited}s" \
        "(crashes at: $(ls "$sync"/*/crashes/ | sed -n 's/.*,time:\([0-9]*\),execs:\([0-9]*\),.*/\2 execs, \1 ms/p' | tr '\n' ';'))"
    for i in main s1; do
        [[ $(execs "$sync/$i") -ge $EXECS ]] ||
            { tail -20 "$sync.$i.log"; fail "instance $i of $sync did not run its $EXECS executions"; }
    done
}
execs() { sed -n 's/^execs_done *: //p' "$1/fuzzer_stats" 2>/dev/null | grep . || echo 0; }
crashes() { ls "$1"/*/crashes/id:* 2>/dev/null | wc -l; }

# The server afl-fuzz runs against: instrumented when the build made it.
FZ=$RS
[[ -n $RS_AFL && -x $RS_AFL ]] && FZ=$RS_AFL
echo "server under afl-fuzz: $FZ"

# 1. The violation switch, found by either instance.
campaign "$TMP/bad" "$FZ" --inject duplicate-response --root "$TMP/root"
n=$(crashes "$TMP/bad")
[[ $n -ge 1 ]] || { tail -20 "$TMP"/bad.*.log; fail "duplicate-response: no crash in $EXECS executions per instance"; }
left_behind && fail "a server process was left behind (afl-fuzz, injected)"

# 2. The crashes imported: one minimized finding, lint-clean, failing against
#    the faulty server and passing against the clean one. Without crash
#    files the same import finds nothing.
"$MC" fuzz --import-afl "$TMP/bad" --out "$TMP/imp" -- "$FZ" --inject duplicate-response \
    --root "$TMP/root" 2>"$TMP/imp.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/imp.err"; fail "--import-afl: exit $rc, want 1"; }
grep -q "$n crash files\? under" "$TMP/imp.err" || { cat "$TMP/imp.err"; fail "--import-afl did not read the $n crash files"; }
[[ $(wc -l <"$TMP/imp/findings/index.tsv") -eq 1 ]] || { cat "$TMP/imp/findings/index.tsv"; fail "want one finding (deduplicated by signature)"; }
grep -q "wire/single-response" "$TMP/imp/findings/index.tsv" || fail "the imported finding is not wire/single-response"
f=$(ls "$TMP/imp/findings/"wire-single-response-*.jsonc | head -1)
[[ -f ${f%.jsonc}.jsonl ]] || fail "no trace next to $f"
[[ $(grep -c '"raw"' "$f") -le 2 ]] || { cat "$f"; fail "not minimized"; }
"$MC" lint "$f" >/dev/null || fail "the imported finding is not lint-clean"
"$MC" run --report-dir "$TMP/r1" --scenarios "$f" -- "$RS" --inject duplicate-response >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "the imported reproducer does not fail against the faulty server"
"$MC" run --report-dir "$TMP/r2" --scenarios "$f" -- "$RS" >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "the imported reproducer fails against the clean server"
mkdir -p "$TMP/none/crashes"
"$MC" fuzz --import-afl "$TMP/none" --out "$TMP/imp0" -- "$RS" --inject duplicate-response \
    --root "$TMP/root" 2>"$TMP/imp0.err"
[[ $? -eq 0 ]] || { cat "$TMP/imp0.err"; fail "an import of no crash has findings"; }
left_behind && fail "a server process was left behind (import)"

# 3. The clean server: no crash within the same budget.
campaign "$TMP/clean" "$FZ" --root "$TMP/root"
n=$(crashes "$TMP/clean")
[[ $n -eq 0 ]] || { cat "$TMP"/clean/*/crashes/id:* | head -c 2000; fail "the clean server gave $n crashes"; }
left_behind && fail "a server process was left behind (afl-fuzz, clean)"

# 4. An instrumented server's coverage reaches afl-fuzz: new corpus entries
#    with the afl-clang-fast build of deep_target.c, none with its plain
#    build (the driver's own edges do not change between test cases).
afl-clang-fast -O1 -o "$TMP/deep-afl" "$DEEP_SRC" $(pkg-config --cflags --libs json-c) ||
    fail "cannot build deep_target.c with afl-clang-fast"
cc -O1 -o "$TMP/deep-plain" "$DEEP_SRC" $(pkg-config --cflags --libs json-c) ||
    fail "cannot build deep_target.c"
found() { sed -n 's/^corpus_found *: //p' "$1/main/fuzzer_stats"; }
for kind in afl plain; do
    fuzz main "$TMP/cov-$kind" -M -- "$TMP/deep-$kind"
    waited=0
    while kill -0 "$LAST" 2>/dev/null; do
        sleep 1
        waited=$((waited + 1))
        [[ $waited -lt $HANG ]] || fail "afl-fuzz still runs after ${HANG}s (deep-$kind)"
    done
done
pgrep -f -- "$TMP/deep-" >/dev/null && sleep 2 && pgrep -f -- "$TMP/deep-" >/dev/null &&
    fail "a server process was left behind (deep target)"
echo "deep target: $(found "$TMP/cov-afl") new corpus entries instrumented, $(found "$TMP/cov-plain") plain"
[[ $(found "$TMP/cov-afl") -gt 0 ]] || fail "the instrumented server's coverage did not reach afl-fuzz"
[[ $(found "$TMP/cov-plain") -eq 0 ]] || fail "new corpus entries without an instrumented server"
echo "OK"
