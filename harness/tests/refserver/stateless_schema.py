#!/usr/bin/env python3
"""The reference server's stateless protocol (2026-07-28) against the official schema.

usage: stateless_schema.py MCPCHECK REFSERVER OFFICIAL_SCHEMA_DIR

Drives mcpcheck-refserver over stdio with 2026-07-28 requests only (no
initialize): server/discover, every list walked to its end, every listed
resource read, every prompt got, a completion, every fixture tool called
(the multi round-trip ones answered and retried), subscriptions/listen with
the trigger tools, and the refusals (missing _meta, unsupported version,
undeclared capability, removed methods, unknown resource). Every line the
server writes is then validated with `mcpcheck validate --schema-dir` against
the official 2026-07-28 schema, and the rules the schema cannot express are
asserted here: resultType on every result, ttlMs/cacheScope on the cacheable
ones, the error codes, notifications/message only for a request that set a
log level, the listen acknowledgement first and only opted-in notification
types, each tagged with its subscription id. Exit 0 when everything holds.
"""
import json
import os
import select
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testenv import budget  # noqa: E402

VERSION = "2026-07-28"
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_LOG = "io.modelcontextprotocol/logLevel"
META_SUB = "io.modelcontextprotocol/subscriptionId"
CACHEABLE = {"tools/list", "prompts/list", "resources/list", "resources/templates/list",
             "resources/read", "server/discover"}
FULL_CAPS = {"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}
# A budget for a hang, not for speed.
WAIT_S = budget(30)

problems = []


def problem(text):
    problems.append(text)
    print("FAIL: " + text)


class Server:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""
        self.lines = []      # every line the server wrote, parsed
        self.sent = []       # every message sent (valid ones are kept for pairing)
        self.next_id = 1

    def send(self, msg, keep=True):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()
        if keep:
            self.sent.append(msg)

    def read_until(self, pred):
        """Reads lines until pred(message) holds; returns the messages read."""
        got = []
        deadline = time.monotonic() + WAIT_S
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                msg = json.loads(line)
                self.lines.append(msg)
                got.append(msg)
                if pred(msg):
                    return got
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("no answer within %d s" % WAIT_S)
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                chunk = os.read(self.p.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError("the server closed its stdout")
                self.buf += chunk

    def request(self, method, params=None, caps=None, level=None, meta=True, keep=True):
        """Sends a request and returns (response, messages before it)."""
        rid = self.next_id
        self.next_id += 1
        params = dict(params or {})
        if meta:
            m = {META_VERSION: VERSION, META_CAPS: caps if caps is not None else {},
                 "io.modelcontextprotocol/clientInfo": {"name": "stateless_schema", "version": "1"}}
            if level is not None:
                m[META_LOG] = level
            params["_meta"] = m
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}, keep)
        got = self.read_until(lambda x: x.get("id") == rid and "method" not in x)
        return got[-1], got[:-1]

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def result_of(method, resp):
    if "result" not in resp:
        problem("%s: expected a result, got %s" % (method, json.dumps(resp)[:300]))
        return None
    r = resp["result"]
    if r.get("resultType") not in ("complete", "input_required"):
        problem("%s: result without a valid resultType: %s" % (method, json.dumps(r)[:300]))
    if method in CACHEABLE and r.get("resultType") == "complete":
        if not isinstance(r.get("ttlMs"), int) or r.get("cacheScope") not in ("public", "private"):
            problem("%s: cacheable result without ttlMs/cacheScope" % method)
    return r


def error_of(what, resp, code):
    err = resp.get("error")
    if not isinstance(err, dict) or err.get("code") != code:
        problem("%s: expected error %d, got %s" % (what, code, json.dumps(resp)[:300]))
        return None
    return err


def no_log(what, before):
    for m in before:
        if m.get("method") == "notifications/message":
            problem("%s: notifications/message for a request without a log level" % what)
            return


def walk(srv, method, field):
    items, cursor, pages = [], None, 0
    while pages < 200:
        resp, before = srv.request(method, {"cursor": cursor} if cursor is not None else {})
        no_log(method, before)
        r = result_of(method, resp)
        if r is None:
            break
        items += r.get(field, [])
        pages += 1
        cursor = r.get("nextCursor")
        if cursor is None:
            break
    return items


def answer_for(req):
    """A client's answer to one input request."""
    m = req.get("method")
    if m == "elicitation/create":
        p = req.get("params", {})
        if p.get("mode") == "url":
            return {"action": "accept"}
        content = {}
        for name, s in p.get("requestedSchema", {}).get("properties", {}).items():
            t = s.get("type")
            if "enum" in s:
                content[name] = s["enum"][0]
            elif "oneOf" in s:
                content[name] = s["oneOf"][0]["const"]
            elif t == "array":
                items = s.get("items", {})
                content[name] = [items["enum"][0]] if "enum" in items else \
                    [items["anyOf"][0]["const"]]
            elif t in ("integer", "number"):
                content[name] = 1
            elif t == "boolean":
                content[name] = True
            elif "default" in s:
                content[name] = s["default"]
            elif s.get("format") == "email":
                content[name] = "user@example.com"
            else:
                content[name] = "mcpcheck"
        return {"action": "accept", "content": content}
    if m == "sampling/createMessage":
        return {"role": "assistant", "content": {"type": "text", "text": "Paris"},
                "model": "mcpcheck-model", "stopReason": "endTurn"}
    return {"roots": [{"uri": "file:///tmp/mcpcheck", "name": "tmp"}]}


def call_tool(srv, tool, caps, level=None, refused=False):
    args = {}
    props = tool.get("inputSchema", {}).get("properties", {})
    for name in tool.get("inputSchema", {}).get("required", []):
        args[name] = "mcpcheck" if props.get(name, {}).get("type") == "string" else 1
    params = {"name": tool["name"], "arguments": args}
    for attempt in range(3):
        resp, before = srv.request("tools/call", params, caps=caps, level=level)
        if level is None:
            no_log(tool["name"], before)
        if refused:
            return resp
        r = result_of("tools/call " + tool["name"], resp)
        if r is None or r.get("resultType") != "input_required":
            return resp
        reqs = r.get("inputRequests")
        if not isinstance(reqs, dict) or not reqs:
            problem("%s: input_required without inputRequests" % tool["name"])
            return resp
        params = {"name": tool["name"], "arguments": args,
                  "inputResponses": {k: answer_for(v) for k, v in reqs.items()}}
        if "requestState" in r:
            params["requestState"] = r["requestState"]
    problem("%s: still input_required after the retries" % tool["name"])
    return resp


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    mcpcheck, refserver, official = sys.argv[1:]
    if not os.path.isfile(os.path.join(official, VERSION, "schema.json")):
        print("FAIL: the official schema is not at %s/%s/schema.json" % (official, VERSION))
        return 1
    srv = Server([refserver])
    try:
        r = result_of("server/discover", srv.request("server/discover")[0])
        if r is not None and VERSION not in r.get("supportedVersions", []):
            problem("server/discover does not list %s" % VERSION)
        tools = walk(srv, "tools/list", "tools")
        prompts = walk(srv, "prompts/list", "prompts")
        resources = walk(srv, "resources/list", "resources")
        walk(srv, "resources/templates/list", "resourceTemplates")
        for res in resources:
            result_of("resources/read", srv.request("resources/read", {"uri": res["uri"]})[0])
        result_of("resources/read",
                  srv.request("resources/read", {"uri": "test://template/7/data"})[0])
        err = error_of("resources/read unknown",
                       srv.request("resources/read", {"uri": "mcpcheck-missing://x"})[0], -32602)
        for p in prompts:
            args = {a["name"]: "test://static-text" if a["name"].lower().endswith("uri")
                    else "mcpcheck" for a in p.get("arguments", [])}
            params = {"name": p["name"], "arguments": args}
            for attempt in range(3):
                r = result_of("prompts/get " + p["name"],
                              srv.request("prompts/get", params, caps=FULL_CAPS)[0])
                if r is None or r.get("resultType") != "input_required":
                    break
                params = {"name": p["name"], "arguments": args, "inputResponses": {
                    k: answer_for(v) for k, v in r.get("inputRequests", {}).items()}}
                if "requestState" in r:
                    params["requestState"] = r["requestState"]
            if r is not None and r.get("resultType") == "input_required":
                problem("prompts/get %s: still input_required after the retries" % p["name"])
        result_of("completion/complete", srv.request("completion/complete", {
            "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
            "argument": {"name": "arg1", "value": "a"}})[0])

        # Every fixture tool, with every capability and a log level, and a
        # progress token; then the ones that ask the client, without.
        for t in tools:
            if t["name"].startswith("test_trigger_"):
                continue
            call_tool(srv, t, FULL_CAPS, level="debug")
        for name, cap in (("test_elicitation", "elicitation"), ("test_sampling", "sampling"),
                          ("test_list_roots", "roots"), ("test_missing_capability", "sampling"),
                          ("test_input_required_result_elicitation", "elicitation")):
            t = next((x for x in tools if x["name"] == name), None)
            if t is None:
                problem("tool %s is not listed" % name)
                continue
            err = error_of(name + " without capability", call_tool(srv, t, {}, refused=True), -32021)
            if err is not None and cap not in err.get("data", {}).get("requiredCapabilities", {}):
                problem("%s: -32021 does not name %s in data.requiredCapabilities" % (name, cap))
        # The multi round-trip fixtures: a requestState the server did not
        # issue is refused; an input whose capability the client did not
        # declare is not asked for when the tool can do without it.
        name = "test_input_required_result_tampered_state"
        r = result_of(name, srv.request("tools/call", {"name": name}, caps=FULL_CAPS)[0])
        if r is not None:
            retry = {"name": name, "requestState": r.get("requestState", "") + "x",
                     "inputResponses": {k: answer_for(v)
                                        for k, v in r.get("inputRequests", {}).items()}}
            error_of(name + " with a modified requestState",
                     srv.request("tools/call", retry, caps=FULL_CAPS)[0], -32602)
        name = "test_input_required_result_capabilities"
        r = result_of(name, srv.request("tools/call", {"name": name},
                                        caps={"sampling": {}})[0])
        if r is not None and sorted(v.get("method") for v in
                                    r.get("inputRequests", {}).values()) != \
                ["sampling/createMessage"]:
            problem("%s: asks a client with sampling alone for %s" % (name, r))
        error_of("inputResponses null", srv.request("tools/call", {
            "name": "test_input_required_result_elicitation", "inputResponses": None},
            caps=FULL_CAPS, keep=False)[0], -32602)
        t = next(x for x in tools if x["name"] == "test_tool_with_logging")
        call_tool(srv, t, {})
        resp, before = srv.request("tools/call", {"name": "test_tool_with_progress",
                                                  "_meta": {"progressToken": "p1"}})

        # subscriptions/listen: the acknowledgement first, then only the types
        # opted in to, each tagged with the listen request's id.
        lid = srv.next_id
        srv.request  # (the listen has no response until it ends)
        srv.next_id += 1
        srv.send({"jsonrpc": "2.0", "id": lid, "method": "subscriptions/listen", "params": {
            "_meta": {META_VERSION: VERSION, META_CAPS: {}},
            "notifications": {"toolsListChanged": True,
                              "resourceSubscriptions": ["test://watched-resource"]}}})
        ack = srv.read_until(lambda x: x.get("method") ==
                             "notifications/subscriptions/acknowledged")
        if len(ack) != 1 or ack[0]["params"].get("_meta", {}).get(META_SUB) != lid:
            problem("subscriptions/listen: the acknowledgement is not first or not tagged")
        seen = []
        for name in ("test_trigger_tool_change", "test_trigger_prompt_change",
                     "test_trigger_resource_list_change", "test_trigger_resource_update"):
            resp, before = srv.request("tools/call", {"name": name})
            result_of("tools/call " + name, resp)
            seen += [m for m in before if "method" in m]
        methods = sorted(m["method"] for m in seen)
        if methods != ["notifications/resources/updated", "notifications/tools/list_changed"]:
            problem("subscriptions/listen: notifications seen %s" % methods)
        for m in seen:
            if m.get("params", {}).get("_meta", {}).get(META_SUB) != lid:
                problem("%s without the subscription id" % m["method"])
        srv.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": lid}}, keep=False)

        # Refusals.
        error_of("missing _meta", srv.request("tools/list", meta=False, keep=False)[0], -32602)
        resp = srv.request("tools/list", {"_meta": {META_VERSION: VERSION}}, meta=False,
                           keep=False)[0]
        error_of("missing client capabilities", resp, -32602)
        rid = srv.next_id
        srv.next_id += 1
        srv.send({"jsonrpc": "2.0", "id": rid, "method": "tools/list", "params": {
            "_meta": {META_VERSION: "1900-01-01", META_CAPS: {}}}}, keep=False)
        resp = srv.read_until(lambda x: x.get("id") == rid)[-1]
        err = error_of("unsupported version", resp, -32022)
        if err is not None and (err.get("data", {}).get("requested") != "1900-01-01" or
                                VERSION not in err.get("data", {}).get("supported", [])):
            problem("-32022 data does not name the requested and supported versions")
        error_of("bad log level", srv.request("tools/list", level="loud", keep=False)[0], -32602)
        for m in ("initialize", "ping", "logging/setLevel", "resources/subscribe",
                  "resources/unsubscribe"):
            error_of(m, srv.request(m, {"uri": "test://static-text", "level": "info"},
                                    keep=False)[0], -32601)
    finally:
        srv.close()

    # Every server message against the official schema (the valid requests
    # first, so that each response is judged by the method it answers).
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "stateless.jsonl")
        with open(path, "w") as f:
            for m in srv.sent + srv.lines:
                f.write(json.dumps(m) + "\n")
        out = subprocess.run([mcpcheck, "validate", "--spec-version", VERSION, "--schema-dir",
                              official, path], capture_output=True, text=True)
        print(out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr)
        if out.returncode != 0 or ": warning:" in out.stdout:
            problem("official schema: " + (out.stdout + out.stderr).strip()[:4000])
    print("%d server messages, %d requests; %d problem(s)" %
          (len(srv.lines), srv.next_id - 1, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
