#!/usr/bin/env python3
"""library_refserver.py MCPCHECK REFSERVER SCENARIOS_DIR [--keep DIR] [RUN_OPTION...]

The whole scenario library against the reference server: a strict run exits
0 with no FAIL, WARN, NOT-VERIFIED or ERROR, and the library holds at least
120 scenarios. Options after the directory go to `mcpcheck run`
(`--spec-version 2026-07-28`). Prints the run's closing line and its wall
time. With --keep, the run's report folder is DIR (emptied first) and stays
there: schema/differential_traces reads its traces (the ctest fixture
library-run), which spares the library a second run.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

MIN_SCENARIOS = 120
# The start of the reason a scenario for servers of modern versions only
# ("requires": {"era": "modern"}) is skipped with on a dual-era server.
MODERN_ONLY_SKIP = "the rule binds a server of modern versions only"
# The versions the reference server speaks: through initialize, and the
# stateless 2026-07-28 (found by server/discover).
EXPECTED_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")


def main():
    mcpcheck, refserver, scenarios = sys.argv[1:4]
    extra = sys.argv[4:]
    keep = None
    if extra[:1] == ["--keep"] and len(extra) > 1:
        keep, extra = extra[1], extra[2:]
        shutil.rmtree(keep, ignore_errors=True)
    files = [os.path.join(d, f) for d, _, fs in os.walk(scenarios) for f in fs
             if f.endswith(".jsonc") and "/profiles" not in d]
    with tempfile.TemporaryDirectory() as scratch:
        tmp = keep or scratch
        started = time.time()
        run = subprocess.run([mcpcheck, "run", "--strict", "--jobs", "2", "--scenarios", scenarios,
                              "--report-dir", tmp, *extra, "--", refserver],
                             capture_output=True, text=True, timeout=budget(600))
        took = time.time() - started
        print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "(no output)")
        print(f"{len(files)} scenario files, {took:.2f} s wall with --jobs 2")
        report = json.load(open(os.path.join(tmp, "report.json")))
    bad = [f"{s['verdict']} {s['id']} [{s['version']}]" for s in report["scenarios"]
           if s["verdict"] not in ("PASS", "SKIP")]
    # Streamable HTTP scenarios skip over stdio by design; http/library runs them.
    # A version lacking a feature a scenario needs is a SKIP with the reason.
    # A rule for servers of modern versions only skips on this dual-era one:
    # scenario/modern-only-refserver runs it against --modern-only.
    skipped = [f"{s['id']} [{s['version']}]: {s['reason']}" for s in report["scenarios"]
               if s["verdict"] == "SKIP" and
               s.get("reason") != "the scenario is for the http transport" and
               not s.get("reason", "").startswith(MODERN_ONLY_SKIP) and
               not s.get("reason", "").startswith(s["version"] + " lacks ")]
    # With no --spec-version the run probes the versions the server speaks:
    # the reference server speaks every version with the initialize handshake.
    ran = sorted({s["version"] for s in report["scenarios"]})
    print("versions run:", ", ".join(ran))
    status = 0
    if run.returncode != 0:
        print(f"library_refserver: exit {run.returncode}, expected 0")
        status = 1
    for b in bad:
        print("library_refserver: not a pass:", b)
        status = 1
    for s in skipped:
        print("library_refserver: skipped:", s)
        status = 1
    named = [extra[i + 1] for i in range(len(extra) - 1) if extra[i] == "--spec-version"]
    for v in named or EXPECTED_VERSIONS:
        if v not in ran:
            print(f"library_refserver: no scenario ran at {v}")
            status = 1
    if len(files) < MIN_SCENARIOS:
        print(f"library_refserver: {len(files)} scenarios, at least {MIN_SCENARIOS} are required")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
