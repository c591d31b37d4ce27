#!/usr/bin/env bash
# bench.sh - benchmarks (never tests). Each subcommand is a function.
#
#   scripts/bench.sh validate   schema validation throughput: parse (as the
#                               command parses a line), validate, parse+validate
#                               on fixed MCP messages,
#                               next to Ajv 8 + ajv-formats when node and npm
#                               are present; then `mcpcheck validate` end to end
#                               on a ~90 MB JSONL trace vs an equivalent Ajv script.
#   scripts/bench.sh server     the server benchmark (scripts/bench-server.sh
#                               when present; otherwise not yet)
#   scripts/bench.sh server --http, scripts/bench.sh library --http
#                               the same over Streamable HTTP (scripts/bench-http.sh)
#   scripts/bench.sh fuzz [S]   `mcpcheck fuzz` sequences/s and messages/s for S
#                               seconds (default 10) against a trivial echo
#                               server (the harness's ceiling), the reference
#                               server (stdio and HTTP; BENCH_FUZZ_2026=1: also
#                               at the stateless 2026-07-28) and, with
#                               BENCH_EVERYTHING set to its command, server-
#                               everything over stdio; one worker and --jobs at
#                               the core count; MCPCHECK_BASELINE_BIN=another
#                               mcpcheck (the previous main's) runs beside it,
#                               BENCH_REPEAT (3) rounds, medians and ratios
#   scripts/bench.sh fuzz-coverage [SWITCH...]  AFL++ coverage on vs off, side
#                               by side: per refserver switch (needs build-afl)
#                               and then the deep target, how many of
#                               BENCH_SEEDS (5) seeds, from BENCH_SEED_FIRST
#                               (1), found the bug within a budget of
#                               sequences, and the median sequences
#                               (BENCH_DEEP=0: without the deep target)
#   scripts/bench.sh fuzz-coverage-deep  the deep target alone (tests/campaign/
#                               deep_target.c, built with afl-clang-fast)
#   scripts/bench.sh library    wall time of the whole scenario library with
#                               --jobs 2 (median of BENCH_REPEAT rounds, default
#                               5), the default (scenarios that only read share a
#                               process) and --fresh-process side by side in each
#                               round, against the reference server and, with
#                               BENCH_EVERYTHING set to its command, server-
#                               everything; BENCH_BASE=another mcpcheck binary
#                               (the previous main's) runs beside them;
#                               BENCH_JOBS sets --jobs (default 2). Each
#                               variant's last report stays in
#                               BUILD_DIR/bench-library/LABEL/ (compare the
#                               verdicts of two with scripts/cmp-reports.py)
#   scripts/bench.sh run        the done-when figures of a conformance run: the
#                               whole library, --jobs BENCH_JOBS (default: the
#                               core count), each variant once a round
#                               (BENCH_REPEAT, default 1) side by side in one
#                               run: this build's default ('shared') and
#                               --fresh-process ('fresh'), and with BENCH_BASE
#                               (another build's mcpcheck, the previous main's)
#                               the same two of it; against the reference
#                               server at every version (each build's own
#                               mcpcheck-refserver beside its mcpcheck) and,
#                               with BENCH_EVERYTHING set to its command,
#                               server-everything at the versions it speaks;
#                               wall time and server processes started (a
#                               wrapper counts them), medians and ratios
#                               (base-fresh / shared is the issue's); the
#                               shared and fresh reports of this build are
#                               held to each other with scripts/cmp-reports.py
#
# Environment: BUILD_DIR (default build), BENCH_SECONDS per measurement
# (default 1), BENCH_SHOW_CHECK=1 the check of each fuzz-coverage finding
# on stderr, BENCH_MB size of the end-to-end trace (default 90),
# BENCH_VERSION protocol version of the bundled schema (default 2025-06-18).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac

usage() {
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

# Writes the Ajv benchmark script into $1.
write_ajv_script() {
    cat >"$1/bench-ajv.js" <<'EOF'
// Ajv 8 + ajv-formats on the same messages and schema as mcpcheck-bench-validate.
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const [schemaFile, msgDir, seconds, mode, jsonl] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema(schema, 'mcp');
const defs = schema.$defs ? '$defs' : 'definitions';
const get = (name) => {
  const v = ajv.getSchema(`mcp#/${defs}/${name}`);
  if (!v) throw new Error(`no definition ${name}`);
  return v;
};
const envResult = get(schema.$defs ? 'JSONRPCResultResponse' : 'JSONRPCResponse');
const envNote = get('JSONRPCNotification');
// Same work as the registry: the envelope, then the method's definition.
const checks = {
  'resources/list-20': (m) => envResult(m) && get('ListResourcesResult')(m.result),
  'resources/read-blob': (m) => envResult(m) && get('ReadResourceResult')(m.result),
  'prompts/get': (m) => envResult(m) && get('GetPromptResult')(m.result),
  'notifications/message': (m) => envNote(m) && get('LoggingMessageNotification')(m),
};

function measure(fn) {
  const limit = BigInt(Math.round(Number(seconds) * 1e9));
  const t0 = process.hrtime.bigint();
  let iters = 0;
  let t;
  do {
    for (let i = 0; i < 64; i++) fn();
    iters += 64;
    t = process.hrtime.bigint() - t0;
  } while (t < limit);
  return iters / (Number(t) / 1e9);
}

if (mode === 'e2e') {
  const t0 = process.hrtime.bigint();
  const text = fs.readFileSync(jsonl, 'utf8');
  const check = checks['resources/list-20'];
  let n = 0;
  let invalid = 0;
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    n++;
    if (!check(JSON.parse(line))) invalid++;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`E2E ajv ${secs.toFixed(3)} ${n} ${invalid}`);
} else {
  for (const [name, check] of Object.entries(checks)) {
    const file = path.join(msgDir, name.replace(/\//g, '_') + '.json');
    const text = fs.readFileSync(file, 'utf8');
    const bytes = Buffer.byteLength(text);
    const parsed = JSON.parse(text);
    if (!check(parsed)) {
      console.error(`ajv: ${name} is not valid: ${JSON.stringify(ajv.errors)}`);
      process.exit(2);
    }
    let sink = 0;
    const rates = {
      parse: measure(() => { sink += JSON.parse(text) ? 1 : 0; }),
      validate: measure(() => { sink += check(parsed) ? 1 : 0; }),
      'parse+validate': measure(() => { sink += check(JSON.parse(text)) ? 1 : 0; }),
    };
    for (const [m, r] of Object.entries(rates))
      console.log(`RESULT ${name} ${m} ${r.toFixed(0)} ${(r * bytes / 1048576).toFixed(1)}`);
    if (sink < 0) console.log(sink);
  }
}
EOF
}

# Installs Ajv into a scratch folder; prints the folder, or nothing when
# node/npm are missing or the install fails.
setup_ajv() {
    local dir=$BUILD_DIR/bench-ajv
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 0
    mkdir -p "$dir"
    if [ ! -d "$dir/node_modules/ajv" ] || [ ! -d "$dir/node_modules/ajv-formats" ]; then
        (cd "$dir" && { [ -f package.json ] || npm init -y >/dev/null 2>&1; } &&
            npm install --no-audit --no-fund --silent ajv@8 ajv-formats@3 >/dev/null 2>&1) ||
            { echo "bench: npm install of ajv failed; Ajv columns skipped" >&2; return 0; }
    fi
    write_ajv_script "$dir"
    echo "$dir"
}

bench_validate() {
    local secs=${BENCH_SECONDS:-1} mb=${BENCH_MB:-90} version=${BENCH_VERSION:-2025-06-18}
    local schema=$ROOT/harness/schemas/$version.json
    local work=$BUILD_DIR/bench-validate
    local ajv c_out ajv_out

    [ -f "$BUILD_DIR/CMakeCache.txt" ] ||
        cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$BUILD_DIR" --target mcpcheck-bench-validate -j2 >/dev/null
    local have_cli=1
    cmake --build "$BUILD_DIR" --target mcpcheck -j2 >/dev/null 2>&1 || have_cli=0
    mkdir -p "$work"
    "$BUILD_DIR/bin/mcpcheck-bench-validate" --emit "$work"

    echo "== mcpcheck schema validation benchmark ($version, bundled schema, $(nproc) cores)"
    c_out=$("$BUILD_DIR/bin/mcpcheck-bench-validate" --version "$version" --seconds "$secs")
    ajv=$(setup_ajv)
    ajv_out=""
    if [ -n "$ajv" ]; then
        ajv_out=$(cd "$ajv" && node bench-ajv.js "$schema" "$work" "$secs" micro)
    else
        echo "(node/npm not found: Ajv columns skipped)"
    fi

    printf '\n%-22s %-15s %12s %9s %12s %9s %9s\n' message mode "C msg/s" "C MB/s" \
        "Ajv msg/s" "Ajv MB/s" "C/Ajv"
    awk -v ajv="$ajv_out" '
        BEGIN { n = split(ajv, lines, "\n");
                for (i = 1; i <= n; i++) { split(lines[i], f, " ");
                    if (f[1] == "RESULT") { a[f[2] " " f[3]] = f[4]; am[f[2] " " f[3]] = f[5] } } }
        $1 == "RESULT" {
            k = $2 " " $3; rate[k] = $4
            if (k in a) printf "%-22s %-15s %12.0f %9.1f %12.0f %9.1f %8.2fx\n", $2, $3, $4, $5, a[k], am[k], $4 / a[k]
            else        printf "%-22s %-15s %12.0f %9.1f %12s %9s %9s\n", $2, $3, $4, $5, "-", "-", "-"
            if ($3 == "parse+validate") {
                p = rate[$2 " parse"]; v = rate[$2 " validate"]
                over[$2] = sprintf("%.0f%% (validate-only time / parse-only time); parse+validate vs parse: %.0f%% slower", 100 * p / v, 100 * (p / $4 - 1))
            }
        }
        END { print ""; print "validation cost over parsing:";
              for (m in over) printf "  %-22s %s\n", m, over[m] }
    ' <<<"$c_out"

    if [ "$have_cli" -eq 0 ]; then
        echo; echo "(mcpcheck did not build: end-to-end run skipped)"
        return 0
    fi
    local trace=$work/trace-${mb}mb.jsonl
    [ -f "$trace" ] || "$BUILD_DIR/bin/mcpcheck-bench-validate" --jsonl "$trace" "$mb" >/dev/null
    local size_mb t0 t1 c_secs
    size_mb=$(awk -v b="$(stat -c %s "$trace")" 'BEGIN { printf "%.1f", b / 1048576 }')
    echo; echo "== end to end: $size_mb MB JSONL of resources/list results"
    # Each side runs BENCH_REPEAT times (default 3), alternately, and the
    # fastest run of each is compared: on a shared machine the fastest run is
    # the one least disturbed by other work.
    local repeat=${BENCH_REPEAT:-3} i a_secs="" e2e t
    c_secs=""
    for ((i = 0; i < repeat; i++)); do
        t0=$(date +%s.%N)
        "$BUILD_DIR/bin/mcpcheck" validate --quiet --spec-version "$version" \
            --result-of resources/list "$trace" >"$work/e2e.out"
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        c_secs=$(awk -v m="$c_secs" -v t="$t" 'BEGIN { print (m == "" || t < m) ? t : m }')
        if [ -n "$ajv" ]; then
            e2e=$(cd "$ajv" && node --max-old-space-size=4096 bench-ajv.js "$schema" "$work" 0 e2e "$trace")
            t=$(awk '{ print $3 }' <<<"$e2e")
            a_secs=$(awk -v m="$a_secs" -v t="$t" 'BEGIN { print (m == "" || t < m) ? t : m }')
        fi
    done
    cat "$work/e2e.out"
    printf '%-34s %8.3f s %8.1f MB/s (fastest of %d)\n' "mcpcheck validate" "$c_secs" \
        "$(awk -v s="$size_mb" -v t="$c_secs" 'BEGIN { print s / t }')" "$repeat"
    if [ -n "$ajv" ]; then
        printf '%-34s %8.3f s %8.1f MB/s (fastest of %d)\n' "node + Ajv (readFile, JSON.parse)" \
            "$a_secs" "$(awk -v s="$size_mb" -v t="$a_secs" 'BEGIN { print s / t }')" "$repeat"
        awk -v c="$c_secs" -v a="$a_secs" \
            'BEGIN { printf "mcpcheck runs at %.2fx the speed of Ajv end to end (target >= 0.66x)\n", a / c }'
    fi
}

# One timed run of the library: $1 label, $2 the mcpcheck binary, then its
# options and "--" and the server command. Appends "label seconds" to $LIB_TIMES.
time_library() {
    local label=$1 bin=$2 t0 t1 out
    shift 2
    t0=$(date +%s.%N)
    # A server with findings exits 1: the time counts all the same.
    out=$("$bin" run --jobs "${BENCH_JOBS:-2}" --report-dir "$BUILD_DIR/bench-library/$label" "$@" | tail -1) || true
    t1=$(date +%s.%N)
    echo "$label $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >>"$LIB_TIMES"
    echo "  $label: $out" >&2
}

bench_library() {
    local repeat=${BENCH_REPEAT:-5} i
    local rs="$BUILD_DIR/bin/mcpcheck-refserver" mc="$BUILD_DIR/bin/mcpcheck"
    cmake --build "$BUILD_DIR" --target mcpcheck mcpcheck-refserver -j2 >/dev/null
    LIB_TIMES=$(mktemp)
    echo "== the scenario library, --jobs ${BENCH_JOBS:-2}, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);"
    echo "   each round runs every variant"
    echo "   side by side: 'shared' (the default: scenarios that only read share a"
    echo "   process), 'fresh' (--fresh-process)${BENCH_BASE:+, 'base' ($BENCH_BASE)}"
    for ((i = 0; i < repeat; i++)); do
        time_library refserver-shared "$mc" -- "$rs"
        time_library refserver-fresh "$mc" --fresh-process -- "$rs"
        [ -z "${BENCH_BASE:-}" ] || time_library refserver-base "$BENCH_BASE" -- "$rs"
        if [ -n "${BENCH_EVERYTHING:-}" ]; then
            # shellcheck disable=SC2086
            time_library everything-shared "$mc" --profile "$ROOT/scenarios/profiles/everything.json" -- $BENCH_EVERYTHING
            # shellcheck disable=SC2086
            time_library everything-fresh "$mc" --fresh-process --profile "$ROOT/scenarios/profiles/everything.json" -- $BENCH_EVERYTHING
            # shellcheck disable=SC2086
            [ -z "${BENCH_BASE:-}" ] || time_library everything-base "$BENCH_BASE" --profile "$ROOT/scenarios/profiles/everything.json" -- $BENCH_EVERYTHING
        fi
    done
    sort -k1,1 -k2n "$LIB_TIMES" | awk '
        { v[$1] = v[$1] " " $2; n[$1]++; s[$1, n[$1]] = $2 }
        END { for (k in n) { m[k] = s[k, int((n[k] + 1) / 2)]; printf "%-20s median %8.3f s  (runs:%s)\n", k, m[k], v[k] }
              for (k in m) if (k ~ /-shared$/) { b = k; sub(/-shared$/, "", b)
                  if ((b "-fresh") in m) printf "%s: fresh / shared = %.2fx\n", b, m[b "-fresh"] / m[k]
                  if ((b "-base") in m) printf "%s: base / shared = %.2fx\n", b, m[b "-base"] / m[k] } }' | sort
    rm -f "$LIB_TIMES"
}

# run_variant LABEL TARGET MCPCHECK [OPTIONS...] -- SERVER...: one run of the
# library through a wrapper that counts the server's starts; appends
# "LABEL TARGET seconds starts" to $RUN_TIMES.
run_variant() {
    local label=$1 target=$2 bin=$3 t0 t1 out starts log
    shift 3
    log="$RUN_TMP/$target-$label.starts"
    : >"$log"
    t0=$(date +%s.%N)
    out=$(MC_BENCH_STARTS=$log "$bin" run --jobs "${BENCH_JOBS:-$(nproc)}" \
        --report-dir "$BUILD_DIR/bench-run/$target-$label" "${@/#--wrap--/$RUN_TMP/wrap.sh}" | tail -1) || true
    t1=$(date +%s.%N)
    starts=$(wc -l <"$log")
    echo "$label $target $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') $starts" >>"$RUN_TIMES"
    echo "  $target $label: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s, $starts starts; $out" >&2
}

bench_run() {
    local repeat=${BENCH_REPEAT:-1} i base=${BENCH_BASE:-} bdir="" profile bfresh bshared
    local rs="$BUILD_DIR/bin/mcpcheck-refserver" mc="$BUILD_DIR/bin/mcpcheck" brs
    cmake --build "$BUILD_DIR" --target mcpcheck mcpcheck-refserver -j2 >/dev/null
    RUN_TMP=$(mktemp -d)
    RUN_TIMES=$RUN_TMP/times
    cat >"$RUN_TMP/wrap.sh" <<'EOF2'
#!/bin/sh
# Counts a start of the server, then becomes it.
echo "$$" >>"$MC_BENCH_STARTS"
exec "$@"
EOF2
    chmod +x "$RUN_TMP/wrap.sh"
    [ -z "$base" ] || bdir=$(cd "$(dirname "$base")/.." && pwd)
    # A build from before shared processes starts a server for every stdio
    # scenario and takes --fresh-process only with --url: its one variant
    # is 'base-fresh', run without the option.
    bfresh=--fresh-process
    bshared=1
    if [ -n "$base" ] && "$base" run --help 2>&1 | grep -q -- '--fresh-process  *with --url'; then
        bfresh=""
        bshared=0
    fi
    brs=$rs
    [ -z "$base" ] || [ ! -x "$bdir/bin/mcpcheck-refserver" ] || brs=$bdir/bin/mcpcheck-refserver
    echo "== the scenario library, --jobs ${BENCH_JOBS:-$(nproc)}, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    for ((i = 0; i < repeat; i++)); do
        run_variant shared refserver "$mc" --spec-version all -- --wrap-- "$rs"
        run_variant fresh refserver "$mc" --spec-version all --fresh-process -- --wrap-- "$rs"
        if [ -n "$base" ]; then
            ((!bshared)) || run_variant base-shared refserver "$base" --spec-version all -- --wrap-- "$brs"
            run_variant base-fresh refserver "$base" --spec-version all $bfresh -- --wrap-- "$brs"
        fi
        if [ -n "${BENCH_EVERYTHING:-}" ]; then
            profile=$ROOT/scenarios/profiles/everything.json
            # shellcheck disable=SC2086
            run_variant shared everything "$mc" --profile "$profile" -- --wrap-- $BENCH_EVERYTHING
            # shellcheck disable=SC2086
            run_variant fresh everything "$mc" --fresh-process --profile "$profile" -- --wrap-- $BENCH_EVERYTHING
            if [ -n "$base" ]; then
                [ ! -f "$bdir/share/mcpcheck/scenarios/profiles/everything.json" ] ||
                    profile=$bdir/share/mcpcheck/scenarios/profiles/everything.json
                # shellcheck disable=SC2086
                ((!bshared)) || run_variant base-shared everything "$base" --profile "$profile" -- --wrap-- $BENCH_EVERYTHING
                # shellcheck disable=SC2086
                run_variant base-fresh everything "$base" $bfresh --profile "$profile" -- --wrap-- $BENCH_EVERYTHING
            fi
        fi
    done
    echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
    sort -k2,2 -k1,1 -k3n "$RUN_TIMES" | awk '
        { k = $2 " " $1; n[k]++; t[k, n[k]] = $3; p[k, n[k]] = $4 }
        END {
            for (k in n) { m = int((n[k] + 1) / 2); mt[k] = t[k, m]; mp[k] = p[k, m]
                printf "%-24s median %8.1f s  %5d server starts\n", k, mt[k], mp[k] }
            for (k in n) if (k ~ / shared$/) { g = k; sub(/ shared$/, "", g)
                if ((g " fresh") in mt) printf "%s: fresh / shared = %.2fx wall, %.2fx starts\n", g, mt[g " fresh"] / mt[k], mp[g " fresh"] / (mp[k] ? mp[k] : 1)
                if ((g " base-fresh") in mt) printf "%s: base-fresh / shared = %.2fx wall, %.2fx starts (the previous main with --fresh-process)\n", g, mt[g " base-fresh"] / mt[k], mp[g " base-fresh"] / (mp[k] ? mp[k] : 1)
                if ((g " base-shared") in mt) printf "%s: base-shared / shared = %.2fx wall, %.2fx starts\n", g, mt[g " base-shared"] / mt[k], mp[g " base-shared"] / (mp[k] ? mp[k] : 1) } }' | sort
    for t in refserver everything; do
        [ -f "$BUILD_DIR/bench-run/$t-shared/report.json" ] || continue
        printf '%s: shared vs fresh, run by run: ' "$t"
        python3 "$ROOT/scripts/cmp-reports.py" "$BUILD_DIR/bench-run/$t-fresh/report.json" \
            "$BUILD_DIR/bench-run/$t-shared/report.json" | tail -1 || true
    done
    rm -rf "$RUN_TMP"
}

bench_server() {
    if [ "${1:-}" = --http ]; then
        exec "$ROOT/scripts/bench-http.sh" server
    fi
    if [ -x "$ROOT/scripts/bench-server.sh" ]; then
        exec "$ROOT/scripts/bench-server.sh" "$@"
    fi
    echo "bench.sh server: not yet" >&2
    return 2
}

# fuzz [SECONDS]: `mcpcheck fuzz` throughput (sequences/s, messages/s) against
# a trivial echo server (the harness's ceiling), the reference server (stdio
# and HTTP; BENCH_FUZZ_2026=1 adds the stateless 2026-07-28 rows) and, with
# BENCH_EVERYTHING set to its command, server-everything over stdio; with one
# worker and with --jobs at the core count. With MCPCHECK_BASELINE_BIN (another
# build's mcpcheck, the previous main's) each campaign runs with both binaries
# in turn, BENCH_REPEAT (3) times, the order swapped every round, and a row
# gives the medians and the ratio new/base: both met the same load. The
# messages counted are the sequences' own (the new binary's barrier pings are
# not counted).
bench_fuzz() {
    local secs=${1:-10} tmp reps=${BENCH_REPEAT:-3} base=${MCPCHECK_BASELINE_BIN:-}
    local cores
    cores=$(nproc 2>/dev/null || echo 2)
    tmp=$(mktemp -d)
    cat >"$tmp/echo.py" <<'PYEOF'
import json, sys
# Answers initialize and ping, and every other request with -32601: valid for
# every method, so the campaign has nothing to minimize.
while True:
    line = sys.stdin.readline()
    if not line:
        break
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if not isinstance(m, dict) or "id" not in m or "method" not in m:
        continue
    out = {"jsonrpc": "2.0", "id": m["id"]}
    if m["method"] == "initialize":
        out["result"] = {"protocolVersion": "2025-06-18", "capabilities": {},
                         "serverInfo": {"name": "echo", "version": "0"}}
    elif m["method"] == "ping":
        out["result"] = {}
    else:
        out["error"] = {"code": -32601, "message": "no such method"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
PYEOF
    if [[ -n $base ]]; then
        [[ -x $base ]] || { echo "bench.sh fuzz: MCPCHECK_BASELINE_BIN $base is not executable" >&2; rm -rf "$tmp"; return 2; }
        printf '# load average at the start: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
        printf '%-20s %4s %10s %10s %6s %12s %12s %6s\n' target jobs base_seq/s seq/s ratio \
            base_msg/s msg/s ratio
    else
        printf '%-20s %4s %10s %12s %12s\n' target jobs seqs/s msgs_out/s msgs_in/s
    fi
    local -a targets=(echo refserver refserver-http)
    [[ ${BENCH_FUZZ_2026:-0} == 1 ]] && targets+=(refserver-2026 refserver-2026-http)
    [[ -n ${BENCH_EVERYTHING:-} ]] && targets+=(everything)
    # one_fuzz BIN OUTDIR JOBS: one campaign; prints "seqs/s msgs_out/s msgs_in/s"
    # summed over the workers' stats files.
    one_fuzz() {
        local bin=$1 out=$2 jobs=$3
        rm -rf "$out"
        "$bin" fuzz --seconds "$secs" --seed 1 --no-minimize --jobs "$jobs" "${opts[@]}" \
            --out "$out" -- "${cmd[@]}" >/dev/null 2>&1 || true
        local f sq=0 mo=0 mi=0 line
        for f in "$out"/stats*.tsv; do
            [[ -f $f ]] || continue
            line=$(tail -1 "$f")
            read -r sq mo mi < <(awk -v a="$sq" -v b="$mo" -v c="$mi" \
                '{ printf "%f %f %f\n", a + $2 / $1, b + $3 / $1, c + $4 / $1 }' <<<"$line")
        done
        echo "$sq $mo $mi"
    }
    median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else print v[int((NR + 1) / 2)] }'; }
    for t in "${targets[@]}"; do
        local cmd=("$BUILD_DIR/bin/mcpcheck-refserver") opts=()
        case $t in
        echo)
            # The C test target answers every request at once (json-c, no
            # logic): the harness's ceiling. The Python one stands in without it.
            cmd=(python3 "$tmp/echo.py")
            [[ -x $BUILD_DIR/tests/bin/mc-test-target ]] && cmd=("$BUILD_DIR/tests/bin/mc-test-target" serve)
            ;;
        refserver-http)
            cmd+=(--http 127.0.0.1:0)
            opts=(--url http://127.0.0.1:0/mcp)
            ;;
        refserver-2026)
            # The stateless protocol: every request carries its _meta.
            opts=(--spec-version 2026-07-28)
            ;;
        refserver-2026-http)
            cmd+=(--http 127.0.0.1:0)
            opts=(--spec-version 2026-07-28 --url http://127.0.0.1:0/mcp)
            ;;
        everything)
            read -r -a cmd <<<"$BENCH_EVERYTHING"
            opts=(--hang-ms 1000 --profile "$ROOT/scenarios/profiles/everything.json")
            ;;
        esac
        local jobs
        for jobs in 1 "$cores"; do
            if [[ -z $base ]]; then
                one_fuzz "$BUILD_DIR/bin/mcpcheck" "$tmp/$t" "$jobs" |
                    awk -v t="$t" -v j="$jobs" '{ printf "%-20s %4s %10.0f %12.0f %12.0f\n", t, j, $1, $2, $3 }'
                continue
            fi
            local r bs=() ns=() bm=() nm=() res
            for ((r = 0; r < reps; r++)); do
                local order=(base new)
                ((r % 2)) && order=(new base)
                local which
                for which in "${order[@]}"; do
                    if [[ $which == base ]]; then
                        res=$(one_fuzz "$base" "$tmp/$t-base" "$jobs")
                        bs+=("$(cut -d' ' -f1 <<<"$res")")
                        bm+=("$(awk '{ print $2 + $3 }' <<<"$res")")
                    else
                        res=$(one_fuzz "$BUILD_DIR/bin/mcpcheck" "$tmp/$t-new" "$jobs")
                        ns+=("$(cut -d' ' -f1 <<<"$res")")
                        nm+=("$(awk '{ print $2 + $3 }' <<<"$res")")
                    fi
                done
            done
            local mbs mns mbm mnm
            mbs=$(printf '%s\n' "${bs[@]}" | median)
            mns=$(printf '%s\n' "${ns[@]}" | median)
            mbm=$(printf '%s\n' "${bm[@]}" | median)
            mnm=$(printf '%s\n' "${nm[@]}" | median)
            awk -v t="$t" -v j="$jobs" -v a="$mbs" -v b="$mns" -v c="$mbm" -v d="$mnm" \
                'BEGIN { printf "%-20s %4s %10.1f %10.1f %6.2f %12.0f %12.0f %6.2f\n", t, j, a, b,
                         (a > 0 ? b / a : 0), c, d, (c > 0 ? d / c : 0) }'
        done
    done
    printf '# load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    rm -rf "$tmp"
}

# Coverage on vs off, measured in sequences run (not seconds: the machine is
# shared, and a budget in executions does not move with its load). Each
# campaign stops at its first finding (--max-findings 1 --no-minimize) or
# after BUDGET sequences; for every seed 1..BENCH_SEEDS, on and off run one
# after the other. A row gives, per mode, how many seeds found the bug
# within the budget and the median number of sequences it took (the budget
# when none), then the ratio off/on of those medians (above 1: coverage got
# there sooner). The reference server is clean, so the first finding of a
# campaign against one switch is that switch's.
#
# fuzz_cov_row LABEL BUDGET TARGET_CMD...
fuzz_cov_row() {
    local label=$1 budget=$2 seed mode n_on=0 n_off=0 tmp
    shift 2
    local -a xon=() xoff=()
    tmp=$(mktemp -d)
    local first=${BENCH_SEED_FIRST:-1}
    for seed in $(seq "$first" $((first + ${BENCH_SEEDS:-5} - 1))); do
        for mode in on off; do
            local flag=() d="$tmp/$mode-$seed" x
            [[ $mode == off ]] && flag=(--no-coverage)
            "$BUILD_DIR/bin/mcpcheck" fuzz "${flag[@]}" "${BENCH_FUZZ_EXTRA[@]}" --jobs 1 \
                --seconds "${BENCH_CAP:-300}" --max-execs "$budget" --max-findings 1 --no-minimize \
                --seed "$seed" --out "$d" -- "$@" >/dev/null 2>&1 || true
            if [[ -s $d/findings/index.tsv ]]; then
                x=$(tail -1 "$d/stats.tsv" | cut -f2)
                # which check the finding broke, on stderr (BENCH_SHOW_CHECK=1)
                [[ -z ${BENCH_SHOW_CHECK:-} ]] ||
                    echo "$label $mode seed $seed: $x $(head -1 "$d/findings/index.tsv" | cut -f2,3)" >&2
                if [[ $mode == on ]]; then n_on=$((n_on + 1)); else n_off=$((n_off + 1)); fi
            else
                x=$budget
            fi
            if [[ $mode == on ]]; then xon+=("$x"); else xoff+=("$x"); fi
        done
    done
    local mon moff
    mon=$(printf '%s\n' "${xon[@]}" | sort -g | sed -n "$(((${#xon[@]} + 1) / 2))p")
    moff=$(printf '%s\n' "${xoff[@]}" | sort -g | sed -n "$(((${#xoff[@]} + 1) / 2))p")
    printf '%-28s %3d/%-3d %8s   %3d/%-3d %8s   %6s   %s | %s\n' "$label" "$n_on" "${#xon[@]}" "$mon" \
        "$n_off" "${#xoff[@]}" "$moff" "$(awk -v a="$moff" -v b="$mon" 'BEGIN { printf "%.2f", a / b }')" \
        "${xon[*]}" "${xoff[*]}"
    rm -rf "$tmp"
}

fuzz_cov_header() {
    printf '%-28s %17s   %17s   %6s   %s\n' "" "coverage on" "coverage off" "off/on" "(sequences, each seed: on | off)"
    printf '%-28s %7s %8s   %7s %8s\n' target found median found median
}

# fuzz-coverage [SWITCH...]: the comparison above on the AFL++-instrumented
# reference server (AFL_BUILD_DIR, default build-afl; `cmake --preset afl &&
# cmake --build build-afl --target mcpcheck-refserver`), run with
# --resources 40 (BENCH_RS_ARGS) so that its lists take several pages;
# BENCH_FUZZ_ARGS adds options to mcpcheck fuzz. Five default switches are
# controls, a budget of BENCH_BUDGET sequences (default 1500) each: chosen
# before measuring as those a campaign's oracles can see (a wire or schema
# rule, no tool call needed) whose trigger needs more than one generic
# request (docs/fuzzing.md says why each), each switch's branch runs for the
# first time in the very request that shows the bug, so no new code can
# lead there before it is found.
# The switch behind a chain of requests in a row (completion-renarrowed-
# objects: three completions of one argument, each typed further, the third
# narrowed from a list already narrowed) is the refserver's counterpart of
# the deep target: each step of the chain gets the answer it gets off the
# chain, and any other request in between breaks it, so the persistent
# process does not build it by chance over several sequences; only the
# server's own code shows the progress. No tool is needed; default
# fixtures (BENCH_STATE_RS_ARGS), a budget of BENCH_CHAIN_BUDGET sequences
# (default 20000).
# The switches behind protocol state (subscribe-again-update-no-uri,
# log-level-number-after-change) are the test: each needs several distinct
# requests in one sequence, each running new server code, whose answers do
# not show the progress, and a tool call last. Their rows name that tool
# safe (--safe-tools; the reference server's other tools, which wait on
# timers or ask the client, are beside the point), run the server with its
# default fixtures (BENCH_STATE_RS_ARGS), and have a budget of
# BENCH_STATE_BUDGET sequences (default 10000).
FUZZ_COV_CONTROLS=(next-cursor-null prompt-image-not-base64 completion-too-many read-uri-mismatch
    blob-not-base64)
FUZZ_COV_STATE=(subscribe-again-update-no-uri log-level-number-after-change)
FUZZ_COV_CHAIN=(completion-renarrowed-objects)
# state_tools SWITCH: the tools the chain of a switch behind state ends with.
state_tools() {
    case $1 in
    subscribe-again-update-no-uri) echo test_trigger_resource_update ;;
    log-level-number-after-change) echo test_logging_levels,test_tool_with_logging ;;
    esac
}
bench_fuzz_coverage() {
    local afl=${AFL_BUILD_DIR:-$ROOT/build-afl} sw
    local -a rsargs=() srsargs=() extra
    read -r -a rsargs <<<"${BENCH_RS_ARGS:---resources 40}"
    read -r -a srsargs <<<"${BENCH_STATE_RS_ARGS:-}"
    read -r -a extra <<<"${BENCH_FUZZ_ARGS:-}"
    local switches=("$@")
    ((${#switches[@]})) || switches=("${FUZZ_COV_CHAIN[@]}" "${FUZZ_COV_STATE[@]}" "${FUZZ_COV_CONTROLS[@]}")
    [[ -x $afl/bin/mcpcheck-refserver ]] || { echo "bench.sh fuzz-coverage: no $afl/bin/mcpcheck-refserver" >&2; return 2; }
    fuzz_cov_header
    for sw in "${switches[@]}"; do
        if [[ " ${FUZZ_COV_CHAIN[*]} " == *" $sw "* ]]; then
            BENCH_FUZZ_EXTRA=("${extra[@]}")
            fuzz_cov_row "$sw" "${BENCH_CHAIN_BUDGET:-20000}" "$afl/bin/mcpcheck-refserver" --inject "$sw" "${srsargs[@]}"
        elif [[ " ${FUZZ_COV_STATE[*]} " == *" $sw "* ]]; then
            BENCH_FUZZ_EXTRA=("${extra[@]}" --safe-tools "$(state_tools "$sw")")
            fuzz_cov_row "$sw" "${BENCH_STATE_BUDGET:-10000}" "$afl/bin/mcpcheck-refserver" --inject "$sw" "${srsargs[@]}"
        else
            BENCH_FUZZ_EXTRA=("${extra[@]}")
            fuzz_cov_row "$sw (control)" "${BENCH_BUDGET:-1500}" "$afl/bin/mcpcheck-refserver" --inject "$sw" "${rsargs[@]}"
        fi
    done
}

# fuzz-coverage-deep: the same comparison on harness/tests/campaign/
# deep_target.c, built here with afl-clang-fast: its one bug (a completion
# result whose values are no array) needs a chain of four requests in a row
# first, and every step of the chain gets the answer it gets off the chain,
# so only the server's own code shows the progress. Budget BENCH_DEEP_BUDGET
# sequences (default 6000).
bench_fuzz_coverage_deep() {
    local tmp
    read -r -a BENCH_FUZZ_EXTRA <<<"${BENCH_FUZZ_ARGS:-}"
    tmp=$(mktemp -d)
    # shellcheck disable=SC2046
    AFL_QUIET=1 afl-clang-fast -O1 -o "$tmp/deep" "$ROOT/harness/tests/campaign/deep_target.c" \
        $(pkg-config --cflags --libs json-c) 2>/dev/null ||
        { echo "bench.sh fuzz-coverage-deep: cannot build with afl-clang-fast" >&2; rm -rf "$tmp"; return 2; }
    [[ ${1:-} == --no-header ]] || fuzz_cov_header
    fuzz_cov_row deep-target "${BENCH_DEEP_BUDGET:-6000}" "$tmp/deep" --inject
    rm -rf "$tmp"
}

case ${1:-} in
validate) bench_validate ;;
library)
    if [ "${2:-}" = --http ]; then exec "$ROOT/scripts/bench-http.sh" library; fi
    bench_library
    ;;
run) bench_run ;;
fuzz-coverage)
    shift
    bench_fuzz_coverage "$@"
    [[ ${BENCH_DEEP:-1} == 0 ]] || bench_fuzz_coverage_deep --no-header
    ;;
fuzz-coverage-deep) bench_fuzz_coverage_deep ;;
fuzz)
    shift
    bench_fuzz "$@"
    ;;
server)
    shift
    bench_server "$@"
    ;;
-h | --help | "") usage ;;
*)
    echo "bench.sh: unknown benchmark '$1'" >&2
    usage >&2
    exit 2
    ;;
esac
