/*
 * session_internal.h - the pieces of the client session shared by its files
 * (private to harness/client/session*.c; not part of the module's API).
 *
 * session.c       the session's life (init, free, events), requests and the
 *                 pending table, notifications read from the queue,
 *                 initialize and the default responder
 * session_raw.c   the raw exchange: lines sent as given (malformed input,
 *                 batches) and the answers gathered for them
 * session_recv.c  the waiting: a step receives one frame, the judge judges
 *                 it, and the session hands the message to the request that
 *                 waits, the notification queue or the responder; the rate
 *                 guard that bounds a wait
 */
#ifndef MC_CLIENT_SESSION_INTERNAL_H
#define MC_CLIENT_SESSION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "client/session.h"
#include "core/clock.h"

/*
 * The session's tables (pending requests, queued notifications, events) are
 * allocated when first needed and doubled as they fill, up to the same
 * MC_MAX_* caps as before: most sessions use a handful of slots, and a
 * table allocated in full costs 3.3 MB per session. The session keeps the
 * address of slot 0; the capacity sits in a header just before it. At the
 * caps every table behaves exactly as one allocated in full.
 */
typedef union table_head {
    size_t cap;
    max_align_t align; /* slot 0 keeps the alignment of malloc() */
} table_head_t;

/* Slots a table holds (0 for none yet). */
static inline size_t table_cap(const void *slots)
{
    return slots == NULL ? 0 : ((const table_head_t *)slots - 1)->cap;
}

/* A zeroed table of cap slots of elem bytes; returns slot 0, or NULL. */
static inline void *table_new(size_t elem, size_t cap)
{
    table_head_t *h = calloc(1, sizeof(*h) + elem * cap);

    if (h == NULL)
        return NULL;
    h->cap = cap;
    return h + 1;
}

static inline void table_free(void *slots)
{
    if (slots != NULL)
        free((table_head_t *)slots - 1);
}

/* The capacity after cap when a table must grow toward max (0: at max). */
static inline size_t table_next_cap(size_t cap, size_t max)
{
    if (cap >= max)
        return 0;
    return cap == 0 ? (max < 16 ? max : 16) : (2 * cap < max ? 2 * cap : max);
}

/* The clock time timeout_ms from now (now when it is not positive). */
static inline int64_t deadline_after(int timeout_ms)
{
    return mc_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
}

/* Starts a wait: the overdue allowance is per wait. */
static inline void begin_wait(mc_session_t *s)
{
    s->overdue = 0;
}

/* Notes an event of the session's own (bounded by MC_MAX_SESSION_EVENTS;
 * past it, or out of memory, the event is only counted). */
void mc__session_record(mc_session_t *s, mc_event_kind_t kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Encodes and sends a message through the judge, the observer and the
 * link; msg is released. Returns MC_OK or the encoder's or link's error. */
int mc__session_send_json(mc_session_t *s, json_object *msg, int timeout_ms);

/* Hands the outbound line line[0..len) (no newline), just judged, to the
 * observer as a record of its own. */
void mc__session_observe_out(mc_session_t *s, const char *line, size_t len);

/* The pending request with this id, or NULL. */
mc_pending_t *mc__session_find_pending(mc_session_t *s, int64_t id);

/* Receives and handles one frame, waiting until deadline (session_recv.c).
 * Returns MC_OK when a frame was handled, else why not: MC_ETIMEOUT,
 * MC_EFLOOD, MC_EEOF, MC_EINTR or the link's error. */
int mc__session_step(mc_session_t *s, int64_t deadline);

/*
 * Sends a handshake request (initialize, server/discover; params owned) and
 * waits for its answer: timeout_ms at most, cut to opts.answer_timeout_ms
 * from the server's first message-like line on (s->spoke; from the start
 * when it has already written one). The wait ends at once with MC_ETOOBIG when a line over the
 * size limit comes, and with MC_EPARSE when a line carrying the request's id
 * is no JSON text (handshake_why says why). Otherwise as
 * mc_session_request(). handshake_after_ms tells whether the wait was cut.
 */
int mc__session_handshake_request(mc_session_t *s, const char *method, json_object *params,
                                  int timeout_ms, mc_msg_t *response);

/* What a failed handshake wait means, in eb (method: what was sent;
 * timeout_ms: the budget given). Returns rc. */
int mc__session_handshake_error(mc_session_t *s, int rc, const char *method, int timeout_ms,
                                mc_errbuf_t *eb);

/* While a batch waits (session_raw.c): keeps a response to one of its
 * requests that came on its own, and ends the wait once each has one. */
void mc__session_collect_batch_part(mc_session_t *s, const mc_msg_t *msg);

#endif
