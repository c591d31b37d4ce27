/*
 * lint_steps.c - the linter's checks of each step kind, behind one table
 * indexed by the kind (step.h), and the walk over a steps array that types
 * each step as it checks it. A kind's function checks the members as
 * written; where it goes on from a member whose type it has checked (the
 * variables a step defines, the method it sends, the raw line's content),
 * it reads the typed step.
 */
#include "scenario/lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "scenario/vars.h"

/* Longest pause a sleep step may ask for. */
#define MAX_SLEEP_MS 10000
/* Deepest nesting of for_each steps. */
#define MAX_FOR_EACH_DEPTH 4

/*
 * The harness obeys the rules it checks: a message the client sends that
 * needs a client capability the scenario does not declare is a problem of
 * the scenario (2025-06-18/basic/lifecycle#operation: "Both parties MUST
 * only use capabilities that were successfully negotiated").
 */
static void lint_client_sends(mc__lint_t *l, const char *method, const char *ptr)
{
    json_object *roots = mc_json_get(l->client_caps, "roots");

    if (method != NULL && strcmp(method, "notifications/roots/list_changed") == 0 &&
        !json_object_get_boolean(mc_json_get(roots, "listChanged")))
        mc__lint_problem(l, ptr,
                         "the client would send notifications/roots/list_changed without "
                         "declaring client.capabilities.roots.listChanged");
}

/* True when step st says it sends a method unknown at its versions on
 * purpose ("unknown_method": true). */
static int on_purpose(json_object *st)
{
    json_object *u = mc_json_get(st, "unknown_method");

    return json_object_is_type(u, json_type_boolean) && json_object_get_boolean(u);
}

/* ---- step kinds: one function each, behind one table ---- */

static void lint_request(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const mc_step_request_t *r = &s->u.request;
    char sub[512];

    (void)depth;
    if (r->method == NULL)
        mc__lint_problem(l, ptr, "\"request\" must be a method name");
    mc__lint_want_type(l, st, "params", json_type_object, ptr, "a request step");
    mc__lint_want_type(l, st, "timeout", json_type_int, ptr, "a request step");
    mc__lint_want_type(l, st, "progress", json_type_boolean, ptr, "a request step");
    mc__lint_want_type(l, st, "retry", json_type_boolean, ptr, "a request step");
    mc__lint_want_type(l, st, "unknown_method", json_type_boolean, ptr, "a request step");
    mc__lint_method(l, MC_VOCAB_CLIENT_REQUEST, r->method, ptr, on_purpose(st));
    if (json_object_is_type(mc_json_get(st, "progress"), json_type_boolean) && r->progress)
        mc__lint_define_var(l, "progress_token"); /* the runner sets it */
    mc__lint_check_refs(l, r->params, ptr);
    mc_str_join(sub, sizeof(sub), ptr, "/expect");
    mc__lint_expect(l, mc_json_get(st, "expect"), sub);
    mc__lint_member(l, st, ptr, "assert", mc__lint_assertions);
    mc__lint_check_field(l, st, ptr);
    if (mc_json_get(st, "async") != NULL) {
        if (r->async == NULL || !mc_var_name_ok(r->async))
            mc__lint_problem(l, ptr, "\"async\" must name a variable for the request id");
        else
            mc__lint_define_var(l, r->async);
        if (mc_json_get(st, "expect") != NULL || mc_json_get(st, "assert") != NULL ||
            mc_json_get(st, "capture") != NULL)
            mc__lint_problem(l, ptr,
                             "an \"async\" request takes its expectations in the \"await\" "
                             "step");
    }
    mc__lint_member(l, st, ptr, "capture", mc__lint_capture);
}

static void lint_notify(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    (void)depth;
    if (s->u.notify.method == NULL)
        mc__lint_problem(l, ptr, "\"notify\" must be a method name");
    else
        lint_client_sends(l, s->u.notify.method, ptr);
    mc__lint_want_type(l, st, "params", json_type_object, ptr, "a notify step");
    mc__lint_want_type(l, st, "unknown_method", json_type_boolean, ptr, "a notify step");
    mc__lint_method(l, MC_VOCAB_NOTIFICATION, s->u.notify.method, ptr, on_purpose(st));
    mc__lint_check_refs(l, s->u.notify.params, ptr);
}

/* "interval": {"min": MS, "check": ID}: MS from 0 to MC_STEP_MAX_INTERVAL_MS,
 * the check (optional) one the scenario declares. */
static void lint_interval(mc__lint_t *l, json_object *st, const mc_step_expect_msg_t *e,
                          const char *ptr)
{
    static const char *const keys[] = {"min", "check", NULL};
    json_object *iv = mc_json_get(st, "interval");
    char sub[512];

    if (!e->has_interval)
        return;
    mc_str_join(sub, sizeof(sub), ptr, "/interval");
    if (!json_object_is_type(iv, json_type_object)) {
        mc__lint_problem(l, sub, "\"interval\" must be an object {\"min\": MS, \"check\": ID}");
        return;
    }
    mc__lint_only_keys(l, iv, sub, "\"interval\"", keys);
    if (e->interval_min_ms == MC_STEP_UNSET || e->interval_min_ms < 0 ||
        e->interval_min_ms > MC_STEP_MAX_INTERVAL_MS)
        mc__lint_problem(l, sub, "\"interval.min\" must be an integer from 0 to %d (ms)",
                         MC_STEP_MAX_INTERVAL_MS);
    mc__lint_check_field(l, iv, sub);
}

/* expect_notification and expect_request; kind is the step's kind. */
static void lint_expect_message(mc__lint_t *l, json_object *st, const mc_step_expect_msg_t *e,
                                const char *ptr, const char *kind, mc_vocab_kind_t words)
{
    if (e->method == NULL)
        mc__lint_problem(l, ptr, "\"%s\" must be a method name", kind);
    mc__lint_method(l, words, e->method, ptr, 0);
    mc__lint_want_type(l, st, "within", json_type_int, ptr, "this step");
    mc__lint_want_type(l, st, "related", json_type_boolean, ptr, "this step");
    mc__lint_member(l, st, ptr, "where", mc__lint_assertions);
    mc__lint_member(l, st, ptr, "assert", mc__lint_assertions);
    mc__lint_check_field(l, st, ptr);
    mc__lint_member(l, st, ptr, "capture", mc__lint_capture);
    lint_interval(l, st, e, ptr);
}

static void lint_expect_notification(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr,
                                     int depth)
{
    (void)depth;
    lint_expect_message(l, st, &s->u.expect_notification, ptr, "expect_notification",
                        MC_VOCAB_NOTIFICATION);
}

static void lint_expect_request(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr,
                                int depth)
{
    (void)depth;
    lint_expect_message(l, st, &s->u.expect_request, ptr, "expect_request",
                        MC_VOCAB_SERVER_REQUEST);
}

/* expect_no_notification and expect_no_request. */
static void lint_expect_none(mc__lint_t *l, json_object *st, const mc_step_expect_none_t *e,
                             const char *ptr, const char *kind, mc_vocab_kind_t words)
{
    if (e->method == NULL)
        mc__lint_problem(l, ptr, "\"%s\" must be a method name or \"*\"", kind);
    else if (strcmp(e->method, "*") != 0)
        mc__lint_method(l, words, e->method, ptr, 0);
    mc__lint_want_type(l, st, "for", json_type_int, ptr, "this step");
    mc__lint_want_type(l, st, "related", json_type_boolean, ptr, "this step");
    mc__lint_want_type(l, st, "at_most", json_type_int, ptr, "this step");
    if (e->at_most != MC_STEP_UNSET && (e->at_most < 0 || e->at_most > MC_STEP_MAX_AT_MOST))
        mc__lint_problem(l, ptr, "\"at_most\" must be between 0 and %d", MC_STEP_MAX_AT_MOST);
    mc__lint_member(l, st, ptr, "where", mc__lint_assertions);
    mc__lint_check_field(l, st, ptr);
}

static void lint_expect_no_notification(mc__lint_t *l, json_object *st, mc_step_t *s,
                                        const char *ptr, int depth)
{
    (void)depth;
    lint_expect_none(l, st, &s->u.expect_no_notification, ptr, "expect_no_notification",
                     MC_VOCAB_NOTIFICATION);
}

static void lint_expect_no_request(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr,
                                   int depth)
{
    (void)depth;
    lint_expect_none(l, st, &s->u.expect_no_request, ptr, "expect_no_request",
                     MC_VOCAB_SERVER_REQUEST);
}

static void lint_value(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    char sub[512];

    (void)depth;
    mc__lint_check_refs(l, s->u.value.value, ptr);
    if (s->u.value.asserts == NULL) {
        mc__lint_problem(l, ptr, "a value step needs \"assert\" (paths start at the value)");
    } else {
        mc_str_join(sub, sizeof(sub), ptr, "/assert");
        mc__lint_assertions(l, s->u.value.asserts, sub);
    }
    mc__lint_check_field(l, st, ptr);
}

static void lint_answer(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const mc_step_answer_t *a = &s->u.answer;

    (void)depth;
    if (a->method == NULL)
        mc__lint_problem(l, ptr, "\"answer\" must be the server request method to answer");
    mc__lint_method(l, MC_VOCAB_SERVER_REQUEST, a->method, ptr, 0);
    if ((a->with == NULL) == (a->error == NULL))
        mc__lint_problem(l, ptr,
                         "an answer step needs exactly one of \"with\" (a result object) or "
                         "\"error\" ({\"code\", \"message\"})");
    mc__lint_want_type(l, st, "with", json_type_object, ptr, "an answer step");
    mc__lint_want_type(l, st, "error", json_type_object, ptr, "an answer step");
    mc__lint_check_refs(l, a->with, ptr);
}

static void lint_paginate(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const mc_step_paginate_t *p = &s->u.paginate;

    (void)depth;
    if (p->method == NULL)
        mc__lint_problem(l, ptr, "\"paginate\" must be a list method");
    mc__lint_method(l, MC_VOCAB_CLIENT_REQUEST, p->method, ptr, 0);
    if (p->items == NULL)
        mc__lint_problem(l, ptr,
                         "a paginate step needs \"items\": the result field holding the list");
    mc__lint_want_type(l, st, "key", json_type_string, ptr, "a paginate step");
    mc__lint_want_type(l, st, "max_pages", json_type_int, ptr, "a paginate step");
    mc__lint_want_type(l, st, "params", json_type_object, ptr, "a paginate step");
    mc__lint_check_refs(l, p->params, ptr);
    mc__lint_member(l, st, ptr, "assert", mc__lint_assertions);
    mc__lint_check_field(l, st, ptr);
    if (mc_json_get(st, "capture") != NULL) {
        if (p->capture == NULL || !mc_var_name_ok(p->capture))
            mc__lint_problem(l, ptr, "\"capture\" of a paginate step names one variable");
        else
            mc__lint_define_var(l, p->capture);
    }
}

static void lint_for_each(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const mc_step_for_each_t *f = &s->u.for_each;
    json_object *steps = mc_json_get(st, "steps");
    char sub[512];

    if (!mc__lint_is_str(f->list))
        mc__lint_problem(l, ptr, "\"for_each\" must be a \"${variable}\" holding an array");
    mc__lint_check_refs(l, f->list, ptr);
    if (f->as == NULL || !mc_var_name_ok(f->as))
        mc__lint_problem(l, ptr, "a for_each step needs \"as\": the loop variable's name");
    else
        mc__lint_define_var(l, f->as);
    mc__lint_want_type(l, st, "max", json_type_int, ptr, "a for_each step");
    mc__lint_member(l, st, ptr, "where", mc__lint_assertions);
    if (mc_json_get(st, "when") != NULL) {
        static const char *const k_when[] = {"value", "assert", NULL};
        json_object *w = mc_json_get(st, "when");
        mc_str_join(sub, sizeof(sub), ptr, "/when");
        if (!json_object_is_type(w, json_type_object) || f->when_value == NULL ||
            f->when_assert == NULL) {
            mc__lint_problem(l, sub,
                             "\"when\" must be {\"value\": ..., \"assert\": [...]} (paths "
                             "start at the value)");
        } else {
            mc__lint_only_keys(l, w, sub, "\"when\"", k_when);
            mc__lint_check_refs(l, f->when_value, sub);
            mc_str_join(sub, sizeof(sub), ptr, "/when/assert");
            mc__lint_assertions(l, f->when_assert, sub);
        }
    }
    if (depth >= MAX_FOR_EACH_DEPTH) {
        mc__lint_problem(l, ptr, "for_each nested more than %d deep", MAX_FOR_EACH_DEPTH);
    } else if (steps == NULL || !json_object_is_type(steps, json_type_array)) {
        mc__lint_problem(l, ptr, "a for_each step needs \"steps\"");
    } else {
        mc_str_join(sub, sizeof(sub), ptr, "/steps");
        mc__lint_steps(l, steps, sub, depth + 1, &s->steps, &s->n_steps);
    }
}

static void lint_raw(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const mc_step_raw_t *r = &s->u.raw;
    char sub[512];

    (void)depth;
    if (r->line == NULL)
        mc__lint_problem(l, ptr, "\"raw\" must be the exact line to send (a string)");
    else if (json_object_is_type(r->parsed, json_type_object))
        lint_client_sends(l, mc_json_get_str(r->parsed, "method"), ptr);
    mc_str_join(sub, sizeof(sub), ptr, "/expect");
    if (r->judge.expect.kind == MC_STEP_EXPECT_BATCH) {
        /* A batch: the raw line is a JSON array, answered by an array. */
        if (!json_object_is_type(r->parsed, json_type_array) ||
            json_object_array_length(r->parsed) == 0)
            mc__lint_problem(l, sub,
                             "\"expect\": \"batch\" needs a raw line holding a non-empty "
                             "JSON array (the batch)");
        if (r->expect_id != NULL)
            mc__lint_problem(l, sub, "\"expect\": \"batch\" waits for an array: no \"expect_id\"");
    } else {
        mc__lint_expect(l, mc_json_get(st, "expect"), sub);
    }
    mc__lint_want_type(l, st, "within", json_type_int, ptr, "a raw step");
    mc__lint_member(l, st, ptr, "assert", mc__lint_assertions);
    mc__lint_check_field(l, st, ptr);
    mc__lint_member(l, st, ptr, "capture", mc__lint_capture);
}

/* True when v is a number or a non-empty array of them (of type t). */
static int one_or_list(json_object *v, json_type t)
{
    size_t i, n;

    if (json_object_is_type(v, t))
        return 1;
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0)
        return 0;
    n = json_object_array_length(v);
    for (i = 0; i < n; i++)
        if (!json_object_is_type(json_object_array_get_idx(v, i), t))
            return 0;
    return 1;
}

/* The http step's members that are typed when the file loads: status,
 * content type, session, and the flags and counts. */
static void lint_http_typed(mc__lint_t *l, json_object *st, const char *ptr)
{
    const char *session = mc_json_get_str(st, "session");
    char sub[512];

    mc__lint_want_type(l, st, "events", json_type_int, ptr, "an http step");
    mc__lint_want_type(l, st, "delete_first", json_type_boolean, ptr, "an http step");
    mc__lint_want_type(l, st, "empty_body", json_type_boolean, ptr, "an http step");
    mc__lint_want_type(l, st, "error_code", json_type_int, ptr, "an http step");
    mc_str_join(sub, sizeof(sub), ptr, "/status");
    if (mc_json_get(st, "status") != NULL && !one_or_list(mc_json_get(st, "status"), json_type_int))
        mc__lint_problem(l, sub,
                         "\"status\" in an http step must be a status code or a list "
                         "of them");
    mc_str_join(sub, sizeof(sub), ptr, "/content_type");
    if (mc_json_get(st, "content_type") != NULL &&
        !one_or_list(mc_json_get(st, "content_type"), json_type_string))
        mc__lint_problem(l, sub,
                         "\"content_type\" in an http step must be a Content-Type "
                         "prefix or a list of them");
    mc_str_join(sub, sizeof(sub), ptr, "/session");
    if (mc_json_get(st, "session") != NULL &&
        (session == NULL || (strcmp(session, "current") != 0 && strcmp(session, "none") != 0 &&
                             strcmp(session, "unknown") != 0)))
        mc__lint_problem(l, sub,
                         "\"session\" in an http step must be \"current\", \"none\" or "
                         "\"unknown\"");
}

static void lint_http(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const mc_step_http_t *h = &s->u.http;

    (void)depth;
    if (h->method == MC_STEP_HTTP_INVALID)
        mc__lint_problem(l, ptr, "\"http\" must be POST, GET, DELETE or PUT");
    mc__lint_want_type(l, st, "within", json_type_int, ptr, "an http step");
    mc__lint_want_type(l, st, "headers", json_type_object, ptr, "an http step");
    mc__lint_want_type(l, st, "resume", json_type_object, ptr, "an http step");
    if (h->resume && (h->method != MC_STEP_HTTP_POST || h->message == NULL ||
                      !json_object_is_type(h->interleave, json_type_object)))
        mc__lint_problem(l, ptr,
                         "\"resume\" needs a POST with a \"message\" and "
                         "{\"interleave\": MESSAGE}");
    if (h->resume && mc_json_get(mc_json_get(st, "resume"), "response") != NULL &&
        !json_object_is_type(mc_json_get(mc_json_get(st, "resume"), "response"),
                             json_type_boolean))
        mc__lint_problem(l, ptr, "\"resume\".\"response\" must be true or false");
    mc__lint_check_field(l, st, ptr);
    lint_http_typed(l, st, ptr);
}

static void lint_sleep(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    (void)s;
    (void)depth;
    if (!json_object_is_type(mc_json_get(st, "sleep"), json_type_int) ||
        json_object_get_int(mc_json_get(st, "sleep")) < 0 ||
        json_object_get_int(mc_json_get(st, "sleep")) > MAX_SLEEP_MS)
        mc__lint_problem(l, ptr, "\"sleep\" must be milliseconds between 0 and %d", MAX_SLEEP_MS);
}

static void lint_reconnect(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr,
                           int depth)
{
    (void)st;
    (void)depth;
    if (!s->u.reconnect.on)
        mc__lint_problem(l, ptr, "\"reconnect\" must be true");
}

static void lint_await(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth)
{
    const char *var = s->u.await.var;
    char sub[512];

    (void)depth;
    if (var == NULL)
        mc__lint_problem(l, ptr, "\"await\" must name the variable of an async request");
    else if (!mc__lint_has_var(l, var, strlen(var)))
        mc__lint_problem(l, ptr, "\"await\" names \"%s\", which no earlier async request defines",
                         var);
    mc_str_join(sub, sizeof(sub), ptr, "/expect");
    mc__lint_expect(l, mc_json_get(st, "expect"), sub);
    mc__lint_want_type(l, st, "timeout", json_type_int, ptr, "an await step");
    mc__lint_member(l, st, ptr, "assert", mc__lint_assertions);
    mc__lint_check_field(l, st, ptr);
    mc__lint_member(l, st, ptr, "capture", mc__lint_capture);
}

static const char *const k_request[] = {"request", "params", "expect",  "assert",
                                        "capture", "check",  "timeout", "progress",
                                        "async",   "note",   "retry",   "unknown_method",
                                        NULL};
static const char *const k_notify[] = {"notify", "params", "note", "unknown_method", NULL};
static const char *const k_expect_notification[] = {"expect_notification",
                                                    "within",
                                                    "assert",
                                                    "capture",
                                                    "check",
                                                    "where",
                                                    "related",
                                                    "interval",
                                                    "note",
                                                    NULL};
static const char *const k_expect_no_notification[] = {
    "expect_no_notification", "for", "check", "where", "related", "at_most", "note", NULL};
static const char *const k_expect_request[] = {"expect_request", "within", "assert",  "capture",
                                               "check",          "where",  "related", "interval",
                                               "note",           NULL};
static const char *const k_expect_no_request[] = {
    "expect_no_request", "for", "check", "where", "related", "at_most", "note", NULL};
static const char *const k_value[] = {"value", "assert", "check", "note", NULL};
static const char *const k_answer[] = {"answer", "with", "error", "note", NULL};
static const char *const k_paginate[] = {"paginate",  "params",  "items",   "key",
                                         "max_pages", "capture", "timeout", "assert",
                                         "check",     "note",    NULL};
static const char *const k_for_each[] = {"for_each", "as",   "steps", "max",
                                         "where",    "when", "note",  NULL};
static const char *const k_raw[] = {"raw",   "expect", "expect_id", "assert", "capture",
                                    "check", "within", "note",      NULL};
static const char *const k_sleep[] = {"sleep", "note", NULL};
static const char *const k_reconnect[] = {"reconnect", "note", NULL};
static const char *const k_http[] = {"http",       "message",      "body",   "headers",
                                     "session",    "delete_first", "status", "content_type",
                                     "empty_body", "within",       "events", "resume",
                                     "check",      "note",         "error_code", NULL};
static const char *const k_await[] = {"await", "expect",  "assert", "capture",
                                      "check", "timeout", "note",   NULL};

/* Every step kind (step.h): the members it takes, and its own checks (run
 * after the members are checked and the step is typed). */
static const struct step_lint {
    const char *const *keys;
    void (*lint)(mc__lint_t *l, json_object *st, mc_step_t *s, const char *ptr, int depth);
} step_lints[MC_STEP_KIND_COUNT] = {
#define LINT_ROW(id, name, what) [MC_STEP_##id] = {k_##id, lint_##id},
    MC_STEP_KINDS(LINT_ROW)
#undef LINT_ROW
};

/* A step without a kind whose member is close to a kind's name: says which
 * (true), else nothing (false). */
static int unknown_kind(mc__lint_t *l, json_object *st, const char *ptr)
{
    static const char *const kinds[] = {
#define KIND_NAME(id, name, what) name,
        MC_STEP_KINDS(KIND_NAME)
#undef KIND_NAME
            NULL};
    char hint[160];

    json_object_object_foreach(st, key, val)
    {
        (void)val;
        mc__lint_suggest_key(key, kinds, hint, sizeof(hint));
        if (hint[0] != '\0') {
            mc__lint_problem(l, ptr, "unknown step kind \"%s\"%s", key, hint);
            return 1;
        }
    }
    return 0;
}

/* Checks step st at ptr and types it into *out (left cleared when st is
 * not a step of one kind). */
static void lint_step(mc__lint_t *l, json_object *st, const char *ptr, int depth, mc_step_t *out)
{
    mc_step_kind_t kind;
    int n_kinds = 0, col;

    l->steps_seen++;
    if (!json_object_is_type(st, json_type_object)) {
        mc__lint_problem(l, ptr, "a step must be an object with one step kind");
        return;
    }
    kind = mc_step_kind_of(st, &n_kinds);
    if (n_kinds == 0 && unknown_kind(l, st, ptr))
        return;
    if (n_kinds != 1) {
        mc__lint_problem(l, ptr,
                         n_kinds == 0
                             ? "unknown step kind: expected one of request, notify, "
                               "expect_notification, expect_no_notification, expect_request, "
                               "expect_no_request, answer, paginate, for_each, raw, sleep, "
                               "await, value, http, reconnect"
                             : "a step must have exactly one step kind");
        return;
    }
    mc__lint_only_keys(l, st, ptr, mc_step_kind_what(kind), step_lints[kind].keys);
    if (mc_step_parse(st, out) != MC_OK) {
        l->nomem = 1;
        return;
    }
    mc_jsonc_where(l->doc, ptr, &out->line, &col);
    step_lints[kind].lint(l, st, out, ptr, depth);
}

void mc__lint_steps(mc__lint_t *l, json_object *steps, const char *pointer, int depth,
                    mc_step_t **out, size_t *n)
{
    size_t i, len = json_object_array_length(steps);
    mc_step_t *v;
    char sub[512];

    *out = NULL;
    *n = 0;
    if (len == 0)
        return;
    /* No more than MC_SCENARIO_MAX_STEPS are checked in the whole file. */
    v = calloc(len < MC_SCENARIO_MAX_STEPS ? len : MC_SCENARIO_MAX_STEPS, sizeof(*v));
    if (v == NULL) {
        l->nomem = 1;
        return;
    }
    for (i = 0; i < len; i++) {
        if (l->steps_seen >= MC_SCENARIO_MAX_STEPS) {
            mc__lint_problem(l, pointer, "more than %d steps", MC_SCENARIO_MAX_STEPS);
            break;
        }
        snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
        lint_step(l, json_object_array_get_idx(steps, i), sub, depth, &v[i]);
    }
    *out = v;
    *n = i;
}
