#!/usr/bin/env python3
"""fixtures_live.py MCPCHECK REFSERVER SCENARIOS_DIR

Roles are looked up in what the live server lists, never taken from the
profile alone:
- a profile naming a tool the server does not list makes every scenario
  that needs it NOT-VERIFIED, with the fixture and the role in the reason,
  and the run still exits 0;
- a resources list that fits on one page makes the scenarios that need a
  real cursor NOT-VERIFIED (not FAIL);
- the same scenarios PASS when the fixtures are there.
"""
import json
import os
import subprocess
import sys
import tempfile


def run(mcpcheck, args, tmp, name):
    out = os.path.join(tmp, name)
    p = subprocess.run([mcpcheck, "run", "--jobs", "2", "--report-dir", out] + args,
                       capture_output=True, text=True, timeout=600)
    return p.returncode, json.load(open(os.path.join(out, "report.json"))), p.stdout


def main():
    mcpcheck, refserver, scenarios = sys.argv[1:4]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # 1. A tool the server does not offer.
        prof = json.loads("".join(l for l in open(os.path.join(scenarios, "profiles", "default.json"))
                                  if not l.strip().startswith("//")))
        prof["roles"]["tool.with_progress"] = "no_such_tool"
        ppath = os.path.join(tmp, "profile.json")
        json.dump(prof, open(ppath, "w"))
        rc, rep, out = run(mcpcheck, ["--profile", ppath, "--filter", "progress/*", "--scenarios",
                                      scenarios, "--", refserver], tmp, "missing-tool")
        needing = [s for s in rep["scenarios"]]
        if rc != 0:
            failures.append(f"missing tool: exit {rc}, expected 0")
        nv = [s for s in needing if s["verdict"] == "NOT-VERIFIED"]
        if len(nv) < 4:
            failures.append(f"missing tool: {len(nv)} NOT-VERIFIED, expected at least 4")
        for s in nv:
            want = "fixture `no_such_tool` (role tool.with_progress) is not offered by the server"
            if want not in s.get("reason", ""):
                failures.append(f"missing tool: {s['id']} reason {s.get('reason')!r}")
        if any(s["verdict"] in ("FAIL", "ERROR") for s in needing):
            failures.append("missing tool: a FAIL or ERROR where the fixture is missing")

        # 2. One page of resources: no real cursor to take.
        rc, rep, out = run(mcpcheck, ["--filter", "pagination/cursor-*", "--scenarios", scenarios,
                                      "--", refserver, "--page-size", "1000"], tmp, "one-page")
        nv = [s for s in rep["scenarios"] if s["verdict"] == "NOT-VERIFIED"]
        if rc != 0 or not nv:
            failures.append(f"one page: exit {rc}, {len(nv)} NOT-VERIFIED; expected 0 and some")
        for s in nv:
            if "fits on one page" not in s.get("reason", ""):
                failures.append(f"one page: {s['id']} reason {s.get('reason')!r}")
        if any(s["verdict"] in ("FAIL", "WARN", "ERROR") for s in rep["scenarios"]):
            failures.append("one page: a FAIL, WARN or ERROR")

        # 3. With the fixtures there (the default page size spreads them
        #    over several pages), the same scenarios pass.
        rc, rep, out = run(mcpcheck, ["--filter", "pagination/cursor-*", "--scenarios", scenarios,
                                      "--", refserver], tmp, "paged")
        if rc != 0 or any(s["verdict"] != "PASS" for s in rep["scenarios"]):
            failures.append(f"paged: exit {rc}; verdicts "
                            f"{sorted(set(s['verdict'] for s in rep['scenarios']))}")
    for f in failures:
        print("fixtures_live:", f)
    print("fixtures_live:", "ok" if not failures else f"{len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
