/*
 * httpserve.h - mcpcheck-refserver over Streamable HTTP (libmicrohttpd).
 *
 * One endpoint path, /mcp. Each MCP session (created by an initialize POST)
 * gets its own handler-library server (refserver.h), so HTTP and stdio answer
 * with the same code. A POSTed request is answered with application/json
 * when its answer is the only message the request produced at once, and with
 * an SSE stream otherwise (the stream stays open until the answer, carrying
 * the request's notifications and server requests); a POSTed notification or
 * response gets 202. GET opens a stream for the messages the server starts
 * itself; DELETE ends the session. SSE events carry ids "NUM-SEQ" (the
 * stream's number in the session, the event's on the stream); the last
 * events of each stream are kept (bounded), and a GET with Last-Event-ID
 * continues that stream: its later events are replayed, then it goes on. Origin and Host must be loopback names
 * (403 otherwise), an unknown MCP-Protocol-Version is 400 (with an
 * UnsupportedProtocolVersionError), a request without the session id is 400
 * and one with an unknown or ended session is 404.
 *
 * The stateless revision (2026-07-28) needs no session: its requests are
 * served by one session-less handler after their request metadata headers
 * are checked against the body (httpmodern.c); it has no GET stream, no
 * DELETE and no resumption.
 *
 * Connections run one thread each; every session's handler runs under one
 * lock, and a timer thread (the caller's) runs the handlers' timers.
 */
#ifndef MC_REFSERVER_HTTPSERVE_H
#define MC_REFSERVER_HTTPSERVE_H

#include "refserver/refserver.h"

/* The HTTP violation switches: each breaks one transport rule. */
#define RS_HTTP_BUG_MAP(XX)                                                                      \
    XX(NOTIFICATION_200, "http-notification-200", "MUST",                                        \
       "a POSTed notification gets 200 instead of 202 Accepted")                                  \
    XX(SESSION_OPTIONAL, "http-session-optional", "SHOULD",                                      \
       "a request without Mcp-Session-Id is served instead of refused with 400")                 \
    XX(SESSION_AFTER_DELETE, "http-session-after-delete", "MUST",                                \
       "a session ended by DELETE still answers instead of 404")                                 \
    XX(FOREIGN_ORIGIN, "http-foreign-origin", "MUST",                                            \
       "a foreign Origin header is accepted (no DNS-rebinding protection)")                      \
    XX(SSE_NO_DATA, "http-sse-no-data", "INFO",                                                  \
       "every SSE stream starts with an event that has no data field")                           \
    XX(RESPONSE_WRONG_STREAM, "http-response-wrong-stream", "MUST",                              \
       "responses go out on the GET stream when one is open, not on their POST's stream")       \
    XX(SESSION_ID_INVISIBLE, "http-session-id-space", "MUST",                                    \
       "session ids contain a space (outside visible ASCII)")                                    \
    XX(SSE_EVENT_ID_REUSED, "http-sse-event-id-reused", "MUST",                                  \
       "SSE event ids restart at 1 on every stream, so the streams of a session share ids")      \
    XX(RESUME_OTHER_STREAM, "http-resume-other-stream", "MUST",                                  \
       "a GET with Last-Event-ID replays the later events of every stream, not of its own only") \
    XX(HEADER_MISMATCH_ACCEPTED, "http-header-mismatch-accepted", "MUST",                        \
       "2026-07-28: a request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name header is "     \
       "missing or disagrees with its body is served instead of refused with 400 and -32020")  \
    XX(HEADER_WRONG_ERROR, "http-header-wrong-error", "MUST",                                    \
       "2026-07-28: a request refused for its standard headers gets 200 and -32600 instead of "  \
       "400 and -32020 (HeaderMismatch)")                                                          \
    XX(PARAM_HEADER_IGNORED, "http-param-header-ignored", "MUST",                                \
       "2026-07-28: an Mcp-Param-{Name} header that disagrees with the tool argument it "        \
       "mirrors, or is missing, is accepted")                                                    \
    XX(SSE_BUFFERED, "http-sse-buffered", "SHOULD",                                              \
       "2026-07-28: SSE answers come without X-Accel-Buffering: no")                             \
    XX(STATELESS_SESSION_ID, "http-stateless-session-id", "SHOULD",                              \
       "2026-07-28: every answer carries a freshly minted Mcp-Session-Id")                       \
    XX(PARAM_HEADER_DUPLICATE, "http-param-header-duplicate", "MUST",                            \
       "2026-07-28: tools/list gives test_header_param two x-mcp-header annotations with the "   \
       "same name (Region)")                                                                    \
    XX(LISTEN_ON_REQUEST_STREAM, "http-listen-on-request-stream", "MUST",                        \
       "2026-07-28: change notifications go out on the stream of the request being served, "     \
       "not on their subscriptions/listen stream")                                               \
    XX(META_MISSING_200, "http-meta-missing-200", "MUST",                                        \
       "2026-07-28: a request missing a required _meta field gets -32602 with 200 instead of "   \
       "400 Bad Request")                                                                        \
    XX(UNSUPPORTED_VERSION_NULL_ID, "http-unsupported-version-null-id", "MUST",                  \
       "the UnsupportedProtocolVersionError refusing a request for its MCP-Protocol-Version "     \
       "header carries id null instead of the request's id")                                  \
    XX(UNREADABLE_BODY_200, "http-unreadable-body-200", "MUST",                                  \
       "a POSTed body that is no JSON-RPC message is refused with its JSON-RPC error and 200 "   \
       "instead of an HTTP error status")                                                        \
    XX(PARAM_HEADER_OMITTED_ACCEPTED, "http-param-header-omitted-accepted", "MUST",              \
       "2026-07-28: a tools/call without the Mcp-Param-{Name} header of an argument it carries " \
       "is served instead of refused")                                                           \
    XX(PARAM_HEADER_EXPECTED, "http-param-header-expected", "MUST",                              \
       "2026-07-28: a tools/call whose x-mcp-header argument is null or absent is refused for "  \
       "lacking its Mcp-Param-{Name} header")                                                    \
    XX(HEADER_NAME_CASE, "http-header-name-case", "MUST",                                        \
       "2026-07-28: Mcp-Param-{Name} headers are found only when their name is spelled as the "  \
       "x-mcp-header annotation is (case-sensitive header names)")                               \
    XX(PROTOCOL_VERSION_REQUIRED, "http-protocol-version-required", "SHOULD",                    \
       "a request of a session without the MCP-Protocol-Version header is refused with 400 "     \
       "instead of served")                                                                      \
    XX(SSE_CLOSE_NO_RETRY, "http-sse-close-no-retry", "SHOULD",                                  \
       "an SSE answer to a POST ends after a priming event without a retry field, before its "   \
       "response, at every version")                                                             \
    XX(SSE_AFTER_RESPONSE, "http-sse-after-response", "SHOULD",                                  \
       "an SSE answer to a POST carries a log message after its response")                      \
    XX(CAPABILITY_REQUIRED_200, "http-capability-required-200", "MUST",                          \
       "2026-07-28: a request needing a client capability it did not declare gets -32021 with "  \
       "200 instead of 400 Bad Request")                                                         \
    XX(TASKS_GET_SSE, "http-tasks-get-sse", "SHOULD",                                            \
       "2025-11-25: tasks/get is answered on an SSE stream, though its answer is ready at once") \
    XX(BROADCAST, "http-broadcast", "MUST",                                                      \
       "a notification or request sent on a POST's SSE stream goes out on the GET stream too")   \
    XX(PROGRESS_ON_GET, "http-progress-on-get", "SHOULD",                                        \
       "progress reports of a running request go out on the GET stream, not on its POST's")     \
    XX(PROGRESS_OTHER_STREAM, "http-progress-other-stream", "SHOULD",                            \
       "progress reports go out on the SSE stream of another running request that has a "        \
       "progress token, when there is one")                                                     \
    XX(VERSION_HEADER_OPTIONAL, "http-version-header-optional", "MUST",                          \
       "2026-07-28: the server supports no client older than 2025-06-18 (an initialize asking "  \
       "for 2025-03-26 is answered with 2025-06-18), yet serves a request without "               \
       "MCP-Protocol-Version as the version its _meta names")                                    \
    XX(SSE_NO_PRIMING, "http-sse-no-priming", "SHOULD",                                          \
       "2025-11-25: an SSE answer to a request starts with its first message, without the "     \
       "priming event (an event id and empty data)")                                            \
    XX(DISCONNECT_CANCELS, "http-disconnect-cancels", "SHOULD",                                  \
       "a tools/call answered on an SSE stream is cancelled once the stream's first messages "   \
       "are out, as if its connection had been dropped, and the stream ends without the "      \
       "response")                                                                               \
    XX(LEGACY_ENDPOINT_NOT_FIRST, "http-legacy-endpoint-not-first", "MUST",                      \
       "2024-11-05 HTTP+SSE: the SSE stream starts with a message event (a log notification); "  \
       "the endpoint event comes second")                                                        \
    XX(LEGACY_NOTIFICATION_REFUSED, "http-legacy-notification-refused", "MUST",                  \
       "2024-11-05 HTTP+SSE: a notification POSTed to the endpoint event's URI gets 400 (the "   \
       "endpoint takes requests only)")

typedef enum rs_http_bug {
    RS_HTTP_BUG_NONE = 0,
#define RS__XX(name, id, level, desc) RS_HTTP_BUG_##name,
    RS_HTTP_BUG_MAP(RS__XX)
#undef RS__XX
} rs_http_bug_t;

/* The switch named name, or RS_HTTP_BUG_NONE when it is not an HTTP switch. */
rs_http_bug_t mc_refserver_http_bug(const char *name);

/* Writes the HTTP switches in --list-bugs form (NAME, level, rule, spec
 * reference), one line per call of fn. */
void mc_refserver_http_list_bugs(void (*fn)(void *ctx, const char *line), void *ctx);


/* Flags of mc_refserver_http_serve. */
/* SSE polling: every SSE answer to a POST starts with a priming event (an
 * id, a retry field, empty data) and its connection closes once the
 * messages ready at once are sent; the client resumes the stream with GET
 * and Last-Event-ID to get the rest. */
#define MC_REFSERVER_HTTP_SSE_POLL 1u

/*
 * Serves MCP over HTTP on addr ("IPV4:PORT", port 0 picks one) until *stop
 * becomes non-zero. Once listening it calls on_listen with the endpoint URL
 * ("http://HOST:PORT/mcp", the port the system picked filled in). opts are
 * the handler options of every session (opts->inject must not name an HTTP
 * switch; pass that as bug); flags are MC_REFSERVER_HTTP_*. Returns MC_OK after a clean stop, or MC_EINVAL
 * (bad address), MC_EIO (cannot listen), MC_ENOMEM with eb filled.
 */
int mc_refserver_http_serve(const mc_refserver_opts_t *opts, rs_http_bug_t bug, unsigned flags,
                            const char *addr,
                            volatile int *stop, void (*on_listen)(void *ctx, const char *url),
                            void *ctx, mc_errbuf_t *eb);

#endif /* MC_REFSERVER_HTTPSERVE_H */
