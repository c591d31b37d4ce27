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

typedef struct mc_record_facts {
    mc_stream_kind_t stream;  /* MC_STREAM_NONE: the rest is unset */
    unsigned num;             /* the stream's number in the session */
    unsigned resumes;         /* a GET resuming the stream of POST#resumes; 0 none */
    long status;              /* the HTTP status of the stream's answer */
    char ctype[MC_RECORD_MAX_CTYPE];                /* its Content-Type, "" none */
    char session_id[MC_RECORD_MAX_SESSION_ID + 4];  /* its Mcp-Session-Id, "" none */
    char event_id[MC_RECORD_MAX_EVENT_ID + 1];      /* the SSE event id, "" none */
    char answers[MC_RECORD_MAX_ID + 1]; /* with MC_FRAME_F_REFUSAL: the id (compact JSON)
                                           of the refused POST's request, "" when it was
                                           too long to keep */
} mc_record_facts_t;

/* One message in either direction, with its own copy of the bytes. */
typedef struct mc_record {
    int outbound;            /* 1: client -> server */
    mc_frame_kind_t kind;    /* MC_FRAME_* (outbound: MC_FRAME_LINE) */
    unsigned flags;          /* MC_FRAME_F_* */
    char *data;              /* owned: NUL-terminated copy (NULL for OVERSIZE) */
    size_t len;              /* bytes in data; for OVERSIZE, bytes skipped */
    int64_t at_ms;           /* monotonic time of arrival */
    mc_record_facts_t facts; /* the transport's facts; facts.stream NONE when it has none */
} mc_record_t;

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
