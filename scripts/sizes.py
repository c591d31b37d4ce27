#!/usr/bin/env python3
"""sizes.py - functions and files that have grown past one job.

Lists every C function longer than --max-func lines (default 120) and every
C source or header longer than --max-file lines (default 700) under harness/
and fuzz/, longest first, as "LINES path:LINE function" and "LINES path".

A function is what clang-format leaves at the left margin: a definition whose
opening brace stands alone on a line at column 0, up to the next "}" at
column 0; its length counts both braces and the signature lines above them.
Generated tables (a file whose first comment says "generated") are left out.

With --allow FILE (one "path:function" or "path" per line, '#' comments),
exit 1 when anything past a limit is not in the list, so that nothing new
grows past one job while the known cases are being split; entries that no
longer exceed a limit are reported as stale (remove them). Without --allow
the script only reports and exits 0.

usage: scripts/sizes.py [--max-func N] [--max-file N] [--allow FILE] [ROOT]
"""
import argparse
import os
import re
import sys

NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def c_files(root):
    for top in ("harness", "fuzz"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


def generated(lines):
    head = "".join(lines[:12]).lower()
    return "generated" in head.split("*/")[0]


def functions(lines):
    """Yields (name, first line, length) of each top-level function."""
    i = 0
    while i < len(lines):
        if lines[i].rstrip("\n") == "{":
            start = i
            # The signature: the lines above, up to a blank line, a comment end
            # or a line ending in ';' or '}'.
            j = i - 1
            while j >= 0:
                t = lines[j].rstrip()
                if t == "" or t.endswith(";") or t.endswith("}") or t.endswith("*/") or t.startswith("#"):
                    break
                j -= 1
            sig = " ".join(l.strip() for l in lines[j + 1:i])
            m = NAME.search(sig)
            k = i + 1
            while k < len(lines) and lines[k].rstrip("\n") != "}" and not lines[k].startswith("};"):
                k += 1
            if m and "=" not in sig.split("(")[0]:
                yield m.group(1), j + 2, k - j
            i = k + 1
        else:
            i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-func", type=int, default=120)
    ap.add_argument("--max-file", type=int, default=700)
    ap.add_argument("--allow")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    root = os.path.abspath(a.root)

    long_funcs, long_files = [], []
    for path in c_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        if generated(lines):
            continue
        if len(lines) > a.max_file:
            long_files.append((len(lines), rel))
        for name, line, n in functions(lines):
            if n > a.max_func:
                long_funcs.append((n, f"{rel}:{line}", name, f"{rel}:{name}"))

    long_funcs.sort(key=lambda x: -x[0])
    long_files.sort(key=lambda x: -x[0])
    print(f"functions over {a.max_func} lines: {len(long_funcs)}")
    for n, where, name, _ in long_funcs:
        print(f"  {n:5} {where} {name}")
    print(f"files over {a.max_file} lines: {len(long_files)}")
    for n, rel in long_files:
        print(f"  {n:5} {rel}")

    if a.allow is None:
        return 0
    allowed = set()
    with open(a.allow, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                allowed.add(line)
    found = {key for _, _, _, key in long_funcs} | {rel for _, rel in long_files}
    new = sorted(found - allowed)
    stale = sorted(allowed - found)
    for s in stale:
        print(f"stale entry (no longer past its limit; remove it from {a.allow}): {s}")
    for s in new:
        print(f"FAIL: {s} is past its limit: split it (or, with a reason, list it in {a.allow})")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
