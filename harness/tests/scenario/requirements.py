#!/usr/bin/env python3
"""requirements.py MCPCHECK SCENARIOS SPEC_DOCS [--draft] [--verbose] [--data=FILE]

The traceability test. It extracts every sentence holding an upper-case
RFC 2119 keyword (MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT, SHOULD,
SHOULD NOT, RECOMMENDED, MAY, OPTIONAL) from the spec pages in scope at
every version with pages in SPEC_DOCS:

  basic/ (every page but authorization), server/ (every page), and
  client/elicitation

and maps each one to the checks that quote it at that version (the built-in
checks and the scenario library's, from `mcpcheck list --json`), or to its
entry in SCENARIOS/requirements.json. It fails when

  (a) a keyword sentence has neither a check quoting it at that version nor
      an entry,
  (b) an entry's quote (or quotes[version]) is not on the page it names at a
      version it claims, or covers no keyword sentence there, or its anchor is
      not a heading of that page,
  (c) an entry is malformed: no binds among client/server/both/neither, or a
      server-binding (server or both) MUST/SHOULD sentence with no check and
      no reason; an entry marked "gap": true (testable, no check yet) is
      reported too: every such sentence has a check or a reason,
  (d) a server-binding MUST/SHOULD sentence holding more requirements (MUST
      or SHOULD keywords) than checks quote it, with no entry saying why
      (a reason) or marking the rest as a gap,
  (e) an entry stands for a sentence that checks now cover fully: it is
      reported as "now has a check (IDS): remove the entry".

A check covers a sentence when a fragment of its quote overlaps the sentence
on the page (both sides normalised as quotes.py does). Per version it prints
the sentences, how many have a check, a reason, a gap, or bind only the
client (or no one); with --verbose every uncovered requirement too.

--draft prints, instead, a JSON array of draft entries for the sentences
that have neither a check nor an entry (binds guessed from the sentence's
subject, server MUST/SHOULD as gaps): a start for a person to review, never
to be committed unread.

--data=FILE reads the entries from FILE instead of SCENARIOS/requirements.json
(requirements_selftest.py plants defects that way).

A missing SPEC_DOCS is a failure, never a skip.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quotes import ELLIPSIS, Pages, normalise, slug  # noqa: E402  (one normalisation)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

DATA_FILE = "requirements.json"
BINDS = ("client", "server", "both", "neither")
# Keyword occurrences, longest first so that "MUST NOT" is one occurrence.
KW_RE = re.compile(r"(?<![A-Za-z0-9_-])(MUST NOT|MUST|REQUIRED|SHALL NOT|SHALL|SHOULD NOT|"
                   r"SHOULD|NOT RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)(?![A-Za-z0-9_-])")
LEVEL_OF = {"MUST NOT": "MUST", "MUST": "MUST", "REQUIRED": "MUST", "SHALL": "MUST",
            "SHALL NOT": "MUST", "SHOULD NOT": "SHOULD", "SHOULD": "SHOULD",
            "NOT RECOMMENDED": "SHOULD", "RECOMMENDED": "SHOULD", "MAY": "MAY",
            "OPTIONAL": "MAY"}
RANK = {"MUST": 0, "SHOULD": 1, "MAY": 2}


def in_scope(rel):
    """The pages in scope, by path below the version folder."""
    if rel.startswith("basic/"):
        return not rel.startswith("basic/authorization")
    return rel.startswith("server/") or rel in ("client/elicitation.mdx",
                                                "client/elicitation/index.mdx")


def page_name(rel):
    """A page as refs name it: the path without .mdx or /index.mdx."""
    rel = rel[:-4] if rel.endswith(".mdx") else rel
    return rel[:-6] if rel.endswith("/index") else rel


LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
# A sentence ends at ., ! or ? followed by space and what starts a sentence.
SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[\"'`*_<])")


def units(raw):
    """The text units of a page, each (heading slug, text): paragraphs, list
    items and table rows, outside code fences and front matter."""
    out, block, anchor, fence = [], [], "", False
    lines = raw.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1:]

    def flush():
        if block:
            out.append((anchor, " ".join(block)))
            block.clear()

    for line in lines:
        s = line.strip()
        if s.startswith("```"):
            flush()
            fence = not fence
            continue
        if fence:
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", s)
        if m:
            flush()
            anchor = slug(m.group(2))
            continue
        if not s or re.match(r"^</?[A-Za-z][^>]*>$", s) or s.startswith("|"):
            flush()
            if s.startswith("|") and not re.match(r"^\|[\s:|-]*$", s):
                out.append((anchor, s.strip("|")))
            continue
        if LIST_ITEM.match(line):
            flush()
            line = LIST_ITEM.sub("", line)
        block.append(line.strip())
    flush()
    return out


class Sentence:
    def __init__(self, version, page, anchor, text, start):
        self.version, self.page, self.anchor, self.text = version, page, anchor, text
        self.start, self.end = start, start + len(text)
        self.kws = [(self.start + m.start(), m.group(1)) for m in KW_RE.finditer(text)]
        self.level = min((LEVEL_OF[k] for _, k in self.kws), key=RANK.get)
        self.requirements = sum(1 for _, k in self.kws if LEVEL_OF[k] != "MAY")
        self.checks = set()
        self.entries = []


def extract(docs, version):
    """Every keyword sentence of the pages in scope at version, and the pages
    (name -> normalised text) they were read from."""
    sentences, texts = [], {}
    base = os.path.join(docs, version)
    for dirpath, _, files in sorted(os.walk(base)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, f), base)
            if not f.endswith(".mdx") or not in_scope(rel):
                continue
            with open(os.path.join(base, rel), encoding="utf-8") as fh:
                raw = fh.read()
            page = page_name(rel)
            text = normalise(raw)
            texts[page] = text
            cursor = 0
            for anchor, unit in units(raw):
                for s in SPLIT.split(normalise(unit)):
                    s = s.strip()
                    if not s:
                        continue
                    at = text.find(s, cursor)
                    if at < 0:
                        at = text.find(s)
                    if at >= 0:
                        cursor = at + len(s)
                    if KW_RE.search(s):
                        sentences.append(Sentence(version, page, anchor, s, max(at, 0)))
    return sentences, texts


def spans(page_text, quote):
    """The page spans of the fragments of quote, in order, or None when one
    fragment is not on the page. A sentence a page says twice is covered
    where it stands each time: every place the quote starts counts."""
    frags = [f for f in (normalise(f) for f in quote.split(ELLIPSIS.strip())) if f]
    if not frags:
        return None
    found, start = [], page_text.find(frags[0])
    while start >= 0:
        out, pos = [], start
        for frag in frags:
            at = page_text.find(frag, pos)
            if at < 0:
                break
            out.append((at, at + len(frag)))
            pos = at + len(frag)
        if len(out) < len(frags):
            break
        found += out
        start = page_text.find(frags[0], start + 1)
    return found or None


def overlapping(sentences, sp, keyword=False):
    """The sentences a span list overlaps (with keyword: only where a span
    holds one of the sentence's keywords, as a check must to judge it)."""
    return [s for s in sentences for a, b in sp if a < s.end and s.start < b and
            (not keyword or any(a <= k < b for k, _ in s.kws))]


def guess_binds(text):
    """The party a sentence binds, guessed from the words before its first
    keyword (for --draft only)."""
    m = KW_RE.search(text)
    head = text[:m.start()].lower() if m else text.lower()
    head = head.rsplit(";", 1)[-1]
    cl = re.search(r"\bclients?\b|\bhosts?\b|\bapplications?\b|\buser\b", head)
    sv = re.search(r"\bservers?\b|\btools?\b|\bresources?\b|\bprompts?\b", head)
    if re.search(r"\b(implementations|both|parties|either|receivers?|senders?|recipient)\b",
                 head):
        return "both"
    if cl and not sv:
        return "client"
    if sv and not cl:
        return "server"
    return "both"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    draft, verbose = "--draft" in sys.argv, "--verbose" in sys.argv
    if len(args) != 3:
        print(__doc__)
        return 2
    mcpcheck, scenarios, docs = args
    versions = sorted(v for v in os.listdir(docs) if re.match(r"^\d{4}-\d\d-\d\d$", v)
                      and os.path.isdir(os.path.join(docs, v))) if os.path.isdir(docs) else []
    if not versions:
        print(f"requirements: the spec pages are missing: {docs} has no version folder; "
              f"the traceability test cannot pass without them")
        return 1
    run = subprocess.run([mcpcheck, "list", "--json", "--scenarios", scenarios],
                         capture_output=True, text=True, timeout=budget(300))
    if run.returncode != 0:
        print(f"requirements: mcpcheck list --json failed: {run.stderr.strip()[:2000]}")
        return 1
    listing = json.loads(run.stdout)
    checks = list(listing["builtin"])
    for sc in listing["scenarios"]:
        checks += [d for d in sc["checks"] if not d.get("author") and not d.get("legacy")]
    data_path = next((a.partition("=")[2] for a in sys.argv if a.startswith("--data=")),
                     os.path.join(scenarios, DATA_FILE))
    try:
        with open(data_path, encoding="utf-8") as f:
            entries = json.load(f)["requirements"]
    except (OSError, ValueError, KeyError) as e:
        print(f"requirements: {data_path}: cannot read: {e}")
        return 1

    problems = []
    by_version, texts = {}, {}
    for v in versions:
        by_version[v], texts[v] = extract(docs, v)
    pages = Pages(docs)

    def on_page(v, page):
        return [s for s in by_version.get(v, []) if s.page == page]

    # Checks: every version of their refs.
    seen = set()
    for d in checks:
        for v, ref in d.get("refs", {}).items():
            page = ref.partition("#")[0]
            if v not in texts or page not in texts[v] or (d["check"], v) in seen:
                continue
            seen.add((d["check"], v))
            sp = spans(texts[v][page], d.get("quotes", {}).get(v, d["quote"]))
            for s in overlapping(on_page(v, page), sp or [], keyword=True):
                s.checks.add(d["check"])

    # Entries: well formed, on their pages, over keyword sentences.
    for i, e in enumerate(entries):
        where = f"{DATA_FILE}[{i}]"

        def bad(v, what):
            problems.append(f"{where}:{v}: {what}  (\"{e.get('quote', '')[:80]}\")")

        if not isinstance(e.get("quote"), str) or not isinstance(e.get("refs"), dict) \
                or not e["refs"]:
            bad("-", "an entry needs \"quote\" and \"refs\" {version: page#anchor}")
            continue
        if e.get("binds") not in BINDS:
            bad("-", f"\"binds\" must be one of {', '.join(BINDS)}")
            continue
        for v, ref in sorted(e["refs"].items()):
            page, _, anchor = ref.partition("#")
            if v not in texts:
                bad(v, f"no spec pages for this version in {docs}")
                continue
            if page not in texts[v]:
                bad(v, f"page {page} is not a page in scope at this version")
                continue
            quote = e.get("quotes", {}).get(v, e["quote"])
            sp = spans(texts[v][page], quote)
            if sp is None:
                bad(v, f"the quote is not on {v}/{page} verbatim")
                continue
            if anchor and anchor not in pages.get(v, page)[2]:
                bad(v, f"#{anchor} is not a heading of {v}/{page}")
            hit = overlapping(on_page(v, page), sp)
            if not hit:
                bad(v, f"the quote covers no keyword sentence of {v}/{page}")
            for s in hit:
                s.entries.append((i, e))

    # Every sentence: a check, an entry; enough checks for its requirements.
    stale = {}
    totals = {}
    gaps_listed = []
    for v in versions:
        t = dict(sentences=0, checked=0, reason=0, gap=0, client=0, neither=0, may=0)
        for s in by_version[v]:
            t["sentences"] += 1
            ents = [e for _, e in s.entries]
            binds = ents[0]["binds"] if ents else ("server" if s.checks else None)
            label = f"{v}/{s.page}#{s.anchor}: {s.level}: \"{s.text[:160]}\""
            if not s.checks and not ents:
                problems.append(f"{label}: no check quotes it and no entry in {DATA_FILE} "
                                f"gives its disposition")
                continue
            server_req = binds in ("server", "both") and s.level != "MAY"
            short = server_req and s.checks and len(s.checks) < s.requirements
            if s.checks and ents and not short:
                for i, _ in s.entries:
                    stale.setdefault(i, set()).update(s.checks)
            if s.checks:
                t["checked"] += 1
            if binds == "client":
                t["client"] += 1
            elif binds == "neither":
                t["neither"] += 1
            elif s.level == "MAY" and not s.checks:
                t["may"] += 1
            if short and not any(e.get("reason") or e.get("gap") for e in ents):
                problems.append(f"{label}: {s.requirements} requirements but only "
                                f"{len(s.checks)} check(s) ({', '.join(sorted(s.checks))}): add a "
                                f"check for each, or an entry with a reason or \"gap\": true")
            if server_req and (not s.checks or short):
                if any(e.get("gap") for e in ents):
                    t["gap"] += 1
                    gaps_listed.append(label)
                    problems.append(f"{label}: binds the server at {s.level} and is marked "
                                    f"\"gap\": true (testable, no check yet): every server-"
                                    f"binding MUST or SHOULD sentence has a check, or a reason "
                                    f"it cannot be tested from the client side")
                elif any(e.get("reason") for e in ents):
                    t["reason"] += 1
                elif not s.checks:
                    problems.append(f"{label}: binds the server at {s.level} with no check: the "
                                    f"entry needs a reason it cannot be tested from the client "
                                    f"side, or \"gap\": true")
        totals[v] = t
    for i, ids in sorted(stale.items()):
        e = entries[i]
        if any(s for v in versions for s in by_version[v] if (i, e) in s.entries
               and not s.checks):
            continue  # still the disposition of an unchecked sentence at another version
        problems.append(f"{DATA_FILE}[{i}]: now has a check ({', '.join(sorted(ids))}): remove "
                        f"the entry  (\"{e['quote'][:80]}\")")

    # The table mcpcheck prints holds the same: every entry where it stands
    # (whom it binds, its reason or gap) and every check that quotes a sentence.
    if data_path == os.path.join(scenarios, DATA_FILE):
        table = subprocess.run([mcpcheck, "list", "--requirements", "--json", "--scenarios",
                                scenarios], capture_output=True, text=True, timeout=budget(300))
        if table.returncode != 0:
            problems.append(f"mcpcheck list --requirements failed: {table.stderr.strip()[:500]}")
        else:
            rows = {v["version"]: v["sentences"] for v in json.loads(table.stdout)["versions"]}
            for i, e in enumerate(entries):
                for v in e["refs"]:
                    q = normalise(e.get("quotes", {}).get(v, e["quote"]))
                    if not any((q in normalise(r["quote"]) or normalise(r["quote"]) in q)
                               and r["binds"] == e["binds"]
                               and r.get("reason") == e.get("reason")
                               and bool(r.get("gap")) == bool(e.get("gap"))
                               for r in rows.get(v, [])):
                        problems.append(f"{DATA_FILE}[{i}]:{v}: not in mcpcheck list "
                                        f"--requirements as written")
            for v in versions:
                listed = {c for r in rows.get(v, []) for c in r["checks"]}
                for s in by_version[v]:
                    for c in sorted(s.checks - listed):
                        problems.append(f"{v}: check {c} quotes \"{s.text[:60]}\" but mcpcheck "
                                        f"list --requirements does not list it")

    if draft:
        out, done = [], {}
        for v in versions:
            for s in by_version[v]:
                if s.checks or s.entries:
                    continue
                key = (s.page, s.text)
                if key in done:
                    done[key]["refs"][v] = f"{s.page}#{s.anchor}"
                    continue
                binds = guess_binds(s.text)
                d = {"quote": s.text, "refs": {v: f"{s.page}#{s.anchor}"}, "binds": binds}
                if binds in ("server", "both") and s.level != "MAY":
                    d["gap"] = True
                done[key] = d
                out.append(d)
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0

    for p in problems:
        print(p)
    if verbose:
        for g in gaps_listed:
            print(f"gap: {g}")
    print("requirements: version     sentences  with-check  reason  gap  client-only  "
          "neither  server-MAY")
    for v in versions:
        t = totals[v]
        print(f"requirements: {v}  {t['sentences']:9}  {t['checked']:10}  {t['reason']:6}  "
              f"{t['gap']:3}  {t['client']:11}  {t['neither']:7}  {t['may']:10}")
    print(f"requirements: {len(entries)} entries, {len(gaps_listed)} explicit gaps "
          f"(server-binding MUST/SHOULD requirements with no check yet), "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
