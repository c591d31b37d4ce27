/*
 * sse.h - a bounded, incremental parser of Server-Sent Events streams.
 *
 * Follows the event-stream grammar: lines end in "\r\n", "\n" or "\r"; a
 * line starting with ":" is a comment; "data", "event", "id" and "retry"
 * are the fields (a field line without ":" has an empty value; one space
 * after the ":" is dropped); several data lines join with "\n"; an empty
 * line dispatches the event. A leading byte-order mark is skipped. Unknown
 * fields are ignored.
 *
 * Every size is capped (client/http_limits.h): an over-long line is skipped
 * to its end and the event it belongs to is dispatched with `oversize` set
 * and no data. The parser never allocates more than the caps.
 */
#ifndef MC_CLIENT_SSE_H
#define MC_CLIENT_SSE_H

#include <stddef.h>
#include <stdint.h>

#include "client/http_limits.h"

/* One dispatched event; every pointer is borrowed for the callback only. */
typedef struct mc_sse_event {
    const char *event; /* the event type ("" when none was given; "message" applies) */
    const char *data;  /* joined data lines, NUL-terminated ("" when none) */
    size_t data_len;
    const char *id;    /* the last event id of the stream so far ("" when none) */
    int has_data;      /* at least one data field was seen */
    int has_id;        /* this event carried an id field */
    int oversize;      /* a line or the data went past a cap: data was dropped */
} mc_sse_event_t;

/* Called once per dispatched event (also one with no data field, so the
 * caller can judge it). Return 0 to go on. */
typedef int (*mc_sse_cb)(void *ctx, const mc_sse_event_t *ev);

typedef struct mc_sse {
    char *line;          /* private: the current line, grown on demand up to max_line */
    size_t line_len, line_cap; /* private */
    size_t max_line;     /* read-only */
    char *data;          /* private: the event's data, grown on demand up to max_data */
    size_t data_len, data_cap; /* private */
    size_t max_data;     /* read-only */
    char event[MC_SSE_MAX_EVENT_NAME + 1]; /* private */
    char id[MC_SSE_MAX_ID + 1];              /* private: the last event id */
    int has_data, has_id, oversize; /* private: of the event being built */
    int skipping;        /* private: inside an over-long line */
    int after_cr;        /* private: the last byte was "\r" (a "\n" after it is not a new line) */
    int bom_checked;     /* private */
    size_t bom_seen;     /* private: bytes of a BOM matched so far */
    uint64_t events;     /* read-only: events dispatched */
    uint64_t comments;   /* read-only: comment lines seen */
    uint64_t bytes;      /* read-only: bytes fed */
    long retry_ms;       /* read-only: the last valid retry field, -1 when none */
} mc_sse_t;

/* Prepares a parser; 0 for a cap takes the default (MC_SSE_MAX_LINE,
 * MC_SSE_MAX_DATA). Allocates nothing yet. */
void mc_sse_init(mc_sse_t *p, size_t max_line, size_t max_data);

/* Frees the parser's buffers; it can be initialised again. */
void mc_sse_free(mc_sse_t *p);

/*
 * Parses len bytes, calling cb for every event they complete. Returns 0, or
 * the first non-zero value cb returned (the rest of the bytes are then not
 * parsed), or -1 when memory runs out (the current line is treated as
 * oversize, so parsing stays in step).
 */
int mc_sse_feed(mc_sse_t *p, const char *buf, size_t len, mc_sse_cb cb, void *ctx);

/* True when the stream ended in the middle of an event (fields seen, no
 * empty line yet): such an event is never dispatched. */
int mc_sse_pending(const mc_sse_t *p);

#endif /* MC_CLIENT_SSE_H */
