#!/usr/bin/env python3
"""probe_target.py MCPCHECK SCENARIOS_DIR TARGETS_DIR CASE [PLAIN_REPORT_DIR]

How `mcpcheck run` and `mcpcheck ping` start and probe a server that is not
the reference server. Cases:

  quiet         quiet_server.py (answers initialize, tools/list and ping, never
                any other request): the run ends with exit 1, not 3; the
                server/discover the version probe sent and got no answer to is
                one FAIL (wire/single-response); 2025-06-18 and 2025-11-25 are
                tested.
  quiet-version the same with --spec-version 2025-11-25: exit 1, the unanswered
                requests are FAILs, no server/discover is sent at all and only
                2025-11-25 is tested; then, with one job, a request an earlier
                run waited a whole step for in vain is waited on less.
  banner        conformant_server.py behind a line of its own on stdout
                ("Starting demo MCP server..."), against the same server
                without it: exactly one FAIL more, wire/stdout-only-messages
                naming the line; the same versions detected (2025-06-18,
                2025-11-25); no other FAIL, WARN or ERROR. The run without
                the banner is PLAIN_REPORT_DIR's when it holds a report.json
                (under ctest: targets/conformant-server's run of the same
                server with the same options, the fixture conformant-run),
                else it is made here.
  unreadable    quiet_server.py answering initialize with a line over 16 MiB,
                with invalid UTF-8, with a NUL and nested too deep: `run` (with
                and without --spec-version) and `ping` name the cause and end
                before the 30 s start-up budget is spent.

Elapsed seconds are printed for every run. Time bounds are budgets for hangs,
never for speed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

# A budget for a hang: a library run against a Python server takes a few
# minutes on a busy machine.
RUN_BUDGET_S = budget(900)
# The start-up budget (MC_DEFAULT_STARTUP_TIMEOUT_MS): an unreadable answer to
# initialize must end the wait before it is spent.
# It is mcpcheck's constant, not a budget of the test's: not stretched by
# MCPCHECK_TEST_TIMEOUT_MULTIPLIER.
STARTUP_BUDGET_S = 30
# The per-step wait of the banner case's runs, which must find the same
# things with and without the banner: generous, so that a busy machine cannot
# turn a slow answer of the conformant server into a finding of one run only
# (that server answers every request, so the wait is never spent).
ANSWERED_STEP_MS = str(budget(15000))
# The per-step wait of the quiet cases' runs. Their server answers what it
# answers at once and leaves the rest unanswered, so the run is mostly spent
# waiting out steps in vain: 2 s instead of the default 5 s says the same
# (the unanswered requests are FAILs, the run ends with exit 1, not 3) in
# less than half the time. It stays above MC_RUNNER_SILENT_WAIT_MS (1 s), so
# that a request an earlier run waited a whole step for is still waited on
# less. The answer to initialize has the start-up budget, not this one.
QUIET_STEP_MS = "2000"
BANNER = "Starting demo MCP server..."
SPOKEN = "2025-06-18,2025-11-25"


def run(cmd, budget=RUN_BUDGET_S):
    """Runs cmd; returns (exit code, stdout, stderr, elapsed seconds)."""
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=budget,
                       env=dict(os.environ, NO_COLOR="1"))
    elapsed = time.monotonic() - t0
    print("$ %s\n  exit %d after %.1f s" % (" ".join(cmd), p.returncode, elapsed))
    return p.returncode, p.stdout, p.stderr, elapsed


def mcpcheck_run(mcpcheck, scenarios, report_dir, server, args=()):
    code, out, err, elapsed = run([mcpcheck, "run", "--scenarios", scenarios, "--report-dir",
                                   report_dir] + list(args) + ["--"] + server)
    try:
        with open(os.path.join(report_dir, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as err_:
        print("no readable report.json (%s); stderr: %s" % (err_, err[-2000:]))
        report = None
    return code, out, err, elapsed, report


def findings(report, verdicts=("FAIL", "WARN", "ERROR")):
    """(scenario id, version, check id, message) of every finding at verdicts,
    and a row per scenario ERROR."""
    rows = []
    for s in report.get("scenarios", []):
        for c in s.get("checks", []):
            if c["verdict"] in verdicts:
                rows.append((s["id"], s["version"], c["id"], c.get("message") or ""))
        if s["verdict"] == "ERROR" and "ERROR" in verdicts:
            rows.append((s["id"], s["version"], "(scenario error)", s.get("reason") or ""))
    return rows


def sent_methods(report):
    """Every method the client sent, over all transcripts."""
    methods = set()
    for s in report.get("scenarios", []):
        for line in s.get("transcript", []):
            if line.get("dir") != "out":
                continue
            try:
                msg = json.loads(line.get("line", ""))
            except ValueError:
                continue
            if isinstance(msg, dict) and isinstance(msg.get("method"), str):
                methods.add(msg["method"])
    return methods


class Check:
    def __init__(self):
        self.errors = 0

    def that(self, ok, what):
        if not ok:
            print("FAIL: " + what)
            self.errors += 1
        return ok


def case_quiet(mcpcheck, scenarios, targets, with_version):
    chk = Check()
    server = [sys.executable, os.path.join(targets, "quiet_server.py")]
    args = ["--timeout", QUIET_STEP_MS]
    args += ["--spec-version", "2025-11-25"] if with_version else []
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err, elapsed, report = mcpcheck_run(mcpcheck, scenarios, tmp, server, args)
    print("\n".join(line for line in out.splitlines() if line.startswith("version")))
    print(err[-1500:])
    print("elapsed: %.1f s" % elapsed)
    chk.that(code == 1, "exit %d, expected 1 (a server that ignores requests is tested)" % code)
    if report is None:
        return 1
    fails = findings(report, ("FAIL",))
    errors = findings(report, ("ERROR",))
    chk.that(not report["run"].get("partial"), "the run is marked partial: %s" %
             report["run"].get("partial_reason"))
    chk.that(report["summary"].get("not_run", 0) == 0, "scenarios not run: %s" %
             report["summary"].get("not_run"))
    chk.that(not errors, "errors: %s" % errors[:5])
    unanswered = [f for f in fails if "no response" in f[3]]
    chk.that(unanswered, "no FAIL names an unanswered request")
    if with_version:
        chk.that(report["run"]["protocol_versions"] == "2025-11-25",
                 "versions tested: %s" % report["run"]["protocol_versions"])
        chk.that("server/discover" not in sent_methods(report),
                 "server/discover was sent though --spec-version 2025-11-25 was given")
    else:
        chk.that(report["run"]["protocol_versions"] == SPOKEN,
                 "versions tested: %s, expected %s" % (report["run"]["protocol_versions"], SPOKEN))
        probe = [f for f in fails if f[0] == "lifecycle/version-probe"]
        chk.that(len(probe) == 1 and probe[0][2] == "wire/single-response" and
                 probe[0][1] == "2026-07-28" and "server/discover" in probe[0][3],
                 "the unanswered server/discover is not one wire/single-response FAIL: %s" % probe)
        chk.that(re.search(r"^versions: .*not 2026-07-28 \(no answer to server/discover", out,
                           re.M), "the console does not say why 2026-07-28 is not spoken")
    for f in fails[:40]:
        print("  FAIL %s [%s] %s: %s" % f)
    if with_version:
        chk.errors += learned_silence(mcpcheck, scenarios, server)
    return chk.errors


def learned_silence(mcpcheck, scenarios, server):
    """One job, so the order is known: jsonrpc/error-object-shape waits a whole
    step for mcpcheck/no-such-method in vain; jsonrpc/method-not-found, later,
    sends the same request and waits less, and says so."""
    chk = Check()
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err, elapsed, report = mcpcheck_run(
            mcpcheck, scenarios, tmp, server,
            ["--jobs", "1", "--timeout", QUIET_STEP_MS, "--filter", "jsonrpc/*",
             "--spec-version", "2025-11-25"])
    if report is None:
        return 1
    msgs = dict(((f[0], f[2]), f[3]) for f in findings(report, ("FAIL",)))
    first = msgs.get(("jsonrpc/error-object-shape", "jsonrpc/method-not-found"), "")
    later = msgs.get(("jsonrpc/method-not-found", "jsonrpc/method-not-found"), "")
    chk.that("no response within" in first and "earlier run" not in first,
             "error-object-shape: %r" % first)
    chk.that("no response within" in later and "earlier run waited a whole step" in later,
             "method-not-found does not wait less after an earlier run waited in vain: %r" % later)
    return chk.errors


def kept_run(report_dir):
    """A run made by another test, as mcpcheck_run returns it (no exit code,
    output or time of its own: that test held them); None when there is none."""
    try:
        with open(os.path.join(report_dir, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    target = report["run"]["target"]
    print("the run without the banner: %s's report (%s)" % (report_dir, target))
    if not target.endswith("conformant_server.py"):
        print("that run's target is not conformant_server.py: the run is made here")
        return None
    return 0, "versions: (read from that report)", "", 0.0, report


def case_banner(mcpcheck, scenarios, targets, plain_dir=None):
    chk = Check()
    plain = [sys.executable, os.path.join(targets, "conformant_server.py")]
    banner = ["/bin/sh", "-c", 'echo "%s"; exec "$0" "$1"' % BANNER] + plain
    with tempfile.TemporaryDirectory() as tmp:
        a = kept_run(plain_dir) if plain_dir else None
        if a is None:
            a = mcpcheck_run(mcpcheck, scenarios, os.path.join(tmp, "plain"), plain,
                             ["--timeout", ANSWERED_STEP_MS])
        b = mcpcheck_run(mcpcheck, scenarios, os.path.join(tmp, "banner"), banner,
                         ["--timeout", ANSWERED_STEP_MS])
    for name, (code, out, err, elapsed, report) in (("plain", a), ("banner", b)):
        print("%s: exit %d, %.1f s; %s" % (name, code, elapsed, "\n".join(
            line for line in out.splitlines() if line.startswith("version"))))
        if report is None:
            return 1
    ra, rb = a[4], b[4]
    chk.that(rb["run"]["protocol_versions"] == SPOKEN,
             "versions with the banner: %s, expected %s" % (rb["run"]["protocol_versions"], SPOKEN))
    chk.that(ra["run"]["protocol_versions"] == rb["run"]["protocol_versions"],
             "versions differ: %s without the banner, %s with it" %
             (ra["run"]["protocol_versions"], rb["run"]["protocol_versions"]))
    fa = set((f[2], f[3]) for f in findings(ra))
    fb = findings(rb)
    framing = [f for f in fb if f[2] == "wire/stdout-only-messages"]
    chk.that(len(framing) == 1 and BANNER in framing[0][3],
             "the banner is not one wire/stdout-only-messages FAIL: %s" % framing[:5])
    others = [f for f in fb if f[2] != "wire/stdout-only-messages" and (f[2], f[3]) not in fa]
    chk.that(not others, "findings with the banner only: %s" % others[:10])
    chk.that(b[0] == (1 if not fa else b[0]), "exit %d with the banner" % b[0])
    chk.that(rb["summary"]["fail"] == ra["summary"]["fail"] + 1,
             "%d failed runs with the banner, %d without" % (rb["summary"]["fail"],
                                                           ra["summary"]["fail"]))
    return chk.errors


UNREADABLE = {
    "oversize": r"line over the \d+-byte message limit and no answer to initialize came before it",
    "utf8": r"answered initialize with a line that cannot be read \(invalid UTF-8",
    "nul": r"answered initialize with a line that cannot be read \(NUL",
    "deep": r"answered initialize with a line that cannot be read \(nesting exceeds the depth",
}


def case_unreadable(mcpcheck, scenarios, targets):
    chk = Check()
    for kind, rx in UNREADABLE.items():
        server = [sys.executable, os.path.join(targets, "quiet_server.py"), "--init-answer", kind]
        code, out, err, elapsed = run([mcpcheck, "ping", "--"] + server)
        chk.that(code == 3, "ping %s: exit %d, expected 3" % (kind, code))
        chk.that(re.search(rx, err), "ping %s: stderr does not say /%s/: %s" % (kind, rx, err))
        chk.that(elapsed < STARTUP_BUDGET_S, "ping %s: %.1f s, the start-up budget was waited out"
                 % (kind, elapsed))
        for args in ([], ["--spec-version", "2025-11-25"]):
            with tempfile.TemporaryDirectory() as tmp:
                code, out, err, elapsed, report = mcpcheck_run(
                    mcpcheck, scenarios, tmp, server, ["--filter", "lifecycle/ping*"] + args)
            what = "run %s%s" % (kind, " " + " ".join(args) if args else "")
            chk.that(code == 3, "%s: exit %d, expected 3" % (what, code))
            chk.that(elapsed < STARTUP_BUDGET_S, "%s: %.1f s, the start-up budget was waited out"
                     % (what, elapsed))
            if report is None:
                chk.that(False, "%s: no report" % what)
                continue
            reasons = "\n".join((s.get("reason") or "") for s in report["scenarios"])
            chk.that(re.search(rx, reasons), "%s: no result says /%s/: %s" %
                     (what, rx, reasons[:600]))
            chk.that("within 30000 ms" not in reasons, "%s: blamed on silence" % what)
    return chk.errors


def main():
    if len(sys.argv) not in (5, 6):
        print(__doc__)
        return 2
    mcpcheck, scenarios, targets, name = sys.argv[1:5]
    plain_dir = sys.argv[5] if len(sys.argv) == 6 else None
    if name == "quiet":
        errors = case_quiet(mcpcheck, scenarios, targets, False)
    elif name == "quiet-version":
        errors = case_quiet(mcpcheck, scenarios, targets, True)
    elif name == "banner":
        errors = case_banner(mcpcheck, scenarios, targets, plain_dir)
    elif name == "unreadable":
        errors = case_unreadable(mcpcheck, scenarios, targets)
    else:
        print("unknown case %s" % name)
        return 2
    print("FAILED (%d)" % errors if errors else "ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
