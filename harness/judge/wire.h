/*
 * wire.h - the wire checks: rules every message of a session must keep,
 * whatever a scenario asserts.
 *
 * The checker is a pure function of the transcript: it is fed every line in
 * both directions, in order, and records findings against check ids
 * ("wire/response-id", "wire/log-level", ...). It tracks what the rules need:
 * outstanding request ids and methods, whether notifications/initialized was
 * sent, the negotiated capabilities, subscriptions, the log level set,
 * active progress tokens and their last values. Check metadata (level, spec
 * reference, sentence) lives in the check registry (judge/builtin.h); the
 * schema check is added by the caller, who has the schemas.
 *
 * Public names keep the mc_wire_ prefix: the wire rules are one module of
 * the judge layer, as the registry (mc_builtin_) and the check model
 * (mc_check_) are.
 */
#ifndef MC_JUDGE_WIRE_H
#define MC_JUDGE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/jsonrpc.h"

/* Findings kept per session; later ones are counted only. */
#define MC_WIRE_MAX_FINDINGS 256
/* Outbound requests remembered for matching responses. */
#define MC_WIRE_MAX_REQUESTS 4096
/* Subscribed URIs tracked. */
#define MC_WIRE_MAX_SUBSCRIPTIONS 256
/* Progress tokens tracked. */
#define MC_WIRE_MAX_TOKENS 256
/* Server request ids remembered for the uniqueness check (a ring). */
#define MC_WIRE_MAX_SERVER_IDS 1024
/* Server requests with a progressToken the client has not answered yet,
 * tracked for the token's uniqueness. */
#define MC_WIRE_MAX_OPEN_SERVER_TOKENS 64
/* Distinct check ids counted (the wire checks and the http ones). */
#define MC_WIRE_MAX_CHECKS 128

typedef struct mc_wire_finding {
    const char *check; /* static check id */
    uint64_t seq;      /* inbound line number (1-based) */
    char detail[300];
    long status;        /* an http/ finding: the HTTP status of the answer it is about
                           (http/notification-202, http/request-content-type), 0 none */
    int request_unread; /* http/request-content-type: the POST carried no request id the
                           transport kept (malformed input, or an id too long) */
} mc_wire_finding_t;

typedef struct mc_wire_req {
    char *id;       /* compact JSON of the id (owned), NULL = free slot */
    char *method;   /* owned */
    char *token;    /* progress token (compact JSON, owned) or NULL */
    char *uri;      /* params.uri for (un)subscribe, owned, or NULL */
    char *level;    /* params.level for logging/setLevel, owned, or NULL */
    char *task_id;  /* params.taskId of tasks/get, tasks/result, tasks/cancel, owned, or NULL */
    int task;       /* params.task was an object: a task-augmented request */
    int answered;
    int shared;     /* answered while another request with its id was not: which
                       of them an answer with that id belongs to is unknown */
    /* stateless requests (2026-07-28) */
    int req_log;          /* _meta carried io.modelcontextprotocol/logLevel */
    json_object *caps;    /* owned: _meta's client capabilities, or NULL */
    json_object *filter;  /* owned: a subscriptions/listen request's notifications */
    int acked;            /* its acknowledgement arrived */
    int modern;           /* its _meta named a stateless version */
} mc_wire_req_t;

typedef struct mc_wire_token {
    char *token;    /* owned compact JSON */
    double last;    /* last progress value */
    int seen;       /* a notification arrived */
    int active;
    char *task_id;  /* owned: the task its request created (a CreateTaskResult answered
                       it), whose lifetime the token now lasts, or NULL */
} mc_wire_token_t;

typedef struct mc_wire_open_token {
    char *id;    /* the server request's id (compact JSON, owned), NULL = free slot */
    char *token; /* its _meta.progressToken (compact JSON, owned) */
} mc_wire_open_token_t;

typedef struct mc_wire {
    mc_wire_finding_t findings[MC_WIRE_MAX_FINDINGS]; /* read-only */
    size_t n_findings;                                /* read-only */
    uint64_t findings_dropped;                        /* read-only */
    const char *check_ids[MC_WIRE_MAX_CHECKS];        /* read-only: checks evaluated */
    uint64_t check_evals[MC_WIRE_MAX_CHECKS];         /* read-only: times evaluated */
    size_t n_checks;                                  /* read-only */
    /* private state */
    mc_wire_req_t *reqs;
    size_t req_next;
    mc_wire_token_t tokens[MC_WIRE_MAX_TOKENS];
    size_t token_next; /* where the search for an ended token to reuse starts */
    char *subs[MC_WIRE_MAX_SUBSCRIPTIONS];
    /* What the tables above had no room for. Once any is non-zero, an
     * answer, progress token or updated URI the checker does not know may be
     * one it forgot, and is not judged: a full table never makes a finding. */
    uint64_t reqs_forgotten;   /* unanswered requests pushed out of reqs */
    uint64_t tokens_untracked; /* active progress tokens not recorded */
    uint64_t subs_untracked;   /* subscriptions not recorded */
    char *server_ids[MC_WIRE_MAX_SERVER_IDS]; /* server request ids as sent (owned) */
    char *server_ids_compact[MC_WIRE_MAX_SERVER_IDS]; /* the same ids as compact JSON (owned) */
    size_t server_id_next;
    int server_ids_wrapped; /* the ring dropped an id: an unknown one may be a forgotten one */
    mc_wire_open_token_t open_tokens[MC_WIRE_MAX_OPEN_SERVER_TOKENS]; /* server requests with
                               a progressToken, open until the client answers (or the server
                               cancels) them */
    uint64_t open_tokens_untracked; /* such requests the table had no room for */
    const char *raw_id;  /* the current inbound line's id as sent (borrowed), or NULL */
    size_t raw_id_len;
    const char *raw_line; /* the current inbound message's text as sent (borrowed), or NULL */
    size_t raw_line_len;
    int log_level; /* -1: not set */
    int initialized_sent;
    int init_answered;
    int last_out_notification;
    uint64_t notes_out;         /* notifications sent */
    uint64_t null_answers;      /* results with a null id received (answers to notifications) */
    int unreadable_outstanding; /* raw lines sent whose id could not be read */
    char version[16];           /* negotiated protocol version ("" until known) */
    int stateless;              /* requests carry a stateless version in _meta (2026-07-28) */
    int legacy_accepted;        /* the server accepted an initialize that named no stateless
                                   version: a server of both eras also runs a legacy session
                                   here, whose notifications the stateless rules leave alone */
    json_object *server_caps;   /* owned */
    json_object *client_caps;   /* owned */
    uint64_t seq_in;
    uint64_t cur_seq; /* public: the caller's number for the current line; findings use it
                         when non-zero, else the inbound line count */
    int over_stdio;   /* public: the caller's transport is stdio (the lines are the server's
                         stdout); 0 for HTTP or unknown */
} mc_wire_t;

/* Prepares a checker. Returns MC_OK or MC_ENOMEM. */
int mc_wire_init(mc_wire_t *w);
void mc_wire_free(mc_wire_t *w);

/* Feeds one line the client sent (without newline). */
void mc_wire_outbound(mc_wire_t *w, const char *line, size_t len);

/*
 * What the checker learned of an inbound line, for the caller's schema check.
 * msg is the classified message (owned by info; free with mc_wire_info_free):
 * with is_line 1 a valid JSON-RPC message; with is_line 0, a JSON text that
 * is none (kind MC_MSG_INVALID, root the text: an array, a result with a
 * null id, ...), or nothing (root NULL) when the frame was no JSON at all.
 */
typedef struct mc_wire_info {
    mc_msg_t msg;
    const char *answered_method; /* for responses: the request's method (borrowed, valid
                                    until the next call), or NULL */
    int answered_unversioned;    /* 1: msg answers a request of a stateless session that
                                    named no stateless version in its _meta; a server of
                                    both eras may serve it as a legacy request, so the
                                    stateless rules and schema do not judge its result */
    int is_line;                 /* 1: msg is a valid JSON-RPC message */
    int is_json;                 /* 1: the frame was one JSON text (else msg.reason
                                    says why not) */
    const char *raw_id;          /* a line that is no JSON text: the text of its top-level
                                    "id" member when one can be found (borrowed from the
                                    frame's data, valid while it lives), else NULL */
    size_t raw_id_len;
} mc_wire_info_t;

/*
 * Feeds one inbound frame. kind/flags as from the framer (core/frame.h);
 * data may be NULL for oversize frames. If info is not NULL it is filled.
 */
void mc_wire_inbound(mc_wire_t *w, int kind, unsigned flags, const char *data, size_t len,
                     mc_wire_info_t *info);
void mc_wire_info_free(mc_wire_info_t *info);

/* Records a finding (and an evaluation) against check. */
void mc_wire_fail(mc_wire_t *w, const char *check, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Counts an evaluation of check that held. */
void mc_wire_pass(mc_wire_t *w, const char *check);

/* Logging levels in order of severity; returns the rank (0 = debug) or -1. */
int mc_log_level_rank(const char *level);

#endif /* MC_JUDGE_WIRE_H */
