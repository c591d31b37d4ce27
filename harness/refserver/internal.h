/*
 * internal.h - the reference server's shared state and internal interfaces.
 *
 * Only the refserver's own modules include this header. Each module owns one
 * job (lifecycle, resources, prompts, tools, client requests, logging,
 * pagination, completion, file root, violation switches); they share the
 * session structure below and the emit helpers of server.c.
 *
 * json-c ownership: "owned" fields hold a reference the server puts when it
 * is done; functions that take a json_object* say whether they consume it.
 */
#ifndef MC_REFSERVER_INTERNAL_H
#define MC_REFSERVER_INTERNAL_H

/* rs->cacheable of a later page under the cache-scope-differs-by-page switch. */
#define RS_CACHEABLE_LATER_PAGE 2

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/jsonrpc.h"
#include "refserver/fast.h"
#include "refserver/inject.h"
#include "refserver/limits.h"
#include "refserver/refserver.h"

/* Negotiable protocol versions, oldest first (order matters for feature tests). */
typedef enum rs_version {
    RS_V_2024_11_05 = 0,
    RS_V_2025_03_26,
    RS_V_2025_06_18,
    RS_V_2025_11_25,
    RS_V_COUNT
} rs_version_t;

#define RS_V_LATEST RS_V_2025_11_25

/* The stateless version, served per request (modern.c) and never negotiated
 * by initialize: it sorts after every legacy version, so "version >= X"
 * feature tests hold for it too. */
#define RS_V_2026_07_28 ((rs_version_t)RS_V_COUNT)

/* What a request is served with: the legacy session's state, or a stateless
 * (2026-07-28) request's own _meta (modern.c). */
typedef struct rs_ctx {
    int modern;   /* the request is served statelessly */
    rs_version_t version;
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
    rs_version_t version;
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

    /* the performance machinery's state (fast.h) */
    json_tokener *tok; /* owned: one tokener for the session, reset per message;
                          NULL until a line needs it */
    const struct mc_refserver_cache *shared;                  /* opts.cache: read-only, or NULL */
    rs_body_t init_body;                                      /* the initialize result */
    uint32_t list_rev[RS_BODY_LISTS];                         /* bumped when a list changes */
    rs_body_t page_cache[RS_BODY_LISTS][RS_PAGE_CACHE_SLOTS]; /* list pages, by page number */
    rs_body_t read_cache[RS_READ_CACHE_SLOTS];                /* fixed fixture reads */
};

/* ---- server.c: output ---- */

/* True when the violation switch is on. */
#define rs_bug_on(rs, b) ((rs)->bug == RS_BUG_##b)

/* Encodes msg as one line and emits it. Consumes msg. */
void mc__rs_emit(mc_refserver_t *rs, json_object *msg);
/* Sends a whole response message (consumed), or adds it to the batch being
 * answered. */
void mc__rs_send_response(mc_refserver_t *rs, json_object *msg);

/* Sends a success response. id is borrowed (the server takes its own
 * reference); result is consumed (NULL means {}). */
void mc__rs_result(mc_refserver_t *rs, json_object *id, json_object *result);

/* Sends an error response. id is borrowed and may be NULL (encoded as null);
 * data is consumed and may be NULL. */
void mc__rs_error(mc_refserver_t *rs, json_object *id, int code, const char *message,
                  json_object *data);

/* Sends a notification. params is consumed and may be NULL. */
void mc__rs_notify(mc_refserver_t *rs, const char *method, json_object *params);

/* The violation switches of a stateless request's dispatch (modern.c): a
 * notifications/cancelled naming a tools/call (cancelled-not-listen), a
 * request refused before server/discover (discover-required-first). Returns
 * 1 when the request was answered. */
int mc__rs_modern_switched(mc_refserver_t *rs, const mc_msg_t *msg);

/* With the notification-with-id switch on, sends the notification with an
 * id member and returns 1; else returns 0. params stays the caller's. */
int mc__rs_notify_switched(mc_refserver_t *rs, const char *method, json_object *params);

/* The code an unknown stateless method is refused with under the switches
 * error-code-undefined-reserved and error-code-legacy, or 0 (modern.c). */
int mc__rs_switched_code(const mc_refserver_t *rs);

/* Answers an unknown stateless method with -32022 listing the versions the
 * server supports, 2026-07-28 among them: the switch error-code-misused
 * (modern.c). */
void mc__rs_misused_code(mc_refserver_t *rs, json_object *id);

/* Makes room for n bytes in the line buffer rs->out. Returns 0, or -1 past
 * MC_MAX_MESSAGE_SIZE or when memory runs out (the buffer is then unchanged). */
int mc__rs_out_reserve(mc_refserver_t *rs, size_t n);

/* ---- modern.c: the stateless protocol (2026-07-28) ---- */

/* True when msg (a request) is served statelessly: it carries the modern
 * _meta fields, names a method only the stateless protocol has, or comes
 * before any initialize. */
int mc__rs_modern_claims(const mc_refserver_t *rs, const mc_msg_t *msg);

/* Checks a modern request's _meta and switches the server to its context,
 * saving the current one in saved. Returns 0 when the request is to be
 * served (call mc__rs_ctx_restore afterwards), -1 when it was answered with
 * an error (-32602, -32022) and nothing was switched. */
int mc__rs_modern_enter(mc_refserver_t *rs, const mc_msg_t *msg, rs_ctx_t *saved);

/* Saves the current context into c / switches back to c. */
void mc__rs_ctx_save(const mc_refserver_t *rs, rs_ctx_t *c);
void mc__rs_ctx_restore(mc_refserver_t *rs, const rs_ctx_t *c);

/* server/discover and subscriptions/listen. */
void mc__rs_discover(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_listen(mc_refserver_t *rs, json_object *id, json_object *params);
/* Ends the listen stream whose id is rid (notifications/cancelled); 1 when one was. */
int mc__rs_listen_cancel(mc_refserver_t *rs, json_object *rid);
void mc__rs_listens_free(mc_refserver_t *rs);

/* Adds what a modern result carries (resultType, ttlMs/cacheScope where
 * cacheable, _meta serverInfo) to result, which must be an object. */
void mc__rs_modern_decorate(mc_refserver_t *rs, json_object *result);

/*
 * A change notification (list_changed, resources/updated with uri): sent to
 * every subscriptions/listen stream that opted in to it, tagged with its
 * subscription id, and untagged to the legacy session when legacy is set
 * and one is open. params is consumed.
 */
void mc__rs_notify_change(mc_refserver_t *rs, const char *method, const char *uri, int legacy,
                          json_object *params);

/*
 * The multi round-trip form of a server->client request, for a modern job:
 * with the client's answer in the call's inputResponses, schedules the next
 * step with it and returns RS_STEP_LATER; otherwise answers the call with an
 * InputRequiredResult carrying the request and returns RS_STEP_DONE.
 * params is consumed.
 */
int mc__rs_mrtr_ask(mc_refserver_t *rs, rs_job_t *job, const char *method, json_object *params);

/* Answers a modern job that needs a capability its request did not declare
 * with -32021, data.requiredCapabilities {cap: {sub: {}}} (sub may be NULL). */
int mc__rs_need_capability(mc_refserver_t *rs, rs_job_t *job, const char *cap, const char *sub);

/* ---- inputreq.c: the multi round-trip fixtures (2026-07-28) ---- */

/* What mc__rs_ir_serve did. */
#define RS_IR_REFUSED 0 /* an error answered the request */
#define RS_IR_ASK 1     /* *result is the InputRequiredResult to answer with */
#define RS_IR_DONE 2    /* every input is in hand; text says what the client gave */

/* True when name is a multi round-trip fixture (a prompt when prompt is set). */
int mc__rs_ir_is_fixture(const char *name, int prompt);

/*
 * Serves one attempt at fixture name of a stateless request id with params
 * (borrowed): checks requestState and inputResponses, and returns RS_IR_ASK
 * with *result (a new reference) when inputs are still missing, RS_IR_DONE
 * with a summary of the answers in text (size bytes) when none is, or
 * RS_IR_REFUSED after answering id with an error (-32602, or -32021 for an
 * input whose capability the client did not declare).
 */
int mc__rs_ir_serve(mc_refserver_t *rs, json_object *id, const char *name, int prompt,
                    json_object *params, json_object **result, char *text, size_t size);

/* Refuses initialize as a server of the stateless versions only does
 * (rs->modern_only): -32601, naming the versions it speaks in the message
 * and in data.supported. */
void mc__rs_modern_only_initialize(mc_refserver_t *rs, json_object *id);

/* What a --modern-only server's refusal of initialize names: appends
 * "; this server speaks only the protocol version V[, W...]" to text (a
 * string in a buffer of n bytes, cut short when full) and returns the
 * error's data, {"supported": [V, ...]} (a new reference; NULL when out of
 * memory). */
json_object *mc__rs_modern_only_refusal(char *text, size_t n);

/* ---- lifecycle.c ---- */

/* Answers initialize: negotiates the version, records client capabilities. */
void mc__rs_initialize(mc_refserver_t *rs, json_object *id, json_object *params);

/* Returns the version's wire string. */
const char *mc__rs_version_str(rs_version_t v);

/* Records the client capabilities caps (an object, or NULL) as rs->version
 * reads them. */
void mc__rs_record_client_caps(mc_refserver_t *rs, json_object *caps);

/* The server capabilities object for rs->version. New reference. */
json_object *mc__rs_server_caps(mc_refserver_t *rs);

/* ---- tasks.c: task-augmented tools/call and the tasks methods (2025-11-25) ---- */

/* True when the request in hand is served with tasks (2025-11-25, legacy). */
int mc__rs_tasks_on(const mc_refserver_t *rs);
/* Adds the tasks capability to caps at 2025-11-25. */
void mc__rs_task_caps(mc_refserver_t *rs, json_object *caps);
/* The task tools listed now (0 where tasks are off). */
size_t mc__rs_task_tool_count(const mc_refserver_t *rs);
/* Listed item of task tool k with inputSchema schema (borrowed). New reference. */
json_object *mc__rs_task_tool_item(mc_refserver_t *rs, size_t k, json_object *schema);
/* The task tool named name, or -1. */
int mc__rs_task_tool_find(const mc_refserver_t *rs, const char *name);
/* Answers tools/call of task tool k: a CreateTaskResult with params.task,
 * else the plain result (or -32601 for a tool that runs only as a task). */
void mc__rs_task_tool_call(mc_refserver_t *rs, json_object *id, int k, json_object *params);
/* A tools/call with params.task of a tool that does not run as a task:
 * answers -32601 and returns 1 where tasks are on, else returns 0. */
int mc__rs_task_refused(mc_refserver_t *rs, json_object *id, json_object *params);
/* Serves tasks/get, tasks/result, tasks/list and tasks/cancel where tasks are
 * on and returns 1; returns 0 otherwise. */
int mc__rs_tasks_dispatch(mc_refserver_t *rs, const char *method, json_object *id,
                          json_object *params);
void mc__rs_tasks_free(mc_refserver_t *rs);

/* The client's answer (msg) to server request id, which no job waits for:
 * a task's request for input gets it (tasks.c). Returns 1 when a task took
 * it, else 0. */
int mc__rs_task_input(mc_refserver_t *rs, int64_t id, const mc_msg_t *msg);

/* ---- json helpers (content.c) ---- */

/* Adds key: value to o; v is consumed. Marks rs->failed on allocation failure. */
void mc__rs_put(mc_refserver_t *rs, json_object *o, const char *key, json_object *v);
void mc__rs_put_str(mc_refserver_t *rs, json_object *o, const char *key, const char *s);

/* Content blocks shaped for the negotiated version. Each returns a new reference. */
json_object *mc__rs_text_block(mc_refserver_t *rs, const char *text);
json_object *mc__rs_image_block(mc_refserver_t *rs);
json_object *mc__rs_audio_block(mc_refserver_t *rs);
json_object *mc__rs_embedded_text(mc_refserver_t *rs, const char *uri, const char *mime,
                                  const char *text);

/* Adds title (2025-06-18+) and icons (2025-11-25+) to a listed item. */
void mc__rs_add_title(mc_refserver_t *rs, json_object *o, const char *title);
void mc__rs_add_icons(mc_refserver_t *rs, json_object *o);

/* Annotations for resources and content; lastModified only where the version has it. */
json_object *mc__rs_annotations(mc_refserver_t *rs, int user, int assistant, double priority);

/* A JSON number: an integer when v is integral, else a short decimal. New reference. */
json_object *mc__rs_number(double v);

/* Base64 (RFC 4648, padded) of len bytes into a new string (caller frees), or NULL. */
char *mc__rs_base64(const unsigned char *data, size_t len);

/* The fixture PNG and WAV as base64 (static strings). */
extern const char mc__rs_png_b64[];
extern const char mc__rs_wav_b64[];

/* Returns a string member of o, or NULL when absent or not a string. o may be NULL. */
/* o[key] when it is a string without an embedded NUL, else NULL (borrowed). */
const char *mc__rs_get_str(json_object *o, const char *key);

/* True when any string inside v (at most MC_MAX_JSON_DEPTH levels down)
 * holds a NUL character: such params are refused with -32602. */
int mc__rs_has_nul_string(json_object *v, int depth);

/* ---- cursor.c: pagination ---- */

/*
 * Works out the page a list request asks for. On success returns 0 and sets
 * *start (first index) and *end (one past the last); on a bad cursor the
 * error response is sent and -1 is returned.
 */
int mc__rs_page(mc_refserver_t *rs, rs_list_t list, json_object *id, json_object *params,
                size_t total, size_t *start, size_t *end, const char **cursor_in);

/* Writes the cursor of list at offset into out (17 bytes with the NUL). */
void mc__rs_cursor_text(mc_refserver_t *rs, rs_list_t list, size_t offset, char *out);

/* Adds nextCursor to result when end < total. */
void mc__rs_page_finish(mc_refserver_t *rs, rs_list_t list, json_object *result, size_t end,
                        size_t total, const char *cursor_in);

/* Builds item i of a list (a new reference). */
typedef json_object *(*rs_item_fn)(mc_refserver_t *rs, size_t i);

/*
 * Answers a list request: the page params ask for (or the bad-cursor
 * error), items start..end built by item under field, nextCursor, through
 * the response cache. pretty makes the answer span several lines (the
 * embedded-newline violation switch).
 */
void mc__rs_serve_list(mc_refserver_t *rs, rs_list_t list, json_object *id, json_object *params,
                       size_t total, const char *field, rs_item_fn item, int pretty);

/* ---- resources.c ---- */
void mc__rs_resources_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_templates_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_resources_read(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_resources_subscribe(mc_refserver_t *rs, json_object *id, json_object *params,
                                int subscribe);
/* Changes test://watched-resource and tells subscribers. */
void mc__rs_resources_touch(mc_refserver_t *rs);
/* True when uri names a readable resource (fixture, template match, file, synthetic). */
int mc__rs_resource_exists(mc_refserver_t *rs, const char *uri);
/* Number of listed resources (for completion of resourceUri). */
size_t mc__rs_resources_count(mc_refserver_t *rs);
/* The uri of listed resource i into buf; returns buf. */
const char *mc__rs_resource_uri(mc_refserver_t *rs, size_t i, char *buf, size_t cap);

/* ---- prompts.c ---- */
void mc__rs_prompts_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_prompts_get(mc_refserver_t *rs, json_object *id, json_object *params);
/* Returns 1 if a prompt of that name exists, and whether it has argument arg. */
int mc__rs_prompt_has_arg(mc_refserver_t *rs, const char *prompt, const char *arg, int *known);

/* ---- tools.c ---- */
void mc__rs_tools_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_tools_call(mc_refserver_t *rs, json_object *id, json_object *params);
/* Runs step job->step of the job's tool; reply is the client's answer when
 * the job waited for one, else NULL. Returns RS_STEP_*. */
int mc__rs_tool_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
/* An isError tool result with one text block. Returns a new reference. */
json_object *mc__rs_tool_error(mc_refserver_t *rs, const char *text);
/* A tool result with one text block. Returns a new reference. */
json_object *mc__rs_tool_text(mc_refserver_t *rs, const char *text);

/* ---- taskreq.c: test_task_requestor, the server as a task's requestor ---- */
/* The tool index of its jobs: outside tools.c's table. */
#define RS_TOOL_TASK_REQUESTOR (-2)
/* 1 when the session lists test_task_requestor (2025-11-25), else 0. */
size_t mc__rs_taskreq_count(const mc_refserver_t *rs);
/* Its tools/list entry with input schema schema (borrowed). New reference. */
json_object *mc__rs_taskreq_item(mc_refserver_t *rs, json_object *schema);
/* True when name is test_task_requestor and the session lists it. */
int mc__rs_taskreq_is(const mc_refserver_t *rs, const char *name);
/* Runs the next step of a test_task_requestor job. Returns RS_STEP_*. */
int mc__rs_taskreq_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- jobs.c: the job runner behind tool calls ---- */
/* Starts a job for fixture tool `tool` answering request id; token, args and
 * responses (inputResponses) may be NULL and are borrowed. Its first step
 * runs from mc__rs_jobs_run(). A full job table answers -32603; an
 * allocation failure sets rs->failed. */
void mc__rs_job_start(mc_refserver_t *rs, json_object *id, int tool, json_object *token,
                      json_object *args, json_object *responses);
/* Runs the steps that are due. */
void mc__rs_jobs_run(mc_refserver_t *rs);
/* After each message: with the cancelled-request-answered switch, a job
 * cancelled by an earlier message runs to its end now, so its answer follows
 * the answer to the message read after the cancellation. */
void mc__rs_jobs_after_message(mc_refserver_t *rs);
/* Handles notifications/cancelled. */
void mc__rs_jobs_cancel(mc_refserver_t *rs, json_object *params);
/* Frees every job. */
void mc__rs_jobs_free(mc_refserver_t *rs);
/* Earliest due step, or -1. */
int64_t mc__rs_jobs_deadline(const mc_refserver_t *rs);
/* Sends the final result of a job and frees it. result is consumed. */
void mc__rs_job_finish(mc_refserver_t *rs, rs_job_t *job, json_object *result);
/* The same with the result mc__rs_tool_text(text) (mc__rs_tool_error(text)
 * when is_error), written as text when it can be. */
void mc__rs_job_finish_text(mc_refserver_t *rs, rs_job_t *job, const char *text, int is_error);
/* Sends a progress notification for the job when it has a token. */
void mc__rs_job_progress(mc_refserver_t *rs, rs_job_t *job, double progress, double total,
                         const char *message);
/* Called by clientreq.c when the client answers a request of job: runs its
 * next step if it waits for the client. */
void mc__rs_job_reply(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- clientreq.c: server->client requests ---- */

/* Sends a request on behalf of job. params is consumed. Returns MC_OK or MC_EFULL. */
int mc__rs_client_request(mc_refserver_t *rs, rs_job_t *job, const char *method,
                          json_object *params);
/* Routes a response from the client to the waiting job. */
void mc__rs_client_response(mc_refserver_t *rs, const mc_msg_t *msg);
/* Forgets the requests of a job (cancelled or finished). */
void mc__rs_client_forget(mc_refserver_t *rs, const rs_job_t *job);
/* Cancels the requests the client has not answered in time
 * (notifications/cancelled) and ends the tool calls that waited for them
 * with an isError result. */
void mc__rs_client_expire(mc_refserver_t *rs);
/* When the next request times out, or -1. */
int64_t mc__rs_client_deadline(const mc_refserver_t *rs);

/* ---- elicit.c: the elicitation, sampling and roots tools ---- */
int mc__rs_tool_elicit(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_defaults(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_enums(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_url(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_url_error(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_url_complete(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_sampling(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_sampling_pair(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_roots(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- tools_trigger.c: the tools that change the watched resource and the
 * resource, prompt and tool lists ---- */
int mc__rs_tool_trigger_update(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_trigger_resources(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_trigger_prompts(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_trigger_tools(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- logging.c ---- */
#define RS_LOG_LEVELS 8
void mc__rs_logging_set_level(mc_refserver_t *rs, json_object *id, json_object *params);
/* Sends notifications/message when level passes the filter and the rate limit.
 * data is consumed. level is an index 0 (debug) .. 7 (emergency). */
void mc__rs_log(mc_refserver_t *rs, int level, const char *logger, json_object *data);
/* The same with data {"message": text}, built only when the message passes. */
void mc__rs_log_message(mc_refserver_t *rs, int level, const char *logger, const char *text);

/* A debug-level notifications/message "WHAT NAME" about a request being
 * served (a resource read, a prompt fetched), sent only once the client has
 * set a level with logging/setLevel and only when the level lets it through. */
void mc__rs_log_activity(mc_refserver_t *rs, const char *logger, const char *what,
                         const char *name);
const char *mc__rs_log_level_name(int level);

/* ---- completion.c ---- */
void mc__rs_complete(mc_refserver_t *rs, json_object *id, json_object *params);
/* Drops the completion kept for narrowing: a request other than
 * completion/complete came. */
void mc__rs_complete_forget(mc_refserver_t *rs);

/* ---- fileroot.c ---- */
struct rs_fileroot *mc__rs_fileroot_open(const char *dir, mc_errbuf_t *eb);
void mc__rs_fileroot_free(struct rs_fileroot *fr);
size_t mc__rs_fileroot_count(const struct rs_fileroot *fr);
/* URI of listed file i into buf (percent-encoded file:// URI); returns buf. */
const char *mc__rs_fileroot_uri(const struct rs_fileroot *fr, size_t i, char *buf, size_t cap);
/* Name (relative path) of listed file i (borrowed). */
const char *mc__rs_fileroot_name(const struct rs_fileroot *fr, size_t i);
/* True when uri is a file:// URI (whatever its validity). */
int mc__rs_fileroot_claims(const char *uri);
/*
 * Reads a file:// URI confined to the root. On success returns MC_OK and
 * *contents is a new reference (one TextResourceContents or
 * BlobResourceContents). Otherwise returns the JSON-RPC error code to send
 * (-32602 for a refused URI, -32002 for a missing file) and fills why.
 */
int mc__rs_fileroot_read(const struct rs_fileroot *fr, const char *uri, json_object **contents,
                         char *why, size_t why_cap);

#endif /* MC_REFSERVER_INTERNAL_H */
