/*
 * record.h - one message as a transport moved it: the record every
 * transport produces, the session and the judge take, and traces store.
 *
 * A record is a direction, the bytes of one message (or, for a line over
 * the size limit, the count of bytes skipped) and the transport's facts
 * about it, typed: the stream it came on (stdio has one; Streamable HTTP a
 * POST's answer, the GET stream or a resumption of a POST's stream; the
 * HTTP+SSE transport its one SSE stream), the HTTP status and content type
 * of that stream, the session id, the SSE event id, and for an HTTP error
 * status refusing a POSTed request, the id that request carried. A
 * transport fills the facts and judges nothing; the rules are the judge's.
 */
#ifndef MC_CORE_RECORD_H
#define MC_CORE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "core/frame.h"

/* The longest SSE event id kept (the SSE parser's cap). */
#define MC_RECORD_MAX_EVENT_ID 256u
/* The longest Mcp-Session-Id kept, and the longest Content-Type. */
#define MC_RECORD_MAX_SESSION_ID 256u
#define MC_RECORD_MAX_CTYPE 128u
/* The longest request id (compact JSON) a refusal names. */
#define MC_RECORD_MAX_ID 512u
/* The longest protocol version a stream record names. */
#define MC_RECORD_MAX_VERSION 32u
/* The facts in words ("POST#3 200 text/event-stream event-id=7"), at most
 * this many bytes with the terminator; longer text is cut. */
#define MC_RECORD_FACTS_TEXT 320u

/* The stream of a transport a record came on. */
typedef enum mc_stream_kind {
    MC_STREAM_NONE = 0, /* a transport of one stream (stdio): no facts */
    MC_STREAM_POST,     /* Streamable HTTP: the answer to POST#num */
    MC_STREAM_GET,      /* Streamable HTTP: GET#num, the GET stream or a resumption */
    MC_STREAM_SSE       /* the HTTP+SSE transport's stream SSE#num */
} mc_stream_kind_t;

/*
 * What a record is. Most records are messages; the HTTP transport also
 * hands its sink (the judge's http rules, judge/http_rules.c) records of
 * what its rules need that is no message: a stream's start with what its
 * request carried, the session id it adopted, and the end of a stream's
 * transfer with what it showed. A message record handed to the sink as it
 * arrives (before the session takes it from the queue) is what the rules
 * on where a message may come read.
 */
typedef enum mc_record_what {
    MC_REC_MESSAGE = 0, /* one message: kind, flags and bytes */
    MC_REC_STREAM_START, /* HTTP: stream facts.stream#facts.num started (facts.st) */
    MC_REC_SESSION_ID,  /* HTTP: the transport took facts.session_id as the session's id */
    MC_REC_STREAM_END,  /* HTTP: the transfer of stream facts.stream#facts.num ended */
    MC_REC_SSE_EVENT,   /* HTTP: an SSE event came on the stream (facts.event_id, facts.st;
                           on the HTTP+SSE stream before its endpoint: data, the event) */
    MC_REC_NO_ENDPOINT, /* HTTP+SSE: the transport gave up waiting for the endpoint event
                           (facts.st->why says how long it waited) */
    MC_REC_CLOSE        /* HTTP: the transport ends the session */
} mc_record_what_t;

/* mc_record_stream_t.flags: what the request of a stream carried and how its answer went. */
#define MC_RS_DELETE 0x0001u       /* the stream is a DELETE (facts.stream POST) */
#define MC_RS_REQUEST 0x0002u      /* the POST's body expects an answer (a request or malformed) */
#define MC_RS_MALFORMED 0x0004u    /* ... it is no valid JSON-RPC message */
#define MC_RS_RESPONSE 0x0008u     /* ... it is a well-formed response */
#define MC_RS_INITIALIZE 0x0010u   /* ... it is an initialize request */
#define MC_RS_TOKEN_UNKEPT 0x0020u /* ... its progressToken is past MC_RECORD_MAX_ID */
#define MC_RS_MODERN 0x0040u       /* ... it carried a stateless revision's metadata (on a
                                      message: the session speaks a stateless revision) */
#define MC_RS_STATELESS 0x0080u    /* the stream belongs to a stateless revision (2026-07-28) */
#define MC_RS_SSE 0x0100u          /* END: the answer was text/event-stream */
#define MC_RS_JSON 0x0200u         /* END: the answer was application/json */
#define MC_RS_BODY 0x0400u         /* END: the answer had a body */
#define MC_RS_COMPLETE 0x0800u     /* END: the transfer ended by itself (not cut) */
#define MC_RS_CANCELLED 0x1000u    /* END: the client cancelled the stream's request */
#define MC_RS_RETRY 0x2000u        /* END: an SSE retry field was in force when it ended */
#define MC_RS_EVENTS 0x4000u       /* END: an SSE event came on the stream */
#define MC_RS_PRIMED 0x8000u       /* END: ... the first an id with empty data */
#define MC_RS_DATA 0x10000u        /* SSE_EVENT: the event had a data field */
#define MC_RS_OVERSIZE 0x20000u    /* SSE_EVENT: its data passed the message size limit */
#define MC_RS_LEGACY 0x40000u      /* the stream is of the HTTP+SSE transport (2024-11-05) */
#define MC_RS_SINGLE 0x80000u      /* the POST's body is one well-formed JSON-RPC message */
#define MC_RS_NOT_BOUND 0x100000u  /* END of the HTTP+SSE stream: the server was not asked to
                                      offer HTTP+SSE there (only if it does, or after a
                                      fallback), so not opening it breaks no rule */

/* The facts of a stream record, and of a message record handed to the sink
 * (there only flags MC_RS_STATELESS). Borrowed for the sink's call. */
typedef struct mc_record_stream {
    unsigned flags;                       /* MC_RS_* */
    char version[MC_RECORD_MAX_VERSION];  /* END: the version the transport speaks, "" none */
    const char *method;                   /* the request's method, NULL none or too long */
    const char *token;                    /* START: its progressToken (compact JSON), NULL none */
    const char *accel;                    /* END: the answer's X-Accel-Buffering, NULL none */
    const char *event;                    /* SSE_EVENT: the event's type, "" none */
    const char *why;                      /* HTTP+SSE: why an endpoint event's URI cannot be
                                             used (NULL: it can), or how long the transport
                                             waited for one (NO_ENDPOINT) */
    const char *endpoint;                 /* HTTP+SSE: the URI messages are POSTed to */
} mc_record_stream_t;

typedef struct mc_record_facts {
    mc_stream_kind_t stream;  /* MC_STREAM_NONE: the rest is unset */
    unsigned num;             /* the stream's number in the session */
    unsigned resumes;         /* a GET resuming the stream of POST#resumes; 0 none */
    long status;              /* the HTTP status of the stream's answer */
    char ctype[MC_RECORD_MAX_CTYPE];                /* its Content-Type, "" none */
    char session_id[MC_RECORD_MAX_SESSION_ID + 4];  /* its Mcp-Session-Id, "" none */
    char event_id[MC_RECORD_MAX_EVENT_ID + 1];      /* the SSE event id, "" none */
    char answers[MC_RECORD_MAX_ID + 1]; /* with MC_FRAME_F_REFUSAL, or on a stream record:
                                           the id (compact JSON) of the POST's request, ""
                                           when it had none or it was too long to keep */
    const mc_record_stream_t *st; /* handed to a sink: the stream's facts, else NULL */
} mc_record_facts_t;

/* One message in either direction, with its own copy of the bytes, or
 * (what != MC_REC_MESSAGE) one fact of the transport with no bytes. */
typedef struct mc_record {
    mc_record_what_t what;   /* MC_REC_MESSAGE, or what else the record tells */
    int outbound;            /* 1: client -> server */
    mc_frame_kind_t kind;    /* MC_FRAME_* (outbound: MC_FRAME_LINE) */
    unsigned flags;          /* MC_FRAME_F_* */
    char *data;              /* owned: NUL-terminated copy (NULL for OVERSIZE) */
    size_t len;              /* bytes in data; for OVERSIZE, bytes skipped */
    int64_t at_ms;           /* monotonic time of arrival */
    mc_record_facts_t facts; /* the transport's facts; facts.stream NONE when it has none */
} mc_record_t;

/*
 * Where a transport hands the records of what is no message (and, later,
 * of every fact its rules need) as they happen: the judge
 * (mc_judge_http_sink). The record is borrowed for the call.
 */
typedef struct mc_record_reply mc_record_reply_t;
typedef void (*mc_record_sink_fn)(void *ctx, const mc_record_t *r, mc_record_reply_t *reply);

/* mc_record_reply_t.flags */
#define MC_RR_RESPONSE 0x1u /* the message is a JSON-RPC response */
#define MC_RR_ANSWERS 0x2u  /* ... to the request of the stream it came on */
#define MC_RR_REDELIVERY 0x4u /* an SSE event a resumption repeats of the stream it resumes:
                                 not to be passed on again */

/* What the sink tells the transport of a message record it judged, for
 * the transport's own work (the header it sends, whether to resume a
 * stream): what the judge read, so that the transport parses nothing
 * again. Zeroed before each call. */
struct mc_record_reply {
    unsigned flags;                      /* MC_RR_* */
    char version[MC_RECORD_MAX_VERSION]; /* the protocolVersion of initialize's result, "" */
    struct json_object *result;          /* a response's result object (borrowed for the
                                            call), or NULL */
};

/* Frees a record's bytes (not the record). NULL is allowed. */
void mc_record_free(mc_record_t *r);

/* True when the record came on the GET stream of Streamable HTTP itself,
 * not on a resumption of a POST's stream. */
int mc_record_on_get_stream(const mc_record_t *r);

/* The stream's name, "POST", "GET" or "SSE" ("" for MC_STREAM_NONE). */
const char *mc_record_stream_name(mc_stream_kind_t k);

/*
 * Writes the facts in words into buf (cap bytes, always terminated, cut at
 * MC_RECORD_FACTS_TEXT): "STREAM#n STATUS CTYPE[ resumes=POST#m][
 * session=ID][ event-id=ID]", "(no content type)" for none. Returns the
 * length written, 0 when the record has no facts.
 */
size_t mc_record_facts_text(const mc_record_facts_t *f, char *buf, size_t cap);

#endif /* MC_CORE_RECORD_H */
