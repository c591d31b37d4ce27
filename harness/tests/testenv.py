"""testenv.py - what every Python test of the project shares about its
environment: how long a wait may last, and what to do when something the
test needs from outside (node, npm, the npm registry) is missing.

Import it from a test in a subfolder of harness/tests:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from testenv import budget, unavailable

budget(seconds)
    Every wall-clock bound of a test is a budget for a hang, never a measure
    of speed. MCPCHECK_TEST_TIMEOUT_MULTIPLIER (a positive number, default 1)
    stretches all of them at once on a slow or loaded machine, as libuv's
    UV_TEST_TIMEOUT_MULTIPLIER does. Returns a float when the multiplier is
    fractional, an int otherwise, so it fits both subprocess timeouts and
    millisecond arguments built with "%d".

unavailable(reason)
    The test cannot run because something outside the project is missing.
    Outside CI that is a skip (exit 77, which ctest shows as "Skipped"),
    printed loudly; when the CI environment variable is set (any value but
    "", "0", "false" or "no"), a skip would hide a test that CI must run, so it is a
    failure (exit 1). Never returns.
"""
import os
import sys

SKIP = 77


def multiplier():
    """The value of MCPCHECK_TEST_TIMEOUT_MULTIPLIER, or 1 when unset or not
    a positive number (a bad value is reported once on stderr)."""
    raw = os.environ.get("MCPCHECK_TEST_TIMEOUT_MULTIPLIER", "")
    if raw == "":
        return 1
    try:
        value = float(raw)
    except ValueError:
        value = 0
    if value <= 0:
        if not getattr(multiplier, "warned", False):
            print("testenv: MCPCHECK_TEST_TIMEOUT_MULTIPLIER=%r is not a positive number; using 1" % raw,
                  file=sys.stderr)
            multiplier.warned = True
        return 1
    return value


def budget(seconds):
    """seconds stretched by the multiplier (see the module's comment)."""
    value = seconds * multiplier()
    return int(value) if float(value).is_integer() else value


def in_ci():
    """True when the CI environment variable says this is a CI run."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason):
    """Skips (exit 77) or, in CI, fails (exit 1) with reason; never returns."""
    if in_ci():
        print("FAIL (CI is set, so this test may not skip): " + reason)
        sys.stdout.flush()
        sys.exit(1)
    print("SKIP: " + reason)
    print("SKIP: this test did not run; set up what it needs (scripts/setup.sh) to run it")
    sys.stdout.flush()
    sys.exit(SKIP)
