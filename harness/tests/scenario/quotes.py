#!/usr/bin/env python3
"""quotes.py MCPCHECK SCENARIOS SPEC_DOCS [--builtin-only | --scenarios-only]

Holds every check to the sentence it quotes. It reads every check of the
scenario library and every built-in check (`mcpcheck list --json`) and, for
each version a check names in its refs, reads the spec page
SPEC_DOCS/<version>/<page>.mdx (or <page>/index.mdx). It fails when

  (a) the quote (or quotes[version]) is not on that page verbatim, after the
      normalisation of scenarios/README.md (emphasis markers, backticks and
      link targets removed, whitespace collapsed; fragments joined with " … "
      must appear in order),
  (b) the anchor is not the slug of a heading of that page,
  (c) the level is not the quote's RFC 2119 keyword (INFO: none),
  (d) one id is declared differently in two places,
  (e) a version a scenario carrying the check runs at (its effective
      versions, 2024-11-05 included) is missing from the check's refs: every
      verdict at a version quotes and links that version's own page. A
      built-in check applies at exactly the versions it names (the harness
      reports it nowhere else); a version it does not name whose same page
      carries the quote verbatim gets a note only,
  (f) a check is still in the legacy {ref, text} form (nothing to verify).

Each problem is printed as FILE:CHECK:VERSION: what ("-" when no version),
notes after them as FILE:CHECK:VERSION: note: what.
A missing SPEC_DOCS is a failure, never a skip.
"""
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

BUILTIN_FILE = "harness/judge/builtin.c"
# The protocol versions the harness runs; each has its pages in SPEC_DOCS, and
# every check that applies at one of them names it in its refs.
RUN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
ELLIPSIS = " \u2026 "

KEYWORDS = {
    "MUST": ("MUST", "REQUIRED", "SHALL"),
    "SHOULD": ("SHOULD", "RECOMMENDED"),
    "MAY": ("MAY", "OPTIONAL"),
}


def normalise(text):
    """The normalisation both sides of a comparison get."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("**", "").replace("__", "").replace("`", "")
    return re.sub(r"\s+", " ", text).strip()


def keywords(quote):
    """The levels whose RFC 2119 keywords appear (upper case, whole words)."""
    found = set()
    for level, words in KEYWORDS.items():
        for w in words:
            if re.search(r"(?<![A-Za-z0-9_-])" + w + r"(?![A-Za-z0-9_-])", quote):
                found.add(level)
    return found


def slug(heading):
    """The anchor of a heading: lowercase, spaces to '-', punctuation dropped."""
    text = normalise(heading).lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"\s", "-", text.strip())


class Pages:
    """Spec pages, read once: normalised text and heading slugs."""

    def __init__(self, root):
        self.root = root
        self.cache = {}

    def get(self, version, page):
        key = (version, page)
        if key not in self.cache:
            self.cache[key] = self._load(version, page)
        return self.cache[key]

    def _load(self, version, page):
        for cand in (f"{page}.mdx", f"{page}/index.mdx"):
            path = os.path.join(self.root, version, cand)
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    raw = f.read()
                return path, normalise(raw), self._slugs(raw)
        return None

    @staticmethod
    def _slugs(raw):
        slugs, fence = set(), False
        for line in raw.splitlines():
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if m:
                slugs.add(slug(m.group(2)))
        return slugs


def find_in_order(page_text, quote):
    """None when every fragment of quote is on the page in order, else the
    first fragment that is not (and the longest start of it that is)."""
    pos = 0
    for frag in quote.split(ELLIPSIS.strip()):
        frag = normalise(frag)
        if not frag:
            continue
        at = page_text.find(frag, pos)
        if at < 0:
            words, best = frag.split(" "), ""
            for n in range(len(words), 0, -1):
                if page_text.find(" ".join(words[:n]), pos) >= 0:
                    best = " ".join(words[:n])
                    break
            return frag, best
        pos = at + len(frag)
    return None


def in_range(version, where):
    """where is a list of versions, or a (lo, hi) pair of bounds (None: open)."""
    if isinstance(where, list):
        return version in where
    lo, hi = where
    return (lo is None or version >= lo) and (hi is None or version <= hi)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    builtin_only = "--builtin-only" in sys.argv
    scenarios_only = "--scenarios-only" in sys.argv  # for the test of this test
    if len(args) != 3:
        print(__doc__)
        return 2
    mcpcheck, scenarios, docs = args
    missing = [v for v in RUN_VERSIONS if not os.path.isdir(os.path.join(docs, v))]
    if not os.path.isdir(docs) or missing:
        print(f"quotes: the spec pages are missing: {docs} has no "
              f"{' or '.join(missing or RUN_VERSIONS)} folder; the quote test cannot pass "
              f"without them")
        return 1
    doc_versions = sorted(v for v in os.listdir(docs) if re.match(r"^\d{4}-\d\d-\d\d$", v)
                          and os.path.isdir(os.path.join(docs, v)))
    repo = os.path.dirname(os.path.abspath(scenarios.rstrip("/")))
    run = subprocess.run([mcpcheck, "list", "--json", "--scenarios", scenarios],
                         capture_output=True, text=True, timeout=budget(300))
    problems, notes = [], []
    if run.returncode != 0:
        for line in run.stderr.splitlines():
            problems.append(f"{line}  (the file does not load)")
    listing = json.loads(run.stdout)

    entries = []  # (file, scenario range, check)
    for d in [] if scenarios_only else listing["builtin"]:
        # A built-in check applies at exactly the versions it names.
        entries.append((BUILTIN_FILE, sorted(d.get("refs", {})), d))
    if not builtin_only:
        for sc in listing["scenarios"]:
            rel = os.path.relpath(sc["file"], repo)
            for d in sc["checks"]:
                if d.get("author"):
                    continue  # an author's rule quotes nothing of the spec
                # The versions it runs at (its versions with the features it needs).
                entries.append((rel, sc.get("versions", (sc.get("min_version"),
                                                         sc.get("max_version"))), d))

    pages = Pages(docs)
    legacy_files = {}
    first_decl = {}
    n_checks = 0
    for rel, where, d in entries:
        cid = d["check"]
        n_checks += 1

        def bad(version, what):
            problems.append(f"{rel}:{cid}:{version}: {what}")

        # (d) one id, one definition.
        shape = (d["level"], d["quote"], json.dumps(d.get("refs", {}), sort_keys=True),
                 json.dumps(d.get("quotes", {}), sort_keys=True),
                 json.dumps(d.get("levels", {}), sort_keys=True))
        if cid in first_decl and first_decl[cid][1] != shape:
            other, oshape = first_decl[cid]
            diff = [name for name, a, b in zip(("level", "quote", "refs", "quotes", "levels"), shape,
                                                        oshape)
                    if a != b]
            bad("-", f"declared differently in {other} ({', '.join(diff)} differ)")
        first_decl.setdefault(cid, (rel, shape))

        if d.get("legacy"):
            legacy_files.setdefault(rel, []).append(cid)
            bad("-", "legacy {ref, text} entry: no verbatim quote and refs per version to verify "
                     "(write quote, refs, interpretation)")
            continue
        refs = d.get("refs", {})
        quotes = d.get("quotes", {})
        for version, ref in sorted(refs.items()):
            page, _, anchor = ref.partition("#")
            quote = quotes.get(version, d["quote"])
            level = d.get("levels", {}).get(version, d["level"])
            # (c) the level (at this version) is the quote's keyword.
            kws = keywords(normalise(quote))
            if level == "INFO" and kws:
                bad(version, f"level INFO, but the quote says {' and '.join(sorted(kws))}")
            elif level != "INFO" and level not in kws:
                bad(version, f"level {level}, but the quote says "
                             f"{' and '.join(sorted(kws)) if kws else 'no RFC 2119 keyword (INFO)'}")
            if version not in doc_versions:
                bad(version, f"no spec pages for this version in {docs} "
                             f"(versions with pages: {', '.join(doc_versions)})")
                continue
            got = pages.get(version, page)
            if got is None:
                bad(version, f"no page {page}.mdx or {page}/index.mdx under {docs}/{version}")
                continue
            path, text, slugs = got
            # (a) verbatim.
            miss = find_in_order(text, quote)
            if miss is not None:
                frag, best = miss
                hint = f"; the page has \"{best}\" but not what follows" if best else ""
                bad(version, f"quote not found verbatim in {os.path.relpath(path, docs)}: "
                             f"\"{frag[:120]}\"{hint}")
            # (b) the anchor is a heading of that page.
            if anchor and anchor not in slugs:
                bad(version, f"#{anchor} is not a heading of {os.path.relpath(path, docs)} "
                             f"(headings: {', '.join(sorted(slugs))[:300]})")
        # (e) every version it applies to.
        for version in doc_versions:
            if version in refs or not in_range(version, where):
                continue
            if version in RUN_VERSIONS:
                bad(version, "missing from refs: a scenario carrying the check runs at this "
                             "version, and its verdict there must quote and link this "
                             "version's page (name the page, give quotes[version] where the "
                             "wording differs, or narrow the scenario's versions where the "
                             "sentence is not there)")
                continue
            # Another version: a hint when the same page carries the sentence (the
            # rule may still differ there, e.g. batches at 2025-03-26).
            for ref in refs.values():
                got = pages.get(version, ref.partition("#")[0])
                if got is not None and find_in_order(got[1], d["quote"]) is None:
                    notes.append(f"{rel}:{cid}:{version}: note: not in refs, though "
                                 f"{ref.partition('#')[0]} has the quote verbatim at this "
                                 f"version (list it if the rule holds there)")
                    break

    for p in problems + notes:
        print(p)
    if legacy_files:
        areas = {}
        for rel in legacy_files:
            parts = rel.split("/")
            area = parts[1] if len(parts) > 2 and parts[0] == "scenarios" else os.path.dirname(rel)
            areas[area] = areas.get(area, 0) + 1
        print(f"quotes: {len(legacy_files)} scenario files still use the legacy {{ref, text}} "
              f"form: " + ", ".join(f"{a} {n}" for a, n in sorted(areas.items())))
    print(f"quotes: {n_checks} checks ({0 if scenarios_only else len(listing['builtin'])} built-in), "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
