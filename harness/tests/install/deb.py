#!/usr/bin/env python3
"""deb.py BUILD - the Debian package builds, is clean, and runs unpacked.

cpack -G DEB packs what BUILD built into a temporary folder; the package is
named mcpcheck_<version>_<arch>.deb, its Depends were derived by
dpkg-shlibdeps (libc6 and libjson-c with versions), it holds both programs,
their manuals, the copyright file and the changelogs; lintian reports no
error; and, unpacked with dpkg-deb -x into a temporary root, its mcpcheck
runs the lifecycle scenarios against its reference server and passes.
"""
import glob
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


def main():
    build = os.path.realpath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="mc-deb-")
    try:
        p = subprocess.run(["cpack", "-G", "DEB", "-B", tmp], cwd=build, capture_output=True,
                           text=True, timeout=budget(240))
        check(p.returncode == 0, "cpack -G DEB (%s)" % (p.stdout + p.stderr)[-400:])
        debs = glob.glob(os.path.join(tmp, "*.deb"))
        arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                              text=True).stdout.strip()
        check([os.path.basename(d) for d in debs] == ["mcpcheck_0.2.0_%s.deb" % arch],
              "one package, mcpcheck_0.2.0_%s.deb (%s)" % (arch, debs))
        if not debs:
            return 1
        deb = debs[0]
        field = lambda name: subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True,
                                            text=True).stdout.strip()
        depends = field("Depends")
        check("libc6 (>=" in depends and "libjson-c5 (>=" in depends,
              "Depends from dpkg-shlibdeps: %s" % depends)
        check(field("Package") == "mcpcheck" and field("Version") == "0.2.0",
              "Package mcpcheck, Version 0.2.0")

        root = os.path.join(tmp, "root")
        p = subprocess.run(["dpkg-deb", "-x", deb, root], capture_output=True, text=True)
        check(p.returncode == 0, "dpkg-deb -x")
        for path in ("usr/bin/mcpcheck", "usr/bin/mcpcheck-refserver",
                     "usr/share/man/man1/mcpcheck.1.gz", "usr/share/man/man1/mcpcheck-refserver.1.gz",
                     "usr/share/doc/mcpcheck/copyright", "usr/share/doc/mcpcheck/changelog.gz",
                     "usr/share/doc/mcpcheck/changelog.Debian.gz",
                     "usr/share/mcpcheck/scenarios/profiles/default.json",
                     "usr/share/mcpcheck/schemas/2025-11-25.json"):
            check(os.path.isfile(os.path.join(root, path)), "the package holds /%s" % path)

        lint = subprocess.run(["lintian", "--fail-on", "error", deb], capture_output=True,
                              text=True, timeout=budget(180))
        errors = [l for l in lint.stdout.splitlines() if l.startswith("E:")]
        check(lint.returncode == 0 and not errors,
              "lintian reports no error (exit %d) %s" % (lint.returncode, errors[:5]))

        env = {"PATH": "/usr/bin:/bin", "HOME": tmp}
        bindir = os.path.join(root, "usr", "bin")
        rep = os.path.join(tmp, "rep")
        p = subprocess.run([os.path.join(bindir, "mcpcheck"), "run", "-q", "--filter",
                            "lifecycle/*", "--spec-version", "2025-11-25", "--report-dir", rep,
                            "--", os.path.join(bindir, "mcpcheck-refserver")],
                           cwd=tmp, env=env, capture_output=True, text=True, timeout=budget(120))
        check(p.returncode == 0, "the unpacked mcpcheck passes against the packaged reference "
              "server (exit %d: %s)" % (p.returncode, (p.stdout + p.stderr)[-300:]))
        with open(os.path.join(rep, "report.json"), encoding="utf-8") as f:
            doc = json.load(f)
        data = os.path.join(root, "usr", "share", "mcpcheck", "scenarios") + "/"
        check(doc["scenarios"] and all(s["file"].startswith(data) for s in doc["scenarios"]),
              "it read the packaged scenario library")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("deb: %s" % ("FAIL (%d)" % failures if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
