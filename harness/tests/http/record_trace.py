#!/usr/bin/env python3
"""record_trace.py MCPCHECK REFSERVER

`mcpcheck record --url ... --trace FILE` and `mcpcheck validate --trace FILE`
over Streamable HTTP against the reference server:
  1. a session recorded over HTTP (the refserver in --sse-poll mode, so every
     SSE answer is resumed with GET and Last-Event-ID) writes a trace whose
     messages received carry their HTTP facts (stream, status, content type,
     SSE event id; "resumes" on a resumed stream), and validate --trace
     judges it clean (exit 0, the HTTP checks evaluated). (That the retry
     time is waited is measured on the server side, in hostile.py.)
  2. traces recorded from the refserver with an HTTP violation switch are
     caught by validate --trace (exit 1, the switch's check named);
  3. the trace of an HTTP `mcpcheck run` validates clean as well;
  4. no server is left running.
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

MARKER = "--resources=1"  # makes this test's servers recognisable in ps

SCRIPT = """tools/list
tools/call {"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "rt-1"}}
tools/call {"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "rt-2"}}
ping
"""


def run(cmd, timeout=budget(300), **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def record(mcpcheck, refserver, tmp, name, extra):
    trace = os.path.join(tmp, name + ".jsonl")
    r = run([mcpcheck, "record", "--trace", trace, "-o", os.path.join(tmp, name + ".jsonc"),
             "--url", "http://127.0.0.1:0/mcp", "--", refserver, "--http", "127.0.0.1:0",
             MARKER] + extra, input=SCRIPT)
    return r, trace


def main():
    mcpcheck, refserver = sys.argv[1:3]
    failures = 0

    def fail(msg):
        nonlocal failures
        failures += 1
        print("record_trace: FAIL " + msg)

    with tempfile.TemporaryDirectory() as tmp:
        # 1. A clean session, every SSE answer resumed.
        r, trace = record(mcpcheck, refserver, tmp, "clean", ["--sse-poll"])
        if r.returncode != 0 or not os.path.exists(trace):
            fail(f"record --url exited {r.returncode}: {r.stderr[-800:]}")
        else:
            recs = [json.loads(l) for l in open(trace) if l.strip()]
            facts = [x["http"] for x in recs if "http" in x]
            ins = [x for x in recs if x["dir"] == "in"]
            if not ins or len(facts) != len(ins):
                fail(f"{len(ins)} messages received, {len(facts)} with HTTP facts")
            if not all(isinstance(f.get("status"), int) and f.get("stream") for f in facts):
                fail("HTTP facts without a stream or status: " + json.dumps(facts[:3]))
            if not any(f.get("content_type", "").startswith("text/event-stream") and
                       f.get("event_id") for f in facts):
                fail("no message recorded with an SSE event id")
            if not any(f.get("resumes") for f in facts):
                fail("no message recorded on a resumed stream (GET with Last-Event-ID)")
            v = run([mcpcheck, "validate", "--trace", trace])
            print("record_trace: clean: " + (v.stdout.strip().splitlines() or [""])[-1])
            if v.returncode != 0 or "over Streamable HTTP" not in v.stdout:
                fail(f"validate --trace of a clean HTTP trace exited {v.returncode}:\n{v.stdout}")

        # 2. Violations recorded in a trace are caught offline.
        for switch, check in (("http-sse-event-id-reused", "http/sse-event-id-unique"),
                              ("http-response-wrong-stream", "http/get-stream-no-response")):
            r, trace = record(mcpcheck, refserver, tmp, switch, ["--inject", switch])
            if not os.path.exists(trace):
                fail(f"{switch}: no trace written (record exit {r.returncode}): {r.stderr[-500:]}")
                continue
            v = run([mcpcheck, "validate", "--trace", trace])
            ok = v.returncode == 1 and f"error: {check}:" in v.stdout
            print(f"record_trace: {'ok  ' if ok else 'FAIL'} {switch:28} validate exit "
                  f"{v.returncode}, {check} {'reported' if check in v.stdout else 'missing'}")
            if not ok:
                failures += 1
                print(v.stdout[-1500:])

        # 3. The traces of a run over HTTP validate as well.
        rep = os.path.join(tmp, "run")
        r = run([mcpcheck, "run", "--filter", "transport/*", "--report-dir", rep,
                 "--url", "http://127.0.0.1:0/mcp", "--", refserver, "--http", "127.0.0.1:0",
                 MARKER])
        traces = sorted(os.path.join(rep, "traces", t) for t in os.listdir(os.path.join(rep, "traces")))
        v = run([mcpcheck, "validate", "--quiet", "--trace"] + traces)
        print(f"record_trace: run traces: {len(traces)} validated, exit {v.returncode}")
        if r.returncode != 0 or v.returncode != 0 or not traces:
            fail(f"run exit {r.returncode}, validate exit {v.returncode}:\n{v.stdout[-1500:]}")

    # Only this build's servers count (another build's test may run at once).
    left = [l for l in run(["ps", "-eo", "pid,args"]).stdout.splitlines()
            if MARKER in l and refserver in l and "ps -eo" not in l]
    if left:
        fail("servers left running:\n  " + "\n  ".join(left))
    print(f"record_trace: {'FAIL' if failures else 'ok'} ({failures} problems)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
