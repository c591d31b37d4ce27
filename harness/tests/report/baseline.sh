#!/bin/sh
# baseline.sh MCPCHECK REFSERVER - a baseline made from a failing run makes
# that run exit 0 (its failures are known); the same baseline on a clean
# server exits 1 and names the stale entries; a malformed baseline is a
# usage error with file:line:col.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
mcpcheck=$1 refserver=$2
# Two versions are enough for what is checked here (the matrix has two
# columns); every version is run by scenario/library-refserver.
versions="--spec-version 2025-06-18 --spec-version 2025-11-25"
filter='resources/*'

"$mcpcheck" run --strict $versions --filter "$filter" --report-dir "$tmp/fail" -- "$refserver" \
  --inject blob-not-base64 >"$tmp/1.log" 2>&1
[ $? -eq 1 ] && ok "the failing run exits 1" || fail "the failing run did not exit 1"

"$mcpcheck" baseline --from "$tmp/fail/report.json" -o "$tmp/known.jsonc" 2>"$tmp/b.log"
[ $? -eq 0 ] && [ -s "$tmp/known.jsonc" ] && ok "baseline written: $(cat "$tmp/b.log")" \
  || { fail "mcpcheck baseline"; cat "$tmp/b.log"; }
grep -q '"resources/read-blob:resources/read/blob-base64"' "$tmp/known.jsonc" \
  && ok "the baseline lists scenario:check" || fail "baseline lacks resources/read-blob:resources/read/blob-base64"

"$mcpcheck" run -v --strict $versions --filter "$filter" --baseline "$tmp/known.jsonc" --report-dir "$tmp/known" \
  -- "$refserver" --inject blob-not-base64 >"$tmp/2.log" 2>&1
code=$?
[ "$code" -eq 0 ] && ok "the same failing run with the baseline exits 0" \
  || { fail "with the baseline: exit $code, want 0"; tail -20 "$tmp/2.log"; }
grep -q '^KNOWN  *resources/read-blob \[2025-06-18\]' "$tmp/2.log" && ok "known failures are shown as KNOWN" \
  || fail "no KNOWN line"
grep -Eq '^[0-9]+ passed, 0 failed(, [0-9]+ [a-z ]+)*, [1-9][0-9]* known' "$tmp/2.log" && ok "summary counts them as known" \
  || { fail "summary"; tail -3 "$tmp/2.log"; }
grep -q '<skipped message="known failure' "$tmp/known/junit.xml" && ok "junit marks them skipped (known)" \
  || fail "junit known"
grep -q '"justification"' "$tmp/known/report.sarif" && ok "SARIF suppresses them with the reason" \
  || fail "sarif suppression"

"$mcpcheck" run --strict $versions --filter "$filter" --baseline "$tmp/known.jsonc" --report-dir "$tmp/clean" \
  -- "$refserver" >"$tmp/3.log" 2>&1
code=$?
[ "$code" -eq 1 ] && ok "the baseline on a clean server exits 1" || fail "clean server: exit $code, want 1"
grep -q '^STALE .*"resources/read-blob:resources/read/blob-base64": resources/read/blob-base64 now holds' "$tmp/3.log" \
  && ok "it names the stale entries" || { fail "no STALE line"; tail -10 "$tmp/3.log"; }
grep -Eq 'stale baseline entr' "$tmp/3.log" && ok "the summary counts stale entries" || fail "summary stale"
grep -q 'name="stale: resources/read-blob:resources/read/blob-base64"' "$tmp/clean/junit.xml" \
  && ok "junit has a failed testcase per stale entry" || fail "junit stale"

# A baseline with a typo is a usage error pointing at the line.
printf '{\n  "mcpcheck_baseline": 1,\n  "known": [\n    {"id": "a/b:Not An Id", "reason": "x"}\n  ]\n}\n' >"$tmp/bad.jsonc"
"$mcpcheck" run --baseline "$tmp/bad.jsonc" -- "$refserver" >"$tmp/4.log" 2>&1
code=$?
[ "$code" -eq 2 ] && grep -q 'bad.jsonc:4:' "$tmp/4.log" && ok "a malformed baseline: exit 2, file:line" \
  || { fail "malformed baseline: exit $code"; cat "$tmp/4.log"; }
printf '{"known": [{"id": "a/b"}]}' >"$tmp/noreason.json"
"$mcpcheck" run --baseline "$tmp/noreason.json" -- "$refserver" >"$tmp/5.log" 2>&1
[ $? -eq 2 ] && grep -q 'reason' "$tmp/5.log" && ok "an entry without a reason is refused" \
  || fail "entry without reason accepted"
finish
