#!/usr/bin/env python3
"""record_tty.py MCPCHECK REFSERVER - `mcpcheck record` at a terminal says
what it waits for.

With standard input a terminal (a pseudo-terminal here), record prints a
hint on stderr once the session is open, reads the requests typed, and
writes the scenario at end of input (Ctrl-D). With standard input not a
terminal it prints no hint (a pipe carries a script).
"""
import os
import pty
import select
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

HINT = b"type one request per line"
BUDGET_S = budget(20)


def read_until(fd, needle, deadline):
    got = b""
    while needle not in got and time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
    return got


def main():
    mc, rs = sys.argv[1:3]
    problems = []
    # At a terminal: the hint, then a request, then Ctrl-D.
    master, slave = pty.openpty()
    p = subprocess.Popen([mc, "record", "--", rs], stdin=slave, stdout=subprocess.PIPE,
                         stderr=slave, close_fds=True)
    os.close(slave)
    deadline = time.time() + BUDGET_S
    seen = read_until(master, HINT, deadline)
    if HINT not in seen:
        problems.append("no hint at a terminal: %r" % seen[-300:])
    os.write(master, b"tools/list\n\x04")
    try:
        out, _ = p.communicate(timeout=BUDGET_S)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        problems.append("record did not end at Ctrl-D")
    os.close(master)
    if p.returncode != 0 or b'"request": "tools/list"' not in out:
        problems.append("at a terminal: exit %s, scenario %r" % (p.returncode, out[:300]))
    # From a pipe: no hint.
    q = subprocess.run([mc, "record", "--", rs], input=b"tools/list\n", stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=BUDGET_S)
    if HINT in q.stderr or q.returncode != 0:
        problems.append("from a pipe: exit %d, stderr %r" % (q.returncode, q.stderr[:300]))
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
