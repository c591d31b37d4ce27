#!/usr/bin/env python3
"""modern_only.py MCPCHECK REFSERVER SCENARIOS_DIR

The reference server as a server of modern versions only
(mcpcheck-refserver --modern-only): the scenarios run at 2026-07-28 alone
(the version probe finds no other version), a strict run of the lifecycle
scenarios exits 0 with no FAIL, WARN, NOT-VERIFIED or ERROR, the scenarios
for such servers ("requires": {"era": "modern"}) pass instead of being
skipped, and those pinning a version of the initialize era are skipped, not
failed.
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

# Scenarios that hold only against a server of modern versions.
MODERN_ONLY = ["lifecycle/modern-only-initialize"]


def main():
    mcpcheck, refserver, scenarios = sys.argv[1:4]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([mcpcheck, "run", "--strict", "--jobs", "2", "--scenarios", scenarios,
                              "--filter", "lifecycle/*", "--report-dir", tmp, "--", refserver,
                              "--modern-only"],
                             capture_output=True, text=True, timeout=budget(300))
        print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "(no output)")
        if run.returncode != 0:
            problems.append(f"exit {run.returncode}, expected 0")
        report = json.load(open(os.path.join(tmp, "report.json")))
    runs = report["scenarios"]
    problems += [f"{s['verdict']} {s['id']} [{s['version']}]: {s.get('reason') or ''}"
                 for s in runs if s["verdict"] not in ("PASS", "SKIP")]
    ran = sorted({s["version"] for s in runs if s["verdict"] != "SKIP"})
    if ran != ["2026-07-28"]:
        problems.append(f"versions run: {ran}, expected 2026-07-28")
    for sid in MODERN_ONLY:
        got = [s["verdict"] for s in runs if s["id"] == sid]
        if got != ["PASS"]:
            problems.append(f"{sid}: {got or 'not run'}, expected one PASS")
    pinned = [s for s in runs if s["id"].startswith("lifecycle/version-pinned-")]
    if not pinned or any(s["verdict"] != "SKIP" for s in pinned):
        problems.append("the version-pinned scenarios: "
                        f"{[(s['id'], s['verdict']) for s in pinned]}, expected each SKIP")
    for p in problems:
        print("modern_only:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
