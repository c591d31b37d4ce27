# lib.sh - shared by the report tests: a scratch folder removed on exit,
# failure reporting, and the python that has the JUnit reader; sources
# ../testenv.sh (MC_TEST_MULT, unavailable).
set -u
. "$(dirname "$0")/../testenv.sh"
fails=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpcheck-report-test.XXXXXX")
cleanup_hooks=""
cleanup() {
  for h in $cleanup_hooks; do "$h"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
finish() {
  if [ "$fails" -gt 0 ]; then echo "$fails check(s) failed"; exit 1; fi
  echo "all checks passed"; exit 0
}
# A python3 that has junitparser (Debian: python3-junitparser), else any.
pick_python() {
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import junitparser' 2>/dev/null; then
      echo "$py"; return
    fi
  done
  command -v python3 || echo /usr/bin/python3
}
