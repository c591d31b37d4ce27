#!/usr/bin/env python3
"""profile_roles_doc.py MCPCHECK SCENARIOS_DIR

The role contracts of scenarios/profiles/README.md and the roles the
scenarios use are held together:
- every fixture role a scenario uses (`mcpcheck list --roles`) has a row in
  the README's "Contracts" table, so a profile author reads what it must do;
- the README's "Shapes" table lists exactly the roles that `list --roles`
  says a listing can fill (the resolver's table, scenario/shapes.c).
Prints each mismatch and ends with "N passed, M failed".
"""
import re
import subprocess
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402


def section(text, title):
    """The lines of the README section whose heading starts with title."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].startswith(title)
            continue
        if inside:
            out.append(line)
    return out


def first_column_roles(lines):
    """Role names in backticks in the first column of a table's rows."""
    roles = set()
    for line in lines:
        if line.startswith("|") and not line.startswith("|---"):
            roles.update(re.findall(r"`([a-z_]+\.[a-z_.]+)`", line.split("|")[1]))
    return roles


def main():
    mcpcheck, scenarios = sys.argv[1:3]
    p = subprocess.run([mcpcheck, "list", "--roles", "--scenarios", scenarios],
                       capture_output=True, text=True, timeout=budget(120))
    used = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) > 2 and not line.startswith(" ") and parts[1] in ("listing", "called", "got", "profile"):
            used[parts[0]] = parts[1]
    text = open(f"{scenarios}/profiles/README.md", encoding="utf-8").read()
    contracts = first_column_roles(section(text, "Contracts"))
    shapes = first_column_roles(section(text, "Shapes"))
    checks = [
        ("list --roles names roles", p.returncode == 0 and len(used) > 10, f"exit {p.returncode}, {len(used)} roles"),
        ("every used role has a contract", not (set(used) - contracts),
         f"no contract row for {sorted(set(used) - contracts)}"),
        ("the Shapes table lists the roles a listing fills",
         shapes == {r for r, k in used.items() if k == "listing"},
         f"README {sorted(shapes)} against list --roles "
         f"{sorted(r for r, k in used.items() if k == 'listing')}"),
    ]
    failed = 0
    for name, ok, detail in checks:
        print(f"profile_roles_doc: {'PASS' if ok else 'FAIL'}: {name}" + ("" if ok else f": {detail}"))
        failed += not ok
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
