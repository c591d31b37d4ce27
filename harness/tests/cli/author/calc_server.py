#!/usr/bin/env python3
"""calc_server.py [--bug]

A calculator MCP server over stdio (protocol versions 2025-06-18 and
2025-11-25) for the author's-rule test (author_rules.py): one tool, `add`,
which answers the sum of its integer arguments `a` and `b` as text. With
--bug it answers the sum plus one (a planted product bug that no sentence of
the spec forbids). Standard library only; the process exits when stdin
reaches end of file.
"""
import json
import sys

VERSIONS = ("2025-11-25", "2025-06-18")
TOOL = {
    "name": "add",
    "description": "Adds two integers.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def add(args, bug):
    a, b = args.get("a"), args.get("b")
    if not isinstance(a, int) or not isinstance(b, int):
        return {"content": [{"type": "text", "text": "a and b must be integers"}], "isError": True}
    total = a + b + (1 if bug else 0)
    return {"content": [{"type": "text", "text": str(total)}]}


def handle(msg, bug):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {"protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "calc", "version": "1.0.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        if params.get("name") != "add":
            raise LookupError((-32602, "unknown tool"))
        return add(params.get("arguments") or {}, bug)
    raise LookupError((-32601, "method not found"))


def main():
    bug = "--bug" in sys.argv[1:]
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            continue
        if not isinstance(msg, dict) or "method" not in msg or "id" not in msg:
            continue  # a notification or a response: nothing to answer
        try:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": handle(msg, bug)})
        except LookupError as e:
            code, text = e.args[0]
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": code, "message": text}})


if __name__ == "__main__":
    main()
