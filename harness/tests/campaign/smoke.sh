#!/usr/bin/env bash
# smoke.sh MCPCHECK REFSERVER TEST_TARGET - a few short fuzzing campaigns.
set -u
MC=$1 RS=$2 TT=$3
. "$(dirname "$0")/../testenv.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# A marker in the server's arguments lets us look for leftover processes.
mkdir -p "$TMP/root"
left_behind() { pgrep -f -- "--root $TMP/root" >/dev/null; }

# 1. The clean reference server: no finding, a corpus, stats and a report.
"$MC" fuzz --seconds 3 --seed 1 --out "$TMP/clean" -- "$RS" --root "$TMP/root" 2>"$TMP/clean.err"
rc=$?
[[ $rc -eq 0 ]] || { cat "$TMP/clean.err"; cat "$TMP/clean/report.md"; fail "clean refserver: exit $rc"; }
[[ ! -s $TMP/clean/findings/index.tsv ]] || fail "clean refserver has findings"
[[ $(wc -l <"$TMP/clean/stats.tsv") -ge 3 ]] || fail "stats.tsv has too few lines"
ls "$TMP/clean/corpus/"*.json >/dev/null 2>&1 || fail "no corpus written"
grep -q "No finding" "$TMP/clean/report.md" || fail "report.md does not say no finding"
grep -q "<svg" "$TMP/clean/report.html" || fail "report.html has no plot"
left_behind && fail "a server process was left behind"

# 2. An injected violation: found, minimized, lint-clean, replayed as failing
#    against the faulty server and passing against the clean one.
"$MC" fuzz --seconds 4 --seed 1 --out "$TMP/dup" -- "$RS" --inject duplicate-response \
  --root "$TMP/root" 2>"$TMP/dup.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/dup.err"; fail "duplicate-response: exit $rc, want 1"; }
grep -q "wire/single-response" "$TMP/dup/findings/index.tsv" || fail "duplicate-response not found"
f=$(ls "$TMP/dup/findings/"wire-single-response-*.jsonc | head -1)
[[ -f ${f%.jsonc}.jsonl ]] || fail "no trace next to $f"
# The minimized reproducer holds one message (the ping) plus the final ping.
[[ $(grep -c '"raw"' "$f") -le 2 ]] || { cat "$f"; fail "not minimized"; }
"$MC" lint "$f" >/dev/null || fail "finding is not lint-clean"
"$MC" run --report-dir "$TMP/r1" --scenarios "$f" -- "$RS" --inject duplicate-response >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "the reproducer does not fail against the faulty server"
"$MC" run --report-dir "$TMP/r2" --scenarios "$f" -- "$RS" >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "the reproducer fails against the clean server"
left_behind && fail "a server process was left behind"

# 2a. Without minimization the confirming run is the one written out: its
#     trace holds the sequence's lines, and the reproducer fails against
#     the faulty server only.
"$MC" fuzz --seconds 3 --max-findings 1 --no-minimize --seed 1 --out "$TMP/dupnm" -- "$RS" \
  --inject duplicate-response --root "$TMP/root" 2>"$TMP/dupnm.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/dupnm.err"; fail "--no-minimize: exit $rc, want 1"; }
f=$(ls "$TMP/dupnm/findings/"wire-single-response-*.jsonc | head -1)
[[ -n $f && -s ${f%.jsonc}.jsonl ]] || fail "--no-minimize: no finding with its trace"
grep -q '"dir": "in"' "${f%.jsonc}.jsonl" || fail "--no-minimize: the trace holds no answer"
"$MC" run --report-dir "$TMP/r3" --scenarios "$f" -- "$RS" --inject duplicate-response >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "--no-minimize: the reproducer does not fail against the faulty server"
"$MC" run --report-dir "$TMP/r4" --scenarios "$f" -- "$RS" >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "--no-minimize: the reproducer fails against the clean server"
[[ -s $TMP/dupnm/waits.tsv ]] || fail "no waits.tsv"
left_behind && fail "a server process was left behind"

# 2d. A switch that breaks several rules at once (result-type-missing at
#     2026-07-28: every result lacks its type) gives several findings, which
#     the confirmer's threads handle side by side; --max-findings N writes
#     N of them, no more, and waits.tsv says where each executor's time went
#     (the confirmer's row included).
for n in 1 2; do
  "$MC" fuzz --seconds 20 --max-findings $n --no-minimize --seed 1 --spec-version 2026-07-28 \
    --call-tools --out "$TMP/multi$n" -- "$RS" --inject result-type-missing --root "$TMP/root" \
    2>"$TMP/multi$n.err"
  rc=$?
  [[ $rc -eq 1 ]] || { cat "$TMP/multi$n.err"; fail "result-type-missing: exit $rc, want 1"; }
  got=$(grep -c . "$TMP/multi$n/findings/index.tsv")
  [[ $got -eq $n ]] || { cat "$TMP/multi$n/findings/index.tsv"; fail "--max-findings $n wrote $got findings"; }
done
"$MC" fuzz --seconds 3 --no-minimize --seed 1 --spec-version 2026-07-28 --call-tools \
  --out "$TMP/multi" -- "$RS" --inject result-type-missing --root "$TMP/root" 2>"$TMP/multi.err"
got=$(grep -c . "$TMP/multi/findings/index.tsv")
[[ $got -ge 3 ]] || { cat "$TMP/multi/findings/index.tsv"; fail "result-type-missing: $got findings, want 3 or more"; }
for row in persistent fresh confirm; do
  grep -q "^$row	" "$TMP/multi/waits.tsv" || { cat "$TMP/multi/waits.tsv"; fail "waits.tsv lacks the $row row"; }
done
left_behind && fail "a server process was left behind"

# 2c. A ping left unanswered (a process-level finding, whose requirement the
#     campaign writes itself): its reproducer fails at the version the
#     campaign ran (its refs name that version: a check whose refs miss the
#     run's version would only be INFO), and passes against the clean server.
"$MC" fuzz --seconds 20 --max-findings 1 --no-minimize --hang-ms 500 --seed 1 --out "$TMP/ping" \
  -- "$RS" --inject ping-ignored --root "$TMP/root" 2>"$TMP/ping.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/ping.err"; fail "ping-ignored: exit $rc, want 1"; }
f=$(ls "$TMP/ping/findings/"process-hang-ping-*.jsonc 2>/dev/null | head -1)
[[ -n $f ]] || { cat "$TMP/ping/findings/index.tsv"; fail "ping-ignored: no process/hang finding on ping"; }
"$MC" run --report-dir "$TMP/rp1" --scenarios "$f" -- "$RS" --inject ping-ignored >"$TMP/rp1.out" 2>&1
[[ $? -eq 1 ]] || { cat "$TMP/rp1.out"; fail "ping-ignored: the reproducer does not fail against the faulty server"; }
"$MC" run --report-dir "$TMP/rp2" --scenarios "$f" -- "$RS" >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "ping-ignored: the reproducer fails against the clean server"
left_behind && fail "a server process was left behind"

# 2b. Over Streamable HTTP: an HTTP violation switch found, its reproducer
#     lint-clean and failing against the faulty server only.
U=http://127.0.0.1:0/mcp
"$MC" fuzz --seconds 3 --max-findings 1 --seed 1 --out "$TMP/http" --url $U -- "$RS" --http 127.0.0.1:0 \
  --inject http-notification-200 --root "$TMP/root" 2>"$TMP/http.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/http.err"; fail "http-notification-200: exit $rc, want 1"; }
grep -q "http/notification-202" "$TMP/http/findings/index.tsv" || fail "http-notification-200 not found"
f=$(ls "$TMP/http/findings/"http-notification-202-*.jsonc | head -1)
"$MC" lint "$f" >/dev/null || fail "HTTP finding is not lint-clean"
"$MC" run --report-dir "$TMP/r3" --scenarios "$f" --url $U -- "$RS" --http 127.0.0.1:0 \
  --inject http-notification-200 >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "the HTTP reproducer does not fail against the faulty server"
"$MC" run --report-dir "$TMP/r4" --scenarios "$f" --url $U -- "$RS" --http 127.0.0.1:0 >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "the HTTP reproducer fails against the clean server"
left_behind && fail "a server process was left behind (HTTP)"

# 2c. The stateless protocol (2026-07-28): every request carries its _meta,
#     so the clean server has no finding; a 2026-07-28 violation is found
#     and its reproducer fails against the faulty server only.
"$MC" fuzz --seconds 3 --seed 1 --spec-version 2026-07-28 --out "$TMP/modern" -- "$RS" \
  --root "$TMP/root" 2>"$TMP/modern.err"
rc=$?
[[ $rc -eq 0 ]] || { cat "$TMP/modern.err"; cut -f2,3,11 "$TMP/modern/findings/index.tsv"; fail "clean refserver at 2026-07-28: exit $rc"; }
grep -q '"io.modelcontextprotocol/protocolVersion":"2026-07-28"' "$TMP/modern/corpus/"*.json ||
  fail "2026-07-28 requests carry no per-request _meta"
grep -q '"method":"subscriptions/listen"' "$TMP/modern/corpus/"*.json ||
  fail "no 2026-07-28 sequence opened a subscriptions/listen stream"
if grep -q '"method":"ping"' "$TMP/modern/corpus/"w0-000000-*.json; then
  fail "the 2026-07-28 discovery sequence sends ping, which that version removed"
fi
"$MC" fuzz --seconds 4 --max-findings 1 --seed 1 --spec-version 2026-07-28 --out "$TMP/modern-rt" -- \
  "$RS" --inject result-type-missing --root "$TMP/root" 2>"$TMP/modern-rt.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/modern-rt.err"; fail "result-type-missing: exit $rc, want 1"; }
f=$(ls "$TMP/modern-rt/findings/"*.jsonc | head -1)
grep -q '"version": "2026-07-28"' "$f" || fail "the 2026-07-28 reproducer names another version"
"$MC" run --report-dir "$TMP/r5" --scenarios "$f" -- "$RS" --inject result-type-missing >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "the 2026-07-28 reproducer does not fail against the faulty server"
"$MC" run --report-dir "$TMP/r6" --scenarios "$f" -- "$RS" >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "the 2026-07-28 reproducer fails against the clean server"
# A listen stream hears of a change it did not opt in to: found with the
# trigger tools alone allowed, and replayed. The seed fixes the sequences and
# the first finding ends the campaign, so the seconds are a budget: about
# 2,000 sequences find it, some 10 s of a default build and over 30 s of a
# sanitized one.
"$MC" fuzz --seconds $((90 * MC_TEST_MULT)) --max-findings 1 --seed 1 --spec-version 2026-07-28 --out "$TMP/modern-li" \
  --safe-tools test_trigger_tool_change,test_trigger_prompt_change,test_trigger_resource_list_change,test_trigger_resource_update \
  -- "$RS" --inject listen-not-opted-in --root "$TMP/root" 2>"$TMP/modern-li.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/modern-li.err"; fail "listen-not-opted-in: exit $rc, want 1"; }
grep -q "wire/listen-opted-in" "$TMP/modern-li/findings/index.tsv" || fail "listen-not-opted-in not found"
f=$(ls "$TMP/modern-li/findings/"*.jsonc | head -1)
grep -q '"request": "server/discover"' "$f" || fail "the 2026-07-28 reproducer asks with ping whether the server serves"
"$MC" run --report-dir "$TMP/r7" --scenarios "$f" -- "$RS" --inject listen-not-opted-in >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "the listen reproducer does not fail against the faulty server"
"$MC" run --report-dir "$TMP/r8" --scenarios "$f" -- "$RS" >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "the listen reproducer fails against the clean server"
left_behind && fail "a server process was left behind (2026-07-28)"

# 3. A server that dies on its first message: a crash finding.
"$MC" fuzz --seconds 2 --seed 1 --out "$TMP/segv" -- "$TT" segv 2>"$TMP/segv.err"
rc=$?
[[ $rc -eq 1 ]] || { cat "$TMP/segv.err"; fail "segv: exit $rc, want 1"; }
grep -q "process/crash" "$TMP/segv/findings/index.tsv" || fail "crash not found"

# 3b. A server that cannot start: exit 3, and the report says why rather
#     than showing an empty table as a clean result.
"$MC" fuzz --seconds 2 --seed 1 --out "$TMP/nostart" -- "$TMP/no-such-server" 2>"$TMP/nostart.err"
rc=$?
[[ $rc -eq 3 ]] || { cat "$TMP/nostart.err"; fail "a server that cannot start: exit $rc, want 3"; }
grep -q "could not run.*no-such-server" "$TMP/nostart/report.md" || fail "report.md does not say why the campaign could not run"
grep -q "could not run" "$TMP/nostart/report.html" || fail "report.html does not say why the campaign could not run"

# 4. SIGINT ends an unbounded campaign with its report; nothing is left behind.
"$MC" fuzz --seconds 0 --seed 3 --out "$TMP/int" -- "$RS" --root "$TMP/root" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 1 $((100 * MC_TEST_MULT))); do [[ -s $TMP/int/stats.tsv ]] && break; sleep 0.1; done
sleep 1
kill -INT $pid
for _ in $(seq 1 $((100 * MC_TEST_MULT))); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "SIGINT did not end the campaign"; }
wait $pid
[[ -s $TMP/int/report.md ]] || fail "no report after SIGINT"
left_behind && fail "a server process was left behind after SIGINT"
echo "campaign smoke: ok"
