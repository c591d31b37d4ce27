#!/usr/bin/env python3
"""notebook_target.py MCPCHECK SCENARIOS_DIR SERVER_SCRIPT

Runs mcpcheck with the default profile against notebook_server.py, a small
"notebook" server written from the specification pages the way a user would
write one (names of its own, none of the official fixture names; tools,
resources with subscribe, prompts, logging, completions), then against the
same server with one planted bug at a time (`--bug NAME`), and asserts:

  1. clean: the bug-free server, `--strict --call-tools` (every tool may be
     called, so the behaviour probe sees what each does), exits 0 with no
     FAIL, WARN or ERROR (no false alarm on a conformant server);
  2. missing-arg-code: a WARN on a check about the error code of a prompts/get
     without its required argument (MISSING_ARG_CHECKS);
  3. read-other-uri: a non-PASS verdict (FAIL, WARN or INFO) on a check about
     the uri of resources/read contents (READ_URI_CHECKS) that the clean run
     does not have;
  4. ignore-setlevel: a non-PASS verdict on a logging-level check
     (LOG_LEVEL_CHECKS) that the clean run does not have;
  5. coverage: on the clean run at most MAX_NOT_VERIFIED_SHARE of the scenario
     runs that are not SKIP end NOT-VERIFIED, every NOT-VERIFIED names the role
     it lacks (report.json's missing_role, and ROLE_NAME in its reason), a
     role that a listing can fill (`mcpcheck list --roles`) is never left
     NOT-VERIFIED (it is filled, or SKIP when no listed item has its shape),
     and the roles the server's own items show are filled from them: the
     tool that updates a resource, the tool taking no arguments.

The bug runs use --filter on the areas that can catch them (BUG_AREAS): one
mcpcheck run per bug with a --filter per area (a scenario matching any of them
runs, so the run holds what one run per area held, and the version probe and
the behaviour probe are paid once per bug, not once per area). Prints one line
per assertion and ends with "N passed, M failed"; exits 1 when any assertion
failed.

Before roles were filled by shape (main at 65d340b) only 1 held: 159 of
301 runs were NOT-VERIFIED (53%) and none of the three bugs was seen; before
the behaviour probe, 138 of 324 (43%) with or without --call-tools.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

# ---- what counts as catching each bug: check ids, as regular expressions
# (re.search). Today's ids first; ids the team may add next.
MISSING_ARG_CHECKS = [
    r"prompts/.*missing",        # prompts/get/missing-argument, discovery/prompts/get-missing-each
    r"missing-arg",
]
READ_URI_CHECKS = [
    r"^resources/read/.*uri-matches$",   # resources/read/uri-matches, .../template-uri-matches
    r"^resources/read/listed",           # read what was listed, compare with the listing
    r"^discovery/.*read.*(uri|listed|match)",
]
LOG_LEVEL_CHECKS = [
    r"^wire/log-level$",                 # a notifications/message below the level set
    r"^logging/filter/",                 # logging/filter/minimum, at-or-above, level-change
    r"^discovery/.*log.*level",          # "logging level honoured while exercising the server"
]
# A NOT-VERIFIED reason names a role when it holds a role name such as
# tool.simple_text, resource.static_text or prompt.with_arguments.
ROLE_NAME = r"\b(?:tools?|resource|prompt|completion|pagination)\.[a-z0-9_]+(?:\.[a-z0-9_]+)*\b"
# With every tool callable, a role whose contract is behaviour (a tool that
# reports progress, changes a resource...) is filled by the tool seen to do
# it, or SKIP when none does; what may stay NOT-VERIFIED is what neither a
# listing nor a call shows (a URI instantiating a template).
MAX_NOT_VERIFIED_SHARE = 0.25
# Roles the notebook's own items fill, seen by the behaviour probe.
SEEN_ROLES = {"tool.trigger_resource_update": "add", "tool.simple_text": "search_notes"}

# ---- the bug runs: areas run (one --filter each)
BUG_AREAS = {
    "missing-arg-code": ["prompts/*", "discovery/*"],
    "read-other-uri": ["resources/*", "discovery/*"],
    "ignore-setlevel": ["logging/*", "resources/*", "discovery/*"],
}

JOBS = "2"
# Per-step wait; generous so that a busy machine cannot turn a slow answer into
# a verdict.
STEP_TIMEOUT_MS = str(budget(15000))
# Budget for one mcpcheck run: for a hang, not for speed (the whole library
# takes a little over a minute with two jobs on an idle machine).
RUN_BUDGET_S = budget(900)
NOT_PASS = ("FAIL", "WARN", "INFO")


def run_mcpcheck(mcpcheck, scenarios, server, extra, server_args):
    """Runs mcpcheck once; returns (exit code, report dict or None, stderr tail)."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [mcpcheck, "run", "--jobs", JOBS, "--timeout", STEP_TIMEOUT_MS,
               "--scenarios", scenarios, "--report-dir", tmp] + extra + \
              ["--", sys.executable, server] + server_args
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_BUDGET_S)
        except subprocess.TimeoutExpired:
            return None, None, "mcpcheck did not finish within %d s" % RUN_BUDGET_S
        try:
            with open(os.path.join(tmp, "report.json"), encoding="utf-8") as f:
                return run.returncode, json.load(f), run.stderr[-2000:]
        except (OSError, ValueError) as err:
            return run.returncode, None, "no readable report.json (%s); stderr: %s" % (err, run.stderr[-2000:])


def listing_roles(mcpcheck, scenarios):
    """The roles `mcpcheck list --roles` says a listing can fill."""
    p = subprocess.run([mcpcheck, "list", "--roles", "--scenarios", scenarios],
                       capture_output=True, text=True, timeout=budget(120))
    return {line.split()[0] for line in p.stdout.splitlines()
            if not line.startswith(" ") and len(line.split()) > 1 and line.split()[1] == "listing"}


def checks_of(report):
    """(scenario row, check) for every check of every scenario run."""
    for row in report.get("scenarios", []):
        for check in row.get("checks", []):
            yield row, check


def matches(patterns, check_id):
    return any(re.search(p, check_id) for p in patterns)


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def result(self, number, name, ok, detail):
        print("notebook_target: assertion %d (%s): %s: %s" % (number, name, "PASS" if ok else "FAIL", detail))
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def bug_run(mcpcheck, scenarios, server, bug):
    """Runs the areas of BUG_AREAS[bug] in one run against the server with the
    bug; its check list."""
    filters = []
    for area in BUG_AREAS[bug]:
        filters += ["--filter", area]
    code, report, err = run_mcpcheck(mcpcheck, scenarios, server, filters, ["--bug", bug])
    if report is None:
        return [], ["%s: %s" % (" ".join(BUG_AREAS[bug]), err)]
    return list(checks_of(report)), []


def new_non_pass(found, patterns, clean_pairs, verdicts):
    """Checks matching patterns with a verdict in verdicts that the clean run does not have."""
    hits = {}
    for row, check in found:
        if check["verdict"] in verdicts and matches(patterns, check["id"]) \
                and (check["id"], check["verdict"]) not in clean_pairs:
            hits.setdefault((check["verdict"], check["id"]), "%s [%s]: %s" % (
                row["id"], row["version"], check.get("message")))
    return hits


def describe(hits):
    return "; ".join("%s %s (%s)" % (v, i, where) for (v, i), where in sorted(hits.items())[:4])


def main():
    mcpcheck, scenarios, server = sys.argv[1:4]
    tally = Tally()

    # 1. the bug-free server, --strict
    code, clean, err = run_mcpcheck(mcpcheck, scenarios, server, ["--strict", "--call-tools"], [])
    if clean is None:
        tally.result(1, "clean --strict", False, err)
        clean = {"scenarios": []}
    else:
        s = clean.get("summary", {})
        print("notebook_target: clean run: exit %s; %s pass, %s fail, %s warn, %s info, %s skip, "
              "%s not verified, %s error" % (code, s.get("pass"), s.get("fail"), s.get("warn"), s.get("info"),
                                             s.get("skip"), s.get("not_verified"), s.get("error")))
        offending = ["%s %s [%s] %s: %s" % (c["verdict"], r["id"], r["version"], c["id"], c.get("message"))
                     for r, c in checks_of(clean) if c["verdict"] in ("FAIL", "WARN", "ERROR")]
        offending += ["scenario %s %s [%s]%s" % (r["verdict"], r["id"], r["version"],
                                                 ": " + r["reason"] if r.get("reason") else "")
                      for r in clean.get("scenarios", []) if r["verdict"] in ("FAIL", "WARN", "ERROR")]
        for line in offending:
            print("notebook_target:   " + line)
        ok = code == 0 and not offending
        tally.result(1, "clean --strict", ok,
                     "exit %s, %d FAIL/WARN/ERROR" % (code, len(offending)))
    clean_pairs = {(c["id"], c["verdict"]) for _, c in checks_of(clean)}

    # 2. missing-arg-code: a WARN on the missing-argument error code
    found, problems = bug_run(mcpcheck, scenarios, server, "missing-arg-code")
    hits = new_non_pass(found, MISSING_ARG_CHECKS, set(), ("WARN",))
    tally.result(2, "--bug missing-arg-code", bool(hits) and not problems,
                 describe(hits) if hits else "no WARN on a check matching %s%s" % (
                     MISSING_ARG_CHECKS, "; " + "; ".join(problems) if problems else ""))

    # 3. read-other-uri: a new non-PASS verdict on a resources/read contents-uri check
    found, problems = bug_run(mcpcheck, scenarios, server, "read-other-uri")
    hits = new_non_pass(found, READ_URI_CHECKS, clean_pairs, NOT_PASS)
    tally.result(3, "--bug read-other-uri", bool(hits) and not problems,
                 describe(hits) if hits else "no new FAIL/WARN/INFO on a check matching %s%s" % (
                     READ_URI_CHECKS, "; " + "; ".join(problems) if problems else ""))

    # 4. ignore-setlevel: a new non-PASS verdict on a logging-level check
    found, problems = bug_run(mcpcheck, scenarios, server, "ignore-setlevel")
    hits = new_non_pass(found, LOG_LEVEL_CHECKS, clean_pairs, NOT_PASS)
    tally.result(4, "--bug ignore-setlevel", bool(hits) and not problems,
                 describe(hits) if hits else "no new FAIL/WARN/INFO on a check matching %s%s" % (
                     LOG_LEVEL_CHECKS, "; " + "; ".join(problems) if problems else ""))

    # 5. coverage of the clean run
    rows = [r for r in clean.get("scenarios", []) if r["verdict"] != "SKIP"]
    not_verified = [r for r in rows if r["verdict"] == "NOT-VERIFIED"]
    share = len(not_verified) / len(rows) if rows else 1.0
    roleless = [r for r in not_verified
                if not r.get("missing_role") or not re.search(ROLE_NAME, r.get("reason") or "")]
    for r in roleless[:5]:
        print("notebook_target:   NOT-VERIFIED without a role: %s [%s]: %s" % (r["id"], r["version"], r.get("reason")))
    # A role a listing can fill is never NOT-VERIFIED: filled, or SKIP.
    listing = listing_roles(mcpcheck, scenarios)
    unfilled = [r for r in not_verified if r.get("missing_role") in listing]
    for r in unfilled[:5]:
        print("notebook_target:   a listing role left unfilled: %s [%s]: %s" % (r["id"], r["version"], r.get("reason")))
    # The roles the notebook's own tools show are filled from them.
    unseen = []
    for role, name in SEEN_ROLES.items():
        want = "role %s: `%s`" % (role, name)
        if not any(want in (r.get("fixtures") or "") for r in rows):
            unseen.append(role)
    tally.result(5, "clean coverage",
                 rows and share <= MAX_NOT_VERIFIED_SHARE and not roleless and not unfilled
                 and not unseen,
                 "%d of %d runs that are not SKIP are NOT-VERIFIED (%.0f%%, at most %.0f%%); "
                 "%d reasons name no role; %d listing roles unfilled; roles not seen: %s" % (
                     len(not_verified), len(rows), 100 * share, 100 * MAX_NOT_VERIFIED_SHARE,
                     len(roleless), len(unfilled), unseen or "none"))

    print("notebook_target: %d passed, %d failed" % (tally.passed, tally.failed))
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
