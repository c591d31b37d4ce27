#!/usr/bin/env python3
"""known_targets.py MCPCHECK SCENARIOS_DIR CACHE_DIR KNOWN_TARGETS_MD TARGET

Runs the scenario library against one of the reference MCP servers from npm
(pinned versions, installed into CACHE_DIR once) and holds the result to its
section of scenarios/KNOWN-TARGETS.md:
- no ERROR;
- every FAIL and WARN (scenario, check) is listed in the target's section
  (a row "| `scenario` | `check` | LEVEL | ...");
- every listed row still appears (a fixed deviation must leave the list).
TARGET is one of: everything, filesystem, memory, sequential-thinking (over
stdio, the sections without "Streamable HTTP" in their heading), or
everything-http: server-everything's streamableHttp transport started on a
free loopback port and tested with `mcpcheck run --url` (the section whose
heading names the package and "Streamable HTTP"); afterwards no server
process may be left and the port must be closed.
Exits 77 (skipped) with the reason when node or npm is missing or the
install fails (1 when CI is set: testenv.unavailable).
TARGET --install only installs the servers (the ctest fixture npm-targets,
so that the install is not part of a RUN_SERIAL test's time).
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget, unavailable  # noqa: E402

VERSION = "2026.8.31"
# The versions a target is tested at here: server-everything at every
# version it speaks (the run probes them); the three single-purpose servers,
# whose deviations are the same at every version, at the oldest version with
# batches and the newest, so that the test stays a few minutes long. Their
# sections in KNOWN-TARGETS.md say so.
TWO_VERSIONS = ["--spec-version", "2025-03-26", "--spec-version", "2025-11-25"]
TARGETS = {
    "everything": {"args": ["stdio"], "profile": "everything.json", "versions": []},
    "filesystem": {"args": ["{root}"], "profile": "default.json", "versions": TWO_VERSIONS},
    "memory": {"args": [], "profile": "default.json",
               "env": {"MEMORY_FILE_PATH": "{tmp}/memory.jsonl"}, "versions": TWO_VERSIONS},
    "sequential-thinking": {"args": [], "profile": "default.json", "versions": TWO_VERSIONS},
}
# Targets over Streamable HTTP: the package they run and its arguments.
HTTP_TARGETS = {
    "everything-http": {"package": "everything", "args": ["streamableHttp"],
                        "profile": "everything.json"},
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
                          cwd=cache, capture_output=True, text=True, timeout=budget(900))
    if inst.returncode != 0 or not all(os.path.exists(e) for e in entries):
        return inst.stderr.strip()[-400:] or "the packages did not install"
    return None


def entry(cache, name):
    return os.path.join(cache, "node_modules", "@modelcontextprotocol", f"server-{name}", "dist",
                        "index.js")


def known_rows(known_md, name, http=False):
    """(scenario, check) pairs listed in the section whose heading names the
    package: its stdio section, or with http its Streamable HTTP one."""
    rows, inside = set(), False
    for line in open(known_md, encoding="utf-8"):
        if line.startswith("## "):
            inside = package(name) in line and ("Streamable HTTP" in line) == http
            continue
        m = re.match(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|", line)
        if inside and m:
            rows.add((m.group(1), m.group(2)))
    return rows


def free_port():
    """A loopback port nothing listens on now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def run_http(mcpcheck, scenarios, cache, name, tmp):
    """Runs the HTTP target; returns (report, problems). The server is started
    by mcpcheck on a free port and must be gone afterwards."""
    t = HTTP_TARGETS[name]
    port = free_port()
    # A marker argument (the server ignores it) makes this run's server
    # recognisable in ps.
    marker = f"--mcpcheck-known-target={port}"
    out = os.path.join(tmp, "report")
    cmd = [mcpcheck, "run", "--jobs", "2", "--scenarios", scenarios,
           "--profile", os.path.join(scenarios, "profiles", t["profile"]),
           "--report-dir", out, "--url", f"http://127.0.0.1:{port}/mcp", "--",
           "env", f"PORT={port}", "node", entry(cache, t["package"])] + t["args"] + [marker]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=budget(1500))
    summary = [l for l in run.stdout.splitlines() if " passed, " in l]
    print(f"{package(t['package'])}@{VERSION} over Streamable HTTP (port {port}):",
          summary[-1] if summary else "(no summary line)")
    problems = []
    # The server is stopped before mcpcheck exits; give the kernel a moment
    # to release the socket before it is looked at.
    deadline = time.monotonic() + budget(10)
    while time.monotonic() < deadline:
        ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
        left = [l for l in ps.splitlines() if marker in l and "ps -eo" not in l]
        if not left and not port_open(port):
            break
        time.sleep(0.2)
    else:
        problems.append(f"server left behind after the run: {left or ['port still open']}")
    path = os.path.join(out, "report.json")
    if not os.path.exists(path):
        problems.append(f"no report written (exit {run.returncode}): {run.stderr[-400:]}")
        return None, problems
    return json.load(open(path)), problems


def main():
    mcpcheck, scenarios, cache, known_md, name = sys.argv[1:6]
    if name == "--install":
        if shutil.which("node") is None or shutil.which("npm") is None:
            unavailable("known_targets: node and npm are needed to install the known targets")
        err = install(cache)
        if err is not None:
            unavailable("known_targets: npm install failed: %s" % err)
        print("known_targets: installed in %s: %s" % (
            cache, ", ".join(f"{package(n)}@{VERSION}" for n in TARGETS)))
        return 0
    http = name in HTTP_TARGETS
    pkg = HTTP_TARGETS[name]["package"] if http else name
    if shutil.which("node") is None or shutil.which("npm") is None:
        unavailable(f"known_targets: node and npm are needed to run {package(pkg)}")
    err = install(cache)
    if err is not None:
        unavailable("known_targets: npm install failed: %s" % err)
    known = known_rows(known_md, pkg, http)
    if http:
        with tempfile.TemporaryDirectory() as tmp:
            report, problems = run_http(mcpcheck, scenarios, cache, name, tmp)
        for p in problems:
            print("known_targets:", p)
        if report is None:
            return 1
        return judge(report, known, package(pkg) + " over Streamable HTTP", 1 if problems else 0)
    t = TARGETS[name]
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
                              "--report-dir", out] + t["versions"] +
                             ["--", "node", entry(cache, name)] + args,
                             capture_output=True, text=True, timeout=budget(1500), env=env)
        summary = [l for l in run.stdout.splitlines() if " passed, " in l]
        print(f"{package(name)}@{VERSION}:", summary[-1] if summary else "(no summary line)")
        report = json.load(open(os.path.join(out, "report.json")))
    return judge(report, known, package(name), 0)


def judge(report, known, label, status):
    """Holds the report's FAIL/WARN (scenario, check) pairs to the listed
    rows, both ways, and fails on any ERROR. Returns the exit status."""
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
                          f"for {label} in KNOWN-TARGETS.md: {(c.get('message') or '')[:200]}")
                    status = 1
    for key in sorted(known - seen):
        print(f"known_targets: listed for {label} but no longer seen: "
              f"{key[0]} :: {key[1]}")
        status = 1
    print(f"known_targets: {len(seen)} known deviations seen, {len(known)} listed")
    return status


if __name__ == "__main__":
    sys.exit(main())
