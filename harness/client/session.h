/*
 * session.h - the client side of an MCP session.
 *
 * The session runs the lifecycle (initialize, version negotiation,
 * notifications/initialized), allocates request ids, matches responses to
 * outstanding requests, queues notifications in arrival order and answers
 * server-to-client requests through a pluggable responder. Every line in
 * either direction goes through its judge (judge/judge.h), which parses and
 * judges it once; the session acts on the message the judge decoded. It
 * talks through an mc_link_t, so it runs the same over stdio or in memory.
 */
#ifndef MC_CLIENT_SESSION_H
#define MC_CLIENT_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "client/link.h"
#include "core/error.h"
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "judge/judge.h"

/*
 * What the session itself notes while it runs: its own limits and what its
 * responder does not know. Whatever breaks a rule of the protocol is the
 * judge's finding (s->judge), not an event.
 */
#define MC_SESSION_EVENT_MAP(XX)                                                                  \
    XX(UNKNOWN_SERVER_REQUEST, "unknown-server-request", "a server request for a method the client does not know")          \
    XX(NOTIFICATIONS_DROPPED, "notifications-dropped", "notifications dropped because the queue was full") \
    XX(FLOOD, "flood", "more messages or bytes during one wait than the rate guard allows") \
    XX(HELD_RELEASED, "held-answers-released",                                                 \
       "answers held back, sent before as many requests as awaited came")

typedef enum mc_event_kind {
#define MC__XX(name, id, desc) MC_EV_##name,
    MC_SESSION_EVENT_MAP(MC__XX)
#undef MC__XX
    MC_EV__COUNT
} mc_event_kind_t;

/* Returns the event kind's stable id, e.g. "garbage-line". */
const char *mc_event_kind_name(mc_event_kind_t kind);
/* Returns the one-line description of an event kind. */
const char *mc_event_kind_desc(mc_event_kind_t kind);

typedef struct mc_event {
    mc_event_kind_t kind;
    uint64_t seq;     /* inbound frame number (1-based) the event is about */
    char detail[200]; /* what exactly was seen */
} mc_event_t;

/* What a responder answers to a server-to-client request. */
typedef struct mc_reply {
    json_object *result;    /* owned by the session after return; used when error_code == 0 */
    int error_code;         /* non-zero: answer with this JSON-RPC error */
    char error_message[128];
    int hold;               /* above 1: the answer is held back until this many answers to
                               requests of the same method are held (this one included),
                               then they all go out in the order the requests came; see
                               mc_session_release_held */
} mc_reply_t;

typedef struct mc_session mc_session_t;

/* An answer to a server request, held back (mc_reply_t.hold). */
typedef struct mc_held {
    char method[64];  /* the request's method */
    json_object *out; /* the whole response message (owned) */
    int64_t since;    /* when it was held (core/clock.h) */
} mc_held_t;

/* Answers one server request. The session sends the reply. */
typedef void (*mc_responder_fn)(void *ctx, mc_session_t *s, const mc_msg_t *request,
                                mc_reply_t *reply);

/*
 * What the observer is handed for each line in either direction, before the
 * session acts on it: the record (core/record.h: direction, kind, flags,
 * bytes, and the transport's facts; data is NULL for an oversize frame,
 * whose len is the number of bytes skipped) and, for an inbound one, what
 * the judge made of it. Everything is borrowed for the call.
 */
typedef struct mc_seen {
    uint64_t seq;                 /* the session's count of lines in that direction */
    const mc_record_t *rec;       /* the record */
    const mc_wire_info_t *judged; /* inbound: the decoded message and what the judge
                                     found of it; NULL for an outbound line */
} mc_seen_t;

/* Sees every line in either direction. */
typedef void (*mc_observer_fn)(void *ctx, const mc_seen_t *seen);

typedef struct mc_session_opts {
    const char *client_name;    /* clientInfo.name; default "mcpcheck" */
    const char *client_version; /* clientInfo.version; default MC_VERSION */
    mc_responder_fn responder;  /* NULL = mc_session_default_responder */
    void *responder_ctx;
    mc_observer_fn observer;    /* NULL = none */
    void *observer_ctx;
    volatile int *stop;         /* when set and non-zero, every wait ends with MC_EINTR
                                   within MC_POLL_SLICE_MS (an interrupted run) */
    mc_judge_t *judge;          /* borrowed: the judge every line goes through (the
                                   caller's, with its schemas); NULL: the session makes
                                   one of its own, without schemas */
    int answer_timeout_ms;      /* the wait for a handshake answer (initialize,
                                   server/discover) once the server has written its first
                                   message-like line (spoke): the start-up budget is for
                                   starting only. 0: the whole start-up budget (see
                                   mc_session_initialize) */
} mc_session_opts_t;

typedef struct mc_pending {
    int used;          /* private */
    int answered;      /* private */
    int64_t id;        /* private */
    char *method;      /* private: owned copy */
    mc_msg_t response; /* private */
} mc_pending_t;

struct mc_session {
    mc_link_t link;                 /* private */
    mc_session_opts_t opts;         /* private */
    int64_t next_id;                /* private: ids are 1, 2, 3, ... */
    mc_pending_t *pending;          /* private: grows on demand, up to MC_MAX_PENDING_REQUESTS */
    size_t n_pending;               /* read-only */
    mc_msg_t *notes;                /* private: ring of queued notifications, grows on
                                       demand up to MC_MAX_QUEUED_NOTIFICATIONS */
    size_t notes_head, notes_count; /* private */
    mc_event_t *events;             /* read-only: recorded anomalies (grows on demand up to
                                       MC_MAX_SESSION_EVENTS) */
    size_t n_events;                /* read-only */
    uint64_t events_dropped;        /* read-only: anomalies past MC_MAX_SESSION_EVENTS */
    uint64_t seq_in, seq_out;       /* read-only: frames received / lines sent */
    int eof;                        /* read-only: the server's output has ended */
    json_object *client_caps;       /* read-only: declared client capabilities (owned) */
    json_object *init_result;       /* read-only: the initialize result (owned) */
    json_object *server_caps;       /* read-only: borrowed from init_result */
    const char *server_name;        /* read-only: borrowed from init_result, or NULL */
    const char *server_version;     /* read-only: borrowed from init_result, or NULL */
    char requested_version[32];     /* read-only */
    char negotiated_version[32];    /* read-only: empty until initialized */
    int counter_offer;              /* read-only: the server answered another version */
    int unsupported_version;        /* read-only: the server's version is unknown to mcpcheck */
    int version_not_spoken;         /* read-only: the server answered that it does not speak the
                                       stateless version asked for (or is of the initialize era) */
    int raw_wait;                   /* private: a raw request awaits its answer */
    json_object *raw_id;            /* private: borrowed id it waits for (NULL: null/absent) */
    int raw_batch;                  /* private: the raw line is a batch; an array answers it */
    json_object *raw_batch_ids;     /* private: the ids of the batch's requests (owned) */
    json_object *raw_parts;         /* private: responses to them that came one by one (owned) */
    int raw_got;                    /* private */
    mc_msg_t raw_resp;              /* private */
    uint64_t step_frames, step_bytes; /* read-only: received since mc_session_begin_step() */
    uint64_t overdue;               /* private: frames handed out past a wait's deadline */
    uint64_t oversize_seen;         /* read-only: oversize lines received */
    uint64_t spoke;                 /* read-only: inbound lines that are JSON texts or begin
                                       like one ('{', '['), and oversize lines: what a server
                                       that has started writes (a plain-text banner may be
                                       written before a slow start, and is not counted) */
    uint64_t notes_dropped;         /* read-only: notifications dropped (queue full) */
    int flooded;                    /* read-only: the rate guard tripped; waits end with
                                       MC_EFLOOD from then on */
    char flood_desc[160];           /* read-only: what tripped it, in words */
    int stateless;                  /* read-only: the version has no handshake (2026-07-28):
                                       every request carries _meta, server/discover stands
                                       for initialize (client/stateless.c) */
    int input_retry_off;            /* public: a stateless mc_session_request() returns an
                                       input_required result as is instead of answering it
                                       and retrying */
    mc_judge_t *judge;              /* read-only: the judge of every line (opts.judge or
                                       own_judge) */
    mc_judge_t *own_judge;          /* private */
    int64_t handshake_id;            /* private: the handshake request being waited for */
    int handshake_unreadable;        /* private: its answer came as a line that is no JSON */
    char handshake_why[160];         /* read-only: why that line could not be read */
    int handshake_after_ms;          /* read-only: the last handshake wait was cut to this
                                        once the server spoke (0: it was not) */
    mc_held_t held[MC_MAX_HELD_ANSWERS]; /* private: answers held back, oldest first */
    size_t n_held;                   /* read-only: answers held back now */
};

/* True when version is a published version (core/version.h): one a session
 * can speak, by initialize or statelessly. */
int mc_protocol_version_known(const char *version);

/* Prepares a session on a link. Returns MC_OK or MC_ENOMEM. */
int mc_session_init(mc_session_t *s, mc_link_t link, const mc_session_opts_t *opts);

/* Releases everything the session holds (not the link). */
void mc_session_free(mc_session_t *s);

/*
 * Runs the handshake: sends initialize with the protocol version, client
 * capabilities (borrowed and copied; NULL = {}) and clientInfo, waits for the result,
 * negotiates, then sends notifications/initialized. A counter-offer the
 * harness knows is accepted (counter_offer = 1); one it does not know sets
 * unsupported_version and returns MC_EPROTO without sending initialized.
 * timeout_ms is the start-up budget: once the server has written its first
 * message-like line (see spoke), the wait for the answer is cut to
 * opts.answer_timeout_ms (when set) from that line on. Returns MC_ETIMEOUT / MC_EEOF when the server is silent
 * or gone, MC_ETOOBIG at once when a line over MC_MAX_MESSAGE_SIZE came
 * before the answer (the answer may have been that line), MC_EPARSE at once
 * when the answer (the line carrying the request's id) is no JSON text
 * (invalid UTF-8, a NUL, nesting past MC_MAX_JSON_DEPTH, bad syntax),
 * MC_EPROTO when it answered with an error or a malformed result (eb says
 * which in every case).
 */
int mc_session_initialize(mc_session_t *s, const char *version, json_object *client_caps,
                          int timeout_ms, mc_errbuf_t *eb);

/*
 * The stateless protocol (2026-07-28), client/stateless.c. A session whose
 * requested version has MC_VF_STATELESS starts with server/discover instead
 * of initialize (mc_session_initialize() does it): the discover result
 * stands for the initialize result (init_result, server_caps, server name
 * and version), negotiated_version is the requested one, and every request
 * then carries the per-request _meta (mc_session_stamp). -32022 is
 * MC_EPROTO with unsupported_version set. After any other error a second
 * server/discover at an unknown version tells the era: -32022 marks a
 * modern server, and the session goes on with init_result and server_caps
 * NULL (discovery is optional for a client); anything else marks a server
 * of the initialize era: MC_EPROTO.
 */
int mc__session_start_stateless(mc_session_t *s, const char *version, int timeout_ms,
                                 mc_errbuf_t *eb);

/*
 * Adds the per-request _meta of a stateless session to params (an object):
 * the protocol version, the client capabilities and clientInfo. Members
 * already in params._meta are kept, so a caller can send another version or
 * a log level. Returns MC_OK, or MC_ENOMEM.
 */
int mc_session_stamp(mc_session_t *s, json_object *params);

/* The same for a client without a session (the fuzz generator stamps the
 * requests it makes): version, a copy of caps (borrowed; NULL = {}) and
 * clientInfo {client_name, client_version}. */
int mc_stateless_stamp(json_object *params, const char *version, json_object *caps,
                       const char *client_name, const char *client_version);

/*
 * The multi round-trip pattern: given the params of a request (borrowed)
 * and the InputRequiredResult it got (borrowed), builds the params of the
 * retry in *retry (a new object): the same members with inputResponses
 * answered by the session's responder (one per inputRequests entry; an
 * entry the responder refuses is left out) and requestState echoed when the
 * result had one. An input request for a capability the client did not
 * declare is the judge's finding (wire/input-requests-declared). Returns MC_OK, or
 * MC_ENOMEM with *retry NULL.
 */
int mc_session_input_retry(mc_session_t *s, json_object *params, json_object *result,
                           json_object **retry);

/* True when msg is a result with resultType "input_required". */
int mc_session_input_required(const mc_msg_t *msg);

/*
 * Sends a request; params is owned (may be NULL). On success *id_out holds
 * the request id. Returns MC_EFULL when MC_MAX_PENDING_REQUESTS are
 * outstanding, or the link's error.
 */
int mc_session_send_request(mc_session_t *s, const char *method, json_object *params,
                            int64_t *id_out, int timeout_ms);

/*
 * Waits for the response to request id, handling everything else that
 * arrives meanwhile. On MC_OK *response is a result or error message
 * (caller mc_msg_free()s it). On MC_ETIMEOUT the request is abandoned: a
 * later answer is dropped (the judge finds it: wire/single-response). MC_EEOF: the server's
 * output ended. MC_ENOTFOUND: no such outstanding id. MC_ETOOBIG: the wait
 * timed out after a line over the size limit arrived (the answer, if it was
 * that line, is lost; the line is reported as soon as it passes the limit). Every wait of the session may also end with MC_EFLOOD (the rate
 * guard tripped; see flood_desc) or MC_EINTR (opts.stop was set). The
 * deadline is honoured whatever arrives: past it, at most
 * MC_MAX_OVERDUE_FRAMES frames already received are still handled.
 */
int mc_session_await(mc_session_t *s, int64_t id, int timeout_ms, mc_msg_t *response);

/* send_request + await. In a stateless session an input_required answer to
 * tools/call, prompts/get or resources/read is answered and the request
 * retried (at most MC_MAX_INPUT_ROUNDS times, within timeout_ms) unless
 * input_retry_off is set; *response is the last answer. */
int mc_session_request(mc_session_t *s, const char *method, json_object *params, int timeout_ms,
                       mc_msg_t *response);

/*
 * Starts a new step for the rate guard: the per-step message and byte counts
 * (MC_MAX_STEP_MESSAGES, MC_MAX_STEP_BYTES) start again from zero. The
 * session also starts one in mc_session_initialize().
 */
void mc_session_begin_step(mc_session_t *s);

/* Sends a notification; params is owned (may be NULL). */
int mc_session_notify(mc_session_t *s, const char *method, json_object *params, int timeout_ms);

/* Sends a raw line as is (for malformed-input tests). A "\n" is appended when
 * missing. */
int mc_session_send_raw(mc_session_t *s, const char *bytes, size_t len, int timeout_ms);

/*
 * Sends a raw line (see mc_session_send_raw) and waits up to timeout_ms for
 * the response whose id equals expect_id (borrowed; NULL waits for an
 * error with a null or absent id, the answer to an unreadable line).
 * Returns MC_OK with *response (caller mc_msg_free()s it), MC_ETIMEOUT when
 * nothing matching came, MC_EEOF, or a send error.
 */
int mc_session_raw_request(mc_session_t *s, const char *bytes, size_t len, json_object *expect_id,
                           int timeout_ms, mc_msg_t *response);

/* How long a barrier's wait goes on after the ping is answered, by default
 * (the caller gives the grace: see mc_session_raw_request_barrier). */
#define MC_SESSION_BARRIER_GRACE_MS 250

/*
 * mc_session_raw_request() for a line no method handler can take, with a
 * barrier: a ping is sent right after it, and the wait ends when the line's
 * answer comes or when the ping is answered first, whichever is earlier,
 * else after timeout_ms. Such a line is one whose id cannot be read (its
 * answer, if any, is an error with a null id: expect_id NULL), or an object
 * with a readable id (expect_id, borrowed) that is no valid request (no
 * method string, no "jsonrpc": "2.0", params neither object nor array). The
 * assumption: a server answers a line it cannot dispatch as it reads it,
 * before it reads the next, so that such an answer precedes the ping's
 * answer even on a server that answers requests out of order. A grace of
 * grace_ms after the ping's answer still takes the line's answer, should a
 * server write it a moment late (an answer later than that is judged
 * missing, as any answer past a window). *barrier is set to 1 when the ping
 * was answered first and the grace saw no answer (MC_ETIMEOUT is returned
 * then), else 0. A ping still unanswered when the line's answer comes is
 * left to arrive later (the session ignores it). Returns as
 * mc_session_raw_request().
 */
int mc_session_raw_request_barrier(mc_session_t *s, const char *bytes, size_t len,
                                   json_object *expect_id, int timeout_ms, int grace_ms,
                                   mc_msg_t *response, int *barrier);

/*
 * Sends a JSON-RPC batch (a raw line holding an array) and waits up to
 * timeout_ms for the first array the server writes, which is returned in
 * *response (kind MC_MSG_INVALID, root the array; caller mc_msg_free()s it).
 * Responses written one by one to the batch's requests (by id) are handled
 * as any unexpected response and also collected: when one_by_one is not
 * NULL, *one_by_one receives an array of them (caller puts it; NULL when
 * none came), and the wait ends early once there are as many as the batch
 * has requests (MC_OK with response->root NULL). Returns MC_OK, MC_ETIMEOUT
 * when no array came (nor every answer one by one), MC_EEOF, or a send error.
 */
int mc_session_raw_batch(mc_session_t *s, const char *bytes, size_t len, int timeout_ms,
                         mc_msg_t *response, json_object **one_by_one);

/*
 * Takes the oldest queued notification, waiting up to timeout_ms for one.
 * Returns MC_OK (caller mc_msg_free()s *out), MC_ETIMEOUT or MC_EEOF.
 */
int mc_session_next_notification(mc_session_t *s, int timeout_ms, mc_msg_t *out);

/* Handles at most one inbound frame, waiting up to timeout_ms for it.
 * Returns MC_OK, MC_ETIMEOUT or MC_EEOF. */
int mc_session_poll_once(mc_session_t *s, int timeout_ms);

/* Processes inbound traffic for up to timeout_ms (or until EOF). */
int mc_session_poll(mc_session_t *s, int timeout_ms);

/*
 * Sends the answers held back (mc_reply_t.hold) to requests of method, or
 * every one when method is NULL, in the order the requests came. A held
 * answer also goes out by itself when the table is full (then it is never
 * held), and MC_HELD_ANSWER_MAX_MS after it was held (noted as the event
 * held-answers-released), so that no request is left hanging. Returns how
 * many were sent (a send error is the link's to report on the next wait).
 */
size_t mc_session_release_held(mc_session_t *s, const char *method);

/* True when the client declared the named top-level capability. */
int mc_session_client_declares(const mc_session_t *s, const char *capability);

/*
 * The default responder: ping -> {}; roots/list -> {"roots": []} when roots
 * is declared; sampling/createMessage -> a fixed assistant text when sampling
 * is declared; elicitation/create -> {"action": "decline"} when elicitation
 * is declared; anything else -> -32601. A request for an undeclared
 * capability is also the judge's finding (wire/negotiated-capabilities).
 */
void mc_session_default_responder(void *ctx, mc_session_t *s, const mc_msg_t *request,
                                  mc_reply_t *reply);

#endif /* MC_CLIENT_SESSION_H */
