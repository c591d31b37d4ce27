#!/usr/bin/env python3
"""conformant_target.py MCPCHECK SCENARIOS_DIR SERVER_SCRIPT [KEEP_DIR]

Runs the scenario library with the default profile against conformant_server.py,
a server written from the specification pages that declares only some
capabilities and uses none of the official fixture names. Every verdict on it
must be one the specification supports: the run exits 0 and report.json holds
no FAIL, no WARN and no ERROR (PASS, SKIP, INFO and NOT-VERIFIED are fine: the
server lacks most fixtures on purpose). Prints the run's closing line and every
offending row. With KEEP_DIR the report is written there and kept (under
ctest: the fixture conformant-run, whose report targets/probe-banner holds its
run behind a banner to, instead of running the same library a second time).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

# A budget for a hang, not for speed: the run takes about a minute and a half
# with two jobs on an idle machine.
RUN_BUDGET_S = budget(900)
# Per-step wait; generous so that a busy machine cannot turn a slow answer into
# a verdict.
STEP_TIMEOUT_MS = str(budget(15000))
# The library has well over a hundred scenarios; a run of fewer rows means the
# run itself went wrong.
MIN_ROWS = 100


def main():
    mcpcheck, scenarios, server = sys.argv[1:4]
    keep = sys.argv[4] if len(sys.argv) > 4 else None
    with tempfile.TemporaryDirectory() as tmp:
        if keep:
            shutil.rmtree(keep, ignore_errors=True)
            os.makedirs(keep)
            tmp = keep
        run = subprocess.run([mcpcheck, "run", "--jobs", "2", "--timeout", STEP_TIMEOUT_MS,
                              "--scenarios", scenarios, "--report-dir", tmp,
                              "--", sys.executable, server],
                             capture_output=True, text=True, timeout=RUN_BUDGET_S)
        closing = [line for line in run.stdout.splitlines() if " passed" in line]
        print(closing[-1] if closing else "(no closing line)")
        try:
            with open(os.path.join(tmp, "report.json"), encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError) as err:
            print(f"conformant_target: no readable report.json ({err}); stderr: {run.stderr[-2000:]}")
            return 1
    status = 0
    rows = report.get("scenarios", [])
    if len(rows) < MIN_ROWS:
        print(f"conformant_target: {len(rows)} scenario runs, at least {MIN_ROWS} expected")
        status = 1
    if not any(s["verdict"] == "PASS" for s in rows):
        print("conformant_target: not a single PASS; the server was not exercised")
        status = 1
    for s in rows:
        for c in s.get("checks", []):
            if c["verdict"] in ("FAIL", "WARN", "ERROR"):
                print(f"conformant_target: {c['verdict']} {s['id']} [{s['version']}] {c['id']}: "
                      f"{c.get('message')}")
                status = 1
        if s["verdict"] in ("FAIL", "WARN", "ERROR"):
            print(f"conformant_target: scenario {s['verdict']} {s['id']} [{s['version']}]"
                  f"{': ' + s['reason'] if s.get('reason') else ''}")
            status = 1
    summary = report.get("summary", {})
    for key in ("fail", "warn", "error"):
        if summary.get(key, 0) != 0:
            print(f"conformant_target: summary.{key} is {summary.get(key)}, expected 0")
            status = 1
    if run.returncode != 0:
        print(f"conformant_target: mcpcheck exited {run.returncode}, expected 0")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
