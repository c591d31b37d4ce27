#!/usr/bin/env python3
"""same-reports.py - are two report folders the same, run by run, apart from
what varies by nature?

usage: scripts/same-reports.py [--max N] [--keep-lines] [--kinds] A B

A and B are report folders written by `mcpcheck run --report-dir` (each
holds report.json and traces/). The runs of the two are paired by
(scenario id, version) and each pair is compared field by field after both
sides are normalized:

  - dropped from every scenario entry: duration_ms, stderr_tail, and each
    check's "line" (the line of its step in the scenario file, which moves
    when a file gains a member), and masked with it the line a text names
    ("the step at line 110"); --keep-lines compares the lines too;
  - dropped from the run: summary.duration_ms, run.started,
    run.mcpcheck.revision; each folder's run.base_dir is written as
    <base_dir> wherever it appears;
  - in transcripts (report.json) and traces (traces/*.jsonl): "t_ms" is
    dropped, and in every string the values a run draws afresh are masked
    (MASKS below: TCP ports, HTTP session ids and other random 128-bit hex
    tokens, wall-clock times, process ids, the clock and digest of the
    reference server's input-request states).

A check is paired with the check of the same id (the first with the first
when an id repeats); the same checks in another order are one difference.
Two record lists (a transcript, a trace) that hold the same records in
another order are one difference, "(order)"; otherwise they are aligned and
each stretch that differs is one difference.

Every difference is printed as "RUN: FIELD: A-VALUE | B-VALUE" (at most
--max per run, 20 by default, then how many more), a run present on one
side only as "RUN: only in A" (or B), then a count line. --kinds also
prints, for each run, how many differences there are of each kind (the
field with its positions left out, "kind<TAB>N<TAB>RUN<TAB>FIELD"), to hold
two comparisons against each other (A against B, and A against a second run
of A, which shows what varies from run to run). Exit
status: 0 when nothing differs, 1 when anything does, 2 on a usage or read
error.
"""
import argparse
import collections
import difflib
import json
import os
import re
import sys

# (name, pattern, replacement), applied in this order to every string of a
# transcript or trace record and of a check.
MASKS = [
    # A listening port the system chose (--http 127.0.0.1:0).
    ("port", re.compile(r"\b(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\b"), r"\1:<port>"),
    # The reference server's session ids, 16 random bytes in hex (and the
    # form with a space in place of the fifth digit that one switch sends).
    ("hex128", re.compile(r"\b[0-9a-f]{4} [0-9a-f]{27}\b"), "<hex128>"),
    ("hex128", re.compile(r"\b[0-9a-fA-F]{32}\b"), "<hex128>"),
    # A wall-clock time the server wrote (a task's createdAt, lastUpdatedAt).
    ("time", re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)"),
     "<time>"),
    # A process id named in a message.
    ("pid", re.compile(r"\b(pid|process) \d+\b"), r"\1 <pid>"),
    # An input-request state, NAME.ROUND.ISSUED_MS.DIGEST: the issue time is
    # the server's clock, and the digest covers it.
    ("ir-state", re.compile(r"\b([A-Za-z0-9_-]+)\.(\d+)\.\d+\.[0-9a-f]{16}\b"),
     r"\1.\2.<ms>.<digest>"),
]

# A scenario-file line named in a text ("the step at line 110 could not be
# carried out"): masked with the checks' lines, unless --keep-lines.
LINE_MASK = ("line", re.compile(r"\bat line \d+\b"), "at line <n>")

# Members dropped from a scenario entry.
SCENARIO_DROP = ("duration_ms", "stderr_tail")


def mask(s):
    for _, pat, rep in MASKS:
        s = pat.sub(rep, s)
    return s


def masked(v, base):
    """v with base replaced and MASKS applied to every string in it."""
    if isinstance(v, str):
        if base:
            v = v.replace(base, "<base_dir>")
        return mask(v)
    if isinstance(v, list):
        return [masked(x, base) for x in v]
    if isinstance(v, dict):
        return {k: masked(x, base) for k, x in v.items()}
    return v


def tx_record(rec, base):
    if isinstance(rec, dict):
        rec = {k: v for k, v in rec.items() if k != "t_ms"}
    return masked(rec, base)


def trace_name(run_id, version):
    """The trace file of a run, as report/trace.c names it."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", run_id.replace("/", "__"))
    return "%s@%s.jsonl" % (safe, version)


class Side:
    """One report folder, read and normalized."""

    def __init__(self, folder, keep_lines):
        self.folder = folder
        with open(os.path.join(folder, "report.json"), encoding="utf-8") as f:
            self.report = json.load(f)
        self.base = (self.report.get("run") or {}).get("base_dir") or ""
        self.keep_lines = keep_lines
        self.runs = {}
        for s in self.report.get("scenarios") or []:
            key = (s.get("id"), s.get("version"))
            n = 2
            while key in self.runs:  # the same run twice: keep both
                key = (s.get("id"), "%s#%d" % (s.get("version"), n))
                n += 1
            self.runs[key] = s

    def scenario(self, key):
        """(entry, checks, transcript) of a run, normalized."""
        s = {k: v for k, v in self.runs[key].items() if k not in SCENARIO_DROP}
        checks = []
        for c in s.pop("checks", None) or []:
            if not self.keep_lines:
                c = {k: v for k, v in c.items() if k != "line"}
            checks.append(masked(c, self.base))
        tx = [tx_record(t, self.base) for t in s.pop("transcript", None) or []]
        return masked(s, self.base), checks, tx

    def trace(self, name):
        """The records of traces/NAME, normalized; None when it is absent."""
        path = os.path.join(self.folder, "traces", name)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            return None
        out = []
        for ln in lines:
            try:
                out.append(tx_record(json.loads(ln), self.base))
            except ValueError:
                out.append({"unparsed": mask(ln)})
        return out

    def trace_names(self):
        d = os.path.join(self.folder, "traces")
        return set(os.listdir(d)) if os.path.isdir(d) else set()

    def run_level(self):
        """Everything but the scenario entries, without timing and host."""
        r = json.loads(json.dumps({k: v for k, v in self.report.items() if k != "scenarios"}))
        (r.get("summary") or {}).pop("duration_ms", None)
        run = r.get("run") or {}
        for k in ("started", "base_dir"):
            run.pop(k, None)
        (run.get("mcpcheck") or {}).pop("revision", None)
        return masked(r, self.base)


def canon(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def short(v, width=300):
    t = v if isinstance(v, str) else canon(v)
    return t if len(t) <= width else t[:width] + "...(%d chars)" % len(t)


def flat_diff(a, b, path, out):
    """Appends (path, a, b) for every leaf where a and b differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            flat_diff(a.get(k, "<absent>"), b.get(k, "<absent>"),
                      "%s.%s" % (path, k) if path else k, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            flat_diff(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append((path, a, b))


def checks_diff(ca, cb, out):
    def keyed(cs):
        seen, res = {}, []
        for c in cs:
            n = seen.get(c.get("id"), 0)
            seen[c.get("id")] = n + 1
            res.append(((c.get("id"), n), c))
        return res

    ka, kb = keyed(ca), keyed(cb)
    da, db = dict(ka), dict(kb)
    for key in [k for k, _ in ka] + [k for k, _ in kb if k not in da]:
        name = "checks[%s%s]" % (key[0], "#%d" % (key[1] + 1) if key[1] else "")
        if key not in db:
            out.append((name, "present", "<absent>"))
        elif key not in da:
            out.append((name, "<absent>", "present"))
        else:
            flat_diff(da[key], db[key], name, out)
    order_a = [k for k, _ in ka if k in db]
    order_b = [k for k, _ in kb if k in da]
    if order_a != order_b:
        out.append(("checks(order)", [k[0] for k in order_a], [k[0] for k in order_b]))


def span(i, j):
    return str(i) if j - i <= 1 else "%d:%d" % (i, j)


def records_diff(ra, rb, label, out):
    """Appends the differences of two record lists: one "(order)" entry when
    they hold the same records (seq aside) in another order, else each
    stretch that differs once the two are aligned."""
    if ra is None or rb is None:
        if ra is not rb:
            out.append((label, "<absent>" if ra is None else "present",
                        "<absent>" if rb is None else "present"))
        return
    if ra == rb:
        return

    def unnumbered(rs):
        return sorted(canon({k: v for k, v in r.items() if k != "seq"})
                      if isinstance(r, dict) else canon(r) for r in rs)

    if unnumbered(ra) == unnumbered(rb):
        moved = sum(1 for x, y in zip(ra, rb) if x != y)
        out.append((label + "(order)", "%d records, %d placed otherwise" % (len(ra), moved),
                    "the same records"))
        return
    ka, kb = [canon(r) for r in ra], [canon(r) for r in rb]
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        x = ra[i1] if i2 - i1 == 1 else ra[i1:i2] if i2 > i1 else "<absent>"
        y = rb[j1] if j2 - j1 == 1 else rb[j1:j2] if j2 > j1 else "<absent>"
        out.append(("%s[%s|%s]" % (label, span(i1, i2), span(j1, j2)), x, y))


def kind(path):
    """A difference's field without its positions: trace[3|4] -> trace."""
    return re.sub(r"\[[0-9:|]+\]", "", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("a", help="a report folder")
    ap.add_argument("b", help="another report folder")
    ap.add_argument("--max", type=int, default=20, help="differences printed per run")
    ap.add_argument("--keep-lines", action="store_true", help="compare checks' lines too")
    ap.add_argument("--kinds", action="store_true", help="count the differences by kind")
    args = ap.parse_args()
    if not args.keep_lines:
        MASKS.append(LINE_MASK)
    try:
        sa, sb = Side(args.a, args.keep_lines), Side(args.b, args.keep_lines)
    except (OSError, ValueError) as e:
        print("same-reports: %s" % e, file=sys.stderr)
        return 2

    kinds = collections.Counter()
    differing = 0

    def show(label, found):
        for path, x, y in found[: args.max]:
            print("%s: %s: %s | %s" % (label, path, short(x), short(y)))
        if len(found) > args.max:
            print("%s: ... and %d more differences" % (label, len(found) - args.max))
        kinds.update((label, kind(p)) for p, _, _ in found)

    found = []
    flat_diff(sa.run_level(), sb.run_level(), "", found)
    show("(run)", found)
    run_level = len(found)

    keys = sorted(set(sa.runs) | set(sb.runs))
    used = set()
    for key in keys:
        label = "%s@%s" % key
        if key not in sa.runs or key not in sb.runs:
            differing += 1
            kinds[(label, "only in %s" % ("A" if key in sa.runs else "B"))] += 1
            print("%s: only in %s" % (label, "A" if key in sa.runs else "B"))
            continue
        (ea, ca, ta), (eb, cb, tb) = sa.scenario(key), sb.scenario(key)
        found = []
        flat_diff(ea, eb, "", found)
        checks_diff(ca, cb, found)
        records_diff(ta, tb, "transcript", found)
        name = trace_name(*key)
        used.add(name)
        records_diff(sa.trace(name), sb.trace(name), "trace", found)
        if found:
            differing += 1
            show(label, found)

    for name in sorted((sa.trace_names() | sb.trace_names()) - used):
        found = []
        records_diff(sa.trace(name), sb.trace(name), "trace", found)
        show("traces/" + name, found)
        run_level += len(found)

    if args.kinds:
        for (label, k), n in sorted(kinds.items()):
            print("kind\t%d\t%s\t%s" % (n, label, k))
    print("%d of %d runs differ, %d differences outside the runs" %
          (differing, len(keys), run_level))
    return 1 if differing or run_level else 0


if __name__ == "__main__":
    sys.exit(main())
