/*
 * builtin_http.c - the built-in checks of the Streamable HTTP transport, in
 * the form and under the rules of the registry in builtin.c.
 */
#include <string.h>

#include "core/version.h"
#include "judge/builtin.h"
#include "judge/builtin_internal.h"

#define HTTP_REFS2(p) {REF(MC_VN_2025_06_18, p), REF(MC_VN_2025_11_25, p), {.version = NULL}}
/* The Streamable HTTP page of the stateless revision. */
#define HTTP_PAGE_2607 "basic/transports/streamable-http"
/* What the session-era checks that end at 2026-07-28 say of that revision. */
#define HTTP_NO_SESSIONS                                                                           \
    "2026-07-28, which has no sessions and no GET stream "                                         \
    "(basic/transports/streamable-http#earlier-streamable-http-revisions)."
/* The stateless revision's words on what answers a request (its opening
 * list, under no heading; the link text [Server-Sent Events] is elided). */
#define Q_ANSWER_SCOPED_2607                                                                       \
    "The server answers each request with either a single JSON object or a \u2026 (SSE) stream " \
    "scoped to that request, carrying request-related notifications followed by the final "      \
    "response."
#define HTTP_REFS3(p)                                                                              \
    {REF(MC_VN_2025_03_26, p), REF(MC_VN_2025_06_18, p), REF(MC_VN_2025_11_25, p),              \
     {.version = NULL}}

/*
 * The checks of the Streamable HTTP transport, made while a scenario runs over
 * HTTP. Listed after builtins[] (mc_builtin_check_at), and held to their pages
 * by the quote test like them; kept apart from builtins[] so that a scenario
 * cannot name one as an undeclared check id (mc_builtin_check does not find
 * them), since a stdio run never makes them. Each quote is the spec's
 * sentence, verbatim, on the pages named.
 */
static const mc_check_def_t http_checks[] = {
    {.check = "http/notification-202",
     .level = MC_LEVEL_MUST,
     .quote = "If the server accepts the input, the server MUST return HTTP status code 202 "
              "Accepted with no body.",
     .refs = {REF(MC_VN_2025_03_26, "basic/transports#sending-messages-to-the-server"),
              REF(MC_VN_2025_06_18, "basic/transports#sending-messages-to-the-server"),
              REF(MC_VN_2025_11_25, "basic/transports#sending-messages-to-the-server"),
              REFQ(MC_VN_2026_07_28, HTTP_PAGE_2607 "#sending-messages",
                   "If the server accepts it, the server MUST return HTTP status code 202 "
                   "Accepted with no body."),
              {.version = NULL}},
     .interpretation = "Judged on every POST whose body is a well-formed notification (up to "
                       "2025-11-25 also a response, which that input covers). At 2026-07-28 "
                       "the rule covers a notification only: the client of that revision "
                       "sends no responses, so a POSTed response is not judged."},
    {.check = "http/request-content-type",
     .level = MC_LEVEL_MUST,
     .quote = "If the input is a JSON-RPC _request_, the server MUST either return Content-Type: "
              "text/event-stream, to initiate an SSE stream, or Content-Type: application/json, "
              "to return one JSON object.",
     .refs = {REFQ(MC_VN_2025_03_26, "basic/transports#sending-messages-to-the-server",
                   "If the input contains any number of JSON-RPC _requests_, the server MUST "
                   "either return Content-Type: text/event-stream, to initiate an SSE stream, or "
                   "Content-Type: application/json, to return one JSON object."),
              REF(MC_VN_2025_06_18, "basic/transports#sending-messages-to-the-server"),
              REF(MC_VN_2025_11_25, "basic/transports#sending-messages-to-the-server"),
              REFQ(MC_VN_2026_07_28, HTTP_PAGE_2607 "#sending-messages",
                   "If the body is a JSON-RPC _request_, the server MUST return either "
                   "Content-Type: application/json (a single JSON object) or Content-Type: "
                   "text/event-stream (an SSE response stream)."),
              {.version = NULL}}},
    {.check = "http/session-id-visible-ascii",
     .level = MC_LEVEL_MUST,
     .quote = "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to "
              "0x7E).",
     .refs = HTTP_REFS3("basic/transports#session-management"),
     .interpretation = "Judged on the first Mcp-Session-Id the server assigns. Not judged at "
                       HTTP_NO_SESSIONS},
    {.check = "http/get-stream-no-response",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT send a JSON-RPC _response_ on the stream unless resuming a "
              "stream associated with a previous client request.",
     .refs = HTTP_REFS3("basic/transports#listening-for-messages-from-the-server"),
     .interpretation = "Judged on the GET stream the client opens after the handshake. Not "
                       "judged at " HTTP_NO_SESSIONS},
    {.check = "http/response-on-own-stream",
     .level = MC_LEVEL_SHOULD,
     .quote = "The SSE stream SHOULD eventually include JSON-RPC _response_ for the JSON-RPC "
              "_request_ sent in the POST body.",
     .refs = {REFQ(MC_VN_2025_03_26, "basic/transports#sending-messages-to-the-server",
                   "The SSE stream SHOULD eventually include one JSON-RPC _response_ per each "
                   "JSON-RPC _request_ sent in the POST body."),
              REF(MC_VN_2025_06_18, "basic/transports#sending-messages-to-the-server"),
              REFQ(MC_VN_2025_11_25, "basic/transports#sending-messages-to-the-server",
                   "The SSE stream SHOULD eventually include a JSON-RPC _response_ for the "
                   "JSON-RPC _request_ sent in the POST body."),
              REFQL(MC_VN_2026_07_28, HTTP_PAGE_2607, Q_ANSWER_SCOPED_2607, MC_LEVEL_INFO),
              {.version = NULL}},
     .interpretation = "Judged on every answer (JSON body or SSE stream) to a POSTed request "
                       "with a readable id: a response to another id on it breaks the rule. "
                       "At 2026-07-28 the page says it without a keyword (the answer is "
                       "scoped to its request), so a break there is INFO."},
    {.check = "http/sse-event-id-unique",
     .level = MC_LEVEL_MUST,
     .quote = "If present, the ID MUST be globally unique across all streams within that "
              "session\u2014or all streams with that specific client, if session management is "
              "not in use.",
     .refs = HTTP_REFS3("basic/transports#resumability-and-redelivery"),
     .interpretation = "Every SSE event id the session receives is remembered (the last "
                       "MC_HTTP_MAX_TRACKED_EVENT_IDS of them); one seen before, on any stream "
                       "of the session, is a FAIL. A resumed stream repeating an id of the "
                       "stream it resumes is a redelivery, not a reuse. Not judged at "
                       "2026-07-28, which has no sessions and no resumption (its streams are "
                       "not resumable, so it gives event ids no rule: "
                       "basic/transports/streamable-http#receiving-messages)."},
    {.check = "http/resume-own-stream",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT replay messages that would have been delivered on a "
              "different stream.",
     .refs = HTTP_REFS3("basic/transports#resumability-and-redelivery"),
     .interpretation = "When a stream ends before the response to its request, the client "
                       "resumes it with GET and Last-Event-ID; an event on that GET whose id "
                       "another stream of the session sent is a replayed message of another "
                       "stream. Not judged at 2026-07-28, whose streams are not resumable "
                       "(the client does not resume them: "
                       "basic/transports/streamable-http#receiving-messages)."},
    {.check = "http/message-on-one-stream",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST send each of its JSON-RPC messages on only one of the connected "
              "streams; that is, it MUST NOT broadcast the same message across multiple "
              "streams.",
     .refs = HTTP_REFS3("basic/transports#multiple-connections"),
     .interpretation = "Judged on every message that can be told from another with the same "
                       "content: a request of the server's (by its id) and a progress report "
                       "(by its token and value, which rises with every report) whose token "
                       "one request of the session carried. One of them that came on one stream of the session (the GET "
                       "stream or a POST's, a resumption counting as the stream it resumes) "
                       "and again on another was broadcast: both sentences are broken at "
                       "once. Other notifications carry no such mark (two identical log "
                       "messages may be two messages) and are not judged, nor are responses "
                       "(wire/single-response and http/response-on-own-stream hold them). "
                       "Not judged at "
                       "2026-07-28, whose page has no multiple connections (each answer is "
                       "its request's own stream)."},
    {.check = "http/request-stream-related",
     .level = MC_LEVEL_SHOULD,
     .quote = "These messages SHOULD relate to the originating client _request_.",
     .refs = HTTP_REFS3("basic/transports#sending-messages-to-the-server"),
     .interpretation = "What a message relates to shows where the protocol marks it: a "
                       "notifications/progress names its request by the progressToken. Judged "
                       "on every SSE answer to a POSTed request: a progress report whose token "
                       "is not the request's (or that came for a request that gave none) "
                       "relates to another request. Log messages, change notifications and "
                       "requests of the server's carry no such mark and are not judged; nor "
                       "are the answers to a batch or to a tasks/ request (a task's progress "
                       "outlives its request). Not judged at 2026-07-28, where the rule is "
                       "http/stateless-notification-related."},
    {.check = "http/get-stream-unrelated",
     .level = MC_LEVEL_SHOULD,
     .quote = "These messages SHOULD be unrelated to any concurrently-running JSON-RPC "
              "_request_ from the client.",
     .refs = HTTP_REFS3("basic/transports#listening-for-messages-from-the-server"),
     .interpretation = "Judged on the GET stream the client opens after the handshake, where "
                       "a message shows what it relates to: a notifications/progress whose "
                       "progressToken is that of a request whose POST is still waiting for its "
                       "response relates to that running request (its own stream was the "
                       "place for it). Other messages carry no such mark and are not judged. "
                       "Not judged at " HTTP_NO_SESSIONS},
    {.check = "http/sse-priming-event",
     .level = MC_LEVEL_SHOULD,
     .quote = "If the server initiates an SSE stream: \u2026 The server SHOULD immediately send an "
              "SSE event consisting of an event ID and an empty data field in order to prime the "
              "client to reconnect (using that event ID as Last-Event-ID).",
     .refs = {REF(MC_VN_2025_11_25, "basic/transports#sending-messages-to-the-server"),
              {.version = NULL}},
     .interpretation = "Judged on every SSE answer to a POSTed request that brought an event: "
                       "its first event has an id and a data field that is empty. The session "
                       "GET stream and resumptions are not judged (the sentence is about the "
                       "stream that answers a request), nor is the answer to initialize: its "
                       "stream starts before the version is agreed (a client that asked for "
                       "another version learns of 2025-11-25 only from the result)."},
    {.check = "http/sse-event-has-data",
     .level = MC_LEVEL_INFO,
     .quote = "Server can optionally make use of Server-Sent Events (SSE) to stream multiple "
              "server messages.",
     .refs = {REF(MC_VN_2025_03_26, "basic/transports#streamable-http"),
              REF(MC_VN_2025_06_18, "basic/transports#streamable-http"),
              REF(MC_VN_2025_11_25, "basic/transports#streamable-http"),
              REFQ(MC_VN_2026_07_28, HTTP_PAGE_2607, Q_ANSWER_SCOPED_2607),
              {.version = NULL}},
     .interpretation = "An SSE event without a data field carries no message (event-stream "
                       "clients do not dispatch it); it is reported, never failed."},

    {.check = "http/response-closes-stream",
     .level = MC_LEVEL_SHOULD,
     .quote = "After the JSON-RPC _response_ has been sent, the server SHOULD close the SSE "
              "stream.",
     .refs = {REFQ(MC_VN_2025_03_26, "basic/transports#sending-messages-to-the-server",
                   "After all JSON-RPC _responses_ have been sent, the server SHOULD close the "
                   "SSE stream."),
              REF(MC_VN_2025_06_18, "basic/transports#sending-messages-to-the-server"),
              REFQ(MC_VN_2025_11_25, "basic/transports#sending-messages-to-the-server",
                   "After the JSON-RPC _response_ has been sent, the server SHOULD terminate the "
                   "SSE stream."),
              {.version = NULL}},
     .interpretation = "Judged on every SSE answer to a request (and every resumption of one) "
                       "that carried the request's response: a message after the response "
                       "breaks it. A stream left open without further messages cannot be "
                       "told from a slow close and is not judged. At 2026-07-28 the rule is "
                       "http/stateless-response-ends-stream."},
    {.check = "http/stream-open-until-response",
     .level = MC_LEVEL_SHOULD,
     .quote = "The server SHOULD NOT close the SSE stream before sending the JSON-RPC "
              "_response_ for the received JSON-RPC _request_, unless the session expires.",
     .refs = {REFQ(MC_VN_2025_03_26, "basic/transports#sending-messages-to-the-server",
                   "The server SHOULD NOT close the SSE stream before sending a JSON-RPC "
                   "_response_ per each received JSON-RPC _request_, unless the session "
                   "expires."),
              REF(MC_VN_2025_06_18, "basic/transports#sending-messages-to-the-server"),
              {.version = NULL}},
     .interpretation = "Judged on every SSE answer to a request (and every resumption of one) "
                       "that the server ended, the transfer complete, before the request's "
                       "response; a request the client cancelled is not judged (its response "
                       "is not due). A session that expired answers the resumption with 404, "
                       "which the session checks judge. From 2025-11-25 the page lets the "
                       "server close the connection early (http/sse-retry-before-close)."},
    {.check = "http/sse-retry-before-close",
     .level = MC_LEVEL_SHOULD,
     .quote = "If the server does close the _connection_ prior to terminating the _SSE "
              "stream_, it SHOULD send an SSE event with a standard retry field before closing "
              "the connection.",
     .refs = {REF(MC_VN_2025_11_25, "basic/transports#sending-messages-to-the-server"),
              {.version = NULL}},
     .interpretation = "Judged on every SSE answer to a request (and every resumption of one) "
                       "that the server ended, the transfer complete, before the request's "
                       "response (a request the client cancelled aside): some event of it, or "
                       "of the stream it resumes, carried a retry field."},

    /* --- 2026-07-28: judged on the answers to the POSTs of that revision --- */
    {.check = "http/stateless-no-server-request",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT send independent JSON-RPC _requests_ on this stream.",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/streamable-http#receiving-messages"),
              {.version = NULL}},
     .interpretation = "Any JSON-RPC request (method and id) on the SSE answer to a request "
                       "of this revision breaks it: input the server needs comes back as an "
                       "InputRequiredResult."},
    {.check = "http/sse-accel-buffering",
     .level = MC_LEVEL_SHOULD,
     .quote = "When initiating an SSE stream, servers SHOULD include the X-Accel-Buffering: no "
              "header in the HTTP response.",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/streamable-http#receiving-messages"),
              {.version = NULL}}},
    {.check = "http/stateless-no-session-id",
     .level = MC_LEVEL_SHOULD,
     .quote = "A server that supports only this revision and receives such traffic from an "
              "older client SHOULD respond as follows: \u2026 An Mcp-Session-Id header on a "
              "request: ignore it, and do not mint or echo session IDs.",
     .refs = {REF(MC_VN_2026_07_28,
                  "basic/transports/streamable-http#earlier-streamable-http-revisions"),
              {.version = NULL}},
     .interpretation = "Read for every server on the answers to requests of this revision, "
                       "which have no sessions: none carries an Mcp-Session-Id header."},
    {.check = "http/method-not-found-404",
     .level = MC_LEVEL_MUST,
     .quote = "If the server does not implement the requested RPC method, it MUST respond with "
              "404 Not Found and a JSON-RPC error with code -32601 (Method not found).",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/streamable-http#protocol-version-header"),
              {.version = NULL}},
     .interpretation = "Judged on every JSON answer to a request of this revision that carries "
                       "error -32601: its status is 404."},
    {.check = "http/stateless-response-ends-stream",
     .level = MC_LEVEL_SHOULD,
     .quote = "The final JSON-RPC _response_ SHOULD terminate the stream.",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/streamable-http#receiving-messages"),
              {.version = NULL}},
     .interpretation = "Judged on the SSE answers to requests of this revision: no message "
                       "follows the response on its stream."},
    {.check = "http/stateless-notification-related",
     .level = MC_LEVEL_MUST,
     .quote = "These notifications MUST relate to the originating client request.",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/streamable-http#receiving-messages"),
              {.version = NULL}},
     .interpretation = "Judged on the SSE answers to requests of this revision, where it can be "
                       "told: a notifications/progress whose token is not the request's, or a "
                       "change notification (list_changed, resources/updated) on a stream that "
                       "is no subscriptions/listen answer, relates to another request."},
    {.check = "http/x-mcp-header-valid",
     .level = MC_LEVEL_MUST,
     .quote = "Constraints on x-mcp-header values: \u2026 MUST NOT be empty \u2026 MUST match "
              "HTTP field-name token syntax (1*tchar, RFC 9110 Section 5.1) \u2026 MUST NOT "
              "contain control characters, including carriage return (CR, \\r) or line feed "
              "(LF, \\n) \u2026 MUST be case-insensitively unique among all x-mcp-header values "
              "in the inputSchema \u2026 MUST only be applied to parameters with primitive types "
              "(integer, string, boolean). \u2026 MUST only be applied to properties that are "
              "_statically reachable_ from the schema root \u2026 The chain MUST NOT pass through "
              "items (or any other array keyword), composition keywords (oneOf, anyOf, allOf, "
              "not), conditional keywords (if/then/else), or $ref.",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/streamable-http#schema-extension"),
              {.version = NULL}},
     .interpretation = "Judged on every tool of a tools/list result over HTTP at this revision "
                       "that has an annotation: a value that is empty, no token (a control "
                       "character is no tchar), used twice "
                       "(any case), on a parameter whose type is not integer, string or boolean "
                       "(a parameter without a type included), or reached through anything but "
                       "properties keys fails, and the harness then mirrors none of the tool's "
                       "parameters, as a client rejects such a tool."},
    {.check = "http/sse-endpoint-event",
     .level = MC_LEVEL_MUST,
     .quote = "When a client connects, the server MUST send an endpoint event containing a URI "
              "for the client to use for sending messages.",
     .refs = {REF(MC_VN_2024_11_05, "basic/transports#security-warning"), {.version = NULL}},
     .interpretation = "Judged when a run speaks the HTTP+SSE transport (mcpcheck run --url "
                       "--transport sse, or a 2024-11-05 run over HTTP, or a server that answers "
                       "the initialize POST with 404 or 405): the first event of the SSE stream "
                       "the client opens with GET must be of type endpoint, within "
                       "MC_HTTP_SSE_ENDPOINT_WAIT_MS, and its data a URI reference of the URL's "
                       "own origin (one of another origin is refused, never followed). Not made "
                       "over stdio or Streamable HTTP."},
    {.check = "http/sse-two-endpoints",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST provide two endpoints:",
     .refs = {REF(MC_VN_2024_11_05, "basic/transports#security-warning"), {.version = NULL}},
     .interpretation = "The sentence's list names an SSE endpoint that the client connects to "
                       "and receives messages from, and an HTTP POST endpoint it sends messages "
                       "to. Judged over the HTTP+SSE transport: with --transport sse the GET of "
                       "the URL must open an SSE stream (2xx, text/event-stream; under the "
                       "default transport a URL without one offers no HTTP+SSE and its "
                       "2024-11-05 runs are SKIP); every well-formed message POSTed to the "
                       "endpoint URI must be accepted with a 2xx status, and the response to "
                       "the first initialize POSTed there must come as a message event on the "
                       "SSE stream before the session ends. Malformed input and batches the "
                       "harness sends on purpose are left to the JSON-RPC checks, however the "
                       "endpoint refuses them. Not made over stdio or Streamable "
                       "HTTP."},
};

const mc_check_def_t *mc__builtin_http_at(size_t i)
{
    return i < sizeof(http_checks) / sizeof(http_checks[0]) ? &http_checks[i] : NULL;
}

const mc_check_def_t *mc_builtin_http_check(const char *id)
{
    size_t i;

    for (i = 0; id != NULL && i < sizeof(http_checks) / sizeof(http_checks[0]); i++)
        if (strcmp(http_checks[i].check, id) == 0)
            return &http_checks[i];
    return NULL;
}
