#!/usr/bin/env python3
"""known_targets.py MCPCHECK SCENARIOS_DIR CACHE_DIR KNOWN_TARGETS_MD TARGET

Runs the scenario library against one of the reference MCP servers from npm
(pinned versions, installed into CACHE_DIR once) and holds the result to its
section of scenarios/KNOWN-TARGETS.md:
- no ERROR;
- every FAIL and WARN (scenario, check) is listed in the target's section
  (a row "| `scenario` | `check` | LEVEL | ...");
- every listed row still appears (a fixed deviation must leave the list).
TARGET is one of: everything, filesystem, memory, sequential-thinking.
Exits 77 (skipped) with the reason when node or npm is missing or the
install fails.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

VERSION = "2026.8.31"
SKIP = 77
TARGETS = {
    "everything": {"args": ["stdio"], "profile": "everything.json"},
    "filesystem": {"args": ["{root}"], "profile": "default.json"},
    "memory": {"args": [], "profile": "default.json",
               "env": {"MEMORY_FILE_PATH": "{tmp}/memory.jsonl"}},
    "sequential-thinking": {"args": [], "profile": "default.json"},
}


def package(name):
    return f"@modelcontextprotocol/server-{name}"


def install(cache):
    """Installs the four servers once; returns an error text or None."""
    entries = [entry(cache, n) for n in TARGETS]
    if all(os.path.exists(e) for e in entries):
        return None
    os.makedirs(cache, exist_ok=True)
    inst = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"] +
                          [f"{package(n)}@{VERSION}" for n in TARGETS],
                          cwd=cache, capture_output=True, text=True, timeout=900)
    if inst.returncode != 0 or not all(os.path.exists(e) for e in entries):
        return inst.stderr.strip()[-400:] or "the packages did not install"
    return None


def entry(cache, name):
    return os.path.join(cache, "node_modules", "@modelcontextprotocol", f"server-{name}", "dist",
                        "index.js")


def known_rows(known_md, name):
    """(scenario, check) pairs listed in the section whose heading names the package."""
    rows, inside = set(), False
    for line in open(known_md, encoding="utf-8"):
        if line.startswith("## "):
            # The stdio runs' sections; a server's section over Streamable
            # HTTP lists what that transport shows.
            inside = package(name) in line and "Streamable HTTP" not in line
            continue
        m = re.match(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|", line)
        if inside and m:
            rows.add((m.group(1), m.group(2)))
    return rows


def main():
    mcpcheck, scenarios, cache, known_md, name = sys.argv[1:6]
    t = TARGETS[name]
    if shutil.which("node") is None or shutil.which("npm") is None:
        print(f"known_targets: skipped: node and npm are needed to run {package(name)}")
        return SKIP
    err = install(cache)
    if err is not None:
        print("known_targets: skipped: npm install failed:", err)
        return SKIP
    known = known_rows(known_md, name)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        os.makedirs(os.path.join(root, "sub"))
        open(os.path.join(root, "hello.txt"), "w").write("hello\n")
        open(os.path.join(root, "sub", "data.json"), "w").write('{"a": 1}\n')
        args = [a.format(root=root, tmp=tmp) for a in t["args"]]
        env = dict(os.environ)
        for k, v in t.get("env", {}).items():
            env[k] = v.format(root=root, tmp=tmp)
        out = os.path.join(tmp, "report")
        run = subprocess.run([mcpcheck, "run", "--jobs", "2", "--scenarios", scenarios,
                              "--profile", os.path.join(scenarios, "profiles", t["profile"]),
                              "--report-dir", out, "--", "node", entry(cache, name)] + args,
                             capture_output=True, text=True, timeout=1500, env=env)
        summary = [l for l in run.stdout.splitlines() if " passed, " in l]
        print(f"{package(name)}@{VERSION}:", summary[-1] if summary else "(no summary line)")
        report = json.load(open(os.path.join(out, "report.json")))
    status = 0
    seen, reported = set(), set()
    for sc in report["scenarios"]:
        if sc["verdict"] == "ERROR":
            print(f"known_targets: ERROR {sc['id']} [{sc['version']}]: {sc.get('reason')}")
            status = 1
        for c in sc["checks"]:
            if c["verdict"] in ("FAIL", "WARN"):
                key = (sc["id"], c["id"])
                seen.add(key)
                if key not in known and key not in reported:
                    reported.add(key)
                    print(f"known_targets: {c['verdict']} {sc['id']} :: {c['id']} is not listed "
                          f"for {package(name)} in KNOWN-TARGETS.md: {c.get('message', '')[:200]}")
                    status = 1
    for key in sorted(known - seen):
        print(f"known_targets: listed for {package(name)} but no longer seen: "
              f"{key[0]} :: {key[1]}")
        status = 1
    print(f"known_targets: {len(seen)} known deviations seen, {len(known)} listed")
    return status


if __name__ == "__main__":
    sys.exit(main())
