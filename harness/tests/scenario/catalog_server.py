#!/usr/bin/env python3
"""catalog_server.py [--no-structured] [--reindex | --reindex-backwards]

A small MCP server over stdio (protocol versions 2025-06-18 and
2025-11-25) for the role tests of fixtures_live.py. Its tool `lookup` takes
an ISBN (13 digits, a pattern), declares an outputSchema and refuses any
other string with isError: true ("isbn must be 13 digits"), so arguments
made from its inputSchema (patterns are not solved) are refused while a
profile's arguments are accepted.
With --no-structured its results lack structuredContent (a planted bug).
With --reindex it also lists `reindex`, a tool of no arguments that reports
progress (0.25, 0.5, 1.0 of 1.0) for the request's progress token and
answers one text block; --reindex-backwards lists it reporting its progress
the wrong way round (a planted bug: progress must increase).
Its one prompt `greet` has a required argument `who`. Standard library only;
the process exits when stdin reaches end of file.
"""
import json
import sys

VERSIONS = ("2025-11-25", "2025-06-18")
TOOL = {
    "name": "lookup",
    "description": "Finds a book by its ISBN.",
    "inputSchema": {
        "type": "object",
        "properties": {"isbn": {"type": "string", "pattern": "^[0-9]{13}$"}},
        "required": ["isbn"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {"title": {"type": "string"}},
        "required": ["title"],
    },
}
PROMPT = {"name": "greet", "description": "Greets someone.",
          "arguments": [{"name": "who", "description": "whom to greet", "required": True}]}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def call(args, structured):
    isbn = args.get("isbn")
    if not isinstance(isbn, str) or len(isbn) != 13 or not isbn.isdigit():
        return {"content": [{"type": "text", "text": "isbn must be 13 digits"}], "isError": True}
    out = {"title": "Book " + isbn}
    result = {"content": [{"type": "text", "text": json.dumps(out)}]}
    if structured:
        result["structuredContent"] = out
    return result


REINDEX = {"name": "reindex", "description": "Rebuilds the search index.",
           "inputSchema": {"type": "object", "properties": {}}}


def reindex(params, backwards):
    token = (params.get("_meta") or {}).get("progressToken")
    if token is not None:
        steps = [0.25, 0.5, 1.0]
        for value in (reversed(steps) if backwards else steps):
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": token, "progress": value, "total": 1.0}})
    return {"content": [{"type": "text", "text": "index rebuilt"}]}


def handle(msg, structured, extra=None):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {"protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
                "capabilities": {"tools": {}, "prompts": {}},
                "serverInfo": {"name": "catalog", "version": "1.0.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [TOOL] + ([REINDEX] if extra else [])}
    if method == "prompts/list":
        return {"prompts": [PROMPT]}
    if method == "tools/call":
        if extra and params.get("name") == "reindex":
            return reindex(params, extra == "backwards")
        if params.get("name") != "lookup":
            raise LookupError((-32602, "unknown tool"))
        return call(params.get("arguments") or {}, structured)
    if method == "prompts/get":
        if params.get("name") != "greet":
            raise LookupError((-32602, "unknown prompt"))
        who = (params.get("arguments") or {}).get("who")
        if not isinstance(who, str):
            raise LookupError((-32602, "missing required argument: who"))
        return {"messages": [{"role": "user", "content": {"type": "text", "text": "Hello " + who}}]}
    raise LookupError((-32601, "method not found"))


def main():
    structured = "--no-structured" not in sys.argv[1:]
    extra = "backwards" if "--reindex-backwards" in sys.argv[1:] else \
        "forwards" if "--reindex" in sys.argv[1:] else None
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            continue
        if not isinstance(msg, dict) or "method" not in msg or "id" not in msg:
            continue  # a notification or a response: nothing to answer
        try:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": handle(msg, structured, extra)})
        except LookupError as e:
            code, text = e.args[0]
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": code, "message": text}})


if __name__ == "__main__":
    main()
