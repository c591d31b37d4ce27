#!/usr/bin/env python3
"""The JSON-Schema-Test-Suite through `mcpcheck validate --schema`.

usage: test_cli_suite.py MCPCHECK SUITE_ROOT DRAFT     (DRAFT: draft7 or draft2020-12)

For each group of each required file of tests/DRAFT/ (optional/ is left to
the library test), the group's schema goes to a file and its cases to a JSONL
file, one instance per line; `mcpcheck validate --schema S --dialect D
--remote http://localhost:1234/=SUITE_ROOT/remotes DATA` then judges them,
and each line's verdict (an "error" line for it, or none) must be the
expected one. A schema the command refuses (exit 2) fails all its cases.
Exits 0 when at least 99% of the cases pass; 1 below that, when the suite
folder is missing, or when it yields no case. The last lines print the
figure: "DRAFT via mcpcheck validate: P of N required cases pass (X.XX%)".
"""
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

MIN_SHARE = 0.99


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("draft7", "draft2020-12"):
        print("usage: test_cli_suite.py MCPCHECK SUITE_ROOT draft7|draft2020-12", file=sys.stderr)
        return 2
    mcpcheck, root, draft = sys.argv[1:4]
    folder = os.path.join(root, "tests", draft)
    if not os.path.isdir(folder):
        print(f"FAIL: {folder} not found (the JSON-Schema-Test-Suite is expected at "
              "../shared/json-schema-test-suite)")
        return 1
    dialect = "draft7" if draft == "draft7" else "2020-12"
    remotes = "http://localhost:1234/=" + os.path.join(root, "remotes")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        schema_path = os.path.join(tmp, "schema.json")
        data_path = os.path.join(tmp, "data.jsonl")
        line_re = re.compile(re.escape(data_path) + r":(\d+): error:")
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                groups = json.load(f)
            file_pass = file_fail = 0
            for group in groups:
                tests = group["tests"]
                with open(schema_path, "w", encoding="utf-8") as f:
                    json.dump(group["schema"], f)
                with open(data_path, "w", encoding="utf-8") as f:
                    for t in tests:
                        f.write(json.dumps(t["data"]) + "\n")
                proc = subprocess.run(
                    [mcpcheck, "validate", "--schema", schema_path, "--dialect", dialect,
                     "--remote", remotes, data_path],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=budget(60))
                if proc.returncode not in (0, 1):
                    print(f"  FAIL {draft}/{name}: group \"{group['description']}\": "
                          f"exit {proc.returncode}: {proc.stderr.strip()[:300]}")
                    file_fail += len(tests)
                    continue
                invalid = {int(m.group(1)) for m in line_re.finditer(proc.stdout)}
                for i, t in enumerate(tests, 1):
                    got = i not in invalid
                    if got == t["valid"]:
                        file_pass += 1
                    else:
                        file_fail += 1
                        print(f"  FAIL {draft}/{name}: \"{group['description']}\" / "
                              f"\"{t['description']}\": expected "
                              f"{'valid' if t['valid'] else 'invalid'}, got "
                              f"{'valid' if got else 'invalid'}")
            print(f"{draft}/{name:<40} {file_pass:4d}/{file_pass + file_fail:<4d} passed")
            passed += file_pass
            failed += file_fail
    total = passed + failed
    if total == 0:
        print(f"FAIL: {folder} yielded no test case")
        return 1
    share = passed / total
    print(f"\n{draft} via mcpcheck validate: {passed} of {total} required cases pass "
          f"({share * 100:.2f}%; at least {MIN_SHARE * 100:.2f}% needed)")
    print(f"{passed} passed, {failed} failed")
    return 0 if share >= MIN_SHARE else 1


if __name__ == "__main__":
    sys.exit(main())
