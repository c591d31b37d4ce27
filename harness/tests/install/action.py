#!/usr/bin/env python3
"""action.py ACTION_SH MCPCHECK REFSERVER - the Action's steps, run locally.

scripts/action.sh runs as the Action runs it, with GITHUB_STEP_SUMMARY and
GITHUB_OUTPUT pointed at files of a temporary folder and the inputs in
MC_* variables, against the reference server: clean (exit code 0) and with
a violation switch (exit code 1, the failing check in the summary). The
outputs (exit code, counts per outcome, report folder) and the summary
agree with the run's report.json; the gate step exits with the run's code.
action.yml names the script and every input it maps.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

failures = 0
KEYS = ["passed", "failed", "errors", "known", "warnings", "info", "ignored", "skipped",
        "not_verified"]


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1


def outputs(path):
    got = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            got[k] = v
    return got


def one(script, mcpcheck, refserver, tmp, name, inject, want_code):
    gh = os.path.join(tmp, name)
    os.makedirs(gh)
    summary, output = os.path.join(gh, "summary.md"), os.path.join(gh, "output")
    open(summary, "w").close()
    open(output, "w").close()
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary, GITHUB_OUTPUT=output,
               MCPCHECK_BIN=mcpcheck, MC_COMMAND=refserver + inject,
               MC_VERSIONS="2025-06-18,2025-11-25", MC_ARGS="--filter lifecycle/* -q",
               MC_REPORT_DIR=os.path.join(gh, "reports"))
    p = subprocess.run(["bash", script, "run"], cwd=gh, env=env, capture_output=True, text=True,
                       timeout=budget(120))
    check(p.returncode == 0, "%s: the run step itself succeeds (exit %d)" % (name, p.returncode))
    out = outputs(output)
    with open(os.path.join(gh, "reports", "report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    oc = rep["summary"]["outcomes"]
    check(out.get("exit-code") == str(want_code) == str(rep["summary"]["exit_code"]),
          "%s: exit-code output %s is report.json's" % (name, out.get("exit-code")))
    check(out.get("report-dir") == os.path.join(gh, "reports"), "%s: report-dir output" % name)
    check(all(out.get(k.replace("_", "-")) == str(oc[k]) for k in KEYS) and
          out.get("runs") == str(oc["runs"]) and oc["runs"] > 0,
          "%s: the count outputs are report.json's %s" % (name, {k: oc[k] for k in KEYS}))
    check(rep["run"]["protocol_versions"] == "2025-06-18,2025-11-25",
          "%s: the protocol-versions input picked the versions" % name)
    with open(summary, encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(gh, "reports", "report.md"), encoding="utf-8") as f:
        check(text == f.read(), "%s: the job summary is report.md" % name)
    check(re.search(r"^\| passed \| %d \|$" % oc["passed"], text, re.M) is not None and
          re.search(r"^\| failed \| %d \|$" % oc["failed"], text, re.M) is not None,
          "%s: the summary's counts are report.json's" % name)
    gate = subprocess.run(["bash", script, "gate"], env=dict(os.environ,
                          MC_EXIT_CODE=out.get("exit-code", "")), timeout=budget(30))
    check(gate.returncode == want_code, "%s: the gate step exits %d" % (name, want_code))
    return text, rep


def main():
    script, mcpcheck, refserver = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix="mc-action-")
    try:
        text, rep = one(script, mcpcheck, refserver, tmp, "clean", "", 0)
        check(text.startswith("# mcpcheck: passed\n") and "Failures by cause" not in text,
              "clean: the summary says passed, with no failure")
        text, rep = one(script, mcpcheck, refserver, tmp, "switch",
                        " --inject envelope-id-type", 1)
        broken = {c["id"] for s in rep["scenarios"] for c in s["checks"]
                  if c["verdict"] == "FAIL"}
        check(text.startswith("# mcpcheck: failed\n") and "## Failures by cause" in text,
              "switch: the summary says failed, with the failures by cause")
        check("wire/response-id" in broken and "`wire/response-id`" in text,
              "switch: the failing check (wire/response-id) is in the summary")

        with open(os.path.join(os.path.dirname(os.path.dirname(script)), "action.yml"),
                  encoding="utf-8") as f:
            yml = f.read()
        check("scripts/action.sh\" run" in yml and "scripts/action.sh\" install" in yml and
              "scripts/action.sh\" gate" in yml, "action.yml runs the script's three steps")
        for var in ("MC_COMMAND", "MC_URL", "MC_VERSIONS", "MC_PROFILE", "MC_BASELINE",
                    "MC_GATE", "MC_FAIL_ON", "MC_ARGS", "MC_REPORT_DIR", "MC_DEB"):
            check(re.search(r"^\s+%s: \$\{\{ inputs\.[a-z-]+ \}\}$" % var, yml, re.M) is not None,
                  "action.yml maps an input onto %s" % var)
        p = subprocess.run(["bash", script, "run"], env=dict(os.environ, MC_COMMAND="",
                           MC_URL="", GITHUB_OUTPUT=os.path.join(tmp, "none")),
                           capture_output=True, text=True, timeout=budget(30))
        check(outputs(os.path.join(tmp, "none")).get("exit-code") == "2",
              "no command and no URL: exit-code 2")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("action: %s" % ("FAIL (%d)" % failures if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
