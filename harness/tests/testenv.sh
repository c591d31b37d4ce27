# testenv.sh - sourced by the shell tests: the sh half of testenv.py.
#
#   . "$(dirname "$0")/../testenv.sh"     (from a test in a subfolder)
#
# MC_TEST_MULT  MCPCHECK_TEST_TIMEOUT_MULTIPLIER rounded up to a whole number
#               (default 1): multiply every wall-clock bound of the test by
#               it. Bounds are budgets for hangs, never measures of speed.
# unavailable REASON
#               something outside the project that the test needs is
#               missing: a skip (exit 77) outside CI, a failure (exit 1) when
#               CI is set to anything but "", 0, false or no.
MC_TEST_MULT=$(awk -v m="${MCPCHECK_TEST_TIMEOUT_MULTIPLIER:-1}" \
    'BEGIN { if (m + 0 <= 0) m = 1; r = int(m); if (r < m) r++; print r }')
unavailable() {
    case "${CI:-}" in
        ""|0|false|no) echo "SKIP: $1"; exit 77 ;;
        *) echo "FAIL (CI is set, so this test may not skip): $1"; exit 1 ;;
    esac
}
