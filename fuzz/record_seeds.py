#!/usr/bin/env python3
"""record_seeds.py - record seed corpora from real sessions with mcpcheck-refserver.

Drives the reference server over stdio (the real process, the real framing)
through representative sessions: lifecycle for each protocol version, list
walks that follow nextCursor, reads, prompts, completion, logging, every
fixture tool including the ones that ask the client (sampling, elicitation
accepted/declined/cancelled, roots), subscriptions, cancellation, batches
(2025-03-26) and malformed input. Server->client requests are answered as a
client would. Every line in both directions is recorded, and the transcripts
become the seeds of each fuzz target (see SEED KINDS below). The same
client script as client_session_fuzzer.c is also run against the server with
each violation switch (--inject NAME), so the client target starts from
recorded misbehaviour too.

Usage: python3 fuzz/record_seeds.py --server PATH [--out corpus] [--schemas harness/schemas]
Normally run through `scripts/fuzz.sh --record-seeds`. Files are named by the
SHA-256 of their content; existing seeds are kept (the corpora only grow;
delete a folder's seed files first to start over).

SEED KINDS
  refserver_session   the client lines of one session
  client_session      the server lines answering the client target's script
  jsonrpc_decode      a whole transcript direction (server or client), as bytes
  schema_instance     '"<definition or method>"' line + one recorded message/result
  schema_compile      a definition closure of the MCP schema as one schema document
                      + recorded instances of it
  refserver_cursor    nextCursor values the server issued
  refserver_fileroot  file:// URIs listed with --root, the root replaced by @ROOT@
  scenario_load       the files of the scenario library (scenarios/**/*.jsonc)
"""
import argparse
import hashlib
import json
import os
import select
import subprocess
import sys
import tempfile
import time

CLIENT_CAPS = {"roots": {"listChanged": True}, "sampling": {},
               "elicitation": {"form": {}, "url": {}}}
MAX_SEED = 60 * 1024          # targets reject inputs above 64 KiB
MAX_SCHEMA_SEED = 15 * 1024   # schema_compile rejects inputs above 16 KiB


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Session:
    """One refserver process and the transcript of its stdio."""

    def __init__(self, server, args=(), answers=None):
        self.proc = subprocess.Popen([server, "--step-delay", "0", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buf = b""
        self.transcript = []   # (direction, bytes) with direction "c" or "s"
        self.next_id = 1
        self.answers = answers or {}
        self.results = {}      # id -> parsed response
        self.methods = {}      # id -> method we sent

    def send_raw(self, data):
        if not data.endswith(b"\n"):
            data += b"\n"
        self.transcript.append(("c", data[:-1]))
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def send(self, msg):
        self.send_raw(compact(msg).encode())

    def request(self, method, params=None, wait=True, rid=None):
        if rid is None:
            rid = self.next_id
            self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.methods[json.dumps(rid)] = method
        self.send(msg)
        if wait:
            return self.wait_for(rid)
        return None

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        self.pump(0.05)

    def lines(self, timeout):
        """Reads server lines for up to timeout seconds; yields each."""
        end = time.time() + timeout
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                self.transcript.append(("s", line))
                yield line
            left = end - time.time()
            if left <= 0:
                return
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return
            self.buf += chunk

    def handle(self, line):
        try:
            msg = json.loads(line)
        except ValueError:
            return None
        items = msg if isinstance(msg, list) else [msg]
        for m in items:
            if not isinstance(m, dict):
                continue
            if "method" in m and "id" in m:
                self.answer(m)
            elif "id" in m and ("result" in m or "error" in m):
                self.results[json.dumps(m["id"])] = m
        return msg

    def answer(self, req):
        method = req["method"]
        policy = self.answers.get(method, "default")
        if policy == "ignore":
            return
        if policy == "error":
            self.send({"jsonrpc": "2.0", "id": req["id"],
                       "error": {"code": -32601, "message": "not supported"}})
            return
        if method == "ping":
            result = {}
        elif method == "roots/list":
            result = {"roots": [{"uri": "file:///home/user/project", "name": "project"}]}
        elif method == "sampling/createMessage":
            result = {"role": "assistant", "content": {"type": "text", "text": "42"},
                      "model": "recorded-model", "stopReason": "endTurn"}
        elif method == "elicitation/create":
            schema = (req.get("params") or {}).get("requestedSchema") or {}
            if policy in ("decline", "cancel"):
                result = {"action": policy}
            elif (req.get("params") or {}).get("mode") == "url":
                result = {"action": "accept"}
            else:
                content = {}
                for key, prop in (schema.get("properties") or {}).items():
                    t = prop.get("type")
                    if "enum" in prop:
                        content[key] = prop["enum"][0]
                    elif "oneOf" in prop:
                        content[key] = prop["oneOf"][0].get("const", "x")
                    elif t == "array":
                        items = prop.get("items") or {}
                        en = items.get("enum") or [c.get("const") for c in items.get("anyOf", [])]
                        content[key] = en[:1] if en else []
                    elif t == "boolean":
                        content[key] = True
                    elif t in ("number", "integer"):
                        content[key] = prop.get("minimum", 1)
                    elif prop.get("format") == "email":
                        content[key] = "user@example.com"
                    else:
                        content[key] = prop.get("default", "recorded")
                result = {"action": "accept", "content": content}
        else:
            self.send({"jsonrpc": "2.0", "id": req["id"],
                       "error": {"code": -32601, "message": "Method not found"}})
            return
        self.send({"jsonrpc": "2.0", "id": req["id"], "result": result})

    def pump(self, timeout):
        for line in self.lines(timeout):
            self.handle(line)

    def wait_for(self, rid, timeout=3.0):
        key = json.dumps(rid)
        end = time.time() + timeout
        while key not in self.results and time.time() < end:
            got = False
            for line in self.lines(min(0.2, max(0.0, end - time.time()))):
                got = True
                self.handle(line)
                if key in self.results:
                    break
            if not got and self.proc.poll() is not None:
                break
        # Let trailing notifications (list_changed, progress) arrive.
        self.pump(0.02)
        return self.results.get(key)

    def close(self):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.pump(1.0)
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def client_bytes(self):
        return b"".join(l + b"\n" for d, l in self.transcript if d == "c")

    def server_bytes(self):
        return b"".join(l + b"\n" for d, l in self.transcript if d == "s")


def initialize(s, version="2025-11-25", caps=None):
    res = s.request("initialize", {"protocolVersion": version,
                                   "capabilities": CLIENT_CAPS if caps is None else caps,
                                   "clientInfo": {"name": "recorder", "version": "1.0"}})
    s.notify("notifications/initialized")
    return res


def walk(s, method, params=None):
    cursor = None
    for _ in range(50):
        p = dict(params or {})
        if cursor:
            p["cursor"] = cursor
        res = s.request(method, p or None)
        result = (res or {}).get("result") or {}
        cursor = result.get("nextCursor")
        if not cursor:
            return


# ---- the sessions ----

TOOLS = ["test_simple_text", "test_image_content", "test_audio_content",
         "test_embedded_resource", "test_multiple_content_types", "test_tool_with_logging",
         "test_tool_with_progress", "test_error_handling", "test_sampling", "test_elicitation",
         "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums",
         "test_elicitation_sep1036_url", "test_elicitation_sep1036_error",
         "test_elicitation_sep1036_complete", "test_list_roots", "test_logging_levels",
         "test_resource_link", "test_structured_content", "test_trigger_resource_update",
         "test_trigger_resource_list_change", "test_trigger_prompt_change",
         "test_trigger_tool_change"]


def sess_lifecycle(s, version):
    initialize(s, version)
    s.request("ping")


def sess_lists(s, version):
    initialize(s, version)
    walk(s, "tools/list")
    walk(s, "resources/list")
    walk(s, "resources/templates/list")
    walk(s, "prompts/list")


def sess_resources(s, version):
    initialize(s, version)
    for uri in ["test://static-text", "test://static-binary", "test://watched-resource",
                "test://annotated", "test://json-document", "test://template/42/data",
                "test://greeting/alice", "test://items/fruit/apple", "test://blob/16",
                "test://no-such-resource", "test://template//data"]:
        s.request("resources/read", {"uri": uri})
    s.request("resources/subscribe", {"uri": "test://watched-resource"})
    s.request("tools/call", {"name": "test_trigger_resource_update", "arguments": {}})
    s.request("resources/unsubscribe", {"uri": "test://watched-resource"})
    s.request("tools/call", {"name": "test_trigger_resource_list_change", "arguments": {}})
    walk(s, "resources/list")


def sess_prompts(s, version):
    initialize(s, version)
    s.request("prompts/get", {"name": "test_simple_prompt"})
    s.request("prompts/get", {"name": "test_prompt_with_arguments",
                              "arguments": {"arg1": "hello", "arg2": "world"}})
    s.request("prompts/get", {"name": "test_prompt_with_arguments", "arguments": {"arg1": "x"}})
    s.request("prompts/get", {"name": "test_prompt_with_embedded_resource",
                              "arguments": {"resourceUri": "test://static-text"}})
    s.request("prompts/get", {"name": "test_prompt_with_image"})
    s.request("prompts/get", {"name": "test_prompt_with_audio"})
    s.request("prompts/get", {"name": "no_such_prompt"})
    s.request("completion/complete", {"ref": {"type": "ref/prompt",
                                              "name": "test_prompt_with_arguments"},
                                      "argument": {"name": "arg2", "value": "t"}})
    s.request("completion/complete", {"ref": {"type": "ref/resource",
                                              "uri": "test://template/{id}/data"},
                                      "argument": {"name": "id", "value": "4"}})
    s.request("completion/complete", {"ref": {"type": "ref/resource",
                                              "uri": "test://items/{category}/{item}"},
                                      "argument": {"name": "category", "value": "f"},
                                      "context": {"arguments": {}}})
    s.request("tools/call", {"name": "test_trigger_prompt_change", "arguments": {}})
    walk(s, "prompts/list")


def sess_tools(s, version, names):
    initialize(s, version)
    for name in names:
        params = {"name": name, "arguments": {}}
        if name == "test_tool_with_progress":
            params["_meta"] = {"progressToken": "tok-%s" % version}
        s.request("tools/call", params)


def sess_logging(s, version):
    initialize(s, version)
    for level in ["debug", "warning", "emergency", "verbose"]:
        s.request("logging/setLevel", {"level": level})
        s.request("tools/call", {"name": "test_logging_levels", "arguments": {}})
    s.request("tools/call", {"name": "test_tool_with_logging", "arguments": {}})


def sess_cancel(s, version):
    initialize(s, version)
    rid = s.next_id
    s.answers["elicitation/create"] = "ignore"
    s.request("tools/call", {"name": "test_elicitation", "arguments": {}}, wait=False)
    s.pump(0.1)
    s.notify("notifications/cancelled", {"requestId": rid, "reason": "user gave up"})
    s.request("ping")


def sess_errors(s, version):
    s.request("tools/list")                        # before initialize
    s.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"ping"')  # truncated
    s.pump(0.1)
    s.send_raw(b'not json at all')
    s.pump(0.1)
    s.send_raw(b'{"jsonrpc":"1.0","id":"x","method":"ping"}')
    s.pump(0.1)
    s.send_raw(b'{"jsonrpc":"2.0","id":null,"method":"ping"}')
    s.pump(0.1)
    s.send_raw(b'[]')
    s.pump(0.1)
    initialize(s, version)
    s.request("initialize", {"protocolVersion": version, "capabilities": {},
                             "clientInfo": {"name": "again", "version": "1"}})
    s.request("no/such/method")
    s.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    s.request("tools/call", {"name": 5})
    s.request("resources/read", {})
    s.request("resources/list", {"cursor": "not-a-cursor"})
    s.request("prompts/list", {"cursor": 17})
    s.request("logging/setLevel", {"level": "loud"})
    s.send_raw(b'{"jsonrpc":"2.0","id":1,"result":{}}')  # a response to nothing
    s.pump(0.1)


def sess_batch(s, version):
    initialize(s, "2025-03-26")
    s.send_raw(compact([{"jsonrpc": "2.0", "id": 100, "method": "ping"},
                        {"jsonrpc": "2.0", "id": 101, "method": "tools/list"},
                        {"jsonrpc": "2.0", "method": "notifications/progress",
                         "params": {"progressToken": 1, "progress": 1}},
                        {"jsonrpc": "2.0", "id": 102, "method": "initialize"}]).encode())
    s.pump(0.2)
    s.send_raw(b'[[]]')
    s.pump(0.1)


def sess_unsupported_version(s, version):
    initialize(s, "1999-01-01")
    s.request("ping")


def sess_no_caps(s, version):
    initialize(s, version, caps={})
    for name in ["test_sampling", "test_elicitation", "test_list_roots"]:
        s.request("tools/call", {"name": name, "arguments": {}})


def sess_declines(s, version):
    for policy in ("decline", "cancel", "error"):
        s.answers["elicitation/create"] = policy
        s.answers["sampling/createMessage"] = "error" if policy == "error" else "default"
        s.answers["roots/list"] = "error" if policy == "error" else "default"
        if policy == "decline":
            initialize(s, version)
        for name in ["test_elicitation", "test_elicitation_sep1330_enums", "test_sampling",
                     "test_list_roots"]:
            s.request("tools/call", {"name": name, "arguments": {}})


def client_script(s):
    """The exact request sequence of client_session_fuzzer.c (ids 1, 2, ...)."""
    initialize(s, "2025-11-25", caps={"roots": {"listChanged": True}, "sampling": {},
                                      "elicitation": {}})
    for m in ["ping", "tools/list", "resources/list", "prompts/list"]:
        s.request(m)
    for name in ["test_sampling", "test_elicitation", "test_list_roots",
                 "test_tool_with_logging"]:
        s.request("tools/call", {"name": name, "arguments": {}})
    s.request("resources/read", {"uri": "test://static-text"})


VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]


# ---- seed writing ----

class Corpus:
    def __init__(self, root):
        self.root = root
        self.added = {}

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode()
        if not data or len(data) > (MAX_SCHEMA_SEED if target == "schema_compile" else MAX_SEED):
            return
        d = os.path.join(self.root, target)
        os.makedirs(d, exist_ok=True)
        name = hashlib.sha256(data).hexdigest()
        path = os.path.join(d, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.added[target] = self.added.get(target, 0) + 1


def definitions(schema_dir):
    out = {}
    for version in ("2025-06-18", "2025-11-25"):
        path = os.path.join(schema_dir, version + ".json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            out[version] = (doc, doc.get("$defs") or doc.get("definitions") or {})
    return out


def refs_of(node, acc):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            acc.add(ref.split("/")[-1])
        for v in node.values():
            refs_of(v, acc)
    elif isinstance(node, list):
        for v in node:
            refs_of(v, acc)


def closure_doc(doc, defs, name):
    """A standalone schema for definition `name`: it and what it references."""
    key = "$defs" if "$defs" in doc else "definitions"
    need, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n in need or n not in defs:
            continue
        need.add(n)
        acc = set()
        refs_of(defs[n], acc)
        todo.extend(acc - need)
    out = {"$schema": doc.get("$schema", "http://json-schema.org/draft-07/schema#"),
           key: {n: defs[n] for n in sorted(need)}, "$ref": "#/%s/%s" % (key, name)}
    return out


RESULT_DEFS = {"initialize": "InitializeResult", "ping": "EmptyResult",
               "resources/list": "ListResourcesResult",
               "resources/templates/list": "ListResourceTemplatesResult",
               "resources/read": "ReadResourceResult", "prompts/list": "ListPromptsResult",
               "prompts/get": "GetPromptResult", "tools/list": "ListToolsResult",
               "tools/call": "CallToolResult", "completion/complete": "CompleteResult",
               "sampling/createMessage": "CreateMessageResult", "roots/list": "ListRootsResult",
               "elicitation/create": "ElicitResult", "logging/setLevel": "EmptyResult"}


DEFAULT_INIT_VERSION = "2025-11-25"


def session_slices(s):
    """Short seeds from one session: each client request with the client lines
    that followed it before the next request (answers to the server's
    requests, notifications). The target prepends a 2025-11-25 initialize
    declaring every capability when an input has none, so a slice of such a
    session needs no handshake; slices of other sessions keep theirs. Short
    inputs keep the session target fast; the whole sessions stay available
    in jsonrpc_decode's corpus."""
    client = [l for d, l in s.transcript if d == "c"]
    handshake, body, plain = [], [], True
    for line in client:
        try:
            m = json.loads(line)
        except ValueError:
            m = None
        if isinstance(m, dict) and m.get("method") == "initialize" and not handshake:
            handshake = [line]
            p = m.get("params") or {}
            plain = (p.get("protocolVersion") == DEFAULT_INIT_VERSION and
                     p.get("capabilities") == CLIENT_CAPS)
            continue
        if (isinstance(m, dict) and m.get("method") == "notifications/initialized" and
                len(handshake) == 1):
            handshake.append(line)
            continue
        body.append((line, isinstance(m, dict) and "method" in m and "id" in m))
    slices, cur = [], []
    for line, is_request in body:
        if is_request and cur:
            slices.append(cur)
            cur = []
        cur.append(line)
    if cur:
        slices.append(cur)
    prefix = [] if plain or not handshake else handshake
    out = []
    for sl in slices:
        # A slice runs against a fresh server, whose own requests are
        # numbered 1, 2, ...: renumber the recorded answers to match.
        lines, n = [], 0
        for l in sl:
            try:
                m = json.loads(l)
            except ValueError:
                m = None
            if isinstance(m, dict) and "method" not in m and ("result" in m or "error" in m):
                n += 1
                m["id"] = n
                l = compact(m).encode()
            lines.append(l)
        out.append(b"".join(l + b"\n" for l in prefix + lines))
    return out


def harvest(corpus, s, instances):
    """Turns one finished session into seeds."""
    for piece in session_slices(s):
        corpus.add("refserver_session", piece)
    if len(s.client_bytes()) < 2048:
        corpus.add("refserver_session", s.client_bytes())
    corpus.add("jsonrpc_decode", s.server_bytes())
    corpus.add("jsonrpc_decode", s.client_bytes())
    sent = {}
    for d, line in s.transcript:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        key = json.dumps(msg.get("id"))
        if "method" in msg:
            if "id" in msg:
                sent[(d, key)] = msg["method"]
            corpus.add("schema_instance", compact(msg["method"]) + "\n" + compact(msg) + "\n")
            continue
        other = "s" if d == "c" else "c"
        method = sent.get((other, key))
        if method and "result" in msg:
            corpus.add("schema_instance", compact(method) + "\n" + compact(msg) + "\n")
            rdef = RESULT_DEFS.get(method)
            if rdef:
                corpus.add("schema_instance",
                           compact(rdef) + "\n" + compact(msg["result"]) + "\n")
                instances.setdefault(rdef, []).append(msg["result"])
            nc = msg["result"].get("nextCursor") if isinstance(msg["result"], dict) else None
            if isinstance(nc, str):
                corpus.add("refserver_cursor", nc)
        elif "error" in msg:
            corpus.add("schema_instance", compact("JSONRPCError") + "\n" + compact(msg) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--out", default="corpus")
    ap.add_argument("--schemas", default="harness/schemas")
    ap.add_argument("--scenarios", default="scenarios")
    args = ap.parse_args()
    corpus = Corpus(args.out)
    instances = {}

    def run(fn, version, server_args=(), **kw):
        s = Session(args.server, server_args)
        try:
            fn(s, version, **kw)
        finally:
            s.close()
        harvest(corpus, s, instances)
        return s

    for v in VERSIONS:
        run(sess_lifecycle, v)
        run(sess_lists, v)
        run(sess_lists, v, ("--page-size", "1"))
        run(sess_resources, v)
        run(sess_prompts, v)
        run(sess_tools, v, names=TOOLS[:8])
        run(sess_tools, v, names=TOOLS[8:16])
        run(sess_tools, v, names=TOOLS[16:])
        run(sess_logging, v)
        run(sess_cancel, v)
        run(sess_errors, v)
        run(sess_declines, v)
        run(sess_no_caps, v)
    run(sess_batch, "2025-03-26")
    run(sess_unsupported_version, "2025-11-25")
    run(sess_lists, "2025-11-25", ("--resources", "7", "--page-size", "4"))

    # The client target's script, against the well-behaved server and each
    # violation switch.
    s = run(lambda s, v: client_script(s), "2025-11-25")
    corpus.add("client_session", s.server_bytes())
    bugs = subprocess.run([args.server, "--list-bugs"], capture_output=True, text=True,
                          check=True).stdout.split("\n")
    for line in bugs:
        name = line.split("\t")[0].strip()
        if not name:
            continue
        s = Session(args.server, ("--inject", name))
        try:
            client_script(s)
        finally:
            s.close()
        corpus.add("client_session", s.server_bytes())

    # --root: file:// URIs as listed, with the root made a placeholder.
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.realpath(tmp)
        os.makedirs(os.path.join(root, "sub", "deep"))
        for rel, text in [("a.txt", "a"), ("sub/b.md", "# b"), ("sub/deep/c.json", "{}"),
                          ("sp ace.txt", "s"), ("pct%41.txt", "p")]:
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        s = Session(args.server, ("--root", root))
        try:
            initialize(s, "2025-11-25")
            walk(s, "resources/list")
            uris = []
            for d, line in s.transcript:
                if d == "s" and b"file://" in line:
                    for r in json.loads(line).get("result", {}).get("resources", []):
                        if r.get("uri", "").startswith("file://"):
                            uris.append(r["uri"])
            for u in uris:
                s.request("resources/read", {"uri": u})
        finally:
            s.close()
        harvest(corpus, s, instances)
        for u in uris:
            seed = u.replace(root, "@ROOT@")
            corpus.add("refserver_fileroot", seed)
            # Variants of a recorded URI that confinement must refuse.
            corpus.add("refserver_fileroot", seed.replace("@ROOT@/", "@ROOT@/../"))
            corpus.add("refserver_fileroot", seed.replace("file://", "file://localhost"))
            corpus.add("refserver_fileroot", seed.replace("@ROOT@", "@ROOT@/sub/%2e%2e"))
        for extra in ["file://@ROOT@/link-out", "file://@ROOT@/link-sibling",
                      "file://@ROOT@/link-in", "file://@ROOT@/link-slash/etc/passwd",
                      "file://@ROOT@-outside/secret.txt", "file://@ROOT@/fifo",
                      "file://@ROOT@/caf%C3%A9.md", "file://host@ROOT@/a.txt",
                      "file://@ROOT@/a.txt%00.png", "file://@ROOT@/a.txt?x#y"]:
            corpus.add("refserver_fileroot", extra)

    # schema_compile: definition closures with the instances recorded for them.
    for version, (doc, defs) in definitions(args.schemas).items():
        for name in sorted(defs):
            body = compact(closure_doc(doc, defs, name)) + "\n"
            for inst in instances.get(name, [])[:4]:
                line = compact(inst) + "\n"
                if len(body) + len(line) < MAX_SCHEMA_SEED:
                    body += line
            corpus.add("schema_compile", body)

    # scenario_load: the scenario library as it is (every .jsonc file).
    for dirpath, _, files in sorted(os.walk(args.scenarios)):
        for name in sorted(files):
            if name.endswith(".jsonc"):
                with open(os.path.join(dirpath, name), "rb") as f:
                    corpus.add("scenario_load", f.read())

    for target in sorted(corpus.added):
        print("record_seeds: %-20s +%d" % (target, corpus.added[target]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
