#!/usr/bin/env python3
"""cmp-reports.py - are two runs' verdicts the same, run by run?

usage: scripts/cmp-reports.py A/report.json B/report.json

Pairs the runs of two report.json files by (scenario id, version) and
compares each pair's verdict and the set of its checks that did not pass
(check id and verdict). Prints every run that differs (or is in one report
only) and a count line; exits 1 when any differs, 0 when none does. Used to
hold the default run (scenarios sharing processes) to --fresh-process
(scripts/bench.sh library keeps each variant's report).
"""
import json
import sys


def runs(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    return {(r["id"], r["version"]): r for r in report["scenarios"]}


def findings(run):
    return {(c["id"], c["verdict"]) for c in run.get("checks") or [] if c["verdict"] != "PASS"}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    a, b = runs(sys.argv[1]), runs(sys.argv[2])
    differ = 0
    for key in sorted(set(a) | set(b)):
        ra, rb = a.get(key), b.get(key)
        if ra is None or rb is None:
            differ += 1
            print("%s@%s: only in %s" % (key[0], key[1], sys.argv[1] if rb is None else sys.argv[2]))
            continue
        fa, fb = findings(ra), findings(rb)
        if ra["verdict"] != rb["verdict"] or fa != fb:
            differ += 1
            print("%s@%s: %s vs %s; findings only in one: %s" %
                  (key[0], key[1], ra["verdict"], rb["verdict"], sorted(fa ^ fb)))
    print("%d of %d runs differ" % (differ, len(set(a) | set(b))))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
