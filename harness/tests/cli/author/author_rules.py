#!/usr/bin/env python3
"""author_rules.py MCPCHECK - an author's rule fails CI honestly.

The scenario folder next to this file holds one author's check
(calc/add/sum, MUST, "add returns the sum of a and b"), run against
calc_server.py:
- without --bug the run passes (exit 0); with --bug it fails (exit 1), and the
  console shows the rule as "your rule" with its link, never a spec page;
- report.json, junit.xml, report.sarif and report.html each show the check as
  the author's (source "author", the text and link, no spec url or quote), and
  so do the outputs `mcpcheck report render` writes again from report.json;
- the same check at SHOULD warns (exit 0) and fails with --strict;
- --scenarios replaces the library; with --with-library one run holds the
  server to both (the user's ids unchanged), and a user's file whose id is a
  library scenario's is refused;
- the same rule dressed as a spec check ("level": "MUST", a made-up "quote"
  and "refs") is refused by `mcpcheck lint` and by `mcpcheck run` with the
  message that points to the author's form.
Prints each failed expectation and exits 1 when there is one.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from testenv import budget  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "scenarios")
SERVER = [sys.executable, os.path.join(HERE, "calc_server.py")]
CHECK = "calc/add/sum"
TEXT = "add returns the sum of a and b"
LINK = "https://example.com/calc/README.md#add"
SPEC_SITE = "modelcontextprotocol.io"
REFUSED = ("not a sentence of the spec pages mcpcheck knows; for your own rule use "
           "\"author\": true (scenarios/README.md, Testing your own server)")
DRESSED = {
    "title": "add returns the sum of a and b",
    "spec": [{"check": CHECK, "level": "MUST", "quote": "add MUST return the sum of a and b",
              "refs": {"2025-06-18": "server/tools#calling-tools",
                       "2025-11-25": "server/tools#calling-tools"}}],
    "requires": {"capabilities": ["tools"]},
    "steps": [{"request": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}},
               "assert": [{"path": "result.content[0].text", "equals": "5"}]}],
}

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED: " + what)


def run(mcpcheck, args, timeout=budget(120)):
    p = subprocess.run([mcpcheck] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def mcp_run(mcpcheck, scenarios, report, bug, extra=()):
    server = SERVER + (["--bug"] if bug else [])
    return run(mcpcheck, ["run", "--spec-version", "2025-06-18", "--scenarios", scenarios,
                          "--report-dir", report] + list(extra) + ["--"] + server)


def author_check(report_json):
    with open(report_json, encoding="utf-8") as f:
        rep = json.load(f)
    for sc in rep["scenarios"]:
        for c in sc["checks"]:
            if c["id"] == CHECK:
                return c
    return None


def hold_outputs(rep_dir, label):
    """The check is the author's in every output of rep_dir."""
    if not os.path.isfile(os.path.join(rep_dir, "report.json")):
        expect(False, f"{label}: {rep_dir} holds the run's reports")
        return
    c = author_check(os.path.join(rep_dir, "report.json"))
    expect(c is not None, f"{label}: report.json has {CHECK}")
    if c is not None:
        expect(c.get("source") == "author", f"{label}: report.json source is author: {c}")
        expect(c.get("text") == TEXT and c.get("link") == LINK,
               f"{label}: report.json carries the author's text and link: {c}")
        expect(c.get("level") == "MUST" and c.get("verdict") == "FAIL",
               f"{label}: report.json: the author's MUST is a FAIL: {c}")
        for key in ("url", "spec", "quote"):
            expect(key not in c, f"{label}: report.json has no spec {key!r}: {c}")
    with open(os.path.join(rep_dir, "junit.xml"), encoding="utf-8") as f:
        junit = f.read()
    expect(f"FAIL {CHECK} (MUST, your rule, {LINK})" in junit,
           f"{label}: junit.xml labels the check as your rule")
    expect(f"your rule: &quot;{TEXT}&quot;" in junit or f'your rule: "{TEXT}"' in junit,
           f"{label}: junit.xml quotes the author's text as theirs")
    expect(f"spec: &quot;{TEXT}" not in junit and f'spec: "{TEXT}' not in junit,
           f"{label}: junit.xml never calls the rule the spec's")
    with open(os.path.join(rep_dir, "report.sarif"), encoding="utf-8") as f:
        sarif = json.load(f)
    run0 = sarif["runs"][0]
    rules = [r for r in run0["tool"]["driver"]["rules"] if r["id"] == CHECK]
    expect(len(rules) == 1, f"{label}: report.sarif has one rule {CHECK}")
    if rules:
        r = rules[0]
        expect(r["properties"].get("source") == "author",
               f"{label}: sarif rule properties say author: {r}")
        expect("spec" not in r["properties"] and "quote" not in r["properties"],
               f"{label}: sarif rule has no spec page or quote: {r}")
        expect(SPEC_SITE not in r.get("helpUri", "") and r.get("helpUri") == LINK,
               f"{label}: sarif helpUri is the author's link: {r}")
        expect("your rule" in r["help"]["text"], f"{label}: sarif help says your rule: {r}")
    results = [x for x in run0["results"] if x["ruleId"] == CHECK]
    expect(len(results) == 1 and results[0]["level"] == "error",
           f"{label}: report.sarif has the broken rule as an error")
    expect(all("specUrl" not in x.get("properties", {}) for x in results),
           f"{label}: sarif results of the rule carry no spec url")
    with open(os.path.join(rep_dir, "report.html"), encoding="utf-8") as f:
        html = f.read()
    expect(f"Your rule: <q>{TEXT}</q>" in html, f"{label}: report.html shows Your rule")
    expect(f"Spec: <q>{TEXT}" not in html, f"{label}: report.html never calls the rule Spec")
    expect(f'href="{LINK}"' in html, f"{label}: report.html links the author's page")


def main():
    mcpcheck = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        code, out = run(mcpcheck, ["lint", SCENARIOS])
        expect(code == 0, f"lint of the author's scenario: exit {code}\n{out}")

        code, out = mcp_run(mcpcheck, SCENARIOS, os.path.join(tmp, "ok"), bug=False)
        expect(code == 0, f"run without the bug exits 0, got {code}\n{out}")

        rep = os.path.join(tmp, "bug")
        code, out = mcp_run(mcpcheck, SCENARIOS, rep, bug=True)
        expect(code == 1, f"run with the bug exits 1, got {code}\n{out}")
        expect(f"MUST   {CHECK} (your rule)" in out,
               f"the default console's cause names the rule as yours\n{out}")
        # Every run with its checks (-v): the rule's own lines.
        code, out = mcp_run(mcpcheck, SCENARIOS, rep, bug=True, extra=["-v"])
        expect(f"FAIL  {CHECK}: tools/call: result.content[0].text: expected \"5\", got \"6\""
               in out, f"console names the broken rule\n{out}")
        expect(f"MUST your rule {LINK}" in out, f"console labels it your rule\n{out}")
        expect(f'your rule: "{TEXT}"' in out, f"console shows the author's text\n{out}")
        expect(SPEC_SITE + "/specification/2025-06-18/server/tools" not in out,
               f"console links no spec page for the rule\n{out}")
        hold_outputs(rep, "run")

        # report.json read back and written again.
        again = os.path.join(tmp, "again")
        code, out = run(mcpcheck, ["report", "render", os.path.join(rep, "report.json"),
                                   "-o", again])
        expect(code == 0, f"report render exits 0, got {code}\n{out}")
        if code == 0:
            hold_outputs(again, "render")

        # The author's SHOULD warns, and fails the run only with --strict.
        should = os.path.join(tmp, "should", "calc")
        os.makedirs(should)
        with open(os.path.join(SCENARIOS, "calc", "add-sum.jsonc"), encoding="utf-8") as f:
            text = f.read().replace('"level": "MUST"', '"level": "SHOULD"')
        with open(os.path.join(should, "add-sum.jsonc"), "w", encoding="utf-8") as f:
            f.write(text)
        folder = os.path.dirname(should)
        code, out = mcp_run(mcpcheck, folder, os.path.join(tmp, "s1"), bug=True, extra=["-v"])
        expect(code == 0 and "SHOULD your rule" in out and "WARN" in out,
               f"an author's SHOULD warns, exit 0 (got {code})\n{out}")
        code, out = mcp_run(mcpcheck, folder, os.path.join(tmp, "s2"), bug=True, extra=["--strict"])
        expect(code == 1, f"an author's SHOULD fails with --strict (got {code})\n{out}")

        # --scenarios replaces the library; --with-library adds it.
        filters = ["--filter", "calc/*", "--filter", "lifecycle/ping"]
        code, out = mcp_run(mcpcheck, SCENARIOS, os.path.join(tmp, "w0"), bug=True, extra=filters)
        rep = os.path.join(tmp, "w1")
        expect(code == 1 and "lifecycle/ping" not in out,
               f"--scenarios alone runs only the user's scenarios (exit 1): {code}\n{out}")
        code, out = mcp_run(mcpcheck, SCENARIOS, rep, bug=True, extra=filters + ["--with-library"])
        expect(code == 1, f"--with-library: the author's MUST still fails the run: {code}\n{out}")
        if os.path.isfile(os.path.join(rep, "report.json")):
            with open(os.path.join(rep, "report.json"), encoding="utf-8") as f:
                ran = sorted((s["id"], s["verdict"]) for s in json.load(f)["scenarios"])
            expect(ran == [("calc/add-sum", "FAIL"), ("lifecycle/ping", "PASS")],
                   f"--with-library runs the user's scenario and the library's: {ran}")
        clash = os.path.join(tmp, "clash")
        shutil.copytree(SCENARIOS, clash)
        os.makedirs(os.path.join(clash, "lifecycle"))
        shutil.copy(os.path.join(SCENARIOS, "calc", "add-sum.jsonc"),
                    os.path.join(clash, "lifecycle", "ping.jsonc"))
        code, out = mcp_run(mcpcheck, clash, os.path.join(tmp, "w2"), bug=False,
                            extra=filters + ["--with-library"])
        expect(code == 2 and 'scenario id "lifecycle/ping" is also a scenario of the library'
               in out, f"--with-library refuses an id the library has (exit 2): {code}\n{out}")
        # An author's check may not take the id of a spec check of the run.
        same = os.path.join(tmp, "same", "calc")
        os.makedirs(same)
        with open(os.path.join(SCENARIOS, "calc", "add-sum.jsonc"), encoding="utf-8") as f:
            text = f.read().replace('"calc/add/sum"', '"ping/empty-result"')
        with open(os.path.join(same, "add-sum.jsonc"), "w", encoding="utf-8") as f:
            f.write(text)
        code, out = mcp_run(mcpcheck, os.path.dirname(same), os.path.join(tmp, "w3"), bug=False,
                            extra=filters + ["--with-library"])
        expect(code == 2 and 'check "ping/empty-result" is your rule here and a spec check in'
               in out, f"--with-library refuses a spec check's id for a rule (exit 2): {code}\n{out}")

        # The same rule dressed as a spec MUST is refused.
        dressed = os.path.join(tmp, "dressed", "calc")
        os.makedirs(dressed)
        path = os.path.join(dressed, "add-sum.jsonc")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(DRESSED, f, indent=2)
        with open(path, encoding="utf-8") as f:
            line = 1 + next(i for i, l in enumerate(f) if '"quote"' in l)
        code, out = run(mcpcheck, ["lint", path])
        expect(code == 1, f"lint refuses the dressed rule: exit {code}\n{out}")
        expect(f'{path}:{line}:' in out and f'check "{CHECK}": the quote is {REFUSED}' in out,
               f"lint says why, at the quote's line\n{out}")
        code, out = mcp_run(mcpcheck, os.path.dirname(dressed), os.path.join(tmp, "d"), bug=True)
        expect(code == 2 and REFUSED in out, f"run refuses the dressed rule (exit 2): {code}\n{out}")
        shutil.rmtree(os.path.join(tmp, "dressed"))
    if failures:
        print(f"author_rules: {len(failures)} expectation(s) failed")
        return 1
    print("author_rules: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
