#!/bin/sh
# outputs.sh MCPCHECK REFSERVER - a run with failures writes all six
# outputs, and they agree with each other (check_outputs.py); `report render`
# rebuilds them byte for byte from report.json; `report merge` writes the matrix.
# Under ctest the run stays in $MC_REPORT_ARTIFACTS/failing-run (out/ and
# run.log): the fixture report-failing-run, whose report.html html_chromium.sh
# renders.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
mcpcheck=$1 refserver=$2
# Two versions are enough for what is checked here (the matrix has two
# columns); every version is run by scenario/library-refserver.
versions="--spec-version 2025-06-18 --spec-version 2025-11-25"
py=$(pick_python)
run=$tmp
if [ -n "${MC_REPORT_ARTIFACTS:-}" ]; then
  run=$MC_REPORT_ARTIFACTS/failing-run
  rm -rf "$run" && mkdir -p "$run" || fail "cannot make $run"
fi

"$mcpcheck" run --strict $versions --report-dir "$run/out" -- "$refserver" --inject blob-not-base64 \
  >"$run/run.log" 2>&1
code=$?
[ "$code" -eq 1 ] && ok "a run with failures exits 1" || { fail "exit $code, want 1"; tail -20 "$run/run.log"; }
grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed' "$run/run.log" && ok "the run ends with 'N passed, N failed'" \
  || fail "no summary line"
for f in report.json junit.xml report.sarif report.html report.md; do
  [ -s "$run/out/$f" ] && ok "$f written" || fail "$f missing"
done
[ -n "$(ls "$run/out/traces" 2>/dev/null)" ] && ok "traces/ written" || fail "traces/ missing"
ls "$run/out" | grep -q '\.tmp\.' && fail "temporary files left in the report folder"

"$py" "$here/check_outputs.py" "$mcpcheck" "$run/out" "$here/sarif-2.1.0-subset.schema.json" \
  && ok "the outputs agree with each other" || fail "check_outputs.py"

# The subset schema rejects what it must (it is not vacuous).
printf '%s\n' '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"a","shortDescription":{"text":"t"}}]}},"results":[{"ruleId":"a","level":"fatal","message":{"text":"m"}}]}]}' >"$tmp/bad.sarif"
"$mcpcheck" validate --schema "$here/sarif-2.1.0-subset.schema.json" "$tmp/bad.sarif" >/dev/null
[ $? -eq 1 ] && ok "the SARIF subset schema rejects a bad level and missing locations" \
  || fail "the SARIF subset schema accepts a bad document"

# Offline judgement of a failing and a passing trace.
"$mcpcheck" validate --trace "$run/out/traces/resources__read-blob@2025-06-18.jsonl" >"$tmp/v.log"
[ $? -eq 1 ] && grep -q 'error: schema/resources:' "$tmp/v.log" \
  && ok "validate --trace finds the failure with its check id" || { fail "validate --trace"; cat "$tmp/v.log"; }
"$mcpcheck" validate --trace "$run/out/traces/tools__call-text@2025-06-18.jsonl" >/dev/null \
  && ok "validate --trace passes a clean trace" || fail "validate --trace on a clean trace"

"$mcpcheck" report render "$run/out/report.json" -o "$tmp/again" >/dev/null
for f in report.json junit.xml report.sarif report.html report.md; do
  cmp -s "$run/out/$f" "$tmp/again/$f" && ok "report render rebuilds $f" || fail "report render: $f differs"
done
diff -r "$run/out/traces" "$tmp/again/traces" >/dev/null && ok "report render rebuilds traces/" \
  || fail "report render: traces differ"

"$mcpcheck" run --filter 'tools/*' --report-dir "$tmp/clean" -- "$refserver" >/dev/null 2>&1
"$mcpcheck" report merge "$run/out/report.json" "$tmp/clean/report.json" -o "$tmp/mx" >/dev/null
if [ -s "$tmp/mx/matrix.html" ] && grep -q '<th class="tg">out</th><th class="tg">clean</th>' "$tmp/mx/matrix.html"; then
  ok "report merge writes a matrix with one column per target"
else
  fail "report merge"
fi
finish
