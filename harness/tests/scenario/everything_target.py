#!/usr/bin/env python3
"""everything_target.py MCPCHECK SCENARIOS_DIR CACHE_DIR KNOWN_TARGETS_MD

Runs the scenario library against @modelcontextprotocol/server-everything
(installed from npm into CACHE_DIR, once) with its profile, and holds the
result to scenarios/KNOWN-TARGETS.md: the run has no ERROR, and every FAIL or
WARN (scenario and check) is listed there as a known deviation. Exits 77
(skipped) with a reason when node or npm is missing or the install fails.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31"
SKIP = 77


def main():
    mcpcheck, scenarios, cache, known_md = sys.argv[1:5]
    if shutil.which("node") is None or shutil.which("npm") is None:
        print("everything_target: skipped: node and npm are needed to run server-everything")
        return SKIP
    entry = os.path.join(cache, "node_modules", "@modelcontextprotocol", "server-everything",
                         "dist", "index.js")
    if not os.path.exists(entry):
        os.makedirs(cache, exist_ok=True)
        inst = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                               PACKAGE], cwd=cache, capture_output=True, text=True, timeout=600)
        if inst.returncode != 0 or not os.path.exists(entry):
            print("everything_target: skipped: npm install failed:", inst.stderr.strip()[-400:])
            return SKIP
    known = set()
    for line in open(known_md, encoding="utf-8"):
        m = re.match(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|", line)
        if m:
            known.add((m.group(1), m.group(2)))
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([mcpcheck, "run", "--jobs", "2", "--timeout", "1000",
                              "--scenarios", scenarios,
                              "--profile", os.path.join(scenarios, "profiles", "everything.json"),
                              "--report-dir", tmp, "--", "node", entry, "stdio"],
                             capture_output=True, text=True, timeout=1200)
        print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "(no output)")
        report = json.load(open(os.path.join(tmp, "report.json")))
    status = 0
    seen = set()
    for sc in report["scenarios"]:
        if sc["verdict"] == "ERROR":
            print(f"everything_target: ERROR {sc['id']} [{sc['version']}]: {sc['reason']}")
            status = 1
        for c in sc["checks"]:
            if c["verdict"] in ("FAIL", "WARN"):
                key = (sc["id"], c["id"])
                seen.add(key)
                if key not in known:
                    print(f"everything_target: {c['verdict']} {sc['id']} :: {c['id']} is not in "
                          f"KNOWN-TARGETS.md: {c['message'][:200]}")
                    status = 1
    for key in sorted(known - seen):
        print(f"everything_target: note: listed but not seen (fixed upstream?): {key[0]} :: {key[1]}")
    print(f"everything_target: {len(seen)} known deviations seen, {len(known)} listed")
    return status


if __name__ == "__main__":
    sys.exit(main())
