#!/usr/bin/env python3
"""A minimal MCP server over stdio that never answers what it does not know.

It is a test target for mcpcheck: it answers initialize (protocol versions
2025-06-18 and 2025-11-25; any other requested version gets the latest one),
tools/list (two tools of its own) and ping, takes notifications/initialized
and every other notification silently, and never answers any other request,
not even with an error. Leaving a request without an answer breaks JSON-RPC,
and a harness must report that as a finding while still testing the versions
the server speaks. Standard library only.

Options:
  --banner TEXT   write TEXT as a line on stdout before anything else (a line
                  that is not a JSON-RPC message);
  --init-answer KIND
                  answer initialize with a line the client cannot read, then
                  serve nothing more: "oversize" (a line past 16 MiB),
                  "utf8" (invalid UTF-8), "nul" (a raw NUL byte) or "deep"
                  (arrays nested 100000 deep).
"""

import json
import sys

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18")  # latest first
MAX_LINE_BYTES = 1024 * 1024
OVERSIZE_BYTES = 17 * 1024 * 1024
DEEP_NESTING = 100000

TOOLS = [
    {
        "name": "whisper",
        "description": "Returns the given words in lower case.",
        "inputSchema": {
            "type": "object",
            "properties": {"words": {"type": "string"}},
            "required": ["words"],
        },
    },
    {
        "name": "count_letters",
        "description": "Counts the letters of a word.",
        "inputSchema": {
            "type": "object",
            "properties": {"word": {"type": "string"}},
            "required": ["word"],
        },
    },
]


def send(out, msg):
    out.write(json.dumps(msg, separators=(",", ":")).encode("utf-8") + b"\n")
    out.flush()


def unreadable_answer(out, kind, req_id):
    """Writes an answer to initialize that no client can read."""
    head = ('{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25",'
            '"capabilities":{},"serverInfo":{"name":"quiet","version":"1.0"},'
            '"instructions":"' % json.dumps(req_id)).encode("ascii")
    tail = b'"}}\n'
    if kind == "oversize":
        out.write(head)
        chunk = b"z" * (1024 * 1024)
        for _ in range(OVERSIZE_BYTES // len(chunk)):
            out.write(chunk)
        out.write(tail)
    elif kind == "utf8":
        out.write(head + b"\xff\xfe\xc3" + tail)
    elif kind == "nul":
        out.write(head + b"a\x00b" + tail)
    elif kind == "deep":
        out.write(('{"jsonrpc":"2.0","id":%s,"result":' % json.dumps(req_id)).encode("ascii")
                  + b"[" * DEEP_NESTING + b"]" * DEEP_NESTING + b"}\n")
    out.flush()


def answer(req):
    """The result of a request this server knows, or None for any other."""
    method = req.get("method")
    params = req.get("params") if isinstance(req.get("params"), dict) else {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in SUPPORTED_VERSIONS else SUPPORTED_VERSIONS[0]
        return {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "quiet", "version": "1.0"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "ping":
        return {}
    return None


def main():
    args = sys.argv[1:]
    banner = None
    init_answer = None
    while args:
        if args[0] == "--banner" and len(args) > 1:
            banner, args = args[1], args[2:]
        elif args[0] == "--init-answer" and len(args) > 1:
            init_answer, args = args[1], args[2:]
        else:
            sys.stderr.write("quiet_server: unknown argument %s\n" % args[0])
            return 2
    out = sys.stdout.buffer
    if banner is not None:
        out.write(banner.encode("utf-8") + b"\n")
        out.flush()
    for raw in sys.stdin.buffer:
        if len(raw) > MAX_LINE_BYTES:
            continue
        try:
            req = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(req, dict) or "method" not in req or "id" not in req:
            continue  # a notification or a response: nothing to answer
        if init_answer is not None and req.get("method") == "initialize":
            unreadable_answer(out, init_answer, req["id"])
            continue
        result = answer(req)
        if result is not None:
            send(out, {"jsonrpc": "2.0", "id": req["id"], "result": result})
    return 0


if __name__ == "__main__":
    sys.exit(main())
