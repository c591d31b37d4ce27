/*
 * http.h - the MCP Streamable HTTP transport, client side, on libcurl.
 *
 * Every message the session sends is one HTTP POST to the endpoint, with
 * "Accept: application/json, text/event-stream"; the answer is a JSON body,
 * an SSE stream, or 202 with no body. The Mcp-Session-Id the server assigns
 * at initialize is kept and sent on every later request, and after the
 * initialize result names a version of 2025-06-18 or later the
 * MCP-Protocol-Version header goes with every request too. After
 * notifications/initialized is accepted an optional GET stream is opened for
 * messages the server starts itself. mc_http_close() ends the session with
 * a DELETE.
 *
 * All transfers run on one curl multi handle, so any number of POST streams
 * (up to MC_HTTP_MAX_STREAMS) and the GET stream are open at once. Every
 * JSON-RPC message that arrives, from a JSON body or an SSE event, becomes
 * one record of the link (core/record.h) with its HTTP facts typed (the
 * stream, status, content type, session id, SSE event id) in
 * mc_record_t.facts. What the HTTP rules need that is no message (a
 * stream's start and end, its SSE events, each message as it arrives) is
 * handed as records to a sink, the session's judge (mc_http_set_sink),
 * which judges the rules; each exchange leaves a note for the transcript.
 *
 * Memory is bounded: received frames wait in a queue capped like stdio's
 * (the transfers pause while it is full), bodies and SSE events are capped
 * (client/http_limits.h), and notes are a ring of fixed size.
 */
#ifndef MC_CLIENT_HTTP_H
#define MC_CLIENT_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "client/link.h"
#include "core/record.h"
#include "core/error.h"

typedef struct mc_http mc_http_t;

/* Which HTTP transport a client speaks. */
typedef enum mc_http_transport {
    /* Streamable HTTP; when the server answers the initialize POST with 404
     * or 405, the HTTP+SSE transport of 2024-11-05 at the same URL (the
     * backwards compatibility procedure of the 2025-03-26 transports page). */
    MC_HTTP_TRANSPORT_AUTO = 0,
    MC_HTTP_TRANSPORT_STREAMABLE, /* Streamable HTTP only */
    MC_HTTP_TRANSPORT_SSE         /* HTTP+SSE only: GET the URL, POST to its endpoint event */
} mc_http_transport_t;

typedef struct mc_http_opts {
    const char *url;    /* the MCP endpoint, http://HOST:PORT/PATH (HTTP+SSE: the SSE endpoint) */
    const char *origin; /* an Origin header to send, or NULL for none */
    int get_stream;     /* open the GET stream once the session is initialized */
    int allow_remote;   /* allow a host that is not a loopback address */
    mc_http_transport_t transport;
    int sse_if_offered; /* SSE: a GET of the URL not answered with an SSE stream means the
                           server does not offer HTTP+SSE there (mc_http_sse_absent), not
                           that it broke a rule of it */
} mc_http_opts_t;

/*
 * Checks that url is an http:// URL of a loopback host (unless
 * allow_remote) and fills host/port. Returns MC_OK or MC_EINVAL with a
 * reason in eb.
 */
int mc_http_url_check(const char *url, int allow_remote, char *host, size_t host_cap, int *port,
                      mc_errbuf_t *eb);

/* Creates a transport; connects nothing yet. NULL and eb on failure. */
mc_http_t *mc_http_new(const mc_http_opts_t *opts, mc_errbuf_t *eb);

/*
 * Sets where h hands the records of what is no message (core/record.h:
 * the session id adopted, the end of a stream's transfer): the judge's
 * http rules take them (mc_judge_http_sink with the judge as ctx). Without
 * a sink they go nowhere. ctx is borrowed and must outlive h.
 */
void mc_http_set_sink(mc_http_t *h, mc_record_sink_fn fn, void *ctx);

/* A link that sends and receives through h. */
mc_link_t mc_http_link(mc_http_t *h);

/* Opens the GET stream (when the options ask for it); the caller does this
 * once notifications/initialized has been sent. */
void mc_http_after_handshake(mc_http_t *h);

/* The session id the server assigned, or NULL. */
const char *mc_http_session_id(const mc_http_t *h);

/* The protocol version the transport sends in MCP-Protocol-Version, or "". */
const char *mc_http_protocol_version(const mc_http_t *h);

/* The transport in use: "streamable-http", "http+sse", or "auto" while
 * nothing was sent yet. */
const char *mc_http_transport_name(const mc_http_t *h);

/* True when the HTTP+SSE transport was tried with sse_if_offered and the
 * GET of the URL got no SSE stream: the server does not offer it there. */
int mc_http_sse_absent(const mc_http_t *h);

/* The first transport-level failure (connection refused, not HTTP, ...),
 * or NULL when there was none. */
const char *mc_http_failure(const mc_http_t *h);

/* Describes in words what went wrong or what is still pending (the first
 * failure, else the state of the oldest open POST) into buf; "" when
 * nothing is amiss. */
void mc_http_describe(mc_http_t *h, char *buf, size_t cap);

/* Takes the oldest transcript note ("POST#3 -> 202 (no body)") into buf.
 * Returns 1 when one was taken, 0 when none is left. */
int mc_http_take_note(mc_http_t *h, char *buf, size_t cap);

/*
 * Ends the session: closes the GET stream and every open transfer and, when
 * the server assigned a session id, sends DELETE with it (waiting at most
 * timeout_ms). *status gets the DELETE's HTTP status (0: none was sent or
 * it failed). Returns MC_OK or MC_ETIMEOUT.
 */
int mc_http_close(mc_http_t *h, int timeout_ms, long *status);

/* Frees everything. NULL is allowed. */
void mc_http_free(mc_http_t *h);

/* One HTTP exchange outside the session, for the transport scenarios. */
typedef struct mc_http_exchange {
    long status;                  /* 0 when no HTTP answer came */
    char ctype[128];              /* Content-Type of the answer */
    char session_id[260];         /* Mcp-Session-Id of the answer */
    char allow[128];              /* Allow header of the answer */
    char *body;                   /* owned: up to MC_HTTP_MAX_BODY bytes, NUL-terminated */
    size_t body_len;
    int body_truncated;
    char error[240];              /* transport failure, "" when none */
    int complete;                 /* the answer ended by itself: not cut by the timeout, the
                                     event count or the body cap */
} mc_http_exchange_t;

/*
 * Sends one request (method "POST", "GET" or "DELETE") to url with the given
 * extra header lines ("Name: value", NULL-terminated list, may be NULL) and
 * body (may be NULL), and collects the answer. A GET or an SSE answer is
 * read until it ends, timeout_ms passes or sse_events events arrived
 * (0 = until it ends). Returns MC_OK when an HTTP answer came (whatever its
 * status), MC_ETIMEOUT or MC_EIO (x->error says why).
 */
int mc_http_exchange(const char *url, const char *method, const char *const *headers,
                     const char *body, size_t body_len, int timeout_ms, int sse_events,
                     mc_http_exchange_t *x);

/* Frees an exchange's body. */
void mc_http_exchange_free(mc_http_exchange_t *x);

/* Internal, shared by the transport and the one-shot exchanges: copies the
 * value of the header line line[0..n) ("Name: value\r\n", value trimmed)
 * into out (cap bytes, always terminated); leaves out alone when the line
 * has no ':'. */
void mc__http_header_value(const char *line, size_t n, char *out, size_t cap);
/* True when the header line line[0..n) is the header name (any case). */
int mc__http_header_is(const char *line, size_t n, const char *name);

#endif /* MC_CLIENT_HTTP_H */
