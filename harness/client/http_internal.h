/*
 * http_internal.h - the pieces of the Streamable HTTP client shared by its
 * files: http.c (URL rules, the link, life), http_frames.c (notes, the
 * frame queue, the records handed to the sink), http_stream.c (the
 * transfers: start, curl callbacks, a finished transfer's records,
 * resumption), http_legacy.c (HTTP+SSE) and http_headers.c (2026-07-28
 * request metadata). Internal to the client layer; it judges nothing.
 */
#ifndef MC_CLIENT_HTTP_INTERNAL_H
#define MC_CLIENT_HTTP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "client/http.h"
#include "client/http_limits.h"
#include "client/sse.h"

/* A record keeps every fact the transport holds, uncut. */
_Static_assert(MC_SSE_MAX_ID <= MC_RECORD_MAX_EVENT_ID, "an SSE event id fits a record");
_Static_assert(MC_HTTP_MAX_SESSION_ID <= MC_RECORD_MAX_SESSION_ID, "a session id fits a record");
_Static_assert(MC_HTTP_MAX_CTYPE <= MC_RECORD_MAX_CTYPE, "a content type fits a record");
_Static_assert(MC_HTTP_MAX_REQ_ID <= MC_RECORD_MAX_ID, "a request id fits a record");

#define NOTE_RING 256
#define NOTE_LEN 200
/* Longest single wait in the transfer loop; the caller's deadline bounds the sum. */
#define WAIT_SLICE_MS 1000

typedef enum stream_kind { ST_POST, ST_GET, ST_DELETE } stream_kind_t;

typedef struct stream {
    mc_http_t *h;
    CURL *easy;
    struct curl_slist *hdrs;
    stream_kind_t kind;
    unsigned num;           /* POST#num in the notes */
    int carries_request;    /* the POST body expects an answer: a JSON-RPC request, or
                               malformed input (anything but a notification or response) */
    int malformed;          /* ... the body is no valid JSON-RPC message at all */
    int single;             /* ... the body is one well-formed JSON-RPC message (an object) */
    int id_unkept;          /* ... a valid id past MC_HTTP_MAX_REQ_ID (req_id is "") */
    int token_unkept;       /* ... a progressToken past MC_HTTP_MAX_REQ_ID: its progress
                               cannot be told from another's */
    int is_initialize;      /* ... an initialize request */
    int is_initialized;     /* ... notifications/initialized */
    int is_response;        /* ... a well-formed JSON-RPC response (carries_request 0) */
    char req_id[MC_HTTP_MAX_REQ_ID + 1]; /* the request's id, compact JSON; "" none or too long */
    long status;
    int headers_done;
    size_t header_bytes;
    int header_overflow;
    char ctype[MC_HTTP_MAX_CTYPE];
    char session_id[MC_HTTP_MAX_SESSION_ID + 4];
    char location[128];
    int is_sse, is_json;
    int modern;             /* a POST of a stateless revision (its metadata headers were sent) */
    char accel[16];         /* the answer's X-Accel-Buffering, "" when none */
    char req_method[48];    /* the request's method ("" none or too long) */
    mc_sse_t sse;
    char *body;             /* JSON or other body, capped */
    size_t body_len, body_cap, body_max;
    int body_over;
    uint64_t bytes;
    unsigned frames;        /* frames delivered from this stream */
    int responses;          /* JSON-RPC responses seen on this stream */
    int paused;
    int first_event;        /* an SSE event arrived on this stream */
    int primed;             /* ... and the first was an id with empty data (a priming event) */
    int done;
    CURLcode result;
    unsigned origin;        /* the stream this one carries on: its own num, or the POST it resumes */
    unsigned resume_of;     /* a resumption (GET with Last-Event-ID) of POST#resume_of, or 0 */
    int answered;           /* the response to req_id arrived on this stream */
    unsigned new_events;    /* events with a message not delivered before */
    int legacy_sse;         /* the SSE stream of the HTTP+SSE transport */
    char last_id_in[MC_SSE_MAX_ID + 1]; /* a resumption: the Last-Event-ID it sent */
    long retry_in;          /* a resumption: the retry in force when it started, -1 none */
    int attempts_in;        /* a resumption: its attempt number */
    int total_in;           /* a resumption: resumptions of the request so far, this one too */
} stream_t;

/* A resumption waiting for its time. */
typedef struct resume {
    int used;
    unsigned origin;        /* the POST whose stream is resumed */
    char req_id[MC_HTTP_MAX_REQ_ID + 1];
    char last_id[MC_SSE_MAX_ID + 1];
    long retry_ms;          /* the last retry field of the stream, -1 none */
    int attempts;           /* this attempt's number, in a row without a new event */
    int total;              /* resumptions of the request so far, this one too */
    int64_t due_ms;
} resume_t;

/* One x-mcp-header annotation of a tool's inputSchema. */
typedef struct mc_http_param {
    char header[MC_HTTP_MAX_PARAM_NAME];                          /* {Name} of Mcp-Param-{Name} */
    char path[MC_HTTP_MAX_PARAM_DEPTH][MC_HTTP_MAX_PARAM_NAME];   /* the properties keys to it */
    int depth;
} mc_http_param_t;

/* A tool and its annotations, learnt from a tools/list result. */
typedef struct mc_http_tool {
    char name[128];
    mc_http_param_t p[MC_HTTP_MAX_TOOL_PARAMS];
    int n;
} mc_http_tool_t;

struct mc_http {
    char *url;
    char *origin;
    int get_stream_wanted;
    CURLM *multi;
    stream_t *streams[MC_HTTP_MAX_STREAMS];
    stream_t *get;
    unsigned next_num;
    char session_id[MC_HTTP_MAX_SESSION_ID + 4];
    char version[32];
    int initialized_sent;
    mc_record_t *queue;     /* ring of MC_MAX_QUEUED_FRAMES */
    size_t q_head, q_count, q_bytes;
    char notes[NOTE_RING][NOTE_LEN];
    size_t n_head, n_count;
    mc_record_sink_fn sink;  /* where the records of what is no message go (the judge), or NULL */
    void *sink_ctx;
    char failure[240];
    int gone;               /* the server cannot be reached any more */
    int64_t late_deadline;  /* the deadline frames were last delivered past */
    unsigned late_frames;   /* frames delivered past late_deadline */
    resume_t resumes[MC_HTTP_MAX_STREAMS];
    char modern_version[32]; /* the stateless version the requests carry in _meta, "" none yet */
    mc_http_tool_t *tools;  /* MC_HTTP_MAX_TOOLS, allocated on first use */
    size_t tools_n, tools_next;
    /* the requestId of the last MC_HTTP_MAX_CANCELLED cancellations, compact JSON */
    char cancelled[MC_HTTP_MAX_CANCELLED][MC_HTTP_MAX_REQ_ID + 1];
    unsigned cancelled_next;
    /* HTTP+SSE (2024-11-05) */
    mc_http_transport_t transport; /* as asked */
    int legacy;             /* the HTTP+SSE transport is in use */
    int decided;            /* AUTO: the first initialize POST told which transport */
    stream_t *sse;          /* its SSE stream, NULL once it ended */
    char *post_url;         /* the endpoint event's URI, resolved; NULL until it came */
    int endpoint_seen;      /* an event of the SSE stream came before its endpoint was known */
    int sse_if_offered;     /* see mc_http_opts_t */
    int sse_absent;         /* ... and the GET got no SSE stream */
    int fell_back;          /* AUTO: HTTP+SSE after a 404/405 to the initialize POST */
    int endpoint_bad;       /* the endpoint event named no usable URI: not followed */
};

/* ---- http_legacy.c: the HTTP+SSE transport of 2024-11-05 ---- */

/* Opens the SSE stream of the HTTP+SSE transport at h->url and waits (up to
 * deadline_ms and MC_HTTP_SSE_ENDPOINT_WAIT_MS) for its endpoint event.
 * Returns MC_OK once h->post_url is known, else MC_EEXITED (h->failure says
 * why; the judge has the record of it). */
int mc__http_legacy_connect(mc_http_t *h, int64_t deadline_ms);
/* The SSE event callback of the HTTP+SSE stream. Always returns 0. */
int mc__http_legacy_event(mc_http_t *h, stream_t *s, const mc_sse_event_t *ev);
/* Records a finished transfer of the HTTP+SSE transport (for the judge,
 * and the failure that ends the session). */
void mc__http_legacy_finished(mc_http_t *h, stream_t *s);
/* Reads what is still on the way and hands the judge the session's end
 * (a request accepted but never answered on the stream is its finding). */
void mc__http_legacy_close(mc_http_t *h);
/* Resolves the URI reference ref against base (both http://); refuses one of
 * another origin (scheme, host, port). Returns a new string or NULL with the
 * reason in why. */
char *mc__http_resolve_same_origin(const char *base, const char *ref, char *why, size_t cap);

/* ---- http_headers.c: 2026-07-28 request metadata ---- */

/* Appends to *list the request metadata headers of the POST body
 * body[0..len) when it is of a stateless revision (its _meta names the
 * version, or an earlier request of the transport's did). Returns 1 when
 * it is (the headers were added), 0 when it is not, -1 out of memory. */
int mc__http_metadata_headers(mc_http_t *h, const char *body, size_t len,
                              struct curl_slist **list);
/* Learns the x-mcp-header annotations of the tools of a tools/list result. */
void mc__http_learn_tools(mc_http_t *h, json_object *result);

/* Records a note for the transcript (a ring of NOTE_RING; the oldest goes). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void mc__http_note(mc_http_t *h, const char *fmt, ...);

/* Hands the sink a record of what is no message (what) about stream s
 * (NULL: of no stream), with st, s's facts and the id its request
 * carried; nothing without a sink. */
void mc__http_emit(mc_http_t *h, const stream_t *s, mc_record_what_t what,
                   mc_record_stream_t *st);
/* The same with bytes (borrowed for the call): an event's data. */
void mc__http_emit_data(mc_http_t *h, const stream_t *s, mc_record_what_t what,
                        mc_record_stream_t *st, const char *data, size_t len);
/* Hands the sink the record of what stream s's request carried
 * (MC_REC_STREAM_START), once s->req_* are set; token is its progressToken
 * (compact JSON, uncut), NULL none. */
void mc__http_emit_start(mc_http_t *h, const stream_t *s, const char *token);

/* 1 when the frame queue cannot take more bytes (or any frame). */
int mc__http_queue_full(const mc_http_t *h, size_t more);

/* Queues one frame with its facts. kind OVERSIZE takes len as bytes skipped.
 * Returns 1 when the frame was queued (it is then the newest), 0 when it was
 * dropped (out of memory, or the queue full). */
int mc__http_push_frame(mc_http_t *h, stream_t *s, mc_frame_kind_t kind, const char *data,
                        size_t len, const char *event_id);

/*
 * True when s belongs to a stateless revision (2026-07-28): its POST carried
 * that revision's metadata, or the session already spoke it. Such a
 * revision has no sessions, no GET stream and no resumption
 * (streamable-http#earlier-streamable-http-revisions), so the rules of those
 * mechanisms are not judged on it, and its streams are not resumed.
 */
int mc__http_stateless(const mc_http_t *h, const stream_t *s);

/* Hands the sink a message as it arrives on s and takes back what the
 * transport needs of it (see http_frames.c). */
void mc__http_emit_message(mc_http_t *h, stream_t *s, const char *data, size_t len,
                              const char *event_id);

/* The SSE parser's event callback; ctx is the stream. Always returns 0. */
int mc__http_on_sse_event(void *ctx, const mc_sse_event_t *ev);

/* Creates and starts a transfer. body and last_event_id (a GET that resumes
 * a stream) may be NULL. Returns the stream or NULL. */
stream_t *mc__http_stream_start(mc_http_t *h, stream_kind_t kind, const char *body, size_t len,
                                const char *last_event_id);

/* Ends a transfer and frees the stream; NULL is ignored. */
void mc__http_stream_free(stream_t *s);

/* Reads completions off the multi handle and retires finished streams. */
void mc__http_reap(mc_http_t *h);

/* Resumes transfers paused on a full queue once there is room. */
void mc__http_unpause(mc_http_t *h);

/* Runs transfers, waiting at most timeout_ms for activity. */
void mc__http_pump(mc_http_t *h, int timeout_ms);

#endif /* MC_CLIENT_HTTP_INTERNAL_H */
