#!/usr/bin/env python3
"""scenario_schema.py MCPCHECK SCENARIOS SCHEMA - the scenario file schema
agrees with the loader.

SCHEMA (scenarios/scenario.schema.json) is the JSON Schema editors use for
scenario files. This test holds it to the loader both ways:

1. it is a valid draft-07 schema (with python3-jsonschema, when installed);
2. every library file, its JSONC comments and trailing commas removed,
   validates against it, with the project's own validator
   (`mcpcheck validate --schema`) and with python3-jsonschema when installed;
3. each mutation of a library file that `mcpcheck lint` refuses and that a
   schema can express (an unknown step field, an unknown step kind, a wrong
   type, ...) is refused by the schema too, while the file unmutated passes
   both (so a mutation that lint accepts, or a schema that accepts anything,
   fails the test).

Each problem is printed on its own line; the exit code is 1 when there is
any.
"""
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema  # python3-jsonschema (scripts/setup.sh installs it)
except ImportError:  # the project's own validator still runs
    jsonschema = None


def strip_jsonc(text):
    """The JSON of a JSONC text: comments blanked (lines kept), trailing
    commas dropped; strings are left as written."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
        elif c == '"':
            in_str = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[\]}])", r"\1", "".join(out))


def load_jsonc(path):
    with open(path, encoding="utf-8") as f:
        return json.loads(strip_jsonc(f.read()))


def first_step(doc, pred):
    """The first top-level step for which pred holds (its index), or None."""
    for i, st in enumerate(doc["steps"]):
        if pred(st):
            return i
    return None


def set_in(doc, i, key, value):
    doc["steps"][i][key] = value
    return doc


# (name, mutation): each returns the mutated document, lint refuses it.
def mutations(doc):
    r = first_step(doc, lambda s: "request" in s)
    a = first_step(doc, lambda s: "request" in s and isinstance(s.get("assert"), list))
    r = a if a is not None else r
    out = [
        ("unknown top-level field", lambda d: dict(d, titel="x")),
        ("unknown step field", lambda d: set_in(d, r, "asert", [])),
        ("unknown step kind", lambda d: (d["steps"].__setitem__(r, {"reqest": "ping"}), d)[1]),
        ("wrong type of timeout", lambda d: set_in(d, r, "timeout", "10")),
        ("wrong type of params", lambda d: set_in(d, r, "params", [1])),
        ("bad expect", lambda d: set_in(d, r, "expect", "results")),
        ("two step kinds", lambda d: set_in(d, r, "notify", "notifications/progress")),
        ("sleep out of range", lambda d: (d["steps"].append({"sleep": 20000}), d)[1]),
        ("http method", lambda d: (d["steps"].append({"http": "PATCH"}), d)[1]),
        ("for_each without as", lambda d: (d["steps"].append(
            {"for_each": "${x}", "steps": [{"sleep": 1}]}), d)[1]),
        ("unknown level", lambda d: (d["spec"][0].__setitem__("level", "SHALL"), d)[1]),
        ("unknown requires member", lambda d: dict(d, requires={"capabilites": ["tools"]})),
        ("unknown client member", lambda d: dict(d, client={"capabilitie": {}})),
        ("hold below 2", lambda d: dict(d, client={"answers": {"ping": {"with": {}, "hold": 1}}})),
        ("unknown answer member", lambda d: dict(d, client={"answers": {"ping": {"wiht": {}}}})),
        ("no steps", lambda d: dict(d, steps=[])),
    ]
    if a is not None:
        out += [
            ("unknown matcher", lambda d: (d["steps"][a]["assert"].append(
                {"path": "result", "equal": 1}), d)[1]),
            ("two matchers", lambda d: (d["steps"][a]["assert"].append(
                {"path": "result", "present": True, "absent": False}), d)[1]),
            ("unknown type name", lambda d: (d["steps"][a]["assert"].append(
                {"path": "result", "type": "str"}), d)[1]),
        ]
    return out


def c_list(text, name):
    """The strings of the C array `name[] = {...}` in text, or None."""
    m = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\};" % re.escape(name), text, re.S)
    return None if m is None else re.findall(r'"([^"]*)"', m.group(1))


def source_lists(src):
    """(what, expected keys, schema path) for every list of the loader that
    the schema mirrors: the step kinds (MC_STEP_KINDS), each kind's fields,
    the assertion members, the top-level, requires, client and spec fields."""
    def read(rel):
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            return f.read()
    step_h, steps_c = read("step.h"), read("lint_steps.c")
    lint_c, scen_c, req_c = read("lint.c"), read("scenario.c"), read("requirement.c")
    kinds = re.findall(r'^\s*X\((\w+), "(\w+)", "[^"]*"\)', step_h, re.M)
    out = [("step kinds (MC_STEP_KINDS)", {n for _, n in kinds}, ("kinds",))]
    for ident, _ in kinds:
        out.append(("fields of %s (k_%s in lint_steps.c)" % (ident, ident),
                    set(c_list(steps_c, "k_" + ident) or []), ("step_" + ident,)))
    out.append(("assertion members (lint.c)", set(c_list(lint_c, "keys") or []),
                ("assertion",)))
    out.append(("top-level fields (scenario.c)", set(c_list(scen_c, "top_keys") or []), ()))
    out.append(("requires (scenario.c)", set(c_list(scen_c, "requires_keys") or []),
                ("requires",)))
    out.append(("client (scenario.c)", set(c_list(scen_c, "client_keys") or []), ("client",)))
    out.append(("client answers (scenario.c)", set(c_list(scen_c, "answer_keys") or []),
                ("answer",)))
    out.append(("spec entries (requirement.c)", set(c_list(req_c, "keys") or []),
                ("specEntry",)))
    return out


def schema_keys(schema, where):
    if where == ():
        return set(schema["properties"])
    if where == ("kinds",):
        kinds = set()
        for alt in schema["definitions"]["step"]["oneOf"]:
            d = schema["definitions"][alt["$ref"].rsplit("/", 1)[1]]
            kinds.update(k for k in d["required"][:1])
        return kinds
    return set(schema["definitions"][where[0]]["properties"])


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    mcpcheck, scenarios, schema_path = sys.argv[1:]
    problems = []
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator = None
    if jsonschema is not None:
        jsonschema.Draft7Validator.check_schema(schema)
        validator = jsonschema.Draft7Validator(schema)
    else:
        print("note: python3-jsonschema is not installed; only mcpcheck validate runs")

    # 1b. The schema lists what the loader's lists hold, no more, no less.
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenario")
    for what, want, where in source_lists(src):
        if not want:
            problems.append("%s: the list was not found in the sources" % what)
            continue
        try:
            have = schema_keys(schema, where)
        except KeyError as e:
            problems.append("%s: the schema has no %s" % (what, e))
            continue
        if what.startswith("top-level"):
            have.discard("$schema")
            want.discard("$schema")
        if have != want:
            problems.append("%s: the schema lacks %s, has extra %s" %
                            (what, sorted(want - have), sorted(have - want)))

    files = sorted(glob.glob(os.path.join(scenarios, "**", "*.jsonc"), recursive=True))
    files = [f for f in files if os.sep + "profiles" + os.sep not in f]
    if len(files) < 10:
        problems.append("%s: only %d scenario files found" % (scenarios, len(files)))
    with tempfile.TemporaryDirectory(prefix="mc-scenario-schema-") as tmp:
        # 2. The library validates.
        plain = []
        for k, f in enumerate(files):
            doc = load_jsonc(f)
            p = os.path.join(tmp, "%04d.json" % k)
            with open(p, "w", encoding="utf-8") as out:
                json.dump(doc, out)
            plain.append(p)
            if validator is not None:
                for e in validator.iter_errors(doc):
                    problems.append("%s: /%s: %s (python3-jsonschema)" % (
                        f, "/".join(str(x) for x in e.absolute_path), e.message[:200]))
        code, text = run([mcpcheck, "validate", "--schema", schema_path] + plain)
        if code != 0:
            for line in text.splitlines():
                m = re.match(r"(.*?/(\d{4})\.json)(:.*)", line)
                if m:
                    problems.append("%s%s (mcpcheck validate)" % (files[int(m.group(2))],
                                                                  m.group(3)))
            problems.append("mcpcheck validate --schema exited %d on the library" % code)

        # 3. Mutations lint refuses are refused by the schema too.
        # The base: the first library file with a request step that asserts.
        base = None
        for f in files:
            doc = load_jsonc(f)
            if first_step(doc, lambda s: "request" in s and
                          isinstance(s.get("assert"), list)) is not None:
                base = doc
                print("mutating %s" % f)
                break
        if base is None:
            problems.append("no library file has a request step with assertions")
            base = {"title": "t", "spec": [], "steps": []}
        # A check the library names by id is defined in its catalogue: the
        # mutations need a definition in place, under an id of the case's own
        # (restating a catalogue check is itself refused).
        catalogue = os.path.join(scenarios, "checks.json")
        if base["spec"] and isinstance(base["spec"][0], str) and os.path.exists(catalogue):
            defs = {c["check"]: c for c in json.load(open(catalogue))["checks"]}
            old_id = base["spec"][0]

            def rename(v):
                if isinstance(v, dict):
                    return {k: ("case/" + old_id if k == "check" and x == old_id else rename(x))
                            for k, x in v.items()}
                return [rename(x) for x in v] if isinstance(v, list) else v
            base["steps"] = rename(base["steps"])
            base["spec"][0] = dict(defs[old_id], check="case/" + old_id)
        area = os.path.join(tmp, "lib", "area")
        os.makedirs(area)
        def author(d, **extra):
            d["spec"][0] = dict({"check": d["spec"][0]["check"], "author": True,
                                 "level": "MUST", "text": "a rule of the author's own product"},
                                **extra)
            return d
        # The forms that load: as written, and an author's check.
        good = {"unmutated", "author's check"}
        cases = [("unmutated", lambda d: d), ("author's check", author),
                 ("author's check with a quote",
                  lambda d: author(d, quote="Something MUST hold."))] + mutations(base)
        for name, mutate in cases:
            doc = mutate(copy.deepcopy(base))
            path = os.path.join(area, "case.jsonc")
            with open(path, "w", encoding="utf-8") as out:
                json.dump(doc, out, indent=1)
            want_ok = name in good
            lint_code, lint_text = run([mcpcheck, "lint", path])
            val_code, val_text = run([mcpcheck, "validate", "--schema", schema_path, path])
            py_ok = validator.is_valid(doc) if validator is not None else want_ok
            if (lint_code == 0) != want_ok:
                problems.append("%s: mcpcheck lint exited %d:\n%s" % (name, lint_code, lint_text))
            if (val_code == 0) != want_ok:
                problems.append("%s: mcpcheck validate --schema exited %d:\n%s" %
                                (name, val_code, val_text))
            if py_ok != want_ok:
                problems.append("%s: python3-jsonschema says %s" %
                                (name, "valid" if py_ok else "invalid"))
    for p in problems:
        print(p)
    print("%d library files, %d mutations: %d problems" %
          (len(files), len(cases) - len(good), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
