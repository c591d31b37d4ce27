#!/bin/sh
# html_chromium.sh MCPCHECK REFSERVER - report.html of a run with failures
# renders in headless Chromium: screenshots are taken, and the DOM after the
# script ran holds the summary, the matrix and the failing scenario, opened.
# The screenshots (desktop and phone width) are kept in
# $MC_REPORT_ARTIFACTS (ctest sets it to the build folder) for a person to
# look at. Fails when Chromium is not installed: scripts/setup.sh installs it,
# so CI always has it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
mcpcheck=$1 refserver=$2
# Two versions are enough for what is checked here (the matrix has two
# columns); every version is run by scenario/library-refserver.
versions="--spec-version 2025-06-18 --spec-version 2025-11-25"

chromium=""
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then chromium=$c; break; fi
done
if [ -z "$chromium" ]; then
  echo "FAIL: chromium is not installed (Debian package 'chromium'; scripts/setup.sh installs it)"
  exit 1
fi

# The run outputs.sh keeps under ctest (the fixture report-failing-run) is
# this very run; without it, the run is made here.
run=${MC_REPORT_ARTIFACTS:-$tmp}/failing-run
if [ -s "$run/out/report.html" ] && [ -s "$run/run.log" ]; then
  ok "the run of outputs.sh is rendered ($run)"
else
  run=$tmp
  "$mcpcheck" run --strict $versions --report-dir "$run/out" -- "$refserver" \
    --inject blob-not-base64 >"$run/run.log" 2>&1
fi
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$run/run.log")
[ -n "$summary" ] && ok "run summary: $summary" || fail "no summary line in the run"

browse() {
  profile=$(mktemp -d "$tmp/chromium.XXXXXX")
  timeout $((120 * MC_TEST_MULT)) "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage \
    --user-data-dir="$profile" "$@" 2>>"$tmp/chromium.err"
}
url="file://$run/out/report.html"
browse --screenshot="$tmp/shot.png" --window-size=1200,2000 "$url" >/dev/null
keep=${MC_REPORT_ARTIFACTS:-$tmp}
if [ -s "$tmp/shot.png" ]; then
  cp "$tmp/shot.png" "$keep/html-screenshot.png" 2>/dev/null
  ok "screenshot taken ($(wc -c <"$tmp/shot.png") bytes; $keep/html-screenshot.png)"
else
  fail "no screenshot"; tail -5 "$tmp/chromium.err"
fi
browse --window-size=390,844 --screenshot="$tmp/phone.png" "$url" >/dev/null
[ -s "$tmp/phone.png" ] && cp "$tmp/phone.png" "$keep/html-screenshot-phone.png" 2>/dev/null
browse --dump-dom "$url" >"$tmp/dom.html"
grep -q "<p class=\"sumline\" id=\"sumline\">$summary</p>" "$tmp/dom.html" \
  && ok "the rendered page shows the summary '$summary'" || { fail "summary not in the DOM"; head -c 600 "$tmp/dom.html"; }
grep -q 'Areas × outcomes\|Areas &times; outcomes' "$tmp/dom.html" && ok "the matrix is on the page" \
  || fail "no matrix"
grep -q '<details class="sc v-fail" id="s[0-9]*" data-v="FAIL" data-k="resources/read-blob [^"]*" open=""' "$tmp/dom.html" \
  && ok "the failing scenario is rendered open" || fail "failing scenario not open"
finish
