#!/usr/bin/env python3
"""hostile_test.py - mcpcheck against one hostile server (harness/tests/hostile).

usage: hostile_test.py --list
       hostile_test.py [--sanitized] MCPCHECK MC_HOSTILE CASE

Runs `mcpcheck run` (or `mcpcheck ping`) against `mc-hostile MODE` and holds:
  - the exit code;
  - the cause named in report.json (scenario reasons, failing checks), and
    what must not be named (the symptom instead of the cause);
  - the wall time (a bound for hangs and for early stops, never for speed);
  - mcpcheck's peak resident memory (MEMORY_BOUND, as documented in the
    README's Reliability section; skipped in a sanitizer build, whose
    shadow memory says nothing about the harness);
  - that no process of the target is left: this script makes itself a
    subreaper, so that anything mcpcheck failed to kill ends up here, and
    every process of mc-hostile records its pid for the check.
"""
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import multiplier  # noqa: E402

MEMORY_BOUND_KB = 256 * 1024
PR_SET_CHILD_SUBREAPER = 36


def case(name, mode, exit_codes, causes=(), absent=(), bound=60, filt=None, args=(),
         stderr=(), stderr_absent=(), ping=False, count=None, signals=(), after_signal=None,
         max_notes=None, sanitized=None):
    """sanitized, when given, is (args, causes) used instead of args and
    causes in a sanitizer build (--sanitized)."""
    return dict(name=name, mode=mode, exit_codes=set(exit_codes), causes=list(causes),
                absent=list(absent), bound=bound, filt=filt, args=list(args), stderr=list(stderr),
                stderr_absent=list(stderr_absent), ping=ping, count=count, signals=list(signals),
                after_signal=after_signal, max_notes=max_notes, sanitized=sanitized)


STOPPED_EARLY = r"mcpcheck run: stopped early: the server cannot be tested"

CASES = [
    # Exits at once: the run stops after the first handshakes, one line says why.
    case("exit-now", "exit-now", {3}, [r"ERROR .*exited with status 0 while answering initialize"],
         bound=30, stderr=[STOPPED_EARLY]),
    case("signal-after-init", "signal-after-init", {1, 3}, [r"ERROR .*killed by SIGSEGV"],
         filt="lifecycle/ping*"),
    # Never writes: the whole library ends within a minute with the default
    # start-up budget (30 s), exit 3 and one line. The sanitizer tree gives it
    # 3 s instead: that budget's whole wait is silence, no C of ours runs in
    # it, and the same paths (the wait spent, the run stopped early, the
    # server stopped) run once it is spent; the default budget's value is
    # held here in the default tree.
    case("never-writes", "silent", {3}, [r"no answer to (initialize|server/discover) within 30000 ms"],
         bound=60, stderr=[STOPPED_EARLY],
         sanitized=(["--startup-timeout", "3000"],
                    [r"no answer to (initialize|server/discover) within 3000 ms"])),
    case("banner", "banner", {1}, [r"FAIL wire/stdout-only-messages: .*mc-hostile 1.0 ready"],
         filt="lifecycle/ping"),
    # 100 MB without a newline: reported as soon as it passes the limit (the
    # wire check), and the failed handshake is blamed on it, not on silence.
    case("no-newline-100mb", "no-newline", {3},
         [r"INFO wire/message-size: a line passed the \d+-byte limit",
          r"ERROR .*line over the \d+-byte message limit and no answer to initialize came"],
         absent=[r"no answer to initialize within"], args=["--startup-timeout", "5000"],
         bound=30, stderr=[STOPPED_EARLY]),
    # A flood: runs end on the rate guard (the run stops early when the first
    # ones do; whether a step with a short wait sees enough messages to call
    # it a flood depends on the machine's speed, so that is not held here).
    case("flood", "flood", {1, 3}, [r"ERROR .*flooded the client"], bound=60,
         args=["--spec-version", "2025-11-25"]),
    case("flood-ping", "flood", {3}, [], ping=True, bound=30,
         stderr=[r"flooded the client"], max_notes=8),
    case("bad-ids", "bad-ids", {1},
         [r"FAIL wire/response-id: response id \"mc-hostile-unknown\" matches no request",
          r"FAIL wire/single-response: second response to request"], filt="lifecycle/ping"),
    # A notification answered with {"id": null, "result": {}}: the rule broken
    # is the one that fails, not only the envelope.
    case("answers-notifications", "answer-notifications", {1},
         [r"FAIL jsonrpc/notification/no-response", r"FAIL wire/no-response-to-notification"],
         absent=[r"wire/jsonrpc-envelope"], filt="jsonrpc/notification*"),
    # Ignores stdin EOF and SIGTERM: one INFO observation, and later runs do
    # not wait out the graces again (29 runs, one at a time, would take about
    # a minute if each paid 2 s).
    case("ignores-sigterm-and-eof", "ignore-shutdown", {0, 1},
         [r"INFO lifecycle/shutdown/stdio: .*killed with SIGKILL"], filt="jsonrpc/*",
         args=["--jobs", "1", "--spec-version", "2025-11-25"], bound=30, count=(r"lifecycle/shutdown/stdio", 1)),
    # The server exits after initialize; a child keeps its stdout open.
    case("descendant-holds-stdout", "descendant-stdout", {1, 3},
         [r"ERROR .*exited with status 0 while .* still held its stdout"],
         absent=[r"no response within"], filt="lifecycle/ping*", bound=20),
    case("descendant-holds-stdout-ping", "descendant-stdout", {3}, [], ping=True, bound=20,
         stderr=[r"the server exited with status 0 .*before it answered ping"],
         stderr_absent=[r"no answer to ping"]),
    case("setsid-grandchild", "setsid-grandchild", {0}, [], filt="lifecycle/ping*"),
    case("fork-tree", "fork-tree", {0}, [], filt="lifecycle/ping*"),
    case("nul-and-invalid-utf8", "nul-utf8", {1},
         [r"FAIL wire/utf8: invalid UTF-8", r"FAIL wire/stdout-only-messages: not JSON \(NUL"],
         filt="lifecycle/ping"),
    case("deep-nesting-100k", "deep", {1},
         [r"FAIL wire/stdout-only-messages: not JSON \(nesting exceeds the depth limit"],
         filt="lifecycle/ping"),
    # The spec sets no size limit: the line is noted (INFO) and, unjudged,
    # makes the scenario ERROR. Which ERROR names it depends on the clock:
    # the ping's answer comes after the 50 MB line, within the step's 500 ms
    # on a quiet machine ("could not be judged") or past them on a loaded
    # one, in the sanitizer tree ("wrote a line over ... and no answer came").
    case("valid-line-50mb", "big-line", {1, 3},
         [r"INFO wire/message-size: a line passed",
          r"ERROR .*(a line over the harness's \d+-byte message limit could not be judged"
          r"|the server wrote a line over the \d+-byte message limit and no answer came)"],
         filt="lifecycle/ping"),
    # Ids are printed as the server wrote them, not clamped by the parser.
    case("huge-ids", "huge-ids", {1},
         [r"FAIL wire/response-id: response id 18446744073709551618 matches no request"],
         absent=[r"18446744073709551615"], filt="lifecycle/ping"),
    case("one-byte-every-50ms", "drip", {3}, [r"no answer to (initialize|server/discover) within 3000 ms"],
         args=["--startup-timeout", "3000"], bound=30, stderr=[STOPPED_EARLY]),
    case("closes-stdout-stays-alive", "close-stdout", {3},
         [r"ERROR .*closed its output while .*though its process is still running"],
         filt="lifecycle/ping", bound=20),
    case("stderr-50mb", "stderr-flood", {0}, [], filt="lifecycle/ping"),
    case("undeclared-client-capabilities", "undeclared", {1},
         [r"FAIL wire/negotiated-capabilities: server sent "
          r"(sampling/createMessage|roots/list|elicitation/create), but the client did not",
          r"FAIL wire/server-request-id-unique: server request ping reuses id \"srv-1\""],
         filt="lifecycle/ping"),
    # SIGINT while scenarios wait on a silent server: they end within a
    # second, the report is written and marked partial, exit 3.
    case("sigint", "silent", {3}, [], signals=[(2.0, signal.SIGINT)], after_signal=3,
         bound=30),
    # A flood and SIGTERM, then a second SIGTERM: the run ends at once, with
    # what it has.
    case("sigterm-twice", "ignore-shutdown", {1, 3}, [], filt="jsonrpc/*",
         signals=[(0.5, signal.SIGTERM), (0.6, signal.SIGTERM)], after_signal=2, bound=30),
]


def fail(msg):
    print("FAIL: " + msg)
    return 1


def causes_of(report):
    """One line per verdict and failing check, for the cause regexes."""
    lines = []
    run = report.get("run", {})
    if run.get("partial_reason"):
        lines.append("PARTIAL %s" % run["partial_reason"])
    for s in report.get("not_run", []):
        lines.append("NOT-RUN %s" % (s.get("reason") or ""))
    for s in report.get("scenarios", []):
        lines.append("%s %s" % (s["verdict"], s.get("reason") or ""))
        for c in s.get("checks", []):
            if c["verdict"] != "PASS":
                lines.append("%s %s: %s" % (c["verdict"], c["id"], c.get("message") or ""))
    return lines


def alive(pid, tag):
    """True when pid runs (not a zombie) and is one of ours (by environment)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
        state = stat[stat.rindex(")") + 2]
        with open("/proc/%d/environ" % pid, "rb") as f:
            env = f.read()
    except (OSError, ValueError):
        return False
    if state in "ZX":
        return False
    return tag.encode() in env


def reap_orphans():
    """Reaps what mcpcheck left to us; returns the pids still running."""
    left = []
    me = os.getpid()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2:].split()
        if int(rest[1]) != me:
            continue
        if rest[0] == "Z":
            try:
                os.waitpid(int(d), os.WNOHANG)
            except ChildProcessError:
                pass
        else:
            left.append(int(d))
    return left


def run_case(c, mcpcheck, hostile, sanitized):
    errors = 0
    if sanitized and c["sanitized"]:
        c = dict(c, args=c["sanitized"][0], causes=c["sanitized"][1])
    with tempfile.TemporaryDirectory(prefix="mc-hostile-") as tmp:
        pids = os.path.join(tmp, "pids")
        env = dict(os.environ, MC_HOSTILE_PIDS=pids, NO_COLOR="1")
        if c["ping"]:
            cmd = [mcpcheck, "ping"] + c["args"] + ["--", hostile, c["mode"]]
        else:
            cmd = [mcpcheck, "run", "--report-dir", os.path.join(tmp, "out")] + c["args"]
            if c["filt"]:
                cmd += ["--filter", c["filt"]]
            cmd += ["--", hostile, c["mode"]]
        print("$ " + " ".join(cmd))
        bound = c["bound"] * (3 if sanitized else 1) * multiplier()
        t0 = time.monotonic()
        with open(os.path.join(tmp, "stdout"), "wb") as out, \
                open(os.path.join(tmp, "stderr"), "wb") as err:
            p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
            t_sig = None
            # Signal times count from the first target's start: mcpcheck
            # handles signals by then (a loaded machine may take a while to
            # get there, and a signal before it would simply kill it).
            t_run = t0
            if c["signals"]:
                while not os.path.exists(pids) and time.monotonic() - t0 < bound:
                    time.sleep(0.01)
                t_run = time.monotonic()
            for at, sig in c["signals"]:
                delay = at - (time.monotonic() - t_run)
                if delay > 0:
                    time.sleep(delay)
                os.kill(p.pid, sig)  # not send_signal: it may reap the child
                t_sig = time.monotonic()
            # A budget for a hang: twice the case's bound, then kill.
            deadline = t0 + 2 * bound
            status = None
            while status is None:
                pid, st, ru = os.wait4(p.pid, os.WNOHANG)
                if pid == p.pid:
                    status, rusage = st, ru
                    break
                if time.monotonic() > deadline:
                    p.kill()
                    errors += fail("mcpcheck still running after %d s: killed" % (2 * bound))
                    _, status, rusage = os.wait4(p.pid, 0)
                    break
                time.sleep(0.02)
            p.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.monotonic() - t0
        with open(os.path.join(tmp, "stdout"), encoding="utf-8", errors="replace") as f:
            stdout = f.read()
        with open(os.path.join(tmp, "stderr"), encoding="utf-8", errors="replace") as f:
            stderr = f.read()
        print(stdout[-1500:])
        print(stderr[-1500:])
        code = p.returncode
        print("exit %d after %.1f s, peak memory %d KB" % (code, elapsed, rusage.ru_maxrss))

        if code not in c["exit_codes"]:
            errors += fail("exit %d, expected one of %s" % (code, sorted(c["exit_codes"])))
        if elapsed > bound:
            errors += fail("took %.1f s, bound %d s" % (elapsed, bound))
        if c["after_signal"] is not None and t_sig is not None:
            after = elapsed - (t_sig - t0)
            if after > c["after_signal"] * (3 if sanitized else 1):
                errors += fail("ended %.1f s after the last signal, bound %d s" %
                               (after, c["after_signal"]))
        if not sanitized and rusage.ru_maxrss > MEMORY_BOUND_KB:
            errors += fail("peak memory %d KB over the %d KB bound" %
                           (rusage.ru_maxrss, MEMORY_BOUND_KB))
        for rx in c["stderr"]:
            if not re.search(rx, stderr):
                errors += fail("stderr does not say /%s/" % rx)
        for rx in c["stderr_absent"]:
            if re.search(rx, stderr):
                errors += fail("stderr says /%s/" % rx)
        if c["max_notes"] is not None:
            notes = stderr.count(": note: ")
            if notes > c["max_notes"]:
                errors += fail("%d notes on stderr, at most %d expected" % (notes, c["max_notes"]))

        if not c["ping"]:
            path = os.path.join(tmp, "out", "report.json")
            try:
                with open(path, encoding="utf-8") as f:
                    report = json.load(f)
            except (OSError, ValueError) as e:
                errors += fail("report.json: %s" % e)
                report = None
            if report is not None:
                lines = causes_of(report)
                blob = "\n".join(lines)
                for rx in c["causes"]:
                    if not re.search(rx, blob):
                        errors += fail("report.json does not name /%s/" % rx)
                for rx in c["absent"]:
                    if re.search(rx, blob):
                        errors += fail("report.json names /%s/" % rx)
                if c["count"] is not None:
                    rx, want = c["count"]
                    got = len([ln for ln in lines if re.search(rx, ln)])
                    if got != want:
                        errors += fail("/%s/ named %d times, expected %d" % (rx, got, want))
                if c["signals"] and not report["run"]["partial"]:
                    errors += fail("an interrupted run's report is not marked partial")
                if report["summary"]["exit_code"] != code:
                    errors += fail("report.json says exit %d, mcpcheck exited %d" %
                                   (report["summary"]["exit_code"], code))
                print("report.json: " + "; ".join(lines[:6]))

        # Nothing of the target may be left running.
        time.sleep(0.1)
        recorded = []
        if os.path.exists(pids):
            with open(pids) as f:
                recorded = [int(x) for x in f.read().split()]
        left = [pid for pid in recorded if alive(pid, pids)]
        orphans = reap_orphans()
        if not recorded:
            errors += fail("the target recorded no pid")
        if left or orphans:
            errors += fail("processes left running: %s" % sorted(set(left + orphans)))
            for pid in set(left + orphans):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        else:
            print("no process left (%d recorded)" % len(recorded))
    return errors


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(c["name"] for c in CASES))
        return 0
    args = sys.argv[1:]
    sanitized = False
    if args and args[0] == "--sanitized":
        sanitized = True
        args = args[1:]
    if len(args) != 3:
        print(__doc__)
        return 2
    mcpcheck, hostile, name = args
    cases = [c for c in CASES if c["name"] == name]
    if not cases:
        print("unknown case %s" % name)
        return 2
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("note: no subreaper; processes that escape cannot all be seen")
    errors = run_case(cases[0], mcpcheck, hostile, sanitized)
    print("FAILED (%d)" % errors if errors else "ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
