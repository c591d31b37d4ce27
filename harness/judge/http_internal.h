/*
 * http_internal.h - what the judge's http rules share (http_rules.c,
 * http_related.c, http_events.c, http_legacy.c): the streams of the HTTP transport as
 * its records told them, and the tables of the rules. Private to judge/.
 */
#ifndef MC_JUDGE_HTTP_INTERNAL_H
#define MC_JUDGE_HTTP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/record.h"
#include "judge/judge.h"

/* Streams followed at once (the transport's MC_HTTP_MAX_STREAMS); a start
 * past this forgets the oldest. */
#define MC_JUDGE_HTTP_MAX_STREAMS 64
/* Messages of the server remembered by their key (http/message-on-one-stream). */
#define MC_JUDGE_HTTP_MAX_MESSAGES 4096
/* SSE event ids remembered per session, to judge that no two streams use
 * the same one; past this the oldest are forgotten. */
#define MC_JUDGE_HTTP_MAX_EVENT_IDS 4096
/* Progress tokens of the client's requests remembered. */
#define MC_JUDGE_HTTP_MAX_TOKENS 256
/* The longest method name a stream keeps. */
#define MC_JUDGE_HTTP_MAX_METHOD 48
/* Bytes of the words naming the first message unrelated to a stream's request. */
#define MC_JUDGE_HTTP_MAX_UNRELATED 120
/* The longest tool name whose annotations are judged (the transport's). */
#define MC_JUDGE_HTTP_MAX_TOOL_NAME 128
/* Bytes of an HTTP finding's detail. */
#define MC_JUDGE_HTTP_DETAIL_MAX 240

/* One stream of the transport, from its start record to its end record. */
typedef struct mc__jstream {
    int used;
    mc_stream_kind_t kind;
    unsigned num;
    unsigned resumes;        /* a GET resuming POST#resumes, 0 none */
    unsigned origin;         /* the stream it carries on: its own num, or the one resumed */
    unsigned flags;          /* the start record's MC_RS_* */
    char req_id[MC_RECORD_MAX_ID + 1];    /* the request's id, compact JSON, "" none */
    char req_method[MC_JUDGE_HTTP_MAX_METHOD]; /* its method, "" none or too long */
    char req_token[MC_RECORD_MAX_ID + 1]; /* its progressToken, compact JSON, "" none */
    int answered;            /* the response to req_id came on this stream */
    int after_response;      /* messages that came after it */
    int server_requests;     /* JSON-RPC requests of the server's that came on it */
    int method_not_found;    /* a JSON body's error code was -32601 */
    char unrelated[MC_JUDGE_HTTP_MAX_UNRELATED]; /* the first message unrelated to the request */
} mc__jstream_t;

/* A hash remembered with the stream it came on. */
typedef struct mc__jseen {
    uint64_t hash;
    unsigned origin;
    int is_get;
} mc__jseen_t;

struct mc__judge_http {
    mc__jstream_t streams[MC_JUDGE_HTTP_MAX_STREAMS];
    mc__jseen_t msgs[MC_JUDGE_HTTP_MAX_MESSAGES];
    size_t msgs_head, msgs_count;
    mc__jseen_t tokens[MC_JUDGE_HTTP_MAX_TOKENS]; /* origin 1: two requests carried it */
    size_t tokens_head, tokens_count;
    mc__jseen_t ids[MC_JUDGE_HTTP_MAX_EVENT_IDS]; /* SSE event ids and their streams */
    size_t ids_head, ids_count;
    /* HTTP+SSE (2024-11-05) */
    int endpoint_judged;    /* the first event of the SSE stream was judged */
    int endpoint_known;     /* an endpoint event named a usable URI */
    int endpoint_bad;       /* ... one named none: the session went no further */
    char probe_id[MC_RECORD_MAX_ID + 1]; /* the first initialize POSTed to the endpoint */
    int probe_state;        /* 0 none, 1 accepted (2xx), 2 its response came on the stream */
    json_object *last;      /* the last message judged (its result is lent to the transport) */
};

/* The rules' state of j, made on first use; NULL out of memory. */
struct mc__judge_http *mc__judge_http_state(mc_judge_t *j);

/* The stream num of kind k, or NULL. */
mc__jstream_t *mc__jhttp_stream(struct mc__judge_http *jh, mc_stream_kind_t k, unsigned num);

/* Records an evaluation of an http check: a pass, or a finding with its
 * detail (cut at MC_JUDGE_HTTP_DETAIL_MAX) and the HTTP status it is about
 * (0 none) and whether the POST carried no request id the transport kept. */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
void mc__jhttp_verdict(mc_judge_t *j, const char *check, int pass, long status, int unread,
                       const char *fmt, ...);


/* ---- http_events.c: SSE events ---- */

/* Judges an SSE event record (http/sse-event-id-unique,
 * http/resume-own-stream, http/sse-event-has-data); reply's
 * MC_RR_REDELIVERY marks an event a resumption repeats of its own stream. */
void mc__jhttp_event(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r,
                     mc_record_reply_t *reply);

/* ---- http_legacy.c: the HTTP+SSE transport of 2024-11-05 ---- */

/* An event of the SSE stream before its endpoint was known. */
void mc__jhttp_legacy_event(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r);
/* The transport gave up waiting for the endpoint event. */
void mc__jhttp_legacy_no_endpoint(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r);
/* A POST to the endpoint started: the first initialize is the probe. */
void mc__jhttp_legacy_start(struct mc__judge_http *jh, const mc_record_t *r);
/* A message o on the SSE stream: the probe's response. */
void mc__jhttp_legacy_message(mc_judge_t *j, struct mc__judge_http *jh, json_object *o);
/* The SSE stream or a POST to the endpoint ended. */
void mc__jhttp_legacy_end(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r);
/* The session ends: a probe accepted but never answered. */
void mc__jhttp_legacy_close(mc_judge_t *j, struct mc__judge_http *jh);

/* ---- http_related.c: where a message may come (up to 2025-11-25) ---- */

/* Notes that a request carried the progress token tok (compact JSON). */
void mc__jhttp_note_token(struct mc__judge_http *jh, const char *tok);
/* Judges message o, which stream s delivered, in a session of the
 * initialize era (http/message-on-one-stream, http/get-stream-unrelated,
 * and the progress of another request on a POST's stream, noted in
 * s->unrelated). */
void mc__jhttp_placement(mc_judge_t *j, mc__jstream_t *s, json_object *o);
/* Judges the end of a POST stream of the initialize era that carried a
 * request (http/sse-priming-event, http/request-stream-related). */
void mc__jhttp_related_end(mc_judge_t *j, const mc__jstream_t *s, const mc_record_t *r);
/* Notes in s->unrelated a notification o on the SSE answer to a stateless
 * request that does not relate to that request. */
void mc__jhttp_note_unrelated(mc__jstream_t *s, json_object *o);

#endif /* MC_JUDGE_HTTP_INTERNAL_H */
