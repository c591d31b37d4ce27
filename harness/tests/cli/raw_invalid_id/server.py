#!/usr/bin/env python3
"""A stdio MCP server (2025-06-18) that answers a line it cannot parse with a
parse error whose id is false instead of null: the raw step waiting for that
answer must take it at once (and the envelope check must fail on its id)."""
import json
import sys


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        send({"jsonrpc": "2.0", "id": False, "error": {"code": -32700, "message": "Parse error"}})
        continue
    if not isinstance(m, dict) or "id" not in m or "method" not in m:
        continue
    if m["method"] == "initialize":
        send({"jsonrpc": "2.0", "id": m["id"],
              "result": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "serverInfo": {"name": "parse-error-id", "version": "1.0.0"}}})
    else:
        send({"jsonrpc": "2.0", "id": m["id"], "result": {}})
