#!/usr/bin/env python3
"""sse_transport.py MCPCHECK REFSERVER SCENARIOS
sse_transport.py --everything MCPCHECK SCENARIOS NPM_CACHE KNOWN_TARGETS_MD

The HTTP+SSE transport of 2024-11-05 (basic/transports#security-warning),
client side, with the checks http/sse-endpoint-event and
http/sse-two-endpoints.

Without --everything, against the reference server (which serves HTTP+SSE
on /mcp beside Streamable HTTP) and two scripted servers of this file:
  1. the scenario library at 2024-11-05 over `mcpcheck run --url` passes
     strictly over HTTP+SSE (PASS, SKIP or NOT-VERIFIED only), the two checks
     passing, every transcript naming the transport, and one transcript
     judged again by `mcpcheck validate --trace` with no finding;
     `--transport sse` speaks it at 2025-06-18 too;
  2. each HTTP+SSE violation switch of the reference server (http-legacy-*)
     fails a strict run with the check catches.c names for it; a rule that
     held before it broke counts the evaluation that held;
  3. a URL where neither transport is served cannot be tested (exit 3, the
     GET's answer named), whichever transport is asked for, and gets no
     verdict of the HTTP+SSE checks;
  4. an endpoint event naming another origin is refused (exit 3, the reason
     named) and never followed: nothing is POSTed, nothing reaches that
     origin.
With --everything, @modelcontextprotocol/server-everything (the pinned
release of known_targets.py, installed into NPM_CACHE) on its `sse`
transport, started by mcpcheck on a free loopback port: at 2024-11-05 over
HTTP+SSE and, by the backwards compatibility procedure (its POST /sse is
404), at 2025-06-18 too; both checks pass, nothing ends in ERROR, every FAIL
and WARN is a row of its HTTP+SSE section of KNOWN-TARGETS.md and every row
is seen; the server is gone and its port closed afterwards. Exits 77 without
node and npm.
"""
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenario"))
from testenv import budget, unavailable  # noqa: E402

CHECKS = ("http/sse-endpoint-event", "http/sse-two-endpoints")
# The section of KNOWN-TARGETS.md this test holds server-everything's run to.
SECTION = "server-everything over HTTP+SSE"
# What the run against server-everything covers: the handshake, the lists,
# and the JSON-RPC scenarios whose malformed input its transport refuses at
# the HTTP level.
EVERYTHING_FILTERS = ["lifecycle/ping", "lifecycle/initialize-result", "tools/list-*",
                      "prompts/list-*", "jsonrpc/*"]


def run(cmd, timeout=budget(300)):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def report(out):
    return json.load(open(os.path.join(out, "report.json")))


def verdicts(rep, check):
    """The verdicts of check in the report, by version."""
    got = {}
    for sc in rep["scenarios"]:
        for c in sc["checks"]:
            if c["id"] == check:
                got.setdefault(sc["version"], set()).add(c["verdict"])
    return got


def transports(out):
    """The transports the transcripts name."""
    seen = set()
    for name in os.listdir(os.path.join(out, "traces")):
        for m in re.finditer(r"\(http: transport ([a-z+-]+)\)",
                             open(os.path.join(out, "traces", name)).read()):
            seen.add(m.group(1))
    return seen


def trace_of(out, sc):
    """The transcript of a scenario's run."""
    name = sc["id"].replace("/", "__") + "@" + sc["version"] + ".jsonl"
    return open(os.path.join(out, "traces", name)).read()


def leftovers(marker):
    ps = run(["ps", "-eo", "pid,args"]).stdout.splitlines()
    return [line for line in ps if marker in line and "ps -eo" not in line]


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Foreign(http.server.BaseHTTPRequestHandler):
    """GET opens an SSE stream whose endpoint event names another origin
    (the port of the second server); every request is counted."""
    endpoint = ""
    hits = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        Foreign.hits.append(("GET", self.server.server_address[1], self.path))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(f"event: endpoint\ndata: {Foreign.endpoint}\n\n".encode())
        self.wfile.flush()
        time.sleep(1)

    def do_POST(self):
        Foreign.hits.append(("POST", self.server.server_address[1], self.path))
        self.send_response(202)
        self.send_header("Content-Length", "0")
        self.end_headers()


def refserver_part(mcpcheck, refserver, scenarios):
    failures = 0
    server = [refserver, "--http", "127.0.0.1:0"]
    url = ["--url", "http://127.0.0.1:0/mcp", "--"]

    def fail(text):
        nonlocal failures
        print("sse_transport: FAIL " + text)
        failures += 1

    with tempfile.TemporaryDirectory() as tmp:
        # 1. The library at 2024-11-05 over HTTP+SSE, and --transport sse at 2025-06-18.
        out = os.path.join(tmp, "library")
        r = run([mcpcheck, "run", "--strict", "--scenarios", scenarios, "--report-dir", out,
                 "--spec-version", "2024-11-05"] + url + server)
        rep = report(out)
        bad = [f"{s['id']}: {s['verdict']} {s.get('reason') or ''}" for s in rep["scenarios"]
               if s["verdict"] not in ("PASS", "SKIP", "NOT-VERIFIED")]
        ran = [s for s in rep["scenarios"] if s["verdict"] == "PASS"]
        print(f"sse_transport: the library at 2024-11-05 over HTTP+SSE: exit {r.returncode}, "
              f"{len(ran)} passed")
        if r.returncode != 0 or bad:
            fail(f"the library at 2024-11-05 did not pass: {bad[:5]}\n{r.stdout[-800:]}")
        if len(ran) < 50:
            fail(f"only {len(ran)} scenarios passed at 2024-11-05; the transport did not carry them")
        for check in CHECKS:
            v = verdicts(rep, check).get("2024-11-05", set())
            if v != {"PASS"}:
                fail(f"{check} at 2024-11-05: {sorted(v) or 'never made'}")
        missing = [s["id"] for s in ran if s["version"] == "2024-11-05" and
                   "(http: transport http+sse)" not in trace_of(out, s)]
        if missing:
            fail(f"transcripts at 2024-11-05 that do not name HTTP+SSE: {missing[:5]}")
        # A transcript of HTTP+SSE is judged offline as live: its stream is
        # no GET stream of Streamable HTTP (a response on it is no finding).
        one = [s for s in ran if s["id"] == "logging/rate-limited" and s["version"] == "2024-11-05"]
        if not one:
            fail("logging/rate-limited did not pass at 2024-11-05 (the log messages of a call "
                 "relate to it on the one stream)")
        else:
            name = os.path.join(out, "traces", "logging__rate-limited@2024-11-05.jsonl")
            v = run([mcpcheck, "validate", "--trace", name])
            if v.returncode != 0 or "(over HTTP+SSE)" not in v.stdout or " 0 findings" not in v.stdout:
                fail(f"validate --trace of an HTTP+SSE transcript: exit {v.returncode}: "
                     f"{v.stdout.strip()[-300:]}")
        out = os.path.join(tmp, "explicit")
        r = run([mcpcheck, "run", "--strict", "--scenarios", scenarios, "--report-dir", out,
                 "--spec-version", "2025-06-18", "--transport", "sse", "--filter", "lifecycle/*",
                 "--filter", "tools/*"] + url + server)
        rep = report(out)
        passed = [s for s in rep["scenarios"] if s["verdict"] == "PASS"]
        if r.returncode != 0 or not passed or transports(out) != {"http+sse"}:
            fail(f"--transport sse at 2025-06-18: exit {r.returncode}, {len(passed)} passed, "
                 f"transports {sorted(transports(out))}\n{r.stdout[-600:]}")
        # Its checks stand at 2024-11-05 only (a scenario may pin that version).
        if any(v != "2024-11-05" for c in CHECKS for v in verdicts(rep, c)):
            fail("an HTTP+SSE check was reported at a version other than 2024-11-05")

        # 2. The switches.
        bugs = [line.split("\t") for line in run([refserver, "--list-http-bugs"]).stdout.splitlines()]
        legacy = [b for b in bugs if b[0].startswith("http-legacy-")]
        if len(legacy) < 2:
            fail(f"only {len(legacy)} HTTP+SSE switches")
        for name, level, rule, ref, checks, where in legacy:
            out = os.path.join(tmp, name)
            cmd = [mcpcheck, "run", "--strict", "--scenarios", scenarios, "--report-dir", out,
                   "--spec-version", "2024-11-05"]
            for g in where.split(","):
                cmd += ["--filter", g]
            r = run(cmd + url + server + ["--inject", name])
            caught = {c for c in checks.split(",")
                      if "FAIL" in verdicts(report(out), c).get("2024-11-05", set())}
            ok = r.returncode == 1 and caught
            print(f"sse_transport: {'ok  ' if ok else 'FAIL'} {name:34} exit {r.returncode} "
                  f"{', '.join(sorted(caught))}")
            if not ok:
                fail(f"{name} ({rule}) not caught by {checks}\n{r.stdout[-600:]}")
            if name == "http-legacy-notification-refused":
                # initialize was answered on the stream (the rule held) before
                # notifications/initialized was refused (it broke): both count.
                counts = [(c["evaluations"], c["failures"])
                          for sc in report(out)["scenarios"] for c in sc["checks"]
                          if c["id"] == "http/sse-two-endpoints"]
                if not counts or any(e != f + 1 for e, f in counts):
                    fail(f"{name}: http/sse-two-endpoints (evaluations, failures) {counts}, "
                         "not one evaluation more than its failures")

        # 3. A URL where neither transport is served cannot be tested (exit 3),
        # whichever transport is asked for, and gets no verdict of HTTP+SSE.
        for transport in ("auto", "sse"):
            out = os.path.join(tmp, "nowhere-" + transport)
            r = run([mcpcheck, "run", "--scenarios", scenarios, "--report-dir", out,
                     "--spec-version", "2024-11-05", "--filter", "lifecycle/ping",
                     "--transport", transport, "--url", "http://127.0.0.1:0/nowhere", "--"] +
                    server)
            rep = report(out)
            if r.returncode != 3 or "not an SSE stream" not in r.stdout + r.stderr or \
                    any(verdicts(rep, c) for c in CHECKS):
                fail(f"no transport at the URL, --transport {transport}: exit {r.returncode}\n"
                     f"{(r.stdout + r.stderr)[-600:]}")

        # 4. An endpoint of another origin: refused, never followed.
        Foreign.hits.clear()
        a = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Foreign)
        b = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Foreign)
        Foreign.endpoint = f"http://127.0.0.1:{b.server_address[1]}/messages?sessionId=1"
        for sv in (a, b):
            threading.Thread(target=sv.serve_forever, daemon=True).start()
        try:
            out = os.path.join(tmp, "foreign")
            r = run([mcpcheck, "run", "--scenarios", scenarios, "--report-dir", out,
                     "--spec-version", "2024-11-05", "--filter", "lifecycle/ping",
                     "--transport", "sse", "--url", f"http://127.0.0.1:{a.server_address[1]}/sse"])
            said = r.stdout + r.stderr
            if r.returncode != 3 or "another origin" not in said:
                fail(f"an endpoint of another origin: exit {r.returncode}\n{said[-600:]}")
            if not any(h[0] == "GET" for h in Foreign.hits):
                fail("the scripted server was never asked for its SSE stream")
            if any(h[1] == b.server_address[1] or h[0] == "POST" for h in Foreign.hits):
                fail(f"the endpoint of another origin was followed: {Foreign.hits}")
        finally:
            a.shutdown()
            b.shutdown()
    return failures


def known_rows(known_md):
    rows, inside = set(), False
    for line in open(known_md, encoding="utf-8"):
        if line.startswith("## "):
            inside = SECTION in line
            continue
        m = re.match(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|", line)
        if inside and m:
            rows.add((m.group(1), m.group(2)))
    return rows


def everything_part(mcpcheck, scenarios, cache, known_md):
    import shutil
    import known_targets
    if shutil.which("node") is None or shutil.which("npm") is None:
        unavailable("sse_transport: node and npm are needed to run server-everything")
    err = known_targets.install(cache)
    if err is not None:
        unavailable("sse_transport: npm install failed: %s" % err)
    failures = 0
    port = free_port()
    marker = f"--mcpcheck-sse-target={port}"
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report")
        cmd = [mcpcheck, "run", "--jobs", "2", "--scenarios", scenarios,
               "--profile", os.path.join(scenarios, "profiles", "everything.json"),
               "--report-dir", out, "--spec-version", "2024-11-05", "--spec-version", "2025-06-18"]
        for g in EVERYTHING_FILTERS:
            cmd += ["--filter", g]
        cmd += ["--url", f"http://127.0.0.1:{port}/sse", "--", "env", f"PORT={port}", "node",
                known_targets.entry(cache, "everything"), "sse", marker]
        r = run(cmd, timeout=budget(600))
        summary = [line for line in r.stdout.splitlines() if " passed, " in line]
        print(f"sse_transport: server-everything over HTTP+SSE (port {port}):",
              summary[-1] if summary else "(no summary line)")
        deadline = time.monotonic() + budget(10)
        while time.monotonic() < deadline:
            if not leftovers(marker) and not port_open(port):
                break
            time.sleep(0.2)
        else:
            print(f"sse_transport: FAIL server left behind: {leftovers(marker) or 'port open'}")
            failures += 1
        rep = report(out)
        for check in CHECKS:
            v = verdicts(rep, check).get("2024-11-05", set())
            if v != {"PASS"}:
                print(f"sse_transport: FAIL {check} at 2024-11-05: {sorted(v) or 'never made'}")
                failures += 1
        used = transports(out)
        if used != {"http+sse"}:
            print(f"sse_transport: FAIL the transcripts name the transports {sorted(used)}")
            failures += 1
        known, seen = known_rows(known_md), set()
        for sc in rep["scenarios"]:
            if sc["verdict"] == "ERROR":
                print(f"sse_transport: FAIL ERROR {sc['id']} [{sc['version']}]: {sc.get('reason')}")
                failures += 1
            for c in sc["checks"]:
                if c["verdict"] in ("FAIL", "WARN"):
                    seen.add((sc["id"], c["id"]))
                    if (sc["id"], c["id"]) not in known:
                        print(f"sse_transport: FAIL {sc['id']} :: {c['id']} [{sc['version']}] is "
                              f"not listed in the section \"{SECTION}\" of KNOWN-TARGETS.md")
                        failures += 1
        for key in sorted(known - seen):
            print(f"sse_transport: FAIL listed but no longer seen: {key[0]} :: {key[1]}")
            failures += 1
        print(f"sse_transport: {len(seen)} known deviations seen, {len(known)} listed")
    return failures


def main():
    if sys.argv[1] == "--everything":
        failures = everything_part(*sys.argv[2:6])
    else:
        failures = refserver_part(*sys.argv[1:4])
    print(f"sse_transport: {'FAIL' if failures else 'ok'} ({failures} problems)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
