#!/usr/bin/env python3
"""A small MCP server over stdio that follows the specification and nothing else.

It is a test target for mcpcheck: it was written from the specification pages of
protocol versions 2025-06-18 and 2025-11-25, declares only some capabilities
(tools, resources, prompts; no logging, completions, subscriptions or list
change notifications) and uses names of its own, so the harness can know
nothing about it beyond what it lists. Standard library only.

Behaviour worth knowing when reading a report:
- protocol versions 2025-06-18 and 2025-11-25; any other requested version is
  answered with the latest one supported;
- requests other than ping before initialize are refused with -32600;
- resources/list spans two pages; cursors are opaque, issued per session, and
  an unknown cursor gives -32602;
- the tool `pause` answers after a delay, reports progress when asked and is
  dropped silently when cancelled;
- one JSON message per line on stdout, diagnostics on stderr only; the process
  exits when stdin reaches end of file.
"""

import base64
import json
import os
import secrets
import selectors
import sys
import time

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18")  # latest first
MAX_LINE_BYTES = 4 * 1024 * 1024
MAX_PAUSE_MS = 10000
RESOURCE_PAGE_SIZE = 2
PROGRESS_STEP = 0.1  # seconds between progress notifications of a pause

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002

NOTES = {
    "harbour": "Boats come in at dawn and leave at dusk.",
    "orchard": "Twelve rows of apple trees, four of pears.",
    "lighthouse": "The lamp turns once every ten seconds.",
}
# A 1x1 transparent PNG.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)

RESOURCES = [
    {"uri": "note://harbour", "name": "harbour", "title": "Harbour note", "mimeType": "text/plain"},
    {"uri": "note://orchard", "name": "orchard", "title": "Orchard note", "mimeType": "text/plain"},
    {"uri": "note://lighthouse", "name": "lighthouse", "title": "Lighthouse note", "mimeType": "text/plain"},
    {"uri": "picture://pixel", "name": "pixel", "title": "One pixel", "mimeType": "image/png"},
]
TEMPLATES = [
    {"uriTemplate": "note://{name}", "name": "note", "title": "A note by name", "mimeType": "text/plain"},
]

TOOLS = [
    {
        "name": "shout",
        "title": "Shout",
        "description": "Returns the given words in upper case.",
        "inputSchema": {
            "type": "object",
            "properties": {"words": {"type": "string"}},
            "required": ["words"],
        },
    },
    {
        "name": "sum",
        "title": "Sum",
        "description": "Adds two numbers and returns the total as structured content.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"total": {"type": "number"}},
            "required": ["total"],
        },
    },
    {
        "name": "pause",
        "title": "Pause",
        "description": "Waits the given number of milliseconds, reporting progress when asked.",
        "inputSchema": {
            "type": "object",
            "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": MAX_PAUSE_MS}},
            "required": ["ms"],
        },
    },
]

PROMPTS = [
    {
        "name": "retell",
        "title": "Retell a note",
        "description": "Asks for one of the notes to be retold in a given tone.",
        "arguments": [
            {"name": "note", "description": "harbour, orchard or lighthouse", "required": True},
            {"name": "tone", "description": "how to retell it (default: plain)", "required": False},
        ],
    },
]


class RpcError(Exception):
    """A JSON-RPC error to send in answer to the current request."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def write_message(message):
    """Writes one message as one line on stdout (no embedded newline: json.dumps escapes them)."""
    line = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.buffer.write(line.encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def valid_id(value):
    """Request ids are strings or integers (never null, never a boolean or a fraction)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


class Server:
    def __init__(self):
        self.version = None  # negotiated protocol version, set by initialize
        self.cursors = {}  # opaque cursor -> offset in RESOURCES, this session only
        self.jobs = {}  # request id -> pending pause: deadline, start, progress token, reports sent

    # ----- transport -----

    def handle_line(self, raw):
        try:
            text = raw.decode("utf-8")
            message = json.loads(text)
        except (UnicodeDecodeError, ValueError):
            self.send_error(None, PARSE_ERROR, "Parse error")
            return
        if not isinstance(message, dict):
            # A batch (array) or a bare value: 2025-06-18 removed batching.
            self.send_error(None, INVALID_REQUEST, "Invalid Request: expected one JSON object")
            return
        if "method" not in message and ("result" in message or "error" in message):
            return  # a response; this server never sends requests, so there is nothing to match
        has_id = "id" in message
        request_id = message.get("id")
        readable_id = request_id if has_id and valid_id(request_id) else None
        if has_id and not valid_id(request_id):
            self.send_error(None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
            return
        # An object that is not a valid request gets -32600, with its id when the id
        # could be read and null otherwise (JSON-RPC 2.0 section 5).
        if message.get("jsonrpc") != "2.0":
            self.send_error(readable_id, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"")
            return
        method = message.get("method")
        if not isinstance(method, str):
            self.send_error(readable_id, INVALID_REQUEST, "Invalid Request: method must be a string")
            return
        params = message.get("params", {})
        if not isinstance(params, (dict, list)):
            # JSON-RPC 2.0 section 4: params, when present, is a structured value.
            self.send_error(readable_id, INVALID_REQUEST, "Invalid Request: params must be structured")
            return
        if not has_id:
            if isinstance(params, dict):
                self.handle_notification(method, params)
            return  # notifications are never answered, not even when malformed
        if not isinstance(params, dict):
            self.send_error(request_id, INVALID_PARAMS, "Invalid params: params must be an object")
            return
        try:
            result = self.handle_request(request_id, method, params)
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

    # ----- notifications -----

    def handle_notification(self, method, params):
        if method == "notifications/cancelled":
            # Unknown or finished ids are ignored, as are malformed notifications.
            request_id = params.get("requestId")
            if valid_id(request_id):
                self.jobs.pop(request_id, None)
        # notifications/initialized and anything else: nothing to do.

    # ----- requests -----

    def handle_request(self, request_id, method, params):
        if method == "ping":
            return {}
        if method == "initialize":
            return self.initialize(params)
        if self.version is None:
            raise RpcError(INVALID_REQUEST, "Invalid Request: initialize must come first")
        handlers = {
            "tools/list": self.tools_list,
            "tools/call": lambda p: self.tools_call(request_id, p),
            "resources/list": self.resources_list,
            "resources/templates/list": self.templates_list,
            "resources/read": self.resources_read,
            "prompts/list": self.prompts_list,
            "prompts/get": self.prompts_get,
        }
        handler = handlers.get(method)
        if handler is None:
            raise RpcError(METHOD_NOT_FOUND, "Method not found: " + method)
        return handler(params)

    def initialize(self, params):
        if self.version is not None:
            raise RpcError(INVALID_REQUEST, "Invalid Request: already initialized")
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: protocolVersion must be a string")
        self.version = requested if requested in SUPPORTED_VERSIONS else SUPPORTED_VERSIONS[0]
        return {
            "protocolVersion": self.version,
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
            "serverInfo": {"name": "conformant-notes", "version": "1.0.0"},
            "instructions": "Notes about a small harbour town; tools shout, sum and pause.",
        }

    @staticmethod
    def single_page(params):
        """Lists that fit one page issue no cursor, so any cursor given is invalid."""
        if "cursor" in params:
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")

    def tools_list(self, params):
        self.single_page(params)
        return {"tools": TOOLS}

    def prompts_list(self, params):
        self.single_page(params)
        return {"prompts": PROMPTS}

    def templates_list(self, params):
        self.single_page(params)
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

    def resources_read(self, params):
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
        if uri == "picture://pixel":
            blob = base64.b64encode(PIXEL).decode("ascii")
            return {"contents": [{"uri": uri, "mimeType": "image/png", "blob": blob}]}
        if uri.startswith("note://") and uri[len("note://"):] in NOTES:
            text = NOTES[uri[len("note://"):]]
            return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}
        raise RpcError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})

    def prompts_get(self, params):
        name = params.get("name")
        if name != "retell":
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown prompt")
        arguments = params.get("arguments", {})
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise RpcError(INVALID_PARAMS, "Invalid params: arguments must map names to strings")
        note = arguments.get("note")
        if note is None:
            raise RpcError(INVALID_PARAMS, "Invalid params: missing required argument 'note'")
        tone = arguments.get("tone", "plain")
        body = NOTES.get(note, "(there is no note called %s)" % note)
        return {
            "description": "Retell the %s note" % note,
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Retell this in a %s tone: %s" % (tone, body)}}
            ],
        }

    def tools_call(self, request_id, params):
        name = params.get("name")
        arguments = params.get("arguments", {})
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: name must be a string, arguments an object")
        if name not in ("shout", "sum", "pause"):
            raise RpcError(INVALID_PARAMS, "Unknown tool: " + name)
        problem = self.argument_problem(name, arguments)
        if problem is not None:
            # 2025-06-18 lists invalid arguments among protocol errors; 2025-11-25
            # moved input validation errors into the tool result (isError).
            if self.version == "2025-06-18":
                raise RpcError(INVALID_PARAMS, "Invalid arguments: " + problem)
            return {"content": [{"type": "text", "text": "Invalid arguments: " + problem}], "isError": True}
        if name == "shout":
            return {"content": [{"type": "text", "text": arguments["words"].upper()}]}
        if name == "sum":
            total = arguments["a"] + arguments["b"]
            structured = {"total": total}
            return {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}
        now = time.monotonic()
        token = params.get("_meta", {}).get("progressToken") if isinstance(params.get("_meta"), dict) else None
        self.jobs[request_id] = {"deadline": now + arguments["ms"] / 1000.0, "token": token, "start": now,
                                 "progress": 0}
        return None  # answered later by run_jobs, unless cancelled first

    @staticmethod
    def argument_problem(name, arguments):
        def is_number(value):
            return isinstance(value, (int, float)) and not isinstance(value, bool)

        if name == "shout":
            return None if isinstance(arguments.get("words"), str) else "words must be a string"
        if name == "sum":
            ok = is_number(arguments.get("a")) and is_number(arguments.get("b"))
            return None if ok else "a and b must be numbers"
        ms = arguments.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or not 0 <= ms <= MAX_PAUSE_MS:
            return "ms must be an integer from 0 to %d" % MAX_PAUSE_MS
        return None

    # ----- pending pauses -----

    def next_wakeup(self):
        """Seconds until the next pending pause needs attention, or None when there is none."""
        if not self.jobs:
            return None
        soonest = min(self.job_wakeup(job) for job in self.jobs.values())
        return max(0.0, soonest - time.monotonic())

    @staticmethod
    def job_wakeup(job):
        """A pause wakes at its deadline, and every PROGRESS_STEP seconds when progress was asked for."""
        if job["token"] is None:
            return job["deadline"]
        return min(job["deadline"], job["start"] + PROGRESS_STEP * (job["progress"] + 1))

    def run_jobs(self):
        now = time.monotonic()
        for request_id in list(self.jobs):
            job = self.jobs[request_id]
            if now >= job["deadline"]:
                del self.jobs[request_id]
                text = "Paused for %d ms" % round((job["deadline"] - job["start"]) * 1000)
                write_message({"jsonrpc": "2.0", "id": request_id,
                               "result": {"content": [{"type": "text", "text": text}]}})
            elif job["token"] is not None and now >= self.job_wakeup(job):
                job["progress"] += 1
                total = job["deadline"] - job["start"]
                done = min(now - job["start"], total)
                write_message({"jsonrpc": "2.0", "method": "notifications/progress",
                               "params": {"progressToken": job["token"], "progress": job["progress"],
                                          "message": "%d of %d ms waited" % (round(done * 1000), round(total * 1000))}})


def main():
    server = Server()
    selector = selectors.DefaultSelector()
    stdin = sys.stdin.buffer.fileno()
    selector.register(stdin, selectors.EVENT_READ)
    pending = b""
    while True:
        events = selector.select(server.next_wakeup())
        if events:
            chunk = os.read(stdin, 65536)
            if not chunk:
                break  # end of input: the client closed the session
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line.strip():
                    server.handle_line(line)
            if len(pending) > MAX_LINE_BYTES:
                pending = b""
                server.send_error(None, PARSE_ERROR, "Parse error: line too long")
        server.run_jobs()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)  # the client went away while an answer was being written
