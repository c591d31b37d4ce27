/*
 * step.h - the steps of a scenario, typed once when the file loads.
 *
 * MC_STEP_KINDS is the one list of step kinds: the member that names a
 * step's kind ("request", "notify", ...) and how problems call it. A step
 * is an mc_step_t, a tagged union: kind is the tag and u.<kind> holds that
 * kind's fixed members, typed (method and variable names, timeouts and
 * counts, booleans, enums for closed sets of words, what "expect" and
 * "capture" say). What is a run-time template (params, assert, where,
 * with, a raw line with variables, an http step's message and headers)
 * stays JSON, borrowed from the document, and is expanded when the step
 * runs.
 *
 * Each kind is a row of the list, its typed form mc_step_<kind>_t (the
 * union's member u.<kind>, made by the list) and a function per module,
 * named after the row and reached through a table indexed by
 * mc_step_kind_t: its parser parse_<kind> (step.c, through
 * mc_step_parse()), its checks lint_<kind>
 * with its member list (lint_steps.c), its runner step_<kind>
 * (runner_steps.c, runner_page.c) and its contribution to the coverage map
 * cover_<kind> (coverage.c); the tables do not build without them. The
 * linter types each step as it checks it, so that a file is read once (a
 * raw step's line is parsed there, once); the runner, the coverage map and
 * the linter's checks after a member's type is known read the typed
 * members. The format of each kind is in scenarios/README.md, and for
 * editors in scenarios/scenario.schema.json, whose kinds and fields the test
 * scenario/schema-file holds to this list and to lint_steps.c.
 */
#ifndef MC_SCENARIO_STEP_H
#define MC_SCENARIO_STEP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* X(ID, member, how problems name such a step), in the order the linter
 * lists them. */
#define MC_STEP_KINDS(X)                                                                           \
    X(request, "request", "a request step")                                                        \
    X(notify, "notify", "a notify step")                                                           \
    X(expect_notification, "expect_notification", "an expect_notification step")                   \
    X(expect_no_notification, "expect_no_notification", "an expect_no_notification step")          \
    X(expect_request, "expect_request", "an expect_request step")                                  \
    X(expect_no_request, "expect_no_request", "an expect_no_request step")                         \
    X(answer, "answer", "an answer step")                                                          \
    X(paginate, "paginate", "a paginate step")                                                     \
    X(for_each, "for_each", "a for_each step")                                                     \
    X(raw, "raw", "a raw step")                                                                    \
    X(sleep, "sleep", "a sleep step")                                                              \
    X(await, "await", "an await step")                                                             \
    X(value, "value", "a value step")                                                              \
    X(http, "http", "an http step")                                                                \
    X(reconnect, "reconnect", "a reconnect step")

typedef enum mc_step_kind {
    MC_STEP_NONE = 0, /* not a step the linter lets through */
#define MC__STEP_ENUM(id, name, what) MC_STEP_##id,
    MC_STEP_KINDS(MC__STEP_ENUM)
#undef MC__STEP_ENUM
        MC_STEP_KIND_COUNT
} mc_step_kind_t;

/* An integer member that is not given (nor within int range): the runner's
 * default applies. */
#define MC_STEP_UNSET INT_MIN
/* The largest "at_most" of an expect_no_notification or expect_no_request
 * step (the messages counted are those the runner's inbox keeps). */
#define MC_STEP_MAX_AT_MOST 10000

/* What a step expects of the response it waits for ("expect"). */
typedef enum mc_step_expect_kind {
    MC_STEP_EXPECT_RESULT = 0, /* "result", and the default */
    MC_STEP_EXPECT_ERROR,      /* "error": an error response, any code */
    MC_STEP_EXPECT_CODES,      /* {"error": CODE or [CODES]}: an error with one of codes */
    MC_STEP_EXPECT_ANY,        /* "any": a response of either kind */
    MC_STEP_EXPECT_NONE,       /* "none": no response within the window (raw, await) */
    MC_STEP_EXPECT_BATCH,      /* "batch": the array answering a batch (raw) */
    MC_STEP_EXPECT_INVALID     /* anything else (the linter rejects it) */
} mc_step_expect_kind_t;

typedef struct mc_step_expect {
    mc_step_expect_kind_t kind;
    const int64_t *codes; /* MC_STEP_EXPECT_CODES: the accepted codes */
    size_t n_codes;
    int codes_list;         /* ... written as a list (else one number) */
    const char *codes_text; /* ... as written, compact ("-32602", "[-32602,-32002]") */
} mc_step_expect_t;

/* One entry of "capture": the variable set to what path selects. */
typedef struct mc_step_capture {
    const char *name; /* borrowed */
    const char *path; /* borrowed; NULL when not a string (the linter rejects it) */
} mc_step_capture_t;

/* How a step judges the message it waited for (runner_expect.c). */
typedef struct mc_step_judge {
    mc_step_expect_t expect;          /* responses only */
    json_object *asserts;             /* template: "assert", or NULL */
    int asserts_is_error;             /* the asserts' text names isError */
    const mc_step_capture_t *capture; /* "capture", in the file's order */
    size_t n_capture;
} mc_step_judge_t;

typedef struct mc_step_request {
    const char *method;
    json_object *params; /* template, or NULL */
    int timeout_ms;      /* or MC_STEP_UNSET */
    int progress;        /* "progress": true: a progress token is added */
    int retry_off;       /* "retry": false: an input_required answer is judged as it is */
    const char *async;   /* the variable for the id of a request not waited for, or NULL */
    mc_step_judge_t judge;
} mc_step_request_t;

typedef struct mc_step_notify {
    const char *method;
    json_object *params; /* template, or NULL */
} mc_step_notify_t;

/* The largest "interval.min" of an expect step (ms). */
#define MC_STEP_MAX_INTERVAL_MS 60000

/* expect_notification and expect_request: waiting for a message. */
typedef struct mc_step_expect_msg {
    const char *method;
    int within_ms;      /* or MC_STEP_UNSET */
    int related;        /* "related": true */
    json_object *where; /* template: assertions the message must meet, or NULL */
    mc_step_judge_t judge;
    /* "interval": {"min": MS, "check": ID}: the message arrives at least MS
     * after the one the previous expect step took (runner_expect.c). */
    int has_interval;           /* "interval" is given */
    int interval_min_ms;        /* "interval.min", or MC_STEP_UNSET */
    const char *interval_check; /* "interval.check", or NULL: the step's check */
} mc_step_expect_msg_t;
typedef mc_step_expect_msg_t mc_step_expect_notification_t;
typedef mc_step_expect_msg_t mc_step_expect_request_t;

/* expect_no_notification and expect_no_request: watching for silence. */
typedef struct mc_step_expect_none {
    const char *method; /* a method, or "*" */
    int for_ms;         /* or MC_STEP_UNSET */
    int related;
    json_object *where; /* template, or NULL */
    int at_most;        /* "at_most": matching messages allowed within the window (0 when not
                           given; MC_STEP_UNSET when not a number in range) */
} mc_step_expect_none_t;
typedef mc_step_expect_none_t mc_step_expect_no_notification_t;
typedef mc_step_expect_none_t mc_step_expect_no_request_t;

typedef struct mc_step_answer {
    const char *method; /* the server request method answered so from now on */
    json_object *with;  /* template: the result, or NULL */
    json_object *error; /* the error object, or NULL */
} mc_step_answer_t;

typedef struct mc_step_paginate {
    const char *method;
    const char *items;    /* the result member holding the list */
    const char *key;      /* the item member that identifies it ("key", else by items) */
    int max_pages;        /* or MC_STEP_UNSET */
    json_object *params;  /* template, or NULL */
    const char *capture;  /* the variable for every item, or NULL */
    json_object *asserts; /* template, held on every page of the first walk, or NULL */
} mc_step_paginate_t;

typedef struct mc_step_for_each {
    json_object *list;  /* template: the "for_each" member ("${variable}") */
    const char *as;     /* the loop variable */
    int max;            /* or MC_STEP_UNSET */
    json_object *where; /* template, or NULL */
    /* "when": {"value": V, "assert": [...]}: the loop runs only when the
     * assertions hold on V (paths start at it), judged once before it. */
    json_object *when_value;  /* template, or NULL */
    json_object *when_assert; /* template, or NULL: no condition */
} mc_step_for_each_t;

typedef struct mc_step_raw {
    const char *line;       /* the line to send, as written */
    json_object *line_tmpl; /* template: the "raw" member, filled in when not literal */
    int literal;            /* it holds no "${": it is sent as written */
    json_object *parsed;    /* owned: the line as strict JSON, or NULL when it is not */
    json_object *expect_id; /* template: the id to wait for, or NULL (the line's) */
    int within_ms;          /* or MC_STEP_UNSET */
    mc_step_judge_t judge;  /* expect and assert */
} mc_step_raw_t;

typedef struct mc_step_sleep {
    int ms;
} mc_step_sleep_t;

/* "reconnect": true: the session ends and a new one starts (runner_target.c). */
typedef struct mc_step_reconnect {
    int on; /* the member is true (the linter refuses anything else) */
} mc_step_reconnect_t;

typedef struct mc_step_await {
    const char *var; /* the variable an async request stored its id in */
    int timeout_ms;  /* or MC_STEP_UNSET */
    mc_step_judge_t judge;
} mc_step_await_t;

typedef struct mc_step_value {
    json_object *value;   /* template */
    json_object *asserts; /* template, or NULL */
} mc_step_value_t;

typedef enum mc_step_http_method {
    MC_STEP_HTTP_INVALID = 0, /* not one of the four (the linter rejects it) */
    MC_STEP_HTTP_POST,
    MC_STEP_HTTP_GET,
    MC_STEP_HTTP_DELETE,
    MC_STEP_HTTP_PUT
} mc_step_http_method_t;

/* Which session id an http step sends ("session"). */
typedef enum mc_step_http_session {
    MC_STEP_SESSION_CURRENT = 0, /* the session's own, and the default */
    MC_STEP_SESSION_NONE,        /* none */
    MC_STEP_SESSION_UNKNOWN      /* one the server never assigned */
} mc_step_http_session_t;

typedef struct mc_step_http {
    mc_step_http_method_t method;
    json_object *message;    /* template: the JSON message to send, or NULL */
    json_object *body;       /* template: the body as a string, or NULL */
    json_object *headers;    /* template: name -> value (null drops a default), or NULL */
    json_object *interleave; /* template: "resume.interleave", or NULL */
    int resume;              /* "resume" is given */
    int resume_response;     /* "resume": {"response": true}: the dropped request's response
                                must come on its stream (judged instead of the replay's
                                contents) */
    mc_step_http_session_t session;
    int delete_first, empty_body;
    int within_ms, events; /* or MC_STEP_UNSET */
    int has_error_code;    /* "error_code" is given: the JSON-RPC error code expected */
    int64_t error_code;
    const int64_t *status; /* the statuses accepted */
    size_t n_status;
    const char *status_text;   /* ... as written ("202", "[200,405]"); NULL: any status */
    const char *const *ctypes; /* the Content-Type prefixes accepted */
    size_t n_ctypes;
    const char *ctype_text; /* ... as written; NULL: any content type */
} mc_step_http_t;

/*
 * One step. Strings and templates are borrowed from the document the step
 * was typed from; what the step owns is freed by mc_step_clear().
 */
typedef struct mc_step {
    mc_step_kind_t kind;   /* the tag: which member of u is in use */
    int line;              /* where the step stands in the file (1-based; 0 unknown) */
    json_object *json;     /* borrowed: the step as written */
    const char *arg;       /* borrowed: the kind's member when it is a string, else NULL */
    const char *check;     /* borrowed: the step's "check", or NULL */
    struct mc_step *steps; /* owned: a for_each step's nested steps, or NULL */
    size_t n_steps;
    union {
#define MC__STEP_MEMBER(id, name, what) mc_step_##id##_t id;
        MC_STEP_KINDS(MC__STEP_MEMBER)
#undef MC__STEP_MEMBER
    } u;
    struct mc__step_mem *mem; /* private: arrays and strings the parser made */
} mc_step_t;

/* The member naming a kind ("request"), or "" for MC_STEP_NONE. */
const char *mc_step_kind_name(mc_step_kind_t kind);

/* How problems name a step of kind ("a request step"). */
const char *mc_step_kind_what(mc_step_kind_t kind);

/* "POST", "GET", "DELETE", "PUT", or NULL for MC_STEP_HTTP_INVALID. */
const char *mc_step_http_method_name(mc_step_http_method_t m);

/*
 * The kind of st: the one kind member it holds. *n_kinds (when not NULL)
 * is set to how many kind members it holds; MC_STEP_NONE when that is not
 * exactly one or st is not an object.
 */
mc_step_kind_t mc_step_kind_of(json_object *st, int *n_kinds);

/*
 * Types step st into *out (cleared first) by its kind's parser: the kind
 * (MC_STEP_NONE when st has not exactly one kind member, with nothing else
 * set), json, arg, check and u.<kind>. A member of the wrong type is taken
 * as not given: the linter reports it. Neither line nor a for_each's nested
 * steps are set here (the linter sets them as it walks the file). Returns
 * MC_OK, or MC_ENOMEM with *out holding nothing to free.
 */
int mc_step_parse(json_object *st, mc_step_t *out);

/* Frees what *s owns (nested steps included) and clears it. */
void mc_step_clear(mc_step_t *s);

/* Clears each of steps[0..n) and frees the array (NULL is fine). */
void mc_steps_free(mc_step_t *steps, size_t n);

/*
 * True when steps[0..n) (nested ones included) only read: every step is a
 * request or a paginate step whose method is one that lists, reads, gets or
 * completes what the server offers (or ping), waited for and without a
 * progress token, or a value step. Such steps leave the server as they
 * found it and expect nothing of what came before them, so that their
 * scenario may run on a server process an earlier one used
 * (mc_scenario_t.shareable).
 */
int mc_steps_read_only(const mc_step_t *steps, size_t n);

/*
 * True when steps[0..n) (nested ones included) judge nothing the server
 * sent before the scenario's own first message: no expect_notification or
 * expect_request step without "related" (such a step takes a message that
 * came at any time since the handshake, which on a process an earlier
 * scenario used would have gone to that scenario). Such steps may run on a
 * process the read-only scenarios before them used, as its last user
 * (mc_scenario_t.takes_held).
 */
int mc_steps_judge_own_traffic(const mc_step_t *steps, size_t n);

#endif /* MC_SCENARIO_STEP_H */
