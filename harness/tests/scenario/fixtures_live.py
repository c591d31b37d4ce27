#!/usr/bin/env python3
"""fixtures_live.py MCPCHECK REFSERVER SCENARIOS_DIR

Roles are looked up in what the live server lists, never taken from the
profile alone:
- a profile naming a tool the server does not list makes every scenario
  that needs it NOT-VERIFIED, with the fixture and the role in the reason,
  and the run still exits 0;
- a resources list that fits on one page makes the scenarios that need a
  real cursor NOT-VERIFIED (not FAIL);
- the same scenarios PASS when the fixtures are there;
- with no profile, a role is filled by a listed item of its shape, and the
  report names the item (a server with names of its own);
- a name the user's profile maps is never replaced by a shape;
- a fixture that refuses the harness's own arguments leaves the scenario
  NOT-VERIFIED with the tool's words; the profile's "args" make the call
  judged, and a broken rule then fails;
- `mcpcheck profile --init` writes a profile with the roles the listings fill;
- a scenario needing a capability an earlier run saw the server not declare
  is SKIP without a server started for it;
- a role whose shape is behaviour is filled by a listed tool the behaviour
  probe saw behave so (--call-tools), and the scenario judges it (a planted
  bug fails); without --call-tools it stays NOT-VERIFIED and says how to
  let the tool be seen; a behaviour no listed tool shows, every tool
  having been called, makes its scenarios SKIP, not applicable.
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402


def run(mcpcheck, args, tmp, name):
    out = os.path.join(tmp, name)
    p = subprocess.run([mcpcheck, "run", "--jobs", "2", "--report-dir", out] + args,
                       capture_output=True, text=True, timeout=budget(600))
    return p.returncode, json.load(open(os.path.join(out, "report.json"))), p.stdout


def shapes(mcpcheck, scenarios, tmp):
    """Roles filled by a listed item of their shape, and fixtures that refuse
    the harness's arguments, against small servers with names of their own."""
    here = os.path.dirname(os.path.abspath(__file__))
    catalog = [sys.executable, os.path.join(here, "catalog_server.py")]
    conformant = [sys.executable, os.path.join(here, "..", "targets", "conformant_server.py")]
    failures = []

    def verdicts(rep):
        return {(s["id"], s["version"]): s for s in rep["scenarios"]}

    # 4. No profile: the prompt with a required argument and the text and
    #    binary resources are picked from the listings, and the report says so.
    rc, rep, out = run(mcpcheck, ["--filter", "prompts/get-missing-argument", "--filter",
                                  "resources/read-text", "--filter", "resources/read-blob",
                                  "--scenarios", scenarios, "--"] + conformant, tmp, "shapes")
    want = {"prompts/get-missing-argument": "role prompt.with_arguments: `retell`",
            "resources/read-text": "role resource.static_text: `note://",
            "resources/read-blob": "role resource.static_binary: `picture://pixel`"}
    seen = set()
    for s in rep["scenarios"]:
        seen.add(s["id"])
        if s["verdict"] != "PASS" or want.get(s["id"], "?") not in (s.get("fixtures") or ""):
            failures.append(f"shapes: {s['id']} [{s['version']}] {s['verdict']} "
                            f"fixtures {s.get('fixtures')!r} reason {s.get('reason')!r}")
    if seen != set(want) or rc != 0:
        failures.append(f"shapes: exit {rc}, ran {sorted(seen)}")

    # 5. A name the user's own profile maps is never replaced by a shape.
    ppath = os.path.join(tmp, "own.json")
    json.dump({"name": "own", "roles": {"prompt.with_arguments": "no_such_prompt"}}, open(ppath, "w"))
    rc, rep, out = run(mcpcheck, ["--profile", ppath, "--filter", "prompts/get-missing-argument",
                                  "--scenarios", scenarios, "--"] + conformant, tmp, "own")
    for s in rep["scenarios"]:
        if s["verdict"] != "NOT-VERIFIED" or "no_such_prompt" not in (s.get("reason") or ""):
            failures.append(f"own profile: {s['id']} {s['verdict']} {s.get('reason')!r}")

    # 6. Arguments made from the inputSchema (a pattern is not solved) are refused:
    #    NOT-VERIFIED with the tool's words, never the MUST of structured content.
    sc = ["--filter", "tools/call-structured-content", "--scenarios", scenarios, "--call-tools"]
    rc, rep, out = run(mcpcheck, sc + ["--"] + catalog, tmp, "refused")
    for s in rep["scenarios"]:
        if s["verdict"] != "NOT-VERIFIED" or "isbn must be 13 digits" not in (s.get("reason") or ""):
            failures.append(f"refused: {s['id']} [{s['version']}] {s['verdict']} {s.get('reason')!r}")
    if rc != 0 or not rep["scenarios"]:
        failures.append(f"refused: exit {rc}, {len(rep['scenarios'])} runs")

    # 7. The profile's arguments for the tool, by name: the call is judged,
    #    and it passes; without structuredContent it fails the MUST.
    ppath = os.path.join(tmp, "args.json")
    json.dump({"name": "catalog", "roles": {}, "args": {"lookup": {"isbn": "9780000000002"}}},
              open(ppath, "w"))
    rc, rep, out = run(mcpcheck, sc + ["--profile", ppath, "--"] + catalog, tmp, "args")
    if rc != 0 or not rep["scenarios"] or any(s["verdict"] != "PASS" for s in rep["scenarios"]):
        failures.append(f"args: exit {rc}, verdicts {[s['verdict'] for s in rep['scenarios']]}")
    rc, rep, out = run(mcpcheck, sc + ["--profile", ppath, "--"] + catalog + ["--no-structured"],
                       tmp, "args-bug")
    failed = [c["id"] for s in rep["scenarios"] for c in s["checks"] if c["verdict"] == "FAIL"]
    if rc != 1 or "tools/call/structured-content" not in failed:
        failures.append(f"args, no structuredContent: exit {rc}, failed {failed}")

    # 8. `mcpcheck profile --init` writes the roles the listings fill, and the
    #    profile it writes maps them for a run.
    ppath = os.path.join(tmp, "init.jsonc")
    p = subprocess.run([mcpcheck, "profile", "--init", "--out", ppath, "--"] + conformant,
                       capture_output=True, text=True, timeout=budget(120))
    text = open(ppath).read() if p.returncode == 0 else ""
    for want in ('"prompt.with_arguments": "retell"', '"resource.static_binary": "picture://pixel"',
                 '// "tool.elicitation": "...",  needs a tool that sends'):
        if want not in text:
            failures.append(f"profile --init: exit {p.returncode}, {want!r} missing: {p.stderr[-300:]}")
    rc, rep, out = run(mcpcheck, ["--profile", ppath, "--filter", "prompts/get-missing-argument",
                                  "--scenarios", scenarios, "--"] + conformant, tmp, "init-run")
    if rc != 0 or not rep["scenarios"] or any(s["verdict"] != "PASS" for s in rep["scenarios"]):
        failures.append(f"profile --init then run: exit {rc}, "
                        f"{[(s['verdict'], s.get('reason')) for s in rep['scenarios']]}")

    # 9. A capability an earlier run saw the server not declare: later runs
    #    at that version are SKIP without a server started for them.
    rc, rep, out = run(mcpcheck, ["--jobs", "1", "--spec-version", "2025-11-25", "--filter",
                                  "discovery/tools-input-schema", "--filter", "logging/*",
                                  "--scenarios", scenarios, "--"] + conformant, tmp, "caps")
    logging = [s for s in rep["scenarios"] if s["id"].startswith("logging/")]
    early = [s for s in logging if "no server was started" in (s.get("reason") or "")]
    if rc != 0 or not logging or any(s["verdict"] != "SKIP" for s in logging) or not early:
        failures.append(f"capabilities seen: exit {rc}, "
                        f"{[(s['id'], s['verdict'], s.get('reason')) for s in logging][:3]}")
    failures += behaviours(mcpcheck, scenarios, tmp, catalog)
    return failures


def behaviours(mcpcheck, scenarios, tmp, catalog):
    """10. Roles seen by calling the server's own tools."""
    failures = []
    sc = ["--spec-version", "2025-11-25", "--filter", "progress/increasing", "--filter",
          "tools/call-text", "--filter", "elicitation/form-accept", "--scenarios", scenarios]
    rc, rep, out = run(mcpcheck, sc + ["--call-tools", "--"] + catalog + ["--reindex"], tmp,
                       "seen")
    got = {s["id"]: s for s in rep["scenarios"]}
    for sid, role in (("progress/increasing", "role tool.with_progress: `reindex`"),
                      ("tools/call-text", "role tool.simple_text: `reindex`")):
        s = got.get(sid, {})
        if s.get("verdict") != "PASS" or role not in (s.get("fixtures") or "") \
                or "seen so when used" not in (s.get("fixtures") or ""):
            failures.append(f"seen: {sid} {s.get('verdict')} fixtures {s.get('fixtures')!r} "
                            f"reason {s.get('reason')!r}")
    s = got.get("elicitation/form-accept", {})
    if s.get("verdict") != "SKIP" or "not applicable" not in (s.get("reason") or "") \
            or "tool.elicitation" not in (s.get("reason") or ""):
        failures.append(f"seen: elicitation/form-accept {s.get('verdict')} {s.get('reason')!r}")
    if rc != 0 or "behaviour probe at 2025-11-25: 2 of 2 tools called" not in out:
        failures.append(f"seen: exit {rc}; console: {out[:300]!r}")

    # The same tool reporting its progress backwards: the check fails.
    rc, rep, out = run(mcpcheck, sc + ["--call-tools", "--"] + catalog + ["--reindex-backwards"],
                       tmp, "seen-bug")
    failed = [c["id"] for s in rep["scenarios"] for c in s["checks"] if c["verdict"] == "FAIL"]
    if rc != 1 or not any(f.startswith("progress/") for f in failed):
        failures.append(f"seen, progress backwards: exit {rc}, failed {failed}")

    # Without --call-tools no tool is called: NOT-VERIFIED, saying how.
    rc, rep, out = run(mcpcheck, sc + ["--"] + catalog + ["--reindex"], tmp, "unseen")
    for s in rep["scenarios"]:
        if s["verdict"] != "NOT-VERIFIED" or "--call-tools" not in (s.get("reason") or ""):
            failures.append(f"unseen: {s['id']} {s['verdict']} {s.get('reason')!r}")
    if rc != 0 or len(rep["scenarios"]) != 3:
        failures.append(f"unseen: exit {rc}, {len(rep['scenarios'])} runs")
    return failures


def main():
    mcpcheck, refserver, scenarios = sys.argv[1:4]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # 1. A tool the server does not offer.
        prof = json.loads("".join(l for l in open(os.path.join(scenarios, "profiles", "default.json"))
                                  if not l.strip().startswith("//")))
        prof["roles"]["tool.with_progress"] = "no_such_tool"
        ppath = os.path.join(tmp, "profile.json")
        json.dump(prof, open(ppath, "w"))
        rc, rep, out = run(mcpcheck, ["--profile", ppath, "--filter", "progress/*", "--scenarios",
                                      scenarios, "--", refserver], tmp, "missing-tool")
        needing = [s for s in rep["scenarios"]]
        if rc != 0:
            failures.append(f"missing tool: exit {rc}, expected 0")
        nv = [s for s in needing if s["verdict"] == "NOT-VERIFIED"]
        if len(nv) < 4:
            failures.append(f"missing tool: {len(nv)} NOT-VERIFIED, expected at least 4")
        for s in nv:
            want = "fixture `no_such_tool` (role tool.with_progress) is not offered by the server"
            if want not in s.get("reason", ""):
                failures.append(f"missing tool: {s['id']} reason {s.get('reason')!r}")
        if any(s["verdict"] in ("FAIL", "ERROR") for s in needing):
            failures.append("missing tool: a FAIL or ERROR where the fixture is missing")

        # 2. One page of resources: no real cursor to take.
        rc, rep, out = run(mcpcheck, ["--filter", "pagination/cursor-*", "--scenarios", scenarios,
                                      "--", refserver, "--page-size", "1000"], tmp, "one-page")
        nv = [s for s in rep["scenarios"] if s["verdict"] == "NOT-VERIFIED"]
        if rc != 0 or not nv:
            failures.append(f"one page: exit {rc}, {len(nv)} NOT-VERIFIED; expected 0 and some")
        for s in nv:
            if "fits on one page" not in s.get("reason", ""):
                failures.append(f"one page: {s['id']} reason {s.get('reason')!r}")
        if any(s["verdict"] in ("FAIL", "WARN", "ERROR") for s in rep["scenarios"]):
            failures.append("one page: a FAIL, WARN or ERROR")

        # 3. With the fixtures there (the default page size spreads them
        #    over several pages), the same scenarios pass.
        rc, rep, out = run(mcpcheck, ["--filter", "pagination/cursor-*", "--scenarios", scenarios,
                                      "--", refserver], tmp, "paged")
        if rc != 0 or any(s["verdict"] != "PASS" for s in rep["scenarios"]):
            failures.append(f"paged: exit {rc}; verdicts "
                            f"{sorted(set(s['verdict'] for s in rep['scenarios']))}")
        failures += shapes(mcpcheck, scenarios, tmp)
    for f in failures:
        print("fixtures_live:", f)
    print("fixtures_live:", "ok" if not failures else f"{len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
