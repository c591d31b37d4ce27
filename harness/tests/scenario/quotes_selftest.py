#!/usr/bin/env python3
"""quotes_selftest.py MCPCHECK - the quote test catches what it must.

Runs quotes.py on a made-up scenario folder against made-up spec pages and
checks that each planted defect is reported on its own line as
FILE:CHECK:VERSION: what, that the faithful checks are not, and that missing
spec pages fail the test.
"""
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

PAGE_0618 = """---
title: Things
---

## Overview

Servers **MUST** answer every `things/get` request with the
[thing](https://example.com/x) asked for.

## Error Handling

1. Servers **SHOULD**:
   - Report unknown things
   - Stay calm

A thing is blue, for example.
"""
PAGE_1125 = PAGE_0618.replace("Stay calm", "Stay very calm")


def scenario(checks, versions="2025-06-18..2025-11-25"):
    return ('{"title": "t", "versions": "%s", "spec": [%s], "steps": [{"sleep": 1}]}'
            % (versions, ", ".join(checks)))


def entry(check, level, quote, refs, quotes=None):
    import json
    e = {"check": check, "level": level, "quote": quote, "refs": refs}
    if quotes:
        e["quotes"] = quotes
    return json.dumps(e)


BOTH = {"2025-06-18": "server/things#overview", "2025-11-25": "server/things#overview"}
ERRS = {"2025-06-18": "server/things#error-handling", "2025-11-25": "server/things#error-handling"}


def main():
    mcpcheck = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        docs = os.path.join(tmp, "docs")
        for v in ("2024-11-05", "2025-03-26", "2026-07-28"):
            os.makedirs(os.path.join(docs, v))  # every version the harness runs has pages
        for v, text in (("2025-06-18", PAGE_0618), ("2025-11-25", PAGE_1125)):
            os.makedirs(os.path.join(docs, v, "server"))
            with open(os.path.join(docs, v, "server", "things.mdx"), "w") as f:
                f.write(text)
        scen = os.path.join(tmp, "scenarios")
        os.makedirs(os.path.join(scen, "area"))
        files = {
            "good": scenario([
                entry("area/good", "MUST", "Servers MUST answer every things/get request with "
                      "the thing asked for.", BOTH),
                entry("area/fragments", "SHOULD", "Servers SHOULD: … Report unknown things", ERRS),
                entry("area/per-version", "SHOULD", "Servers SHOULD: … Stay calm", ERRS,
                      {"2025-11-25": "Servers SHOULD: … Stay very calm"}),
                entry("area/example", "INFO", "A thing is blue, for example.", ERRS),
                entry("area/shared", "MUST", "Servers MUST answer every things/get request", BOTH),
            ]),
            "bad": scenario([
                entry("area/not-verbatim", "MUST", "Servers MUST answer every request at once.",
                      BOTH),
                entry("area/out-of-order", "SHOULD", "Stay calm … Servers SHOULD:", ERRS),
                entry("area/anchor", "MUST", "Servers MUST answer every things/get request",
                      {"2025-06-18": "server/things#nowhere",
                       "2025-11-25": "server/things#overview"}),
                entry("area/one-version", "MUST", "Servers MUST answer every things/get request",
                      {"2025-06-18": "server/things#overview"}),
                entry("area/no-page", "MUST", "Servers MUST answer every things/get request",
                      {"2025-06-18": "server/gone#overview",
                       "2025-11-25": "server/things#overview"}),
                entry("area/shared", "MUST", "Servers MUST answer every things/get request with "
                      "the thing asked for.", BOTH),
            ]),
            "legacy": '{"title": "t", "spec": [{"check": "area/legacy", "level": "MUST", '
                      '"ref": "2025-06-18/server/things#overview", "text": "Things are '
                      'answered."}], "steps": [{"sleep": 1}]}',
            # Runs at 2024-11-05 too, which its refs do not name.
            "old": scenario([entry("area/old-version", "MUST", "Servers MUST answer every "
                                   "things/get request", BOTH)], "..2025-11-25"),
            "wrong-level": scenario([entry("area/wrong-level", "MUST", "Servers SHOULD: … Stay "
                                           "calm", ERRS)]),
        }
        for name, text in files.items():
            with open(os.path.join(scen, "area", name + ".jsonc"), "w") as f:
                f.write(text)
        run = subprocess.run([sys.executable, os.path.join(HERE, "quotes.py"), mcpcheck, scen,
                              docs, "--scenarios-only"], capture_output=True, text=True,
                             timeout=budget(120))
        out = run.stdout
        print(out)

        def want(needle, what):
            if needle not in out:
                failures.append(what)
                print("FAIL: " + what + " (no line with: " + needle + ")")

        def absent(needle, what):
            if needle in out:
                failures.append(what)
                print("FAIL: " + what)

        if run.returncode != 1:
            failures.append("exit %d with planted defects, want 1" % run.returncode)
        for cid in ("area/good", "area/fragments", "area/per-version", "area/example"):
            absent(":%s:" % cid, "faithful check %s is not reported" % cid)
        want("scenarios/area/bad.jsonc:area/not-verbatim:2025-06-18: quote not found verbatim",
             "a quote that is not on the page")
        want("area/out-of-order:2025-06-18: quote not found verbatim",
             "fragments out of order")
        want("area/anchor:2025-06-18: #nowhere is not a heading", "an anchor that is no heading")
        absent("area/anchor:2025-11-25", "the good ref of area/anchor is not reported")
        want("area/one-version:2025-11-25: missing from refs", "a version the harness runs")
        want("area/old-version:2024-11-05: missing from refs",
             "a version a scenario runs at, 2024-11-05 included")
        want("area/no-page:2025-06-18: no page server/gone.mdx", "a page that does not exist")
        want("area/shared:-: declared differently in scenarios/area/", "one id, two definitions")
        want("scenarios/area/legacy.jsonc:area/legacy:-: legacy {ref, text}", "a legacy entry")
        want("level MUST does not match the quote, which says SHOULD", "a level not the keyword")
        want("quotes: 1 scenario files still use the legacy", "the legacy files are counted")

        miss = subprocess.run([sys.executable, os.path.join(HERE, "quotes.py"), mcpcheck, scen,
                               os.path.join(tmp, "no-such-docs"), "--scenarios-only"],
                              capture_output=True, text=True, timeout=budget(120))
        if miss.returncode != 1 or "spec pages are missing" not in miss.stdout:
            failures.append("missing spec pages fail the test (exit %d)" % miss.returncode)
    print("quotes_selftest: %s" % ("ok" if not failures else "%d problems" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
