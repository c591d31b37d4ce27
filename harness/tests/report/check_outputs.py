#!/usr/bin/env python3
"""check_outputs.py MCPCHECK REPORT_DIR SARIF_SUBSET_SCHEMA

Checks the five outputs of one `mcpcheck run` against each other:

- report.json parses, and its summary adds up;
- junit.xml is read by a JUnit reader (junitparser when installed, else
  ElementTree with the same structural checks): one testcase per scenario run
  (and per run listed as not run), named "id [version]", with failure /
  error / skipped as the verdicts say;
- report.sarif validates against the SARIF 2.1.0 subset schema with
  `mcpcheck validate --schema`, every rule id is unique, every result points
  at its rule and at an existing scenario file, and every broken check of
  report.json has its result;
- traces/ has one JSONL file per scenario run, and `mcpcheck validate --trace`
  judges each one as the run did (the wire and schema checks);
- report.html is self-contained (no external reference) and holds the summary;
- every check of report.json carries its level, its quote and, apart, its
  interpretation (never joined to the quote), and a spec link of the version
  that ran; every "message N" of a broken check names a transcript line that
  the server sent;
- report.html groups "Needs attention" by cause: one item per check id and
  reason, with the message, and no cause listed twice.
"""
import glob
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

failures = []



def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


# Traces judged by one `mcpcheck validate --trace` process: one process per
# trace cost a sanitizer build a start and a leak scan each (over a minute for
# a run's few hundred traces).
TRACES_PER_PROCESS = 200
# The line `validate --trace` prints for each file, --quiet or not.
TRACE_SUMMARY = re.compile(r": \d+ messages?.*, \d+ findings? \((\d+) MUST, ")


def offline_verdicts(mcpcheck, judged):
    """Judges the traces of judged ((name, path, broke) rows) with
    `mcpcheck validate --trace --quiet`, many files per process. A file's
    summary line counts its MUST findings: some when the run broke a MUST
    wire or schema check, none when it held (the exit code of a one-file
    call says the same; outputs.sh holds it on two traces). The exit code of
    each call must be 1 when a file of it has a MUST finding, else 0.
    Returns the number of traces judged otherwise, or not judged at all."""
    bad = 0
    for start in range(0, len(judged), TRACES_PER_PROCESS):
        batch = judged[start:start + TRACES_PER_PROCESS]
        p = subprocess.run([mcpcheck, "validate", "--trace", "--quiet"] + [t[1] for t in batch],
                           capture_output=True, text=True)
        must = {}
        for line in p.stdout.splitlines():
            m = TRACE_SUMMARY.search(line)
            if m:
                must[line[:m.start()]] = int(m.group(1))
        for name, tpath, broke in batch:
            if tpath not in must or (must[tpath] > 0) != broke:
                bad += 1
                print("offline judgement differs for %s: %s, run %s\n%s" % (
                    name, "%d MUST findings" % must[tpath] if tpath in must else "not judged",
                    "broke a MUST wire/schema check" if broke else "held",
                    "\n".join(l for l in p.stdout.splitlines() if l.startswith(tpath + ":"))
                    or p.stderr[-400:]))
        want = 1 if any(must.get(t[1], 0) > 0 for t in batch) else 0
        if p.returncode != want:
            bad += 1
            print("validate --trace of %d traces: exit %d, want %d: %s" % (
                len(batch), p.returncode, want, p.stderr[-400:]))
    return bad


def main():
    mcpcheck, rdir, schema = sys.argv[1:4]
    with open(os.path.join(rdir, "report.json"), encoding="utf-8") as f:
        rep = json.load(f)
    scen = rep["scenarios"]
    not_run = rep.get("not_run", [])
    s = rep["summary"]
    check(s["scenarios"] == len(scen), "summary.scenarios counts the scenarios")
    total = sum(s[k] for k in ("pass", "fail", "warn", "info", "skip", "not_verified", "error"))
    check(total == len(scen), "summary verdict counts add up to the scenarios")
    oc = s["outcomes"]
    check(oc["runs"] == len(scen) and sum(v for k, v in oc.items()
                                         if k not in ("runs", "failed_by_gate")) == len(scen),
          "summary outcomes add up to the runs")
    check(all(x["outcome"] in oc for x in scen), "every run names its outcome")

    # ---- junit.xml
    path = os.path.join(rdir, "junit.xml")
    root = ET.parse(path).getroot()
    check(root.tag == "testsuites", "junit root is <testsuites>")
    cases = root.findall("./testsuite/testcase")
    suites = root.findall("./testsuite")
    areas = sorted({x["area"] for x in scen} | {x["area"] for x in not_run})
    names = {c.get("name") for c in cases}
    want = {"%s [%s]" % (x["id"], x["version"]) for x in scen + not_run}
    stale = len(rep["baseline"]["stale"]) if rep.get("baseline") else 0
    check(len(cases) == len(scen) + len(not_run) + stale,
          "one testcase per scenario run (%d cases, %d runs)" % (len(cases), len(scen) + len(not_run)))
    check(want <= names, "every scenario run has its testcase named 'id [version]'")
    check(sorted(s.get("name") for s in suites if s.get("name") != "baseline") == areas,
          "one testsuite per area")
    for suite in suites:
        n = len(suite.findall("testcase"))
        check(int(suite.get("tests")) == n, "testsuite %s: tests=%s counts its testcases"
              % (suite.get("name"), suite.get("tests")))
        for attr, tag in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            check(int(suite.get(attr)) == len(suite.findall("testcase/" + tag)),
                  "testsuite %s: %s= counts <%s>" % (suite.get("name"), attr, tag))
    by_name = {c.get("name"): c for c in cases}
    for x in scen:
        c = by_name.get("%s [%s]" % (x["id"], x["version"]))
        if c is None:
            continue
        v, out = x["verdict"], x["outcome"]
        if out == "known":
            check(c.find("skipped") is not None, "%s: a known failure is skipped" % x["id"])
        elif out == "failed":
            fe = c.find("failure")
            check(fe is not None, "%s: a run that fails is a <failure>" % x["id"])
            if fe is not None:
                for ck in x["checks"]:
                    if ck["fails_run"]:
                        check(ck["id"] in (fe.text or ""),
                              "%s: the failure body names check %s" % (x["id"], ck["id"]))
        elif v == "ERROR":
            check(c.find("error") is not None, "%s: ERROR is an <error>" % x["id"])
        elif v in ("SKIP", "NOT-VERIFIED"):
            sk = c.find("skipped")
            check(sk is not None and sk.get("message"), "%s: %s is <skipped message=...>" % (x["id"], v))
        else:
            check(c.find("failure") is None and c.find("error") is None,
                  "%s: %s has no failure" % (x["id"], v))
    try:
        import junitparser  # the reader several CI integrations use
        xml = junitparser.JUnitXml.fromfile(path)
        n = 0
        for suite in xml:
            for case in suite:
                n += 1
        check(n == len(cases), "junitparser reads every testcase (%d)" % n)
        print("junit.xml: read by junitparser %s" % getattr(junitparser, "version", "?"))
    except ImportError:
        print("junit.xml: junitparser not installed; checked with ElementTree only")

    # ---- report.sarif
    sarif_path = os.path.join(rdir, "report.sarif")
    p = subprocess.run([mcpcheck, "validate", "--schema", schema, sarif_path],
                       capture_output=True, text=True)
    check(p.returncode == 0, "report.sarif validates against the SARIF 2.1.0 subset: " + p.stdout)
    with open(sarif_path, encoding="utf-8") as f:
        sarif = json.load(f)
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    check(len(ids) == len(set(ids)), "one rule per check id")
    base = rep["run"].get("base_dir") or os.getcwd()
    level_of = {"MUST": "error", "SHOULD": "warning", "MAY": "note", "INFO": "note"}
    got = set()
    for res in run["results"]:
        check(rules[res["ruleIndex"]]["id"] == res["ruleId"], "ruleIndex points at ruleId")
        loc = res["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        fpath = uri[7:] if uri.startswith("file://") else os.path.join(base, uri)
        check(os.path.isfile(fpath.replace("%20", " ")), "result location %s exists" % uri)
        check(loc["region"]["startLine"] >= 1, "result line >= 1")
        got.add((res["properties"]["scenario"], res["properties"]["protocolVersion"], res["ruleId"],
                 res["level"]))
    for x in scen:
        for ck in x["checks"]:
            if ck["verdict"] != "PASS":
                # The level is the spec's, unless the gate fails the check.
                key = (x["id"], x["version"], ck["id"],
                       "error" if ck["fails_run"] else level_of[ck["level"]])
                check(key in got, "SARIF result for %s [%s] %s" % key[:3])
    for r in rules:
        if r["id"] != "mcpcheck/error":
            check("helpUri" not in r or r["helpUri"].startswith(
                "https://modelcontextprotocol.io/specification/"), "helpUri is a spec link")

    # ---- traces
    traces = sorted(glob.glob(os.path.join(rdir, "traces", "*.jsonl")))
    check(len(traces) == len(scen), "one trace per scenario run (%d for %d)" % (len(traces), len(scen)))
    judged = []  # (trace name, path, the run broke a MUST wire/schema check)
    for x in scen:
        name = "%s@%s.jsonl" % (re.sub(r"[^A-Za-z0-9._-]", "_", x["id"].replace("/", "__")),
                                x["version"])
        tpath = os.path.join(rdir, "traces", name)
        if not os.path.isfile(tpath):
            check(False, "trace %s exists" % name)
            continue
        with open(tpath, encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
        check(len(lines) == len(x["transcript"]), "%s: the trace has the transcript's messages" % name)
        for rec in lines:
            check(set(("seq", "t_ms", "dir", "line")) <= set(rec) and rec["dir"] in ("in", "out"),
                  "%s: record has seq, t_ms, dir, line" % name)
            break
        # Offline, the wire and schema checks must come to the run's verdict.
        broke = any((c["id"].startswith("wire/") or c["id"].startswith("schema/"))
                    and c["verdict"] == "FAIL" for c in x["checks"])
        if not any("truncated_from" in t for t in x["transcript"]):
            judged.append((name, tpath, broke))
    check(judged, "some traces are judged offline")
    check(offline_verdicts(mcpcheck, judged) == 0,
          "validate --trace judges every trace as the run did")

    # ---- report.html
    with open(os.path.join(rdir, "report.html"), encoding="utf-8") as f:
        html = f.read()
    check(re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", html, re.I) is None,
          "report.html loads nothing from elsewhere")
    check("default-src 'none'" in html, "report.html forbids fetching (CSP)")
    summ = "%d passed, %d failed" % (oc["passed"], oc["failed"])
    check(summ in html, "report.html shows '%s' (INFO is not counted as passed)" % summ)
    for key, n in oc.items():
        if key != "runs" and key != "failed_by_gate" and (n or key in ("passed", "failed")):
            check('data-outcome="%s"><b>%d</b>' % (key, n) in html,
                  "report.html has a %s card of %d" % (key, n))

    # ---- quotes, interpretations, links, messages
    spec = "https://modelcontextprotocol.io/specification/"
    listing = json.loads(subprocess.run([mcpcheck, "list", "--json"], capture_output=True,
                                        text=True).stdout)
    defs = {(None, d["check"]): d for d in listing["builtin"]}
    for sc in listing["scenarios"]:
        for d in sc["checks"]:
            defs[(sc["id"], d["check"])] = d
    for x in scen:
        seqs = {t["seq"]: t for t in x["transcript"]}
        for ck in x["checks"]:
            where = "%s [%s] %s" % (x["id"], x["version"], ck["id"])
            check(ck["level"] in ("MUST", "SHOULD", "MAY", "INFO"), where + ": has a level")
            check(isinstance(ck.get("quote"), str), where + ": has a quote")
            interp = ck.get("interpretation")
            check(interp is None or (interp and interp not in ck["quote"]),
                  where + ": the interpretation stands apart from the quote")
            d = defs.get((x["id"], ck["id"])) or defs.get((None, ck["id"]))
            if d is not None:
                # A verdict reads the ref of its own version; a check whose refs do
                # not name that version is INFO there, without a page.
                refs = d.get("refs", {})
                if x["version"] in refs:
                    level = d.get("levels", {}).get(x["version"], d["level"])
                    quote = d.get("quotes", {}).get(x["version"], d["quote"])
                    check(ck["level"] == level and ck["quote"] == quote,
                          where + ": level and quote are the check's at its version")
                    check(ck.get("spec") == "%s/%s" % (x["version"], refs[x["version"]]),
                          where + ": the ref is the page of the version that ran")
                elif refs:
                    check(ck["level"] == "INFO" and not ck.get("spec"),
                          where + ": a check not named at its version is INFO, without a page")
            if ck.get("spec"):
                check(ck.get("url") == spec + ck["spec"], where + ": url is the spec link of spec")
            if ck["verdict"] != "PASS" and ck.get("seq"):
                t = seqs.get(ck["seq"])
                check(t is not None and t["dir"] == "in",
                      where + ": message %d is one the server sent" % ck["seq"])
    att = re.search(r"<h2>Needs attention</h2>(.*?)</ul>", html, re.S)
    broken = {(c["id"]) for x in scen for c in x["checks"]
              if c["verdict"] in ("FAIL", "WARN") and not x.get("known")}
    if broken:
        check(att is not None, "report.html has 'Needs attention'")
    if att is not None:
        items = re.findall(r"<li>(.*?)</li>", att.group(1), re.S)
        keys = [re.sub(r'<a href="#s\d+"[^<]*</a>[^<&]*', "", i) for i in items]
        check(len(keys) == len(set(keys)), "'Needs attention' names each cause once")
        for cid in broken:
            check(any(cid in i for i in items), "'Needs attention' lists cause %s" % cid)
    check(html.count('class="sc ') == len(scen) + len(not_run), "report.html has every scenario")

    print("check_outputs: %d scenario runs, %d testcases, %d SARIF results, %d traces: %s"
          % (len(scen), len(cases), len(run["results"]), len(traces),
             "ok" if not failures else "%d problems" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
