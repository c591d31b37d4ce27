#!/usr/bin/env python3
"""call_cycles.py DIR... - no call cycle spans two files of a folder.

For each DIR, every function defined in its .c files is found, and every
call from one file to a function defined in another (by name; calls through
function pointers are callbacks and are not followed). The files are the
nodes of a graph: a cycle between them (a handler calling back into the
file that dispatched it, say) is reported with the calls that make it.
Exit 1 when some folder has one. --selftest seeds a three-file cycle in a
scratch folder and wants it found, and an acyclic folder and wants it clean.
"""
import os
import re
import sys
import tempfile
from collections import defaultdict

KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "defined", "do", "else",
            "_Alignof", "_Static_assert", "_Generic"}


def strip(src):
    """The source without comments, string and character literals or
    preprocessor lines (newlines kept)."""
    src = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src, flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r'"(\\.|[^"\\\n])*"', '""', src)
    src = re.sub(r"'(\\.|[^'\\\n])*'", "''", src)
    lines, cont = [], False
    for line in src.split("\n"):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines.append("")
        else:
            lines.append(line)
    return "\n".join(lines)


def functions(text):
    """{name: body} of the functions defined at file level."""
    s = strip(text)
    out, depth, name, start = {}, 0, None, 0
    for i, c in enumerate(s):
        if c == "{":
            if depth == 0:
                name = None
                j = len(s[:i].rstrip()) - 1
                if j >= 0 and s[j] == ")":
                    d, k = 0, j
                    while k >= 0:
                        d += s[k] == ")"
                        d -= s[k] == "("
                        if d == 0:
                            break
                        k -= 1
                    m = re.search(r"(\w+)\s*$", s[:k])
                    if m and m.group(1) not in KEYWORDS:
                        name = m.group(1)
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and name:
                out[name] = s[start:i]
                name = None
    return out


def file_graph(folder):
    bodies = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".c"):
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                for n, b in functions(fh.read()).items():
                    bodies[(f, n)] = b
    where = defaultdict(set)
    for f, n in bodies:
        where[n].add(f)
    graph = defaultdict(lambda: defaultdict(set))
    for (f, n), b in bodies.items():
        for m in re.finditer(r"\b(\w+)\s*\(", b):
            callee = m.group(1)
            # A name defined in the caller's own file is its own (static).
            if callee in where and f not in where[callee] and len(where[callee]) == 1:
                graph[f][next(iter(where[callee]))].add(n + " -> " + callee)
    return sorted({f for f, _ in bodies}), graph


def cycles(folder):
    files, graph = file_graph(folder)

    def reach(a):
        seen, todo = {a}, [a]
        while todo:
            for y in graph[todo.pop()]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen

    r = {f: reach(f) for f in files}
    found, done = [], set()
    for f in files:
        if f in done:
            continue
        comp = [x for x in files if x in r[f] and f in r[x]]
        done.update(comp)
        if len(comp) > 1:
            calls = ["%s -> %s (%s)" % (a, b, ", ".join(sorted(graph[a][b])[:3]))
                     for a in comp for b in comp if b in graph[a]]
            found.append((comp, calls))
    return found


def report(folder):
    found = cycles(folder)
    for comp, calls in found:
        print("%s: a call cycle spans %d files: %s" % (folder, len(comp), ", ".join(comp)))
        for c in calls:
            print("  " + c)
    return len(found)


def selftest():
    with tempfile.TemporaryDirectory() as d:
        cyc, flat = os.path.join(d, "cyc"), os.path.join(d, "flat")
        os.mkdir(cyc)
        os.mkdir(flat)
        seeds = {"a.c": "static int own(void) { return 1; }\nint a(void) { return b() + own(); }\n",
                 "b.c": "/* c() */\nint b(void)\n{\n    return c();\n}\n",
                 "c.c": "int c(void) { if (x) return a(); return 0; }\n"}
        for name, text in seeds.items():
            with open(os.path.join(cyc, name), "w") as fh:
                fh.write(text)
            with open(os.path.join(flat, name), "w") as fh:
                fh.write(text.replace("return a();", "return 2;"))
        got = cycles(cyc)
        if len(got) != 1 or sorted(got[0][0]) != ["a.c", "b.c", "c.c"]:
            print("call_cycles: FAIL: the seeded cycle a.c -> b.c -> c.c -> a.c was not found")
            return 1
        if cycles(flat):
            print("call_cycles: FAIL: a cycle was reported in an acyclic folder")
            return 1
    print("call_cycles: the seeded cycle is found, the acyclic folder is clean")
    return 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) < 2:
        print(__doc__.strip())
        return 2
    bad = sum(report(d) for d in argv[1:])
    if bad == 0:
        print("call_cycles: no call cycle spans two files of " + ", ".join(argv[1:]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
