#!/usr/bin/env python3
"""relocated.py SOURCE BUILD - the installed programs run anywhere.

`cmake --install BUILD --prefix P --strip`, then P is copied elsewhere and
removed, and the copy's programs run from an empty folder with a bare
environment: they find the scenario library and the schemas beside
themselves (--version says where), hold no path of the source or build
tree, and a run of the library's lifecycle scenarios against the copied
reference server passes with every report written, report.md included.
MCPCHECK_DATA_DIR moves the data: a folder with one scenario lists one, an
empty one leaves validate without its schemas.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1


def sh(cmd, cwd, env, timeout=budget(120)):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def main():
    src, build = (os.path.realpath(p) for p in sys.argv[1:3])
    tmp = tempfile.mkdtemp(prefix="mc-relocated-")
    try:
        first = os.path.join(tmp, "first")
        p = subprocess.run(["cmake", "--install", build, "--prefix", first, "--strip"],
                           capture_output=True, text=True, timeout=budget(120))
        check(p.returncode == 0, "cmake --install into a temporary prefix (%s)" % p.stderr[-300:])
        moved = os.path.join(tmp, "elsewhere", "opt")
        shutil.copytree(first, moved, symlinks=True)
        shutil.rmtree(first)
        data = os.path.join(moved, "share", "mcpcheck")
        mcpcheck = os.path.join(moved, "bin", "mcpcheck")
        refserver = os.path.join(moved, "bin", "mcpcheck-refserver")
        cwd = os.path.join(tmp, "cwd")
        os.makedirs(cwd)
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp}

        # No folder of data is compiled in. (A sanitizer build keeps the
        # names of its source files for its diagnostics: those are no data.)
        data_paths = [os.path.join(src, "scenarios"), os.path.join(src, "harness", "schemas"),
                      os.path.join(build, "share")]
        for prog in (mcpcheck, refserver):
            with open(prog, "rb") as f:
                blob = f.read()
            check(not any(d.encode() in blob for d in data_paths),
                  "%s holds no path of the data in the source or build tree"
                  % os.path.basename(prog))
        p = sh([mcpcheck, "--version"], cwd, env)
        lines = p.stdout.splitlines()
        check(p.returncode == 0 and lines and lines[0].startswith("mcpcheck 0.2.0"),
              "--version names 0.2.0 (%r)" % (lines[:1],))
        check(any(l.startswith("protocol versions: 2024-11-05 ") for l in lines),
              "--version lists the protocol versions")
        check("data: %s (the executable's prefix)" % data in lines,
              "--version finds the data beside the copied program")
        p = sh([refserver, "--version"], cwd, env)
        check(p.returncode == 0 and p.stdout.startswith("mcpcheck-refserver 0.2.0"),
              "the reference server says its version")

        library = sum(1 for d, _, fs in os.walk(os.path.join(src, "scenarios"))
                      if "/profiles" not in d for f in fs if f.endswith(".jsonc"))
        p = sh([mcpcheck, "list"], cwd, env)
        check(p.returncode == 0 and p.stdout.rstrip().endswith("%d scenarios" % library),
              "list finds the installed library (%d scenarios)" % library)

        rep = os.path.join(cwd, "rep")
        p = sh([mcpcheck, "run", "-q", "--filter", "lifecycle/*", "--spec-version",
                "2025-11-25", "--report-dir", rep, "--", refserver], cwd, env)
        check(p.returncode == 0, "a run against the installed reference server passes "
              "(exit %d: %s)" % (p.returncode, p.stdout[-300:] + p.stderr[-300:]))
        for name in ("report.json", "junit.xml", "report.sarif", "report.html", "report.md"):
            check(os.path.isfile(os.path.join(rep, name)), "the run wrote %s" % name)
        with open(os.path.join(rep, "report.json"), encoding="utf-8") as f:
            doc = json.load(f)
        files = {s["file"] for s in doc["scenarios"]}
        check(doc["scenarios"] and all(f.startswith(os.path.join(data, "scenarios") + "/")
                                       for f in files),
              "the scenarios came from the installed library (%s)" % sorted(files)[:1])
        check(doc["run"]["mcpcheck"]["version"] == "0.2.0" and
              "2026-07-28" in doc["run"]["mcpcheck"]["protocol_versions"],
              "report.json carries the version and the protocol versions")

        msg = os.path.join(cwd, "ping.json")
        with open(msg, "w", encoding="utf-8") as f:
            f.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        p = sh([mcpcheck, "validate", msg], cwd, env)
        check(p.returncode == 0, "validate reads the installed schemas")

        own = os.path.join(tmp, "own")
        os.makedirs(os.path.join(own, "scenarios", "lifecycle"))
        shutil.copy(os.path.join(data, "scenarios", "lifecycle", "ping.jsonc"),
                    os.path.join(own, "scenarios", "lifecycle"))
        # The scenario names its checks by id: the library's catalogue comes along.
        shutil.copy(os.path.join(data, "scenarios", "checks.json"), os.path.join(own, "scenarios"))
        shutil.copytree(os.path.join(data, "schemas"), os.path.join(own, "schemas"))
        env2 = dict(env, MCPCHECK_DATA_DIR=own)
        p = sh([mcpcheck, "list"], cwd, env2)
        check(p.returncode == 0 and p.stdout.rstrip().endswith("1 scenarios"),
              "MCPCHECK_DATA_DIR names the library (%r)" % p.stdout[-40:])
        p = sh([mcpcheck, "--version"], cwd, env2)
        check("data: %s (MCPCHECK_DATA_DIR)" % own in p.stdout, "--version says so")
        empty = os.path.join(tmp, "empty")
        os.makedirs(empty)
        p = sh([mcpcheck, "validate", msg], cwd, dict(env, MCPCHECK_DATA_DIR=empty))
        check(p.returncode != 0 and os.path.join(empty, "schemas") in p.stderr,
              "MCPCHECK_DATA_DIR names the schemas too")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("relocated: %s" % ("FAIL (%d)" % failures if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
