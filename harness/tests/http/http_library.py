#!/usr/bin/env python3
"""http_library.py MCPCHECK REFSERVER SCENARIOS

The scenario library over Streamable HTTP against the reference server:
  1. `mcpcheck run --url http://127.0.0.1:0/mcp -- REFSERVER --http 127.0.0.1:0`
     passes every scenario, the transport ones included (they run, not skip),
     at every version the server speaks, the stateless 2026-07-28 included;
  2. every HTTP violation switch (REFSERVER --list-http-bugs) is caught by
     the checks it names (fifth column): a strict run of the scenarios it
     names (sixth column) exits 1 with a FAIL or WARN of one of those checks
     (for a switch of level INFO, an INFO of one of them); no other check's
     finding counts; and the answers of a resume step reach the judge (with
     http-resume-other-stream, the replayed response of the other stream is
     a second response: wire/single-response);
  3. the library passes as well against `REFSERVER --http ... --sse-poll`,
     which closes every SSE answer's connection after a priming event: each
     such answer is got by resuming the stream (GET with Last-Event-ID), and
     the traces show the resumed streams;
  4. `mcpcheck ping --url` against a started server works, and against a
     non-loopback host without --allow-remote is a usage error;
  5. no server process is left behind (each run starts its own and must stop
     it: the run's process group is checked for children afterwards);
  6. POSTed bodies read as strictly as the stdio path reads lines: a request
     followed by a stray brace, or with a raw control byte in a string, is a
     parse error (-32700, null id; before a session, a refusal with a null
     id, whatever its code), and a refusal of a request whose id is neither
     a string nor an integer carries a null id;
  7. at 2026-07-28 a request with a long id (700 bytes) whose answer comes
     after the handler returned (a tool that reports progress first) is
     answered on its stream with that id; and the log messages of a tool
     whose work runs on timers come on its own stream, before its answer,
     while a subscriptions/listen stream is open too.
"""
import contextlib
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402


def run(cmd, timeout=budget(600)):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def leftovers(marker, program):
    # Only this build's processes: other checkouts on the machine may be
    # running the same test at the same time.
    out = run(["ps", "-eo", "pid,args"]).stdout.splitlines()
    return [l for l in out if marker in l and program in l and "ps -eo" not in l]


# The stateless revision runs over HTTP too: its transport scenarios run and pass.
STATELESS = "2026-07-28"


def post(url, body, headers):
    """POSTs body (bytes) to url; returns (status, parsed JSON body or None)."""
    m = re.match(r"http://([^/:]+):(\d+)(/.*)", url)
    c = http.client.HTTPConnection(m.group(1), int(m.group(2)), timeout=budget(10))
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    h.update(headers)
    c.request("POST", m.group(3), body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    try:
        return r.status, json.loads(data)
    except ValueError:
        return r.status, None


@contextlib.contextmanager
def http_refserver(refserver, marker):
    """Starts REFSERVER --http on a free loopback port; yields its URL and
    stops it on leaving."""
    p = subprocess.Popen([refserver, "--http", "127.0.0.1:0", marker], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    try:
        yield re.search(r"listening on (http://\S+)", p.stdout.readline()).group(1)
    finally:
        p.terminate()
        p.wait(10)


def strict_bodies(refserver, marker):
    """Item 6. Returns the number of problems."""
    problems = 0
    with http_refserver(refserver, marker) as url:
        modern = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "ping"}
        meta = ('"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
                '"io.modelcontextprotocol/clientCapabilities":{}}')
        cases = [
            ("stray brace, 2026-07-28", modern,
             b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{' + meta.encode() + b'}} }', -32700),
            ("raw control byte, 2026-07-28", modern,
             b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{' + meta.encode() +
             b',"x":"a\x01b"}}', -32700),
            ("stray brace, initialize", {},
             b'{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}}', None),
            ("fractional id, no Mcp-Name", {"MCP-Protocol-Version": "2026-07-28",
                                           "Mcp-Method": "prompts/get"},
             b'{"jsonrpc":"2.0","id":1.5,"method":"prompts/get","params":{"name":""}}', None),
            ("fractional id, no session", {},
             b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', None),
        ]
        for name, headers, body, code in cases:
            status, doc = post(url, body, headers)
            err = doc.get("error") if isinstance(doc, dict) else None
            ok = (status >= 400 and isinstance(err, dict) and "id" in doc and doc["id"] is None and
                  (code is None or err.get("code") == code))
            if not ok:
                print(f"http_library: FAIL {name}: HTTP {status} {doc}")
                problems += 1
    print(f"http_library: strict bodies: {'FAIL' if problems else 'ok'}")
    return problems


def open_stream(url, rid, method, params, name=None):
    """POSTs a 2026-07-28 request; returns (connection, response) with the
    response's SSE stream still open."""
    m = re.match(r"http://([^/:]+):(\d+)(/.*)", url)
    meta = {"io.modelcontextprotocol/protocolVersion": STATELESS,
            "io.modelcontextprotocol/clientCapabilities": {}}
    meta.update(params.pop("_meta", {}))
    params["_meta"] = meta
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": STATELESS, "Mcp-Method": method}
    if name:
        headers["Mcp-Name"] = name
    c = http.client.HTTPConnection(m.group(1), int(m.group(2)), timeout=budget(10))
    c.request("POST", m.group(3), body=json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                                   "params": params}).encode(), headers=headers)
    return c, c.getresponse()


def read_until_answer(r):
    """The messages of SSE response r up to and with the first answer, and
    the text read. Keep-alive comments would keep a plain read waiting: the
    stream is read a line at a time, for 10 s at most."""
    msgs, data, deadline = [], "", time.monotonic() + budget(10)
    while time.monotonic() < deadline:
        line = r.readline().decode()
        if not line:
            break
        data += line
        if line.startswith("data:"):
            msgs.append(json.loads(line[5:]))
            if "id" in msgs[-1] and ("result" in msgs[-1] or "error" in msgs[-1]):
                break
    return msgs, data


def late_answers(refserver, marker):
    """Item 7. Returns the number of problems."""
    problems = 0
    with http_refserver(refserver, marker) as url:
        rid = "E" * 700
        c, r = open_stream(url, rid, "tools/call",
                           {"name": "test_tool_with_progress", "arguments": {},
                            "_meta": {"progressToken": "t7"}}, "test_tool_with_progress")
        msgs, data = read_until_answer(r)
        c.close()
        answers = [x["id"] for x in msgs if "id" in x]
        if r.status != 200 or answers != [rid]:
            print(f"http_library: FAIL long id: HTTP {r.status}, "
                  f"answers {[str(a)[:20] for a in answers]} {data[:200]!r}")
            problems += 1
        # The listen stream opens while the tool works: the newest stream.
        c, r = open_stream(url, 8, "tools/call",
                           {"name": "test_tool_with_logging", "arguments": {},
                            "_meta": {"io.modelcontextprotocol/logLevel": "debug"}},
                           "test_tool_with_logging")
        lc, lr = open_stream(url, "L", "subscriptions/listen", {"notifications": {}})
        msgs, data = read_until_answer(r)
        c.close()
        lc.close()
        logs = [x for x in msgs if x.get("method") == "notifications/message"]
        if lr.status != 200 or len(logs) != 3 or "result" not in msgs[-1]:
            print(f"http_library: FAIL a tool's log messages beside a listen stream: "
                  f"{len(logs)} of 3 on its stream before its answer {data[:300]!r}")
            problems += 1
    print(f"http_library: late answers at {STATELESS}: {'FAIL' if problems else 'ok'}")
    return problems


def main():
    mcpcheck, refserver, scenarios = sys.argv[1:4]
    failures = 0
    # A marker argument value makes this test's servers recognisable in ps.
    marker = "--page-size=3"
    server = [refserver, "--http", "127.0.0.1:0", marker]
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, "clean")
        r = run([mcpcheck, "run", "--scenarios", scenarios, "--report-dir", rep,
                 "--url", "http://127.0.0.1:0/mcp", "--"] + server)
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        if not os.path.exists(os.path.join(rep, "report.json")):
            print(f"http_library: FAIL the clean run wrote no report (exit {r.returncode})\n"
                  f"stdout: {r.stdout[-2000:]}\nstderr: {r.stderr[-6000:]}")
            return 1
        report = json.load(open(os.path.join(rep, "report.json")))
        bad = [f"{s['id']}@{s['version']}: {s['verdict']} {s.get('reason') or ''}"
               for s in report["scenarios"] if s["verdict"] not in ("PASS", "SKIP", "NOT-VERIFIED")]
        # Every transport scenario runs and passes over HTTP, but those written
        # for stdio (SKIP: "the scenario is for the stdio transport") and, at
        # 2024-11-05, those of Streamable HTTP (that version speaks HTTP+SSE).
        transport = [s for s in report["scenarios"] if s["id"].startswith("transport/")
                     and "for the stdio transport" not in (s.get("reason") or "")
                     and "this run speaks HTTP+SSE" not in (s.get("reason") or "")]
        ran = [s for s in transport if s["verdict"] == "PASS"]
        print(f"http_library: clean run: {last} (exit {r.returncode}); "
              f"{len(ran)} of {len(transport)} transport runs passed")
        if r.returncode != 0 or bad or " 0 failed" not in last:
            print("http_library: FAIL the clean run did not pass:\n  " + "\n  ".join(bad[:20]))
            print(r.stderr[-2000:])
            failures += 1
        if len(transport) < 8 or len(ran) != len(transport):
            print("http_library: FAIL transport scenarios did not all run and pass")
            failures += 1
        at26 = [s for s in report["scenarios"] if s["version"] == STATELESS]
        t26 = [s for s in at26 if s["id"].startswith("transport/") and s["verdict"] == "PASS"]
        print(f"http_library: {STATELESS}: {len(at26)} runs, {len(t26)} transport runs passed")
        if len(at26) < 50 or len(t26) < 10:
            print(f"http_library: FAIL {STATELESS} did not run over HTTP")
            failures += 1
        # Every message went through HTTP: the traces note the HTTP facts.
        traces = os.listdir(os.path.join(rep, "traces"))
        sample = open(os.path.join(rep, "traces", sorted(traces)[0])).read()
        if "(http: POST#" not in sample:
            print("http_library: FAIL the trace carries no HTTP facts")
            failures += 1

        bugs = run([refserver, "--list-http-bugs"]).stdout.splitlines()
        if len(bugs) < 6:
            print(f"http_library: FAIL only {len(bugs)} HTTP switches")
            failures += 1
        for line in bugs:
            fields = line.split("\t")
            if len(fields) != 6 or not fields[4] or not fields[5]:
                print(f"http_library: FAIL {fields[0]}: names no check or no scenario: {line}")
                failures += 1
                continue
            name, level, rule, ref, checks, where = fields
            checks = set(checks.split(","))
            out = os.path.join(tmp, name)
            cmd = [mcpcheck, "run", "--strict", "--timeout", str(budget(1000)), "--scenarios", scenarios,
                   "--report-dir", out]
            for g in where.split(","):
                cmd += ["--filter", g]
            r = run(cmd + ["--url", "http://127.0.0.1:0/mcp", "--"] + server + ["--inject", name])
            rpt = json.load(open(os.path.join(out, "report.json")))
            want = ("INFO",) if level == "INFO" else ("FAIL", "WARN")
            caught = sorted({c["id"] for s in rpt["scenarios"] for c in s["checks"]
                             if c["verdict"] in want and c["id"] in checks})
            ok = bool(caught) and (r.returncode == 1 or level == "INFO")
            if name == "http-resume-other-stream":
                # The judge reads the resume step's streams as the client got
                # them: the other stream's response, replayed, is a second one.
                ok = ok and any(c["id"] == "wire/single-response" and c["verdict"] == "FAIL"
                                for s in rpt["scenarios"] for c in s["checks"])
            print(f"http_library: {'ok  ' if ok else 'FAIL'} {name:28} exit {r.returncode} "
                  f"{level:6} {', '.join(caught)}")
            if not ok:
                print(f"     named: {', '.join(sorted(checks))}; scenarios: {where}")
            failures += 0 if ok else 1

        # Every SSE answer dropped after its priming event and resumed.
        rep = os.path.join(tmp, "poll")
        r = run([mcpcheck, "run", "--scenarios", scenarios, "--report-dir", rep,
                 "--url", "http://127.0.0.1:0/mcp", "--"] + server + ["--sse-poll"])
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        report = json.load(open(os.path.join(rep, "report.json")))
        bad = [f"{s['id']}@{s['version']}: {s['verdict']} {s.get('reason') or ''}"
               for s in report["scenarios"] if s["verdict"] not in ("PASS", "SKIP", "NOT-VERIFIED")]
        resumed = [t for t in os.listdir(os.path.join(rep, "traces"))
                   if '"resumes":' in open(os.path.join(rep, "traces", t)).read()]
        print(f"http_library: --sse-poll run: {last} (exit {r.returncode}); "
              f"{len(resumed)} scenario runs resumed a stream")
        if r.returncode != 0 or bad or " 0 failed" not in last:
            print("http_library: FAIL the --sse-poll run did not pass:\n  " + "\n  ".join(bad[:20]))
            failures += 1
        if len(resumed) < 4:
            print("http_library: FAIL too few resumed streams in the --sse-poll run")
            failures += 1

        r = run([mcpcheck, "ping", "--url", "http://127.0.0.1:0/mcp", "--"] + server)
        if r.returncode != 0 or "protocol version:" not in r.stdout or "DELETE accepted" not in r.stdout:
            print(f"http_library: FAIL ping --url: exit {r.returncode}\n{r.stdout}{r.stderr}")
            failures += 1
        r = run([mcpcheck, "ping", "--url", "http://192.0.2.1:9/mcp"])
        if r.returncode != 2 or "allow-remote" not in r.stderr:
            print(f"http_library: FAIL remote URL without --allow-remote: exit {r.returncode}")
            failures += 1
    failures += strict_bodies(refserver, marker)
    failures += late_answers(refserver, marker)
    left = leftovers(marker, refserver)
    if left:
        print("http_library: FAIL servers left running:\n  " + "\n  ".join(left))
        failures += 1
    print(f"http_library: {'FAIL' if failures else 'ok'} ({failures} problems)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
