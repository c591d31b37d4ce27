#!/bin/sh
# bench-server.sh - the `server` benchmark of scripts/bench.sh (a benchmark,
# not a test): pipelined requests/s and peak RSS over stdio for ping,
# resources/list and resources/read, for mcpcheck-refserver and, when node
# and npm are present, @modelcontextprotocol/server-everything in the same run.
#
# usage: scripts/bench-server.sh [REQUESTS]      (default 20000 per method)
# env:   BUILD_DIR (default build; relative to the repository root),
#        REFSERVER (default $BUILD_DIR/bin/mcpcheck-refserver: the binary measured),
#        BENCH_REPEAT (default 3: each measurement is the fastest of this many runs).
# Needs /usr/bin/time (Debian package "time", installed by scripts/setup.sh) for
# the peak RSS. Wall time is taken with nanosecond resolution around each run
# (GNU time's %e has only 10 ms), process start-up included, for both servers.
set -eu

bench_server() {
    n=${1:-20000}
    root=$(cd "$(dirname "$0")/.." && pwd)
    build=${BUILD_DIR:-$root/build}
    case $build in /*) ;; *) build=$root/$build ;; esac
    bin=${REFSERVER:-$build/bin/mcpcheck-refserver}
    repeat=${BENCH_REPEAT:-3}
    work=$build/bench-server
    mkdir -p "$work"
    if [ -z "${REFSERVER:-}" ] && [ ! -x "$bin" ]; then
        cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
        cmake --build "$build" --target mcpcheck-refserver >/dev/null
    fi
    if [ ! -x /usr/bin/time ]; then
        echo "bench-server: /usr/bin/time is missing (apt-get install time)" >&2
        return 1
    fi

    everything=""
    if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
        if [ ! -f "$work/npm/node_modules/@modelcontextprotocol/server-everything/package.json" ]; then
            mkdir -p "$work/npm"
            (cd "$work/npm" && npm install --no-audit --no-fund --loglevel=error \
                @modelcontextprotocol/server-everything >"$work/npm-install.log" 2>&1) ||
                echo "bench-server: npm install failed; see $work/npm-install.log" >&2
        fi
        if [ -f "$work/npm/node_modules/@modelcontextprotocol/server-everything/package.json" ]; then
            everything="$work/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
        fi
    else
        echo "bench-server: node/npm not found; benchmarking the refserver alone" >&2
    fi

    # gen METHOD PARAMS: initialize, initialized, then n pipelined requests.
    gen() {
        awk -v n="$n" -v m="$1" -v p="$2" 'BEGIN {
            print "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}";
            print "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
            for (i = 1; i <= n; i++) {
                if (p == "") printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\"}\n", i, m;
                else printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}\n", i, m, p;
            }
        }'
    }

    # measure LABEL METHOD INPUT CMD...: prints "label method answered seconds rss_kib",
    # the fastest of $repeat runs (and the largest peak RSS seen).
    measure() {
        label=$1 method=$2 input=$3
        shift 3
        best="" peak=0 i=0
        while [ "$i" -lt "$repeat" ]; do
            i=$((i + 1))
            t0=$(date +%s%N)
            /usr/bin/time -f "%M" -o "$work/time.txt" "$@" <"$input" >"$work/out.txt" 2>/dev/null || true
            t1=$(date +%s%N)
            secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
            rss=$(tail -n 1 "$work/time.txt")
            if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
                best=$secs
            fi
            [ "$rss" -gt "$peak" ] && peak=$rss
        done
        answered=$(grep -c '"result"' "$work/out.txt" || true)
        answered=$((answered - 1)) # the initialize response
        echo "$label $method $answered $best $peak"
    }

    gen ping "" >"$work/ping.jsonl"
    gen resources/list "{}" >"$work/list.jsonl"
    gen resources/read '{"uri":"test://static-text"}' >"$work/read-ref.jsonl"
    gen resources/read '{"uri":"demo://resource/static/document/architecture.md"}' >"$work/read-ev.jsonl"

    : >"$work/results.txt"
    for m in ping list read; do
        case $m in
        ping) method=ping in_ref=$work/ping.jsonl in_ev=$work/ping.jsonl ;;
        list) method=resources/list in_ref=$work/list.jsonl in_ev=$work/list.jsonl ;;
        read) method=resources/read in_ref=$work/read-ref.jsonl in_ev=$work/read-ev.jsonl ;;
        esac
        measure refserver "$method" "$in_ref" "$bin" >>"$work/results.txt"
        if [ -n "$everything" ]; then
            measure server-everything "$method" "$in_ev" node "$everything" stdio >>"$work/results.txt"
        fi
    done

    awk -v n="$n" '
    { s = ($4 > 0) ? $4 : 0.001; rps[$1 " " $2] = $3 / s; rss[$1 " " $2] = $5;
      printf "%-18s %-15s %7d/%-7d answered %8.4f s %10.0f req/s  peak RSS %7d KiB\n", $1, $2, $3, n, $4, $3 / s, $5 }
    END {
      split("ping resources/list resources/read", ms, " ");
      for (i = 1; i <= 3; i++) {
        a = "refserver " ms[i]; b = "server-everything " ms[i];
        if ((b in rps) && rps[b] > 0 && rss[a] > 0)
          printf "ratio %-15s refserver/server-everything: %6.1fx req/s, RSS 1/%.1f\n", ms[i], rps[a] / rps[b], rss[b] / rss[a];
      }
    }' "$work/results.txt"
}

bench_server "$@"
