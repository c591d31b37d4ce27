#!/usr/bin/env python3
"""catalogue.py MCPCHECK SCENARIOS

Holds the scenario library to its check catalogue (SCENARIOS/checks.json,
scenarios/README.md "The check catalogue"): every check of the library is
defined there once, so
  1. every "spec" entry of a library scenario is a check id, not a
     definition in place;
  2. every check of the catalogue is named by at least one scenario (a check
     nothing judges is a claim of coverage that does not hold);
  3. the checks `mcpcheck list --json` shows for each scenario are exactly
     the ids its file names, with the catalogue's definition.
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scenario_schema import load_jsonc  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402


def main():
    mcpcheck, scenarios = sys.argv[1:3]
    problems = []
    path = os.path.join(scenarios, "checks.json")
    try:
        defs = {d["check"]: d for d in json.load(open(path, encoding="utf-8"))["checks"]}
    except (OSError, ValueError, KeyError) as e:
        print(f"catalogue: FAIL {path}: {e}")
        return 1
    named = {}
    for f in sorted(glob.glob(os.path.join(scenarios, "**", "*.jsonc"), recursive=True)):
        if os.sep + "profiles" + os.sep in f:
            continue
        rel = os.path.relpath(f, scenarios)
        for i, e in enumerate(load_jsonc(f).get("spec", [])):
            if isinstance(e, str):
                named.setdefault(rel[: -len(".jsonc")], []).append(e)
                if e not in defs:
                    problems.append(f"{rel}: spec/{i}: {e} is not in the catalogue")
            else:
                problems.append(f"{rel}: spec/{i}: check {e.get('check')} is defined in place: "
                                f"move its definition to checks.json and name it by id")
    used = {c for ids in named.values() for c in ids}
    for c in sorted(set(defs) - used):
        problems.append(f"checks.json: {c} is named by no scenario")
    listing = subprocess.run([mcpcheck, "list", "--json", "--scenarios", scenarios],
                             capture_output=True, text=True, timeout=budget(120))
    if listing.returncode != 0:
        problems.append(f"mcpcheck list --json failed: {listing.stderr[-500:]}")
    else:
        for sc in json.loads(listing.stdout)["scenarios"]:
            shown = [c["check"] for c in sc["checks"]]
            if shown != named.get(sc["id"], []):
                problems.append(f"{sc['id']}: list shows {shown}, the file names "
                                f"{named.get(sc['id'], [])}")
            for c in sc["checks"]:
                d = defs.get(c["check"], {})
                for key in ("level", "quote", "refs", "interpretation"):
                    if d.get(key) != c.get(key):
                        problems.append(f"{sc['id']}: {c['check']}: {key} differs from the "
                                        f"catalogue's")
    for p in problems[:50]:
        print(f"catalogue: FAIL {p}")
    print(f"catalogue: {len(defs)} checks, named by {len(named)} scenarios; "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
