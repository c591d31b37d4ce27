/*
 * httpint.h - what the Streamable HTTP server's two files share:
 * httpserve.c (requests: checks, POST/GET/DELETE, resumption, serving) and
 * httpsess.c (sessions, their SSE streams, routing of emitted messages).
 * Nothing else includes it. Every function here expects hs->mu held unless
 * it says otherwise.
 */
#ifndef MC_REFSERVER_HTTPINT_H
#define MC_REFSERVER_HTTPINT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "core/limits.h"
#include "refserver/httpserve.h"
#include "refserver/refserver.h"

/* Sessions served at once; an initialize past this is refused with 503. */
#define HS_MAX_SESSIONS 256
/* Bytes waiting to be sent on one stream; past it the stream is ended. */
#define HS_MAX_STREAM_BYTES (4u * MC_MAX_MESSAGE_SIZE)
/* Messages kept for a GET stream that is not open yet. */
#define HS_MAX_BACKLOG 256
/* A session nobody used for this long is dropped. */
#define HS_IDLE_SESSION_MS (10 * 60 * 1000)
/* Seconds an idle keep-alive connection is kept. */
#define HS_CONNECTION_TIMEOUT_S 120
/* Longest wait of a stream's writer before it checks for shutdown. */
#define HS_READER_WAIT_MS 200
/* An idle stream sends an SSE comment this often, so a client that went
 * away is noticed (the write fails) and its stream freed. */
#define HS_KEEPALIVE_MS 1000
/* Longest sleep of the timer loop. */
#define HS_TICK_MAX_MS 10
/* Connections served at once. */
#define HS_MAX_CONNECTIONS 512
/* Resumability: the last events of each stream are kept for a replay after
 * Last-Event-ID, at most this many and this many bytes (older ones are
 * dropped first; a message larger than the byte cap is never kept). */
#define HS_REPLAY_EVENTS 64
#define HS_REPLAY_BYTES (256u * 1024u)
/* Streams whose connection ended that a session keeps for resumption; the
 * oldest is forgotten past this. Worst case the replay buffers hold
 * HS_MAX_SESSIONS * HS_MAX_KEPT_STREAMS * HS_REPLAY_BYTES. */
#define HS_MAX_KEPT_STREAMS 16
/* The retry field of the priming event with --sse-poll (milliseconds). */
#define HS_POLL_RETRY_MS 100

#define ENDPOINT "/mcp"

typedef struct hs_sess hs_sess_t;

/* One event kept for a replay. */
typedef struct hs_event {
    unsigned seq;   /* its number on its stream */
    uint64_t order; /* its place among every event of the session */
    char *msg;      /* the message (owned, NUL-terminated) */
    size_t len;
} hs_event_t;

/*
 * A stream: a POST's answer or the GET stream. Its events carry ids
 * "NUM-SEQ" (the stream's number in the session, the event's number on the
 * stream), unique across the session and naming the stream, so a GET with
 * Last-Event-ID finds the stream and replays its later events. When the
 * connection that read it ends, the stream stays with its session
 * (detached), still collecting the messages meant for it, until it is
 * resumed or forgotten.
 */
typedef struct hs_stream {
    hs_sess_t *sess;
    int is_get;
    char req_id[64];      /* POST: the request's id as compact JSON */
    char *orig_id;        /* 2026-07-28: the client's id as compact JSON (owned, any
                             length), req_id being the handler's own; or NULL */
    char token[64];       /* POST: the request's progressToken as compact JSON, or "" */
    int answered;         /* the response went out (or elsewhere) */
    int finished;         /* no more bytes will be added */
    int attached;         /* a connection reads buf */
    int superseded;       /* a resumption took the stream over; only its old connection is left */
    int poll_close;       /* end the connection once buf is drained (--sse-poll) */
    unsigned num;         /* the stream's number in its session */
    unsigned seq;         /* events numbered so far */
    hs_event_t hist[HS_REPLAY_EVENTS]; /* ring of the last events */
    size_t h_head, h_count, h_bytes;
    char *buf;
    size_t len, cap, off;
    unsigned events;
    char *first;          /* the first message, kept for a JSON answer */
    size_t first_len;
    struct hs_stream *next;
} hs_stream_t;

struct hs_sess {
    int used, deleted;
    int stateless;         /* the one session-less handler of 2026-07-28 (httpmodern.c) */
    int legacy;            /* a session of the HTTP+SSE transport (httplegacy.c): every
                              message goes out on its GET stream */
    char id[48];
    mc_refserver_t *rs;
    hs_stream_t *streams;
    hs_stream_t *current;  /* the POST being handled */
    int64_t last_ms;
    char *backlog[HS_MAX_BACKLOG];
    size_t bl_n;
    unsigned next_stream;  /* the number of the last stream opened */
    uint64_t order;        /* events sent in the session so far */
};

typedef struct hs {
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* new bytes on some stream, or shutdown */
    hs_sess_t *sess;        /* HS_MAX_SESSIONS */
    hs_sess_t *modern;      /* the stateless session (2026-07-28), made at its first request */
    unsigned long modern_seq; /* the ids the stateless session's requests were given */
    const mc_refserver_opts_t *opts;
    rs_http_bug_t bug;
    unsigned flags;         /* MC_REFSERVER_HTTP_* */
    int stopping;
} hs_t;

typedef struct hs_req {
    char *body;
    size_t len, cap;
    int too_big;
} hs_req_t;

/* The server being run (the emit callback's way back; one per process). */
extern hs_t *mc__hs_g;

/* ---- httpsess.c: streams ---- */

/* Appends n bytes to the stream's connection buffer; -1 when the stream is
 * finished, past HS_MAX_STREAM_BYTES (it is then finished) or out of memory. */
int mc__hs_append(hs_stream_t *s, const char *a, size_t n);
/* The id of event seq of stream num, into out. */
void mc__hs_event_id(const hs_t *hs, unsigned num, unsigned seq, char *out, size_t cap);
/* Writes one SSE event with the given id into the stream's connection. */
void mc__hs_put_event(hs_stream_t *s, const char *id, const char *line, size_t len);
/* Adds one message as an SSE event: kept for a replay and, while a
 * connection reads the stream, sent. */
void mc__hs_push_event(hs_t *hs, hs_stream_t *s, const char *line, size_t len);
/* Links s into / out of its session's list; frees an unlinked stream. */
void mc__hs_stream_link(hs_sess_t *se, hs_stream_t *s);
void mc__hs_stream_unlink(hs_stream_t *s);
void mc__hs_stream_free(hs_stream_t *s);
/* A new stream of session se, numbered, linked, with a connection reading it. */
hs_stream_t *mc__hs_stream_new(hs_sess_t *se, int is_get);
/* Frees the detached streams of se (their connections are gone). */
void mc__hs_sess_free_detached(hs_sess_t *se);

/* ---- httpemit.c: where a session's handler's messages go ---- */

/* A session handler's emit callback (ctx: the hs_sess_t): routes the
 * message to the stream it belongs on, else to the backlog. */
void mc__hs_on_emit(void *ctx, const char *line, size_t len);

/* ---- httpsess.c: sessions ---- */

/* The response stream s of the stateless session se closed before its
 * answer: its request is cancelled (a listen ends, a tool call stops). */
void mc__hs_modern_cancel(hs_sess_t *se, const hs_stream_t *s);

/* Ends a session: its handler freed, its streams finished, marked deleted. */
void mc__hs_sess_drop(hs_t *hs, hs_sess_t *se);
/* A new session in a free slot (idle ones are dropped first), or NULL. */
hs_sess_t *mc__hs_sess_new(hs_t *hs);
/* The session with that id, or NULL (*was_deleted set when it was deleted). */
hs_sess_t *mc__hs_sess_find(hs_t *hs, const char *id, int *was_deleted);
/* The session used last, or NULL. */
hs_sess_t *mc__hs_sess_latest(hs_t *hs);

/* ---- httpsess.c: answers on a stream and resumption ---- */

/* Hands a linked stream to libmicrohttpd as an SSE answer. Called without
 * the lock. */
enum MHD_Result mc__hs_answer_sse(struct MHD_Connection *c, hs_stream_t *s, const char *sid);
/* The stream of se that sent the event with id lei, or NULL; *seq and
 * *order get the event's number on its stream and in the session. */
hs_stream_t *mc__hs_find_event(const hs_t *hs, hs_sess_t *se, const char *lei, unsigned *seq,
                               uint64_t *order);
/* Replays to `to` every kept event of the session after place order. */
void mc__hs_replay_session(const hs_t *hs, hs_sess_t *se, uint64_t order, hs_stream_t *to);

/* ---- httpserve.c ---- */

/* The one JSON value a POST body holds (a new reference), or NULL when it
 * is not strict JSON (RFC 8259, UTF-8) or has more than white space after
 * the value. */
json_object *mc__hs_parse_body(const char *body, size_t len);

/* ---- httpmodern.c: 2026-07-28 ---- */

/* True when a POST is of 2026-07-28: its MCP-Protocol-Version (pv) names a
 * stateless version, or, without a session id (sid), its body carries the
 * per-request protocol version or is server/discover or subscriptions/listen.
 * Called without the lock. */
int mc__hs_modern_wants(const char *pv, const char *sid, const char *body, size_t len);
/* Serves a POST of 2026-07-28: its headers checked, then the stateless
 * session's handler. Called without the lock. */
enum MHD_Result mc__hs_do_post_modern(hs_t *hs, struct MHD_Connection *c, hs_req_t *rq,
                                      const char *pv);
/* 400 with an UnsupportedProtocolVersionError naming the versions a request
 * may name in its _meta (those server/discover lists); id is the request's
 * id as compact JSON, or NULL when it could not be read. */
enum MHD_Result mc__hs_unsupported_version(hs_t *hs, struct MHD_Connection *c,
                                           const char *requested, const char *id);
/* The id of the request text holds as compact JSON, whatever its length
 * (malloc'd; the caller frees), or NULL when it holds no request whose id is
 * a string or an integer. */
char *mc__hs_body_id_dup(const char *text, size_t len);
/* --- httpsse.c --- */

/* Starts the SSE answer s to a request: the priming event from 2025-11-25,
 * and with polling a retry field and an early end (see httpsse.c). */
void mc__hs_prime(hs_t *hs, const hs_sess_t *se, hs_stream_t *s);
/* The switches that act on a POST's body: http-version-header-optional's
 * rewrite of an initialize, http-disconnect-cancels' dropped call. */
void mc__hs_no_old_clients(hs_req_t *rq);
void mc__hs_drop_call(hs_sess_t *se, hs_stream_t *s, const hs_req_t *rq);
/* A message of the stateless session bound for stream t with the client's
 * request id put back where the handler's own stands (the response id, the
 * subscription id of a listen notification): a new string (*out_len its
 * length), or NULL when nothing changes. */
char *mc__hs_modern_restore(const hs_stream_t *t, const char *line, size_t len, size_t *out_len);

/* ---- httplegacy.c: the HTTP+SSE transport of 2024-11-05 ---- */

/* A GET of the endpoint without a session id: a new session of the
 * HTTP+SSE transport, answered with its SSE stream, whose first event is
 * the endpoint event naming the URI to POST to. */
enum MHD_Result mc__hs_legacy_get(hs_t *hs, struct MHD_Connection *c);
/* A POST to the URI of an endpoint event (the endpoint with ?sessionId=):
 * the message goes to that session's handler, 202 Accepted; its answers go
 * out on the session's SSE stream. */
enum MHD_Result mc__hs_legacy_post(hs_t *hs, struct MHD_Connection *c, hs_req_t *rq,
                                   const char *session);
/* Sends an emitted message of a legacy session on its SSE stream. */
void mc__hs_legacy_emit(hs_t *hs, hs_sess_t *se, const char *line, size_t len);

#endif /* MC_REFSERVER_HTTPINT_H */
