/*
 * state.h - the reference server's session state: the session object, what a
 * request is served with (rs_ctx_t), jobs, pending server->client requests
 * and listen streams. Only the refserver's own modules include it.
 *
 * json-c ownership: "owned" fields hold a reference the server puts when it
 * is done; functions that take a json_object* say whether they consume it.
 */
#ifndef MC_REFSERVER_STATE_H
#define MC_REFSERVER_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/jsonrpc.h"
#include "core/version.h"
#include "refserver/fast.h"
#include "refserver/inject.h"
#include "refserver/limits.h"
#include "refserver/refserver.h"

/* rs->cacheable of a later page under the cache-scope-differs-by-page switch. */
#define RS_CACHEABLE_LATER_PAGE 2


/* The newest version initialize negotiates (the counter-offer). Versions are
 * core's mc_version_id_t, oldest first, so "version >= X" feature tests hold;
 * 2026-07-28 is served per request (modern.c), never negotiated. */
#define RS_NEWEST_HANDSHAKE MC_V_2025_11_25

/* True when initialize negotiates version v (MC_VF_INITIALIZE). */
int mc__rs_handshake_version(int v);

/* What a request is served with: the legacy session's state, or a stateless
 * (2026-07-28) request's own _meta (modern.c). */
typedef struct rs_ctx {
    int modern;   /* the request is served statelessly */
    mc_version_id_t version;
    int cap_roots, cap_sampling, cap_elicit_form, cap_elicit_url;
    int req_log;  /* modern: the per-request log level index, or -1 (no log messages) */
    int cacheable; /* modern: the result gets ttlMs and cacheScope (RS_CACHEABLE_LATER_PAGE:
                    * a page after the first under the cache-scope-differs-by-page switch) */
} rs_ctx_t;

/* Session phases. Client requests other than initialize and ping are refused
 * in RS_PHASE_NEW; server->client requests wait for RS_PHASE_READY. */
typedef enum rs_phase {
    RS_PHASE_NEW = 0,      /* initialize not yet answered */
    RS_PHASE_INITIALIZED,  /* initialize answered, notifications/initialized not yet seen */
    RS_PHASE_READY         /* operation phase */
} rs_phase_t;

/* Lists that paginate; the tag is part of every cursor. */
typedef enum rs_list {
    RS_LIST_RESOURCES = 1,
    RS_LIST_TEMPLATES = 2,
    RS_LIST_PROMPTS = 3,
    RS_LIST_TOOLS = 4
} rs_list_t;

/* What a step function returns. */
#define RS_STEP_DONE 0  /* the call is answered; free the job */
#define RS_STEP_LATER 1 /* run the next step after the step delay */
#define RS_STEP_WAIT 2  /* a server->client request is out; wait for its answer */
#define RS_STEP_AT 3    /* run the next step at job->wake */

/* The client's answer to a server->client request, handed to a step (borrowed). */
typedef struct rs_reply {
    json_object *result; /* the result member, or NULL */
    json_object *error;  /* the error member, or NULL */
} rs_reply_t;

/* A tools/call in progress. */
typedef struct rs_job {
    int used;
    uint32_t serial;       /* distinguishes reuses of the slot */
    json_object *id;       /* owned: the request id */
    json_object *token;    /* owned: _meta.progressToken, or NULL */
    json_object *args;     /* owned: the arguments object, or NULL */
    int tool;              /* index in the tool table */
    int step;              /* number of the step to run next */
    int64_t due;           /* when the next step runs; -1 while waiting for the client */
    char elicitation_id[48];
    rs_ctx_t ctx;            /* what the call was made with (modern.c) */
    json_object *responses;  /* owned: a modern retry's inputResponses, or NULL */
    json_object *mrtr_reply; /* borrowed from responses: the answer the next step gets */
    int cancel_ignored;      /* cancelled-request-answered: 2 cancelled by the message in
                                hand, 1 by an earlier one (the job then ends after the next) */
    int64_t wake;            /* RS_STEP_AT: when the next step runs */
    int phase, polls;        /* test_task_requestor (taskreq.c): where it is, tasks/get sent */
    json_object *peer;       /* owned: test_task_requestor's state, or NULL */
} rs_job_t;

/* A subscriptions/listen stream (2026-07-28). */
typedef struct rs_listen {
    int used;
    json_object *id; /* owned: the listen request's id, the subscription id */
    int tools, prompts, resources; /* the list_changed types opted in to */
    char *uris[RS_MAX_SUBSCRIPTIONS]; /* owned: resourceSubscriptions */
    int nuris;
} rs_listen_t;

/* A server->client request waiting for its answer. */
typedef struct rs_pending {
    int used;
    int64_t id;      /* the id the server sent */
    int job;         /* index of the job that waits */
    uint32_t serial; /* the job's serial when the request was sent */
    int64_t due;     /* when the server stops waiting (RS_CLIENT_REQUEST_TIMEOUT_MS) */
    char method[32]; /* the request's method */
} rs_pending_t;

/*
 * The completion the server answered last (completion.c). The next
 * completion/complete of the same reference, argument and context whose
 * value extends the one kept is filtered from the values kept (narrowing,
 * as a client typing further asks again) instead of being looked up again;
 * any other request drops it. Plain data, so that a clone copies it.
 */
typedef struct rs_narrow {
    int valid;
    int depth; /* narrowings in a row since the list was looked up */
    char key[RS_NARROW_KEY_MAX];
    char value[RS_NARROW_VALUE_MAX];
    int n;
    char values[RS_NARROW_VALUES][RS_NARROW_VALUE_MAX];
} rs_narrow_t;

struct rs_fileroot;
typedef struct rs_task rs_task_t; /* tasks.c */

struct mc_refserver {
    /* configuration (read-only after mc_refserver_new) */
    int page_size;
    int extra;
    int step_ms; /* delay between tool steps; 0 = run steps at once */
    int modern_only; /* --modern-only, or the switch that makes it so (lifecycle.c) */
    rs_bug_t bug;
    struct rs_fileroot *root;
    mc_refserver_emit_cb emit;
    void *emit_ctx;

    /* session */
    rs_phase_t phase;
    mc_version_id_t version;
    int cap_roots, cap_sampling, cap_elicit_form, cap_elicit_url;
    int cap_task_elicit, cap_task_list; /* the client declared tasks.requests.elicitation.create,
                                           tasks.list (2025-11-25) */
    int modern, req_log, cacheable; /* the request being served (rs_ctx_t) */
    rs_listen_t *listens; /* owned: RS_MAX_LISTENS slots, NULL until the first listen */
    int discovered; /* server/discover was served (only the discover-required-first switch reads it) */
    json_object *serving; /* borrowed: the id of the stateless request a job step is
                             run for, or NULL (mc_refserver_serving) */
    int log_level;           /* index into the level table; messages below are dropped */
    int log_level_set;       /* the client sent logging/setLevel */
    int64_t log_window_start;
    int log_window_count;
    uint64_t log_dropped;
    int log_changes; /* setLevel calls that changed a level already set (one switch) */
    rs_narrow_t narrow; /* the completion answered last */

    /* mutable fixtures */
    int dyn_resource, dyn_prompt, dyn_tool; /* the trigger tools toggle these */
    int other_served; /* a tools/call, prompts/get or resources/read was served */
    uint32_t watched_rev;                    /* test://watched-resource revision */
    char *subs[RS_MAX_SUBSCRIPTIONS];        /* owned strings */
    int nsubs;
    /* subscribe-again-update-no-uri: with the switch, an unsubscribed
     * entry of subs stays as a tombstone (gone), and a subscribe to its URI
     * revives it (again) */
    unsigned char sub_gone[RS_MAX_SUBSCRIPTIONS];
    unsigned char sub_again[RS_MAX_SUBSCRIPTIONS];
    uint32_t walk_counter; /* for the cursor-unstable switch */

    /* work in progress */
    rs_task_t *tasks; /* owned: RS_MAX_TASKS slots, NULL until the first task */
    uint32_t task_serial;
    rs_job_t *jobs; /* owned: RS_MAX_JOBS slots, NULL until the first tool call */
    int njobs; /* jobs in use */
    uint32_t job_serial;
    rs_pending_t *pending; /* owned: RS_MAX_PENDING slots, NULL until the
                              first server->client request */
    int64_t next_out_id;
    int64_t last_out_id; /* the id of the last server->client request sent */
    int input_closed;    /* the client's input ended: no answer can come any more */
    uint32_t elicitation_seq;
    int64_t now;

    /* output */
    char *out;        /* reusable line buffer */
    size_t out_cap;
    json_object *batch; /* owned: responses collected for a batch, or NULL */
    json_object *tool_schemas[64]; /* owned: cached inputSchema objects */
    json_object *res_cache[8];     /* owned: listed fixture resources (fixed once negotiated) */
    int failed;       /* an allocation failed; handle() reports MC_ENOMEM */
    int pretty_next;  /* embedded-newline switch: pretty-print the next message */
    const char *unspoken_version; /* borrowed: the version initialize asked for, while it is
                                   * answered, when the server does not speak it, or NULL */
    const char *error_reason; /* borrowed: the server's own reason for the error being sent
                               * (the send path's resource-not-found-code), or NULL */
    const char *answering; /* borrowed: the method of the request being served
                              (the dispatcher's), or NULL */

    /* the performance machinery's state (fast.h) */
    json_tokener *tok; /* owned: one tokener for the session, reset per message;
                          NULL until a line needs it */
    const struct mc_refserver_cache *shared;                  /* opts.cache: read-only, or NULL */
    rs_body_t init_body;                                      /* the initialize result */
    uint32_t list_rev[RS_BODY_LISTS];                         /* bumped when a list changes */
    rs_body_t page_cache[RS_BODY_LISTS][RS_PAGE_CACHE_SLOTS]; /* list pages, by page number */
    rs_body_t read_cache[RS_READ_CACHE_SLOTS];                /* fixed fixture reads */
};

/* ---- state.c ---- */

/* Saves the current context into c / switches back to c. */
void mc__rs_ctx_save(const mc_refserver_t *rs, rs_ctx_t *c);
void mc__rs_ctx_restore(mc_refserver_t *rs, const rs_ctx_t *c);

#endif /* MC_REFSERVER_STATE_H */
