#!/usr/bin/env python3
"""hostile.py MCPCHECK SCENARIOS [MAX_RSS_MIB]

Hostile Streamable HTTP targets, each a scripted loopback server in this
process: one that never answers, one that answers with a 1 GB body, an
endless SSE stream, headers without end, a slow drip, a redirect to another
host, a non-HTTP banner, and one whose every SSE stream closes after one new
event with an id and `retry: 0` (the client resumes it with GET and
Last-Event-ID, within its budget: at most MC_HTTP_RESUME_MAX_PER_REQUEST,
64, resumptions of one request), and the same with `retry: 300` (every
resumption comes at least 300 ms after the stream closed). For each, `mcpcheck ping --url` must fail with
exit 3 and a reason on stderr, and `mcpcheck run --url` must write its report
with every scenario ERROR or FAIL (never PASS), exit 1 or 3, within its time
budget, with mcpcheck's peak memory bounded. Every server stops at the end.
"""
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import itertools
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

# The start-up budget of both the ping and the run, in ms (stretched by
# MCPCHECK_TEST_TIMEOUT_MULTIPLIER): every server here leaves initialize
# without an answer, so each run spends it whole.
STARTUP_MS = 2000
# client/http_limits.h: resumptions of one request at most.
RESUME_MAX_PER_REQUEST = 64
EVENT_IDS = itertools.count(1)
RESUMES = []  # one entry per GET with Last-Event-ID served
RETRY_MS = 300  # the retry field of mode resume-retry
CLOSED = []  # resume-retry: when each stream was closed, and when the next resumption came
GAPS = []

# Peak RSS allowed for one mcpcheck process against a hostile server: the
# frame queue (64 MiB) and a capped body (16 MiB) plus the program. The
# sanitizer build passes a larger bound (shadow memory and quarantine).
MAX_RSS_KB = (int(sys.argv[3]) if len(sys.argv) > 3 else 400) * 1024


def read_request(conn):
    conn.settimeout(5)
    data = b""
    try:
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    return data


def serve(mode, conn, stop):
    try:
        if mode == "banner":
            conn.sendall(b"SSH-2.0-OpenSSH_9.2 not-http\r\n")
            time.sleep(0.5)
            return
        head = read_request(conn)
        if mode == "resume-retry":
            if b"\r\nlast-event-id:" in head.lower() and CLOSED:
                GAPS.append(time.monotonic() - CLOSED[-1])
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         b"Connection: close\r\n\r\nretry: %d\nid: r%d\n"
                         b'data: {"jsonrpc":"2.0","method":"notifications/message",'
                         b'"params":{"level":"info","data":"later"}}\n\n'
                         % (RETRY_MS, next(EVENT_IDS)))
            # Noted before the close: the client cannot see the stream end
            # (and start its retry wait) earlier, however late this thread
            # runs afterwards on a busy machine.
            CLOSED.append(time.monotonic())
            conn.close()
            return
        if mode == "resume-forever":
            if b"\r\nlast-event-id:" in head.lower():
                RESUMES.append(1)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         b"Connection: close\r\n\r\nretry: 0\nid: e%d\n"
                         b'data: {"jsonrpc":"2.0","method":"notifications/message",'
                         b'"params":{"level":"info","data":"again"}}\n\n' % next(EVENT_IDS))
            return
        if mode == "silent":
            while not stop.is_set():
                time.sleep(0.1)
        elif mode == "hugebody":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1073741824\r\n\r\n")
            block = b" " * 65536
            for _ in range(16384):
                if stop.is_set():
                    break
                conn.sendall(block)
        elif mode == "endless-sse":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
            ev = (b'data: {"jsonrpc":"2.0","method":"notifications/message",'
                  b'"params":{"level":"info","data":"' + b"x" * 1000 + b'"}}\n\n')
            while not stop.is_set():
                conn.sendall(ev * 64)
        elif mode == "endless-headers":
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            while not stop.is_set():
                conn.sendall(b"X-Filler: " + b"a" * 1000 + b"\r\n")
        elif mode == "drip":
            for b in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"jsonrpc\"":
                if stop.is_set():
                    break
                conn.sendall(bytes([b]))
                time.sleep(0.5)
        elif mode == "redirect":
            conn.sendall(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://192.0.2.1/mcp\r\n"
                         b"Content-Length: 0\r\n\r\n")
            time.sleep(0.2)
    except OSError:
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def start(mode):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    s.settimeout(0.2)
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            try:
                c, _ = s.accept()
            except OSError:
                continue
            threading.Thread(target=serve, args=(mode, c, stop), daemon=True).start()
        s.close()

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    return s.getsockname()[1], stop, t


def main():
    mcpcheck, scenarios = sys.argv[1], sys.argv[2]
    failures = 0
    modes = ["silent", "hugebody", "endless-sse", "endless-headers", "drip", "redirect",
             "banner", "resume-forever", "resume-retry"]
    with tempfile.TemporaryDirectory() as tmp:
        for mode in modes:
            port, stop, thread = start(mode)
            url = f"http://127.0.0.1:{port}/mcp"
            t0 = time.time()
            del RESUMES[:]
            del CLOSED[:]
            del GAPS[:]
            p = subprocess.run([mcpcheck, "ping", "--timeout", str(budget(STARTUP_MS)), "--url", url],
                               capture_output=True, text=True, timeout=budget(120))
            ping_s = time.time() - t0
            reason = (p.stderr.strip().splitlines() or ["(nothing)"])[0]
            ok = p.returncode == 3 and p.stderr.strip() != ""
            if mode == "resume-forever":
                # The handshake's stream was resumed, and not past the budget.
                print(f"hostile:      {len(RESUMES)} resumptions of the initialize stream")
                ok = ok and 1 <= len(RESUMES) <= RESUME_MAX_PER_REQUEST
            if mode == "resume-retry":
                # The client waited the retry time before every resumption.
                print(f"hostile:      {len(GAPS)} resumptions, shortest wait "
                      f"{min(GAPS) * 1000 if GAPS else 0:.0f} ms (retry: {RETRY_MS})")
                ok = ok and len(GAPS) >= 1 and min(GAPS) * 1000 >= RETRY_MS
            t0 = time.time()
            out = os.path.join(tmp, mode)
            # A start-up budget of 2 s, the ping's (not the default 30 s):
            # the silent servers here are judged on what they do, not on how
            # long the harness waits for them, and the run's wait for the
            # handshake is silence or a stream that never ends, whatever its
            # length; the ping above shows each cause within the same 2 s.
            r = subprocess.run([mcpcheck, "run", "--timeout", str(budget(1500)),
                                "--startup-timeout", str(budget(STARTUP_MS)),
                                "--filter", "tools/list-shape",
                                "--scenarios", scenarios, "--report-dir", out, "--url", url],
                               capture_output=True, text=True, timeout=budget(300))
            run_s = time.time() - t0
            stop.set()
            thread.join(5)
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            verdicts = []
            try:
                rep = json.load(open(os.path.join(out, "report.json")))
                verdicts = [(s["verdict"], s.get("reason") or "") for s in rep["scenarios"]]
            except (OSError, ValueError) as e:
                verdicts = [("NO-REPORT", str(e))]
            ok = ok and r.returncode in (1, 3) and verdicts and \
                all(v in ("ERROR", "FAIL") for v, _ in verdicts) and rss < MAX_RSS_KB
            print(f"hostile: {'ok  ' if ok else 'FAIL'} {mode:16} ping exit {p.returncode} "
                  f"({ping_s:.1f} s): {reason[:150]}")
            print(f"hostile:      run exit {r.returncode} ({run_s:.1f} s), "
                  f"{[v for v, _ in verdicts]}, peak RSS so far {rss // 1024} MiB: "
                  f"{(verdicts[0][1] if verdicts else '')[:150]}")
            failures += 0 if ok else 1
    print(f"hostile: {'FAIL' if failures else 'ok'} ({failures} problems)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
