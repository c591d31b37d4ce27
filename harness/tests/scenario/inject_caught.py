#!/usr/bin/env python3
"""inject_caught.py MCPCHECK REFSERVER [JOBS [GLOB,...]]

Proves that every check can fail. Each violation switch the reference server
lists (--list-bugs) names the checks that must catch it (its sixth column)
and the scenarios that exercise the rule it breaks (its seventh: scenario id
globs). A strict run of those scenarios against the server with the switch
on, at every protocol version the switch concerns (its fifth column), must
exit 1, and at each of those versions at least one FAIL or WARN must come
from a named check. A switch of level INFO breaks a rule no keyword backs:
its run need not fail, but at each version one of its checks must give an
INFO (or FAIL or WARN) that the server without the switch does not give.
Findings of checks the switch does not name do not count.
The table itself is held too: every named check exists (in the scenario
library or built in) and every scenario glob matches a scenario.
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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

# Runs in flight at once: most of a broken server's run is spent waiting for
# answers that never come, so several runs share the two cores well.
PARALLEL_RUNS = 4
# Fields of a --list-bugs line.
FIELDS = 7


# Switches whose finding a run reports once, whatever the versions: a line
# that is no message written before the server's first message (a start-up
# banner) is one finding of the server, reported by one run of the suite
# (scenario/runner.c, startup_line_reported). A catch at one version is a
# catch.
ONCE_PER_RUN = {"stdout-banner"}


def split(field):
    return [x for x in field.split(",") if x]


def table_problems(bugs, mcpcheck):
    """What is wrong with the switch table itself: unknown checks, globs
    matching no scenario, switches naming none."""
    lib = json.loads(subprocess.run([mcpcheck, "list", "--json"], capture_output=True,
                                    text=True, check=True).stdout)
    known = {c["check"] for s in lib["scenarios"] for c in s["checks"]}
    known |= {c["check"] for c in lib["builtin"]}
    ids = [s["id"] for s in lib["scenarios"]]
    problems = []
    for b in bugs:
        name, checks, where = b[0], split(b[5]), split(b[6])
        if not checks or not where:
            problems.append(f"{name}: names no check or no scenario")
        problems += [f"{name}: no check {c}" for c in checks if c not in known]
        problems += [f"{name}: no scenario matches {g}" for g in where
                     if not any(fnmatch.fnmatchcase(i, g) for i in ids)]
    return problems


def run(mcpcheck, refserver, jobs, out, versions, where, inject):
    cmd = [mcpcheck, "run", "--strict", "--jobs", jobs, "--timeout", str(budget(500)), "--report-dir", out]
    for v in versions:
        cmd += ["--spec-version", v]
    for g in where:
        cmd += ["--filter", g]
    cmd += ["--", refserver] + (["--inject", inject] if inject else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=budget(900))
    try:
        return proc, json.load(open(os.path.join(out, "report.json")))
    except (OSError, ValueError) as e:
        return proc, str(e)


def main():
    mcpcheck, refserver = sys.argv[1], sys.argv[2]
    jobs = sys.argv[3] if len(sys.argv) > 3 else "2"
    lines = subprocess.run([refserver, "--list-bugs"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    if len(lines) < 40:
        print(f"inject_caught: only {len(lines)} switches; at least 40 are required")
        return 1
    bugs = [line.split("\t") for line in lines]
    bad = [b[0] for b in bugs if len(b) != FIELDS]
    if bad:
        print(f"inject_caught: --list-bugs lines without {FIELDS} fields: {', '.join(bad)}")
        return 1
    problems = table_problems(bugs, mcpcheck)
    for p in problems:
        print(f"FAIL table: {p}")
    if len(sys.argv) > 4:
        globs = sys.argv[4].split(",")
        bugs = [b for b in bugs if any(fnmatch.fnmatch(b[0], g) for g in globs)]
        if not bugs:
            print(f"inject_caught: no switch matches {sys.argv[4]}")
            return 1
    failures = len(problems)
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        # An INFO finding counts only where the server without a switch gives
        # none for that check at that version: one clean run of the INFO
        # switches' scenarios tells which do.
        clean_info = set()
        info_where = sorted({g for b in bugs if b[1] == "INFO" for g in split(b[6])})
        if info_where:
            proc, report = run(mcpcheck, refserver, jobs, os.path.join(tmp, "clean"), ["all"],
                               info_where, None)
            if isinstance(report, str):
                print(f"inject_caught: the clean run left no report ({report})")
                return 1
            clean_info = {(c["id"], sc["version"]) for sc in report["scenarios"]
                          for c in sc["checks"] if c["verdict"] == "INFO"}

        def judge(bug):
            name, level, rule, ref, versions, checks, where = bug
            versions, checks = split(versions), set(split(checks))
            proc, report = run(mcpcheck, refserver, jobs, os.path.join(tmp, name), versions,
                               split(where), name)
            if isinstance(report, str):
                return False, (f"FAIL {name}: no report ({report}); exit {proc.returncode}\n"
                               f"     stderr: {proc.stderr.strip()[-600:]}")
            info = level == "INFO"
            wanted = ("FAIL", "WARN", "INFO") if info else ("FAIL", "WARN")
            caught, caught_at = set(), set()
            for sc in report["scenarios"]:
                for c in sc["checks"]:
                    if (c["id"] in checks and c["verdict"] in wanted
                            and (c["id"], sc["version"]) not in clean_info):
                        caught.add(c["id"])
                        caught_at.add(sc["version"])
            missed = [v for v in versions if v not in caught_at]
            if name in ONCE_PER_RUN and caught_at:
                missed = []
            ok = (info or proc.returncode == 1) and bool(caught) and not missed
            text = (f"{'ok  ' if ok else 'FAIL'} {name:38} exit {proc.returncode}  {level:6} "
                    f"{ref.split('#')[0]:40} {len(versions)} version"
                    f"{'s' if len(versions) > 1 else ''}  {', '.join(sorted(caught))}")
            if missed:
                text += f"\n     not caught at: {', '.join(missed)}"
            if not ok:
                others = sorted({c["id"] for sc in report["scenarios"] for c in sc["checks"]
                                 if c["verdict"] in wanted and c["id"] not in checks})
                text += f"\n     rule: {rule}\n     named: {', '.join(sorted(checks))}"
                if others:
                    text += f"\n     other checks that fired: {', '.join(others[:8])}"
            return ok, text

        with concurrent.futures.ThreadPoolExecutor(PARALLEL_RUNS) as pool:
            for ok, text in pool.map(judge, bugs):
                print(text, flush=True)
                failures += 0 if ok else 1
    print(f"{len(bugs) - failures + len(problems)} of {len(bugs)} switches caught by the checks "
          f"they name ({time.time() - started:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
