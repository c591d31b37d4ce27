#!/usr/bin/env python3
"""notebook_server.py [--bug NAME]... : a small "notebook" MCP server over stdio.

A test target for mcpcheck, written from the specification pages of protocol
versions 2025-06-18 and 2025-11-25 the way a user would write a server of their
own: its names are its own (none of the official conformance fixtures), and it
declares tools, resources (with subscribe), prompts, logging and completions.
Standard library only.

What it offers:
- tools: `add` (required numbers a and b; outputSchema {sum}; the sum is also
  written to the scratchpad note) and `search_notes` (read-only, optional
  string `query`);
- resources: notebook://notes/scratchpad (text/plain),
  notebook://notes/readme (text/markdown), notebook://images/logo (image/png,
  blob); template notebook://pages/{number} (any page number reads);
  resources/list spans two pages with opaque per-session cursors;
- subscriptions: resources/subscribe and resources/unsubscribe on any URI the
  server can read (others get -32002); notifications/resources/updated is sent
  for the scratchpad when `add` changes it, and only while it is subscribed;
- prompt `summarize` (required `text`, optional `style`), with completions for
  `style` and for the template variable `number`;
- logging: a `debug` line on every resources/read and an `info` line on every
  prompts/get, sent only at or above the level set with logging/setLevel. The
  specification gives no default level; until setLevel this server sends
  every level (like the SDKs do);
- requests other than ping before initialize are refused with -32600; unknown
  methods get -32601, bad params -32602; notifications/cancelled is ignored
  (every request is answered at once);
- one JSON message per line on stdout, diagnostics on stderr only; exits at
  end of input.

Planted bugs, each switched on by `--bug NAME` (repeatable); `--list-bugs`
prints them:
"""

import argparse
import base64
import json
import secrets
import sys

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18")  # latest first
MAX_LINE_BYTES = 4 * 1024 * 1024
RESOURCE_PAGE_SIZE = 2

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002

BUGS = {
    "missing-arg-code": "prompts/get without the required argument answers -32603 instead of -32602",
    "read-other-uri": "resources/read answers with contents whose uri is another resource's URI",
    "ignore-setlevel": "logging/setLevel is accepted (empty result) but ignored: debug lines keep coming",
    "ignore-unknown": "requests with an unknown method are never answered (no -32601)",
    "banner": "prints a start-up banner on stdout before anything else",
}
__doc__ += "".join("  %-17s %s\n" % (name, text) for name, text in BUGS.items())

# syslog severities, least severe first (server/utilities/logging#log-levels)
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

SCRATCHPAD = "notebook://notes/scratchpad"
README = "notebook://notes/readme"
LOGO = "notebook://images/logo"
PAGE_PREFIX = "notebook://pages/"

README_TEXT = """# Notebook

A tiny notebook. Use `add` to do sums (each one is written to the scratchpad)
and `search_notes` to look through the notes.
"""
# A 1x1 PNG.
LOGO_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)

RESOURCES = [
    {"uri": SCRATCHPAD, "name": "scratchpad", "title": "Scratchpad",
     "description": "Running notes; every sum done with the add tool is appended here.",
     "mimeType": "text/plain"},
    {"uri": README, "name": "readme", "title": "Read me",
     "description": "What this notebook is.", "mimeType": "text/markdown"},
    {"uri": LOGO, "name": "logo", "title": "Notebook logo",
     "description": "The notebook's logo.", "mimeType": "image/png"},
]
TEMPLATES = [
    {"uriTemplate": PAGE_PREFIX + "{number}", "name": "page", "title": "Notebook page",
     "description": "One page of the notebook, by page number.", "mimeType": "text/plain"},
]
PAGE_NUMBERS = [str(n) for n in range(1, 13)]

TOOLS = [
    {
        "name": "add",
        "title": "Add two numbers",
        "description": "Adds a and b, returns the sum and writes it to the scratchpad.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "first addend"},
                "b": {"type": "number", "description": "second addend"},
            },
            "required": ["a", "b"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"sum": {"type": "number"}},
            "required": ["sum"],
        },
    },
    {
        "name": "search_notes",
        "title": "Search notes",
        "description": "Lists the notes whose text contains the query (all notes without one).",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "text to look for"}},
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
]

SUMMARY_STYLES = ["brief", "bullet-points", "detailed"]
PROMPTS = [
    {
        "name": "summarize",
        "title": "Summarize text",
        "description": "Asks the model to summarize a piece of text.",
        "arguments": [
            {"name": "text", "description": "the text to summarize", "required": True},
            {"name": "style", "description": "brief, bullet-points or detailed (default brief)",
             "required": False},
        ],
    },
]


class RpcError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def log(text):
    """Diagnostics go to stderr: stdout carries nothing but messages."""
    sys.stderr.write("notebook: %s\n" % text)
    sys.stderr.flush()


def write_message(message):
    line = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.buffer.write(line.encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def valid_id(value):
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Notebook:
    def __init__(self, bugs):
        self.bugs = set(bugs)
        self.version = None
        self.min_level = "debug"  # no default in the spec: everything until setLevel
        self.subscriptions = set()
        self.cursors = {}
        self.scratchpad = ["Scratchpad", "----------"]

    # ----- transport -----

    def handle_line(self, raw):
        try:
            message = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.send_error(None, PARSE_ERROR, "Parse error")
            return
        if not isinstance(message, dict):
            self.send_error(None, INVALID_REQUEST, "Invalid Request: expected one JSON object")
            return
        if "method" not in message and ("result" in message or "error" in message):
            return  # a response: this server sends no requests
        has_id = "id" in message
        request_id = message.get("id")
        if has_id and not valid_id(request_id):
            self.send_error(None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
            return
        readable_id = request_id if has_id else None
        if message.get("jsonrpc") != "2.0":
            self.send_error(readable_id, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"")
            return
        method = message.get("method")
        if not isinstance(method, str):
            self.send_error(readable_id, INVALID_REQUEST, "Invalid Request: method must be a string")
            return
        params = message.get("params", {})
        if not isinstance(params, (dict, list)):
            self.send_error(readable_id, INVALID_REQUEST, "Invalid Request: params must be structured")
            return
        if not has_id:
            return  # notifications: initialized, cancelled (all requests are already answered), others
        if not isinstance(params, dict):
            self.send_error(request_id, INVALID_PARAMS, "Invalid params: params must be an object")
            return
        try:
            result = self.handle_request(method, params)
        except RpcError as err:
            self.send_error(request_id, err.code, err.message, err.data)
            return
        if result is not None:
            write_message({"jsonrpc": "2.0", "id": request_id, "result": result})

    def send_error(self, request_id, code, message, data=None):
        error = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        write_message({"jsonrpc": "2.0", "id": request_id, "error": error})

    def send_log(self, level, data):
        if LOG_LEVELS.index(level) < LOG_LEVELS.index(self.min_level):
            return
        write_message({"jsonrpc": "2.0", "method": "notifications/message",
                       "params": {"level": level, "logger": "notebook", "data": data}})

    # ----- requests -----

    def handle_request(self, method, params):
        if method == "ping":
            return {}
        if method == "initialize":
            return self.initialize(params)
        if self.version is None:
            raise RpcError(INVALID_REQUEST, "Invalid Request: the session is not initialized")
        handlers = {
            "tools/list": self.tools_list,
            "tools/call": self.tools_call,
            "resources/list": self.resources_list,
            "resources/templates/list": self.templates_list,
            "resources/read": self.resources_read,
            "resources/subscribe": self.resources_subscribe,
            "resources/unsubscribe": self.resources_unsubscribe,
            "prompts/list": self.prompts_list,
            "prompts/get": self.prompts_get,
            "completion/complete": self.complete,
            "logging/setLevel": self.set_level,
        }
        handler = handlers.get(method)
        if handler is None:
            if "ignore-unknown" in self.bugs:
                log("ignoring unknown method %s" % method)
                return None
            raise RpcError(METHOD_NOT_FOUND, "Method not found: " + method)
        return handler(params)

    def initialize(self, params):
        if self.version is not None:
            raise RpcError(INVALID_REQUEST, "Invalid Request: already initialized")
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: protocolVersion must be a string")
        self.version = requested if requested in SUPPORTED_VERSIONS else SUPPORTED_VERSIONS[0]
        log("initialized with protocol version %s" % self.version)
        return {
            "protocolVersion": self.version,
            "capabilities": {
                "tools": {},
                "resources": {"subscribe": True},
                "prompts": {},
                "logging": {},
                "completions": {},
            },
            "serverInfo": {"name": "notebook", "title": "Notebook", "version": "0.3.1"},
            "instructions": "A small notebook: add numbers, search notes, summarize text.",
        }

    def set_level(self, params):
        level = params.get("level")
        if level not in LOG_LEVELS:
            raise RpcError(INVALID_PARAMS, "Invalid params: level must be one of " + ", ".join(LOG_LEVELS))
        if "ignore-setlevel" not in self.bugs:
            self.min_level = level
        return {}

    @staticmethod
    def no_cursor(params):
        """Lists that fit one page issue no cursor, so any cursor is unknown."""
        if "cursor" in params:
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")

    def tools_list(self, params):
        self.no_cursor(params)
        return {"tools": TOOLS}

    def prompts_list(self, params):
        self.no_cursor(params)
        return {"prompts": PROMPTS}

    def templates_list(self, params):
        self.no_cursor(params)
        return {"resourceTemplates": TEMPLATES}

    def resources_list(self, params):
        start = 0
        if "cursor" in params:
            cursor = params["cursor"]
            if not isinstance(cursor, str) or cursor not in self.cursors:
                raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
            start = self.cursors[cursor]
        end = start + RESOURCE_PAGE_SIZE
        result = {"resources": RESOURCES[start:end]}
        if end < len(RESOURCES):
            cursor = secrets.token_urlsafe(12)
            self.cursors[cursor] = end
            result["nextCursor"] = cursor
        return result

    # ----- resources -----

    @staticmethod
    def page_number(uri):
        if not uri.startswith(PAGE_PREFIX):
            return None
        number = uri[len(PAGE_PREFIX):]
        return number if number and "/" not in number and "?" not in number and "#" not in number else None

    def known_uri(self, uri):
        return uri in (SCRATCHPAD, README, LOGO) or self.page_number(uri) is not None

    def contents_for(self, uri):
        if uri == SCRATCHPAD:
            return {"uri": uri, "mimeType": "text/plain", "text": "\n".join(self.scratchpad) + "\n"}
        if uri == README:
            return {"uri": uri, "mimeType": "text/markdown", "text": README_TEXT}
        if uri == LOGO:
            return {"uri": uri, "mimeType": "image/png", "blob": base64.b64encode(LOGO_PNG).decode("ascii")}
        number = self.page_number(uri)
        return {"uri": uri, "mimeType": "text/plain", "text": "Page %s of the notebook is blank.\n" % number}

    @staticmethod
    def uri_param(params):
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
        return uri

    def resources_read(self, params):
        uri = self.uri_param(params)
        self.send_log("debug", {"event": "resources/read", "uri": uri})
        if not self.known_uri(uri):
            raise RpcError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})
        item = self.contents_for(uri)
        if "read-other-uri" in self.bugs:
            # A copy-paste slip: the uri of the next resource in the list.
            listed = [r["uri"] for r in RESOURCES]
            index = listed.index(uri) if uri in listed else -1
            item["uri"] = listed[(index + 1) % len(listed)]
        return {"contents": [item]}

    def resources_subscribe(self, params):
        uri = self.uri_param(params)
        if not self.known_uri(uri):
            raise RpcError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})
        self.subscriptions.add(uri)
        return {}

    def resources_unsubscribe(self, params):
        uri = self.uri_param(params)
        self.subscriptions.discard(uri)
        return {}

    def resource_changed(self, uri):
        if uri in self.subscriptions:
            write_message({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                           "params": {"uri": uri}})

    # ----- tools -----

    def tools_call(self, params):
        name = params.get("name")
        arguments = params.get("arguments", {})
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: name must be a string")
        if name not in ("add", "search_notes"):
            raise RpcError(INVALID_PARAMS, "Unknown tool: " + name)
        if not isinstance(arguments, dict):
            return self.tool_error("arguments must be an object")
        if name == "add":
            missing = [key for key in ("a", "b") if key not in arguments]
            if missing:
                return self.tool_error("missing required argument%s: %s"
                                       % ("s" if len(missing) > 1 else "", ", ".join(missing)))
            wrong = [key for key in ("a", "b") if not is_number(arguments[key])]
            if wrong:
                return self.tool_error("%s must be a number" % " and ".join(wrong))
            total = arguments["a"] + arguments["b"]
            self.scratchpad.append("%s + %s = %s" % (arguments["a"], arguments["b"], total))
            self.resource_changed(SCRATCHPAD)
            return {"content": [{"type": "text", "text": json.dumps({"sum": total})}],
                    "structuredContent": {"sum": total}}
        query = arguments.get("query")
        if query is not None and not isinstance(query, str):
            return self.tool_error("query must be a string")
        notes = {"scratchpad": "\n".join(self.scratchpad), "readme": README_TEXT}
        hits = [name for name, text in notes.items() if not query or query.lower() in text.lower()]
        text = ("Notes matching %r: %s" % (query, ", ".join(hits) or "none")) if query else \
            "All notes: " + ", ".join(hits)
        return {"content": [{"type": "text", "text": text}]}

    @staticmethod
    def tool_error(problem):
        return {"content": [{"type": "text", "text": "Invalid arguments: " + problem}], "isError": True}

    # ----- prompts -----

    def prompts_get(self, params):
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: name must be a string")
        if name != "summarize":
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown prompt " + name)
        arguments = params.get("arguments", {})
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise RpcError(INVALID_PARAMS, "Invalid params: arguments must map names to strings")
        self.send_log("info", {"event": "prompts/get", "name": name})
        text = arguments.get("text")
        if text is None:
            if "missing-arg-code" in self.bugs:
                raise RpcError(INTERNAL_ERROR, "Internal error: KeyError('text')")
            raise RpcError(INVALID_PARAMS, "Invalid params: missing required argument 'text'")
        style = arguments.get("style", "brief")
        return {
            "description": "Summarize the given text (%s)" % style,
            "messages": [
                {"role": "user",
                 "content": {"type": "text", "text": "Write a %s summary of the following text:\n\n%s" % (style, text)}},
            ],
        }

    # ----- completions -----

    def complete(self, params):
        ref = params.get("ref")
        argument = params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: ref and argument must be objects")
        arg_name = argument.get("name")
        value = argument.get("value")
        if not isinstance(arg_name, str) or not isinstance(value, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: argument needs a string name and value")
        kind = ref.get("type")
        if kind == "ref/prompt":
            if ref.get("name") != "summarize":
                raise RpcError(INVALID_PARAMS, "Invalid params: unknown prompt %s" % ref.get("name"))
            if arg_name == "style":
                candidates = SUMMARY_STYLES
            elif arg_name == "text":
                candidates = []  # free text: nothing to suggest
            else:
                raise RpcError(INVALID_PARAMS, "Invalid params: summarize has no argument %s" % arg_name)
        elif kind == "ref/resource":
            if ref.get("uri") != TEMPLATES[0]["uriTemplate"]:
                raise RpcError(INVALID_PARAMS, "Invalid params: unknown resource template %s" % ref.get("uri"))
            if arg_name != "number":
                raise RpcError(INVALID_PARAMS, "Invalid params: the template has no variable %s" % arg_name)
            candidates = PAGE_NUMBERS
        else:
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown reference type %s" % kind)
        values = [c for c in candidates if c.startswith(value)]
        return {"completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100}}


def main():
    parser = argparse.ArgumentParser(description="A small notebook MCP server over stdio.")
    parser.add_argument("--bug", action="append", default=[], choices=sorted(BUGS),
                        help="switch a planted bug on (repeatable)")
    parser.add_argument("--list-bugs", action="store_true", help="print the planted bugs and exit")
    args = parser.parse_args()
    if args.list_bugs:
        for name, text in BUGS.items():
            print("%-17s %s" % (name, text))
        return 0
    if "banner" in args.bug:
        print("Starting notebook MCP server...", flush=True)
    log("ready%s" % (" (bugs: %s)" % ", ".join(args.bug) if args.bug else ""))
    server = Notebook(args.bug)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            break  # end of input: the client closed the session
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            # Too long: drop the rest of it and say so.
            while line and not line.endswith(b"\n"):
                line = stdin.readline(MAX_LINE_BYTES)
            server.send_error(None, PARSE_ERROR, "Parse error: line too long")
            continue
        if line.strip():
            server.handle_line(line.rstrip(b"\r\n"))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(0)
