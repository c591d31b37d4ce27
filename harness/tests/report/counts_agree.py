#!/usr/bin/env python3
"""counts_agree.py MCPCHECK REFSERVER SCENARIOS - the counts of a run agree
across the console, report.json, junit.xml, report.html and report.md (read
as GitHub renders it, through cmark-gfm, which scripts/setup.sh installs),
each run counted once, and they add up to the runs; the gate's decisions
show beside the spec's verdict; report.md has its sections.

The run is small and made to hold one of each: a copy of lifecycle/ping
expecting a result the server never gives (FAIL, a MUST), a copy of
tools/list-names expecting impossible names (WARN, a SHOULD), the resources
reads against `--inject read-uri-other` (INFO, MAY observations), the
progress scenarios with a profile that maps tool.with_progress to a tool the
server does not list (NOT-VERIFIED) and transport/get-stream over stdio
(SKIP). It runs three times: as it is; with --strict and a gate file that
fails one INFO check and ignores the WARN; and with -q --fail-on info.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

KEYS = ["passed", "failed", "errors", "known", "warnings", "info", "ignored", "skipped",
        "not_verified"]
LABELS = {k: k.replace("_", " ") for k in KEYS}
VERSION = "2025-11-25"
failures = 0


def check(cond, what):
    global failures
    if cond:
        print("ok: " + what)
    else:
        failures += 1
        print("FAIL: " + what)


def make_inputs(lib, tmp):
    """The scenarios, the profile and the gate file of the run."""
    sc = os.path.join(tmp, "sc")
    for area in ("gate", "resources", "transport", "progress"):
        os.makedirs(os.path.join(sc, area))
    with open(os.path.join(lib, "lifecycle", "ping.jsonc"), encoding="utf-8") as f:
        text = f.read()
    wrong = text.replace('"equals": {}}', '"equals": {"never": true}}', 1)
    assert wrong != text, "lifecycle/ping.jsonc changed shape; update counts_agree.py"
    with open(os.path.join(sc, "gate", "ping-wrong.jsonc"), "w", encoding="utf-8") as f:
        f.write(wrong)
    with open(os.path.join(lib, "tools", "list-names.jsonc"), encoding="utf-8") as f:
        text = f.read()
    wrong = text.replace("^[A-Za-z0-9_.-]{1,128}$", "^z{200}$")
    assert wrong != text, "tools/list-names.jsonc changed shape; update counts_agree.py"
    with open(os.path.join(sc, "gate", "names-wrong.jsonc"), "w", encoding="utf-8") as f:
        f.write(wrong)
    for name in sorted(os.listdir(os.path.join(lib, "resources"))):
        if name.startswith("read-"):
            shutil.copy(os.path.join(lib, "resources", name), os.path.join(sc, "resources"))
    shutil.copy(os.path.join(lib, "transport", "get-stream.jsonc"), os.path.join(sc, "transport"))
    # The progress scenarios of tool.with_progress, which the profile below
    # maps to no listed tool: each is NOT-VERIFIED.
    for name in sorted(os.listdir(os.path.join(lib, "progress"))):
        path = os.path.join(lib, "progress", name)
        with open(path, encoding="utf-8") as f:
            if "tool.with_progress" in f.read():
                shutil.copy(path, os.path.join(sc, "progress"))
    with open(os.path.join(lib, "profiles", "default.json"), encoding="utf-8") as f:
        text = f.read()
    prof = text.replace('"tool.with_progress": "test_tool_with_progress"',
                        '"tool.with_progress": "no_such_tool"')
    assert prof != text, "the default profile changed shape; update counts_agree.py"
    with open(os.path.join(tmp, "profile.json"), "w", encoding="utf-8") as f:
        f.write(prof)
    with open(os.path.join(tmp, "gate.jsonc"), "w", encoding="utf-8") as f:
        f.write('{\n  // what this project holds itself to\n  "rules": [\n'
                '    {"check": "resources/read/uri-matches", "outcome": "fail",\n'
                '     "reason": "we promise exact URIs"},\n'
                '    {"check": "tools/list/*", "outcome": "ignore", "reason": "names are the host\'s"}\n'
                '  ]\n}\n')
    return sc


def console_counts(line):
    got = {k: 0 for k in KEYS}
    for n, label in re.findall(r"(\d+) (passed|failed|errors|known|warnings|info|ignored|"
                               r"skipped|not verified)\b", line):
        key = label.replace(" ", "_")
        check(got[key] == 0, "console: '%s' appears once" % label)
        got[key] = int(n)
    m = re.search(r"\((\d+) by your gate\)", line)
    got["failed_by_gate"] = int(m.group(1)) if m else 0
    m = re.search(r"\((\d+) runs?\)", line)
    got["runs"] = int(m.group(1)) if m else -1
    return got


def json_counts(rep):
    oc = rep["summary"]["outcomes"]
    return {k: oc[k] for k in KEYS + ["failed_by_gate", "runs"]}


def junit_counts(path):
    root = ET.parse(path).getroot()
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    got = {k: int(props["count." + k]) for k in KEYS + ["failed_by_gate"]}
    got["runs"] = int(props["runs"])
    cases = root.findall("./testsuite/testcase")
    tags = {"failure": 0, "error": 0, "skipped": 0}
    for c in cases:
        for t in tags:
            tags[t] += c.find(t) is not None
    check(len(cases) == got["runs"], "junit: one testcase per run (%d)" % len(cases))
    check(tags["failure"] == got["failed"], "junit: <failure> testcases are the failed runs")
    check(tags["error"] == got["errors"], "junit: <error> testcases are the errors")
    check(tags["skipped"] == got["skipped"] + got["not_verified"] + got["known"],
          "junit: <skipped> testcases are the skipped, not verified and known runs")
    return got


def html_counts(html):
    got = {k: 0 for k in KEYS}
    for key, n in re.findall(r'data-outcome="([a-z_]+)"><b>(\d+)</b>', html):
        check(key in got and got[key] == 0, "html: one %s card" % key)
        got[key] = int(n)
    m = re.search(r'data-outcome="failed_by_gate">(\d+) by your gate', html)
    got["failed_by_gate"] = int(m.group(1)) if m else 0
    m = re.search(r'data-outcome="runs">(\d+) scenario runs?', html)
    got["runs"] = int(m.group(1)) if m else -1
    # The areas table: its columns are the cards, and its totals theirs.
    table = re.search(r'<section id="matrix">.*?</section>', html, re.S)
    check(table is not None, "html: the areas table is there")
    if table:
        heads = re.findall(r'<th class="n">([a-z ]+)</th>', table.group(0))
        foot = re.search(r"<tfoot><tr><th>All</th>(.*?)</tr>", table.group(0), re.S)
        totals = [int(x) for x in re.findall(r'<th class="n">(\d+)</th>', foot.group(1))]
        check(len(totals) == len(heads) + 1, "html: a total per column, and one in all")
        for head, total in zip(heads, totals):
            key = head.replace(" ", "_")
            if key in got:
                check(got[key] == total, "html: the areas table's %s total (%d) is the card's (%d)"
                      % (head, total, got[key]))
        check(totals and totals[-1] == got["runs"], "html: the areas table totals the runs")
    return got


class Tree(html.parser.HTMLParser):
    """The rendered report.md: headings, tables (rows of cell texts, with the
    links of each row), and the summaries of <details>."""

    def __init__(self):
        super().__init__()
        self.headings, self.tables, self.summaries, self.strong = [], [], [], []
        self.text, self.links, self.stack = None, [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append({"cells": [], "links": []})
        elif tag in ("td", "th", "h1", "h2", "summary", "strong"):
            self.text = ""
        elif tag == "a" and self.tables and "table" in self.stack:
            self.tables[-1][-1]["links"].append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        if tag in ("td", "th") and self.tables:
            self.tables[-1][-1]["cells"].append(self.text.strip())
        elif tag in ("h1", "h2"):
            self.headings.append((tag, self.text.strip()))
        elif tag == "summary":
            self.summaries.append(self.text.strip())
        elif tag == "strong" and "table" not in self.stack:
            self.strong.append(self.text.strip())

    def handle_data(self, data):
        if self.text is not None:
            self.text += data


def render_md(path):
    """report.md through cmark-gfm with GitHub's table extension."""
    cmark = shutil.which("cmark-gfm")
    check(cmark is not None, "cmark-gfm is installed (scripts/setup.sh installs it)")
    if cmark is None:
        return Tree()
    p = subprocess.run([cmark, "-e", "table", "--unsafe", path], capture_output=True, text=True,
                       timeout=budget(60))
    tree = Tree()
    tree.feed(p.stdout)
    return tree


def md_counts(tree):
    got = {k: 0 for k in KEYS}
    table = tree.tables[0] if tree.tables else []
    check(table and table[0]["cells"] == ["outcome", "runs"], "report.md: the counts table first")
    for row in table[1:]:
        label, n = row["cells"][0], int(row["cells"][1])
        if label == "runs":
            got["runs"] = n
        else:
            got[label.replace(" ", "_")] = n
    line = tree.strong[0] if tree.strong else ""
    m = re.search(r"\((\d+) by your gate\)", line)
    got["failed_by_gate"] = int(m.group(1)) if m else 0
    check(console_counts(line) == got, "report.md: its counts line is its table (%r)" % line)
    return got


def md_sections(tree, rep):
    """The plain run's report.md: its heading, the failures by cause with the
    spec's sentence and link, the INFO and NOT-VERIFIED runs folded, and the
    matrix with a column per version that ran."""
    check(tree.headings[:1] == [("h1", "mcpcheck: failed")], "report.md: the heading says failed")
    h2 = [t for h, t in tree.headings if h == "h2"]
    check(h2 == ["Failures by cause", "Areas by protocol version"],
          "report.md: the sections (%s)" % h2)
    causes = next((t for t in tree.tables if t[0]["cells"][:3] == ["verdict", "level", "check"]),
                  [])
    fails = [r for r in causes[1:] if r["cells"][0] == "FAIL"]
    check(len(fails) == 1 and fails[0]["cells"][2] == "ping/empty-result" and
          fails[0]["cells"][1] == "MUST", "report.md: the FAIL cause, its level and its check")
    check(fails and fails[0]["links"] and fails[0]["links"][0].startswith(
        "https://modelcontextprotocol.io/specification/%s/" % VERSION),
          "report.md: the check links its spec page at the version that ran")
    check(fails and fails[0]["cells"][-1].startswith('"') and "MUST" in fails[0]["cells"][-1],
          "report.md: the cause quotes the spec's sentence")
    check(any(r["cells"][0] == "WARN" for r in causes[1:]), "report.md: the WARN cause")
    check(any(s.startswith("INFO observations: 2 findings") for s in tree.summaries),
          "report.md: the INFO observations folded (%s)" % tree.summaries)
    check(any(s.startswith("Not verified: 5 runs") for s in tree.summaries),
          "report.md: the NOT-VERIFIED runs folded")
    nv = [t for t in tree.tables if t[0]["cells"][:2] == ["role", "runs"]]
    check(nv and any(r["cells"][0] == "tool.with_progress" for r in nv[0][1:]),
          "report.md: the role nothing filled is named")
    matrix = [t for t in tree.tables if t[0]["cells"][:1] == ["area"]]
    check(matrix and matrix[0][0]["cells"] == ["area", VERSION] and
          {r["cells"][0] for r in matrix[0][1:]} == {s["area"] for s in rep["scenarios"]},
          "report.md: the matrix has a row per area and a column per version")


def run(mcpcheck, refserver, sc, tmp, name, extra):
    out = os.path.join(tmp, name)
    cmd = [mcpcheck, "run"] + extra + ["--spec-version", VERSION, "--jobs", "2",
                                       "--profile", os.path.join(tmp, "profile.json"),
                                       "--scenarios", sc, "--report-dir", out, "--",
                                       refserver, "--inject", "read-uri-other"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=budget(240))
    with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    return p, rep, page, os.path.join(out, "junit.xml")


def agree(name, p, rep, html, junit, want):
    lines = p.stdout.splitlines()
    summary = [l for l in lines if re.match(r"^\d+ passed, \d+ failed", l)]
    check(len(summary) == 1, "%s: one summary line" % name)
    forms = {"console": console_counts(summary[0] if summary else ""),
             "report.json": json_counts(rep), "junit.xml": junit_counts(junit),
             "report.html": html_counts(html),
             "report.md": md_counts(render_md(os.path.join(os.path.dirname(junit), "report.md")))}
    runs = len(rep["scenarios"])
    for form, got in forms.items():
        total = sum(got[k] for k in KEYS)
        check(got["runs"] == runs and total == runs,
              "%s: %s counts add up to the %d runs (%d)" % (name, form, runs, total))
        check(all(got[k] == v for k, v in want.items()),
              "%s: %s says %s" % (name, form, {k: got[k] for k in want}))
    first = forms["report.json"]
    for form, got in forms.items():
        check(got == first, "%s: %s agrees with report.json" % (name, form))
    return lines


def main():
    mcpcheck, refserver, lib = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix="mc-counts-")
    try:
        sc = make_inputs(lib, tmp)

        p, rep, html, junit = run(mcpcheck, refserver, sc, tmp, "plain", [])
        check(p.returncode == 1, "plain: a FAIL exits 1 (exit %d)" % p.returncode)
        lines = agree("plain", p, rep, html, junit,
                      {"passed": 8, "failed": 1, "warnings": 1, "info": 2, "skipped": 1,
                       "not_verified": 5, "failed_by_gate": 0, "ignored": 0})
        text = p.stdout
        md_sections(render_md(os.path.join(tmp, "plain", "report.md")), rep)
        check(not any(l.startswith("PASS ") for l in lines), "plain: no line per passing run")
        check(len(lines) <= 40, "plain: the console is short (%d lines)" % len(lines))
        check(re.search(r"ping/empty-result .*\n +at .*gate/ping-wrong\.jsonc:\d+ \[%s\]\n"
                        r" +sent: \{\"jsonrpc\":\"2\.0\",\"id\":\d+,\"method\":\"ping\"\}\n"
                        r" +got:  \{.*\"result\":\{\}\}" % VERSION, text) is not None,
              "plain: the failing cause shows file:line, the line sent and the answer")
        check(text.count("ping/empty-result") == 1, "plain: the failing cause appears once")
        check(re.search(r"^info \(2 observations\), by check:$", text, re.M) is not None,
              "plain: the INFO observations grouped")
        check(re.search(r"^skipped \(1 run\), by reason:\n  x1 +the scenario is for the http",
                        text, re.M) is not None, "plain: the SKIP reasons grouped")

        p, rep, html, junit = run(mcpcheck, refserver, sc, tmp, "gated",
                                  ["--strict", "--gate", os.path.join(tmp, "gate.jsonc")])
        check(p.returncode == 1, "gated: exit 1 (exit %d)" % p.returncode)
        agree("gated", p, rep, html, junit,
              {"passed": 8, "failed": 2, "failed_by_gate": 1, "warnings": 0, "info": 1,
               "ignored": 1, "skipped": 1, "not_verified": 5})
        words = "INFO in the spec; failed by your gate: we promise exact URIs"
        check(words in p.stdout, "gated: the console shows '%s'" % words)
        check(words in html, "gated: report.html shows it")
        with open(junit, encoding="utf-8") as f:
            check(words in f.read(), "gated: junit.xml shows it")
        cks = [c for x in rep["scenarios"] for c in x["checks"]
               if c["id"] == "resources/read/uri-matches"]
        check(cks and cks[0]["verdict"] == "INFO" and cks[0]["level"] in ("MAY", "INFO")
              and cks[0]["gate"] == {"outcome": "fail", "reason": "we promise exact URIs"}
              and cks[0]["fails_run"], "gated: report.json keeps the spec's verdict and the rule")
        check("WARN in the spec; ignored by your gate: names are the host's" in p.stdout,
              "gated: the ignored WARN is shown as ignored, with the reason")
        check(rep["run"]["fail_on"] == "warn" and rep["run"]["strict"],
              "gated: --strict is --fail-on warn")

        p, rep, html, junit = run(mcpcheck, refserver, sc, tmp, "quiet", ["-q", "--fail-on", "info"])
        lines = p.stdout.splitlines()
        check(len(lines) == 1 and lines[0].endswith("; exit 1"),
              "quiet: one line, the summary and the exit: %r" % lines)
        check(p.returncode == 1, "quiet: exit 1")
        agree("quiet", p, rep, html, junit,
              {"failed": 4, "failed_by_gate": 3, "warnings": 0, "info": 0})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("counts_agree: %s (%d problems)" % ("FAIL" if failures else "ok", failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
