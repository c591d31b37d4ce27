#!/usr/bin/env python3
"""triage.py - findings of a fuzzing campaign: reproduce, deduplicate, minimize,
keep as regressions, and write the campaign report. Used by scripts/fuzz.sh.

  triage.py findings --target T --repro BIN [--afl-bin BIN] --run-dir DIR --root REPO FILE...
      Reproduces each FILE with BIN (a libFuzzer-API binary run on one input,
      preferably the ASan+UBSan build), computes a signature from the sanitizer
      or oracle report (the kind of error and the first project frames of its
      stack), keeps the smallest input per signature, minimizes it
      (libFuzzer -minimize_crash=1, or afl-tmin with --afl-bin), and stores it
      as corpus/regressions/T/<sha256>. For the session targets the finding is
      also written as a JSONL trace, <sha256>.jsonl: one wire message per line
      (the client lines fed to the reference server, the handshake included,
      or the server lines fed to the client). Findings against the reference
      server also become a scenario file, <sha256>.jsonc (raw steps replaying
      the lines; the built-in wire and schema checks judge the answers),
      linted with `mcpcheck lint` when a build has it: copy it under
      scenarios/ and `mcpcheck run` replays the finding against any server.
      Appends one JSON object per distinct finding to DIR/findings.jsonl.

  triage.py classify --target T --repro BIN --root REPO FILE...
      Exits 0 when every FILE is a known open bug (corpus/regressions/DISABLED)
      or does not reproduce alone, 1 when one is new (the CI smoke's verdict).

  triage.py report --run-dir DIR
      Writes DIR/report.md from DIR/stats.tsv and DIR/findings.jsonl.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

SESSION_TARGETS = {"refserver_session", "client_session", "refserver_stdio"}
HANDSHAKE = [
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    '"capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},'
    '"url":{}}},"clientInfo":{"name":"mcpcheck-fuzz","version":"1.0"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}']

FRAME_RE = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (\S+) (\S+)")
KIND_RES = [
    (re.compile(r"mcpcheck fuzz oracle: (.*)"), "oracle"),
    (re.compile(r"ERROR: AddressSanitizer: ([\w-]+)"), "asan"),
    (re.compile(r"ERROR: LeakSanitizer: (.*)"), "leak"),
    (re.compile(r"runtime error: (.*)"), "ubsan"),
    (re.compile(r"ERROR: libFuzzer: (timeout|out-of-memory|deadly signal)"), "libfuzzer"),
    (re.compile(r"ERROR: UndefinedBehaviorSanitizer: (.*)"), "ubsan"),
    (re.compile(r"ERROR: (deadly signal \d+)"), "signal"),
]


def reproduce(binary, path, timeout=60, stdin_cmd=None):
    """Runs one input: `binary path`, or `stdin_cmd < path` for whole-process targets."""
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "symbolize=1:detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    try:
        if stdin_cmd:
            with open(path, "rb") as inp:
                p = subprocess.run(shlex.split(stdin_cmd), stdin=inp, capture_output=True,
                                   timeout=timeout, env=env)
            out = (p.stderr + p.stdout).decode("utf-8", "replace")
            # A signal (negative status) or a sanitizer report is a crash.
            return p.returncode, out + ("\nERROR: deadly signal %d\n" % -p.returncode
                                        if p.returncode < 0 else "")
        p = subprocess.run([binary, path], capture_output=True, text=True, errors="replace",
                           timeout=timeout, env=env)
        return p.returncode, p.stderr + p.stdout
    except subprocess.TimeoutExpired as e:
        out = (e.stderr or b"")
        if isinstance(out, bytes):
            out = out.decode("utf-8", "replace")
        return -9, out + "\nERROR: libFuzzer: timeout (triage)\n"


def signature(log):
    """(kind, detail, frames, summary) from a sanitizer or oracle report."""
    kind, detail = "unknown", ""
    for rx, k in KIND_RES:
        m = rx.search(log)
        if m:
            kind, detail = k, m.group(1).strip()
            break
    if kind == "oracle":
        # Schema findings: keep the violated keyword and location shape.
        m = re.search(r"schema violation \((\w+), version ([\d-]+), answering (\S+)\)", log)
        if m:
            detail += " [%s %s %s]" % m.groups()
        first = re.search(r"^\s+(/\S*): .*?\[(\w+) at (\S+)\]", log, re.M)
        if first:
            detail += " %s@%s" % (first.group(2), re.sub(r"/\d+", "/N", first.group(3)))
    frames = []
    for line in log.splitlines():
        m = FRAME_RE.match(line)
        if not m:
            continue
        func, where = m.group(2), m.group(3)
        if "/harness/" not in where and "/fuzz/" not in where:
            continue
        if func in ("mc_fuzz_fail", "fail", "fail_report", "fail_out") or "/fuzz/common.c" in where:
            continue
        frames.append(func)
        if len(frames) == 3:
            break
    summary = ""
    for line in log.splitlines():
        if line.startswith("SUMMARY:") or "mcpcheck fuzz oracle:" in line:
            summary = line.strip()
            if line.startswith("SUMMARY:"):
                break
    return kind, detail, frames, summary or detail


def sig_key(kind, detail, frames):
    return "%s: %s | %s" % (kind, detail, " < ".join(frames) or "?")


def minimize(target, repro, afl_bin, path, workdir, seconds):
    out = os.path.join(workdir, "min-" + os.path.basename(path))
    try:
        if afl_bin:
            subprocess.run(["afl-tmin", "-i", path, "-o", out, "--", *shlex.split(afl_bin)],
                           capture_output=True, timeout=seconds * 4,
                           env=dict(os.environ, AFL_SKIP_CPUFREQ="1",
                                    AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1"))
        else:
            subprocess.run([repro, "-minimize_crash=1", "-runs=100000",
                            "-max_total_time=%d" % seconds, "-exact_artifact_path=" + out, path],
                           capture_output=True, timeout=seconds * 4)
    except (subprocess.TimeoutExpired, OSError):
        return path
    return out if os.path.exists(out) and os.path.getsize(out) > 0 else path


def trace_lines(target, data):
    lines = [l.rstrip(b"\r") for l in data.split(b"\n")]
    lines = [l for l in lines if l]
    if target == "refserver_session":
        has_init = False
        for l in lines:
            try:
                m = json.loads(l)
            except ValueError:
                continue
            if isinstance(m, dict) and m.get("method") == "initialize":
                has_init = True
        if not has_init:
            lines = [h.encode() for h in HANDSHAKE] + lines
    return lines


def known_signatures(a):
    """Signatures of this target's open bugs (corpus/regressions/DISABLED),
    so a campaign that finds them again does not file them again."""
    known = {}
    path = os.path.join(a.root, "corpus", "regressions", "DISABLED")
    if not os.path.exists(path):
        return known
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition(" ")
            folder, _, name = key.partition("/")
            if folder != a.target or name.endswith(".jsonl"):
                continue
            inp = os.path.join(a.root, "corpus", "regressions", key)
            if not os.path.exists(inp):
                continue
            _, log = reproduce(a.repro, inp, stdin_cmd=a.repro_stdin)
            kind, detail, frames, _ = signature(log)
            known[sig_key(kind, detail, frames)] = "%s (DISABLED: %s)" % (key, reason.strip())
    return known


SCENARIO_TARGETS = {"refserver_session", "refserver_stdio"}


def scenario_text(target, sha, signature_text, lines):
    """A scenario file (scenarios/README.md format) that replays a finding
    against any server: every line sent raw, the built-in wire and schema
    checks judging what comes back."""
    version = None
    steps = []
    for raw in lines:
        text = raw.decode("utf-8", "replace")
        try:
            m = json.loads(text)
        except ValueError:
            m = None
        if isinstance(m, dict) and m.get("method") == "initialize" and version is None:
            version = ((m.get("params") or {}).get("protocolVersion"))
        if isinstance(m, dict) and "method" in m and "id" in m:
            steps.append({"raw": text, "expect": "any", "within": 1000})
        elif isinstance(m, dict) and ("method" in m or "result" in m or "error" in m):
            steps.append({"raw": text, "expect": "none", "within": 100})
        else:
            steps.append({"raw": text, "expect": "any", "within": 500})
    doc = {
        "title": "fuzzing finding %s (%s)" % (sha[:12], target),
        "description": "Replays the input that made %s fail: %s. Every line is sent as "
                       "written; the built-in wire and schema checks judge the answers."
                       % (target, signature_text),
        "spec": [{"check": "fuzz/%s/%s" % (target.replace("_", "-"), sha[:12]),
                  "level": "MUST", "ref": "2025-06-18/basic#messages",
                  "text": "All messages between MCP clients and servers MUST follow the "
                          "JSON-RPC 2.0 specification."}],
        "client": {"initialize": False},
        "steps": steps or [{"raw": "{}", "expect": "any", "within": 500}],
        "tags": ["fuzz", "regression"],
    }
    if isinstance(version, str) and re.match(r"^\d{4}-\d{2}-\d{2}$", version):
        doc["versions"] = version
    head = ("// Generated by fuzz/triage.py from corpus/regressions/%s/%s.\n"
            "// Copy it under scenarios/ to run it with `mcpcheck run`.\n" % (target, sha))
    return head + json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def lint_scenario(root, path):
    """Runs `mcpcheck lint` on a generated scenario when a build has mcpcheck."""
    for b in ("build", "build-fuzzdev", "build-asan"):
        exe = os.path.join(root, b, "bin", "mcpcheck")
        if os.access(exe, os.X_OK):
            p = subprocess.run([exe, "lint", path], capture_output=True, text=True)
            return "ok" if p.returncode == 0 else (p.stdout + p.stderr).strip()
    return "not linted (no mcpcheck build)"


def cmd_findings(a):
    regdir = os.path.join(a.root, "corpus", "regressions", a.target)
    os.makedirs(regdir, exist_ok=True)
    work = os.path.join(a.run_dir, "triage", a.target)
    os.makedirs(work, exist_ok=True)
    known = known_signatures(a)
    buckets = {}
    for path in a.files:
        rc, log = reproduce(a.repro, path, stdin_cmd=a.repro_stdin)
        kind, detail, frames, summary = signature(log)
        if (rc == 0 or a.repro_stdin) and kind == "unknown":
            kind, detail = "not-reproducible", "the input ran clean when replayed"
        key = sig_key(kind, detail, frames)
        size = os.path.getsize(path)
        if key not in buckets or size < buckets[key]["size"]:
            buckets[key] = {"path": path, "size": size, "kind": kind, "summary": summary,
                            "log": log, "count": buckets.get(key, {}).get("count", 0)}
        buckets[key]["count"] += 1
    out = []
    for key, b in sorted(buckets.items()):
        rec = {"target": a.target, "signature": key, "kind": b["kind"], "summary": b["summary"],
               "hits": b["count"], "original": b["path"]}
        if key in known:
            rec["kind"] = "known"
            rec["summary"] = "already filed: " + known[key]
        elif b["kind"] != "not-reproducible":
            small = minimize(a.target, a.repro, a.afl_bin, b["path"], work, a.minimize_seconds)
            _, log2 = reproduce(a.repro, small, stdin_cmd=a.repro_stdin)
            k2, d2, f2, _ = signature(log2)
            if sig_key(k2, d2, f2) != key:
                small = b["path"]   # minimization drifted to another bug: keep the original
            with open(small, "rb") as f:
                data = f.read()
            sha = hashlib.sha256(data).hexdigest()
            dest = os.path.join(regdir, sha)
            shutil.copyfile(small, dest)
            rec["regression"] = os.path.relpath(dest, a.root)
            rec["bytes"] = len(data)
            if a.target in SESSION_TARGETS:
                tpath = dest + ".jsonl"
                with open(tpath, "wb") as f:
                    for line in trace_lines(a.target, data):
                        f.write(line + b"\n")
                rec["trace"] = os.path.relpath(tpath, a.root)
            if a.target in SCENARIO_TARGETS:
                spath = dest + ".jsonc"
                with open(spath, "w", encoding="utf-8") as f:
                    f.write(scenario_text(a.target, sha, key, trace_lines(a.target, data)))
                rec["scenario"] = os.path.relpath(spath, a.root)
                rec["scenario_lint"] = lint_scenario(a.root, spath)
            logpath = os.path.join(work, sha + ".log")
            with open(logpath, "w", encoding="utf-8") as f:
                f.write(b["log"])
            rec["log"] = os.path.relpath(logpath, a.run_dir)
            rec["reproduce"] = ("%s < %s" % (a.repro_stdin, rec["regression"]) if a.repro_stdin
                                else "%s %s" % (os.path.relpath(a.repro, a.root),
                                                rec["regression"]))
        out.append(rec)
    with open(os.path.join(a.run_dir, "findings.jsonl"), "a", encoding="utf-8") as f:
        for rec in out:
            f.write(json.dumps(rec) + "\n")
    for rec in out:
        print("triage: %s: %s -> %s" % (a.target, rec["signature"],
                                          rec.get("regression", "(not kept)")))
    return 0


def cmd_classify(a):
    """For the CI smoke: exit 0 when every FILE reproduces a known open bug
    (corpus/regressions/DISABLED), 1 when one is new or the wrong way round."""
    known = known_signatures(a)
    status = 0
    for path in a.files:
        rc, log = reproduce(a.repro, path)
        kind, detail, frames, summary = signature(log)
        key = sig_key(kind, detail, frames)
        if key in known:
            print("known: %s: %s" % (os.path.basename(path), known[key]))
        elif rc == 0 and kind == "unknown":
            print("flaky: %s: does not reproduce alone" % os.path.basename(path))
        else:
            print("NEW: %s: %s\n  %s" % (os.path.basename(path), key, summary))
            status = 1
    return status


def cmd_report(a):
    stats, findings = [], []
    spath = os.path.join(a.run_dir, "stats.tsv")
    if os.path.exists(spath):
        with open(spath, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 9 and parts[0] != "target":
                    stats.append(parts)
    fpath = os.path.join(a.run_dir, "findings.jsonl")
    if os.path.exists(fpath):
        with open(fpath, encoding="utf-8") as f:
            findings = [json.loads(l) for l in f if l.strip()]
    lines = ["# Fuzzing campaign report", "",
             "Run folder: `%s`  " % a.run_dir,
             "Written: %s" % datetime.datetime.now(datetime.timezone.utc)
             .strftime("%Y-%m-%d %H:%M:%SZ"), "",
             "## Targets", "",
             "| target | engine | seconds | jobs | execs | exec/s | corpus in | corpus after merge | findings |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for s in stats:
        lines.append("| " + " | ".join(s[:9]) + " |")
    lines += ["", "## Findings (deduplicated by signature)", ""]
    real = [f for f in findings if f["kind"] not in ("not-reproducible", "known")]
    if not findings:
        lines.append("None: every target ran clean.")
    for i, f in enumerate(findings, 1):
        lines += ["### %d. %s: %s" % (i, f["target"], f["kind"]), "",
                  "- signature: `%s`" % f["signature"],
                  "- summary: %s" % (f["summary"] or "-"),
                  "- hits: %d (smallest kept)" % f["hits"]]
        if "regression" in f:
            lines.append("- regression input: `%s` (%d bytes)" % (f["regression"], f["bytes"]))
        if "trace" in f:
            lines.append("- JSONL trace (one wire message per line, for `mcpcheck run` replay "
                         "once scenarios hold traces): `%s`" % f["trace"])
        if "scenario" in f:
            lines.append("- scenario replaying it (`mcpcheck lint`: %s): `%s`"
                         % (f.get("scenario_lint", "?"), f["scenario"]))
        if "log" in f:
            lines.append("- full sanitizer/oracle output: `%s`" % f["log"])
        if "reproduce" in f:
            lines.append("- reproduce: `%s`" % f["reproduce"])
        lines.append("")
    lines += ["", "%d distinct finding(s), %d new and reproducible (known open bugs are "
              "listed in corpus/regressions/DISABLED)." % (len(findings), len(real)), ""]
    with open(os.path.join(a.run_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("triage: report written to %s" % os.path.join(a.run_dir, "report.md"))
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("findings")
    f.add_argument("--target", required=True)
    f.add_argument("--repro", required=True)
    f.add_argument("--afl-bin", help="AFL++ command line for afl-tmin (binary and arguments)")
    f.add_argument("--repro-stdin", help="reproduce with this command reading the input on stdin")
    f.add_argument("--run-dir", required=True)
    f.add_argument("--root", required=True)
    f.add_argument("--minimize-seconds", type=int, default=15)
    f.add_argument("files", nargs="*")
    c = sub.add_parser("classify")
    c.add_argument("--target", required=True)
    c.add_argument("--repro", required=True)
    c.add_argument("--root", required=True)
    c.add_argument("files", nargs="*")
    c.set_defaults(repro_stdin=None)
    r = sub.add_parser("report")
    r.add_argument("--run-dir", required=True)
    a = ap.parse_args()
    if a.cmd == "findings":
        return cmd_findings(a)
    if a.cmd == "classify":
        return cmd_classify(a)
    return cmd_report(a)


if __name__ == "__main__":
    sys.exit(main())
