#!/usr/bin/env python3
"""requirements_selftest.py MCPCHECK SCENARIOS SPEC_DOCS

The traceability test catches planted defects: each mutation of the data
file below must make requirements.py fail with the message it names, and the
data file as it is must pass.
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def run(args, data):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        p = subprocess.run([sys.executable, os.path.join(HERE, "requirements.py"), *args,
                            f"--data={f.name}"], capture_output=True, text=True, timeout=budget(120))
    finally:
        os.unlink(f.name)
    return p.returncode, p.stdout


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    args = sys.argv[1:]
    with open(os.path.join(args[1], "requirements.json"), encoding="utf-8") as f:
        data = json.load(f)
    entries = data["requirements"]
    # A server requirement no check can judge, held by its reason.
    gap = next(i for i, e in enumerate(entries) if e.get("reason") and e["binds"] == "server"
               and len(e["refs"]) == 1 and "2026-07-28" in e["refs"])
    reason = next(i for i, e in enumerate(entries) if e.get("reason") and len(e["refs"]) == 1)
    # The entry beside the one check of a sentence with two requirements.
    two = next(i for i, e in enumerate(entries)
               if e.get("reason", "").startswith("two requirements, one check"))

    def mutated(fn):
        d = json.loads(json.dumps(data))
        fn(d["requirements"])
        return d

    def set_(i, k, v):
        return lambda es: es[i].__setitem__(k, v)

    def drop(i, k):
        return lambda es: es[i].pop(k)

    cases = [
        ("an entry removed", lambda es: es.pop(gap), "no check quotes it and no entry"),
        ("a quote not on its page", set_(gap, "quote", entries[gap]["quote"] + " planted"),
         "is not on"),
        ("an unknown binds", set_(gap, "binds", "servers"), "\"binds\" must be one of"),
        ("a server requirement without a reason", drop(gap, "reason"), "binds the server at"),
        ("a server requirement marked as a gap",
         lambda es: (es[gap].pop("reason"), es[gap].__setitem__("gap", True)),
         "is marked \"gap\": true"),
        ("the reason of a two-requirement sentence dropped", drop(two, "reason"),
         "2 requirements but only 1 check"),
        ("an entry for a checked sentence",
         lambda es: es.append({"quote": "The receiver MUST respond promptly with an empty "
                                        "response",
                               "refs": {"2025-06-18": "basic/utilities/ping#behavior-requirements"},
                               "binds": "both", "reason": "planted"}),
         "now has a check"),
        ("an anchor that is no heading",
         lambda es: es[reason]["refs"].update({k: v.partition("#")[0] + "#no-such-heading"
                                               for k, v in es[reason]["refs"].items()}),
         "is not a heading"),
    ]
    failures = 0
    code, out = run(args, data)
    if code != 0:
        print(f"FAIL: the data file as it is does not pass:\n{out[-3000:]}")
        failures += 1
    for name, fn, want in cases:
        code, out = run(args, mutated(fn))
        if code == 0 or want not in out:
            print(f"FAIL: {name}: expected a failure saying \"{want}\"; exit {code}:\n"
                  f"{out[-1500:]}")
            failures += 1
        else:
            print(f"ok: {name}")
    print(f"requirements_selftest: {len(cases) + 1 - failures}/{len(cases) + 1} held")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
