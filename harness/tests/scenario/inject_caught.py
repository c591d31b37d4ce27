#!/usr/bin/env python3
"""inject_caught.py MCPCHECK REFSERVER [JOBS [GLOB,...]]

Proves that every check can fail: for each violation switch the reference
server lists (--list-bugs), a strict run of the scenario library against the
server with that switch on, at every protocol version the switch concerns
(its last column), must exit 1, and at each of those versions at least one
FAIL or WARN must be tied to the broken rule. A switch of level INFO breaks
a rule no keyword backs: its run need not fail, but at each version at least
one INFO (or FAIL or WARN) must be tied to the rule. Tied: its spec reference names the same spec page as the
switch's (the version and the anchor aside; "basic" is "basic/index", and
2024-11-05's "basic/messages" is "basic"), or it
is the schema check of that page's data types (schema/<area> for a page whose
last part is <area>; schema/messages for "basic"): the schema checks quote
the transport's "not a valid MCP message" sentence, and their area names the
page of the broken type.
Prints one line per switch with the checks that caught it (and the versions
where none did). GLOB,... (shell patterns, comma-separated) proves only the
switches whose names match one of them.
"""
import concurrent.futures
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time

# Runs in flight at once: most of a broken server's run is spent waiting for
# answers that never come, so several runs share the two cores well.
PARALLEL_RUNS = 4


# Pages a later version merged into another: 2024-11-05's basic/messages is
# the messages section of "basic" from 2025-03-26 on (a check quotes the page
# of the version it runs at, so the same rule cites either).
PAGE_MOVES = {"basic/messages": "basic"}


def page(ref):
    ref = ref.split("#", 1)[0]
    parts = ref.split("/", 1)
    page = parts[1] if len(parts) == 2 else ref
    if page.endswith("/index"):
        page = page[: -len("/index")]
    return PAGE_MOVES.get(page, page)


def is_tied(check_id, check_ref, switch_ref):
    if page(check_ref) == page(switch_ref):
        return True
    if check_id.startswith("schema/"):
        area = check_id.split("/", 1)[1]
        last = page(switch_ref).rsplit("/", 1)[-1]
        return area == last or (area == "messages" and last == "basic")
    return False


# Switches whose finding a run reports once, whatever the versions: a line
# that is no message written before the server's first message (a start-up
# banner) is one finding of the server, reported by one run of the suite
# (scenario/runner.c, startup_line_reported). A catch at one version is a
# catch.
ONCE_PER_RUN = {"stdout-banner"}


def main():
    mcpcheck, refserver = sys.argv[1], sys.argv[2]
    jobs = sys.argv[3] if len(sys.argv) > 3 else "2"
    bugs = subprocess.run([refserver, "--list-bugs"], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    if len(bugs) < 40:
        print(f"inject_caught: only {len(bugs)} switches; at least 40 are required")
        return 1
    if len(sys.argv) > 4:
        globs = sys.argv[4].split(",")
        bugs = [b for b in bugs if any(fnmatch.fnmatch(b.split("\t")[0], g) for g in globs)]
        if not bugs:
            print(f"inject_caught: no switch matches {sys.argv[4]}")
            return 1
    failures = 0
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        # An INFO finding counts only where the server without a switch gives
        # none for that check at that version: one clean run tells which do.
        clean_info = set()
        if any(b.split("\t")[1] == "INFO" for b in bugs):
            out = os.path.join(tmp, "clean")
            subprocess.run([mcpcheck, "run", "--strict", "--jobs", jobs, "--timeout", "500",
                            "--spec-version", "all", "--report-dir", out, "--", refserver],
                           capture_output=True, text=True, timeout=900)
            try:
                report = json.load(open(os.path.join(out, "report.json")))
            except (OSError, ValueError) as e:
                print(f"inject_caught: the clean run left no report ({e})")
                return 1
            clean_info = {(c["id"], sc["version"]) for sc in report["scenarios"]
                          for c in sc["checks"] if c["verdict"] == "INFO"}

        def judge(line):
            name, level, rule, ref, versions = line.split("\t")
            versions = versions.split(",")
            out = os.path.join(tmp, name)
            cmd = [mcpcheck, "run", "--strict", "--jobs", jobs, "--timeout", "500",
                   "--report-dir", out]
            for v in versions:
                cmd += ["--spec-version", v]
            run = subprocess.run(cmd + ["--", refserver, "--inject", name],
                                 capture_output=True, text=True, timeout=900)
            info = level == "INFO"
            wanted = ("FAIL", "WARN", "INFO") if info else ("FAIL", "WARN")
            caught, tied = [], []
            tied_at = set()
            try:
                report = json.load(open(os.path.join(out, "report.json")))
            except (OSError, ValueError) as e:
                return False, (f"FAIL {name}: no report ({e}); exit {run.returncode}\n"
                               f"     stderr: {run.stderr.strip()[-600:]}")
            for sc in report["scenarios"]:
                for c in sc["checks"]:
                    if c["verdict"] in wanted and (c["id"], sc["version"]) not in clean_info:
                        caught.append(c["id"])
                        if is_tied(c["id"], c["spec"], ref):
                            tied.append(c["id"])
                            tied_at.add(sc["version"])
            missed = [v for v in versions if v not in tied_at]
            if name in ONCE_PER_RUN and tied_at:
                missed = []
            ok = (info or run.returncode == 1) and bool(tied) and not missed
            names = sorted(set(tied or caught))
            text = (f"{'ok  ' if ok else 'FAIL'} {name:38} exit {run.returncode}  {level:6} "
                    f"{page(ref):34} {len(versions)} version{'s' if len(versions) > 1 else ''}  "
                    f"{', '.join(names[:4])}{' ...' if len(names) > 4 else ''}")
            if missed:
                text += f"\n     not caught at: {', '.join(missed)}"
            if not ok:
                text += f"\n     rule: {rule}"
            return ok, text

        with concurrent.futures.ThreadPoolExecutor(PARALLEL_RUNS) as pool:
            for ok, text in pool.map(judge, bugs):
                print(text, flush=True)
                failures += 0 if ok else 1
    print(f"{len(bugs) - failures} of {len(bugs)} switches caught by a check tied to their rule "
          f"({time.time() - started:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
