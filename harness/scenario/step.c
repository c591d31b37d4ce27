/*
 * step.c - the step kinds: their names, and one parser per kind that types
 * a step's members once (step.h).
 */
#include "scenario/step.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json.h"
#include "core/jsonrpc.h"

/* A block the parser allocated for a step; freed with it. */
struct mc__step_mem {
    struct mc__step_mem *next;
    alignas(max_align_t) unsigned char data[];
};

/* n zeroed bytes owned by s, or NULL when out of memory. */
static void *step_alloc(mc_step_t *s, size_t n)
{
    struct mc__step_mem *m = calloc(1, sizeof(*m) + (n > 0 ? n : 1));

    if (m == NULL)
        return NULL;
    m->next = s->mem;
    s->mem = m;
    return m->data;
}

/* A copy of v's compact JSON text owned by s, or NULL when out of memory.
 * Rendered as the runner rendered the member before steps were typed, so
 * that messages quote it as written. */
static const char *step_text(mc_step_t *s, json_object *v)
{
    const char *t = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
    size_t n = strlen(t);
    char *out = step_alloc(s, n + 1);

    if (out != NULL)
        memcpy(out, t, n + 1);
    return out;
}

/* An integer member (MC_STEP_UNSET when absent, not an integer or out of
 * int range). */
static int get_int(json_object *st, const char *key)
{
    return mc_json_get_int(st, key, MC_STEP_UNSET);
}

/* True when member key is the boolean true. */
static int get_true(json_object *st, const char *key)
{
    json_object *v = mc_json_get(st, key);

    return v != NULL && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

/* The integers of v (an integer, or an array whose members are read as
 * integers) into an array owned by s. Returns MC_OK or MC_ENOMEM. */
static int get_ints(mc_step_t *s, json_object *v, const int64_t **out, size_t *n)
{
    size_t i, len = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 1;
    int64_t *a;

    *out = NULL;
    *n = 0;
    if (!json_object_is_type(v, json_type_array) && !json_object_is_type(v, json_type_int))
        return MC_OK;
    a = step_alloc(s, len * sizeof(*a));
    if (a == NULL)
        return MC_ENOMEM;
    for (i = 0; i < len; i++)
        a[i] = json_object_get_int64(
            json_object_is_type(v, json_type_array) ? json_object_array_get_idx(v, i) : v);
    *out = a;
    *n = len;
    return MC_OK;
}

/* "expect" e (NULL: absent). Returns MC_OK or MC_ENOMEM. */
static int parse_expect(mc_step_t *s, json_object *e, mc_step_expect_t *out)
{
    static const struct {
        const char *word;
        mc_step_expect_kind_t kind;
    } words[] = {{"result", MC_STEP_EXPECT_RESULT},
                 {"error", MC_STEP_EXPECT_ERROR},
                 {"any", MC_STEP_EXPECT_ANY},
                 {"none", MC_STEP_EXPECT_NONE},
                 {"batch", MC_STEP_EXPECT_BATCH}};
    json_object *codes = mc_json_get(e, "error");
    size_t i;

    memset(out, 0, sizeof(*out));
    out->kind = e == NULL ? MC_STEP_EXPECT_RESULT : MC_STEP_EXPECT_INVALID;
    if (json_object_is_type(e, json_type_string)) {
        for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
            if (strcmp(json_object_get_string(e), words[i].word) == 0)
                out->kind = words[i].kind;
        return MC_OK;
    }
    if (!json_object_is_type(codes, json_type_int) && !json_object_is_type(codes, json_type_array))
        return MC_OK;
    out->kind = MC_STEP_EXPECT_CODES;
    out->codes_list = json_object_is_type(codes, json_type_array);
    out->codes_text = step_text(s, codes);
    if (out->codes_text == NULL)
        return MC_ENOMEM;
    return get_ints(s, codes, &out->codes, &out->n_codes);
}

/* "capture" as variable <- path entries (an object; else none). Returns
 * MC_OK or MC_ENOMEM. */
static int parse_capture(mc_step_t *s, json_object *cap, mc_step_judge_t *j)
{
    mc_step_capture_t *v;
    size_t n = 0;

    if (!json_object_is_type(cap, json_type_object) || json_object_object_length(cap) == 0)
        return MC_OK;
    v = step_alloc(s, (size_t)json_object_object_length(cap) * sizeof(*v));
    if (v == NULL)
        return MC_ENOMEM;
    json_object_object_foreach(cap, name, path)
    {
        v[n].name = name;
        v[n].path =
            json_object_is_type(path, json_type_string) ? json_object_get_string(path) : NULL;
        n++;
    }
    j->capture = v;
    j->n_capture = n;
    return MC_OK;
}

/* expect, assert and capture of a step that judges a message. */
static int parse_judge(mc_step_t *s, json_object *st, mc_step_judge_t *j)
{
    j->asserts = mc_json_get(st, "assert");
    /* Serialized here, once: a parsed scenario is shared by the run's
     * workers, and json-c keeps a value's text inside the value. */
    j->asserts_is_error =
        j->asserts != NULL &&
        strstr(json_object_to_json_string_ext(j->asserts, JSON_C_TO_STRING_PLAIN), "isError") !=
            NULL;
    if (parse_expect(s, mc_json_get(st, "expect"), &j->expect) != MC_OK)
        return MC_ENOMEM;
    return parse_capture(s, mc_json_get(st, "capture"), j);
}

/* ---- one parser per kind, behind one table ---- */

static int parse_request(json_object *st, mc_step_t *s)
{
    mc_step_request_t *r = &s->u.request;
    json_object *retry = mc_json_get(st, "retry"), *progress = mc_json_get(st, "progress");

    r->method = s->arg;
    r->params = mc_json_get(st, "params");
    r->timeout_ms = get_int(st, "timeout");
    r->progress = progress != NULL && json_object_get_boolean(progress);
    r->retry_off = retry != NULL && !json_object_get_boolean(retry);
    r->async = mc_json_get_str(st, "async");
    return parse_judge(s, st, &r->judge);
}

static int parse_notify(json_object *st, mc_step_t *s)
{
    s->u.notify.method = s->arg;
    s->u.notify.params = mc_json_get(st, "params");
    return MC_OK;
}

static int parse_expect_msg(json_object *st, mc_step_t *s, mc_step_expect_msg_t *e)
{
    e->method = s->arg;
    e->within_ms = get_int(st, "within");
    e->related = get_true(st, "related");
    e->where = mc_json_get(st, "where");
    e->has_interval = mc_json_get(st, "interval") != NULL;
    e->interval_min_ms = get_int(mc_json_get(st, "interval"), "min");
    e->interval_check = mc_json_get_str(mc_json_get(st, "interval"), "check");
    return parse_judge(s, st, &e->judge);
}

static int parse_expect_notification(json_object *st, mc_step_t *s)
{
    return parse_expect_msg(st, s, &s->u.expect_notification);
}

static int parse_expect_request(json_object *st, mc_step_t *s)
{
    return parse_expect_msg(st, s, &s->u.expect_request);
}

static void parse_expect_none(json_object *st, mc_step_t *s, mc_step_expect_none_t *e)
{
    e->method = s->arg;
    e->for_ms = get_int(st, "for");
    e->related = get_true(st, "related");
    e->where = mc_json_get(st, "where");
    e->at_most = mc_json_get(st, "at_most") != NULL ? get_int(st, "at_most") : 0;
}

static int parse_expect_no_notification(json_object *st, mc_step_t *s)
{
    parse_expect_none(st, s, &s->u.expect_no_notification);
    return MC_OK;
}

static int parse_expect_no_request(json_object *st, mc_step_t *s)
{
    parse_expect_none(st, s, &s->u.expect_no_request);
    return MC_OK;
}

static int parse_answer(json_object *st, mc_step_t *s)
{
    s->u.answer.method = s->arg;
    s->u.answer.with = mc_json_get(st, "with");
    s->u.answer.error = mc_json_get(st, "error");
    return MC_OK;
}

static int parse_paginate(json_object *st, mc_step_t *s)
{
    mc_step_paginate_t *p = &s->u.paginate;

    p->method = s->arg;
    p->items = mc_json_get_str(st, "items");
    p->key = mc_json_get_str(st, "key");
    /* Without "key", items are told apart by the member that names them. */
    if (p->key == NULL && p->items != NULL)
        p->key = strcmp(p->items, "resources") == 0           ? "uri"
                 : strcmp(p->items, "resourceTemplates") == 0 ? "uriTemplate"
                                                              : "name";
    p->max_pages = get_int(st, "max_pages");
    p->params = mc_json_get(st, "params");
    p->capture = mc_json_get_str(st, "capture");
    p->asserts = mc_json_get(st, "assert");
    return MC_OK;
}

static int parse_for_each(json_object *st, mc_step_t *s)
{
    s->u.for_each.list = mc_json_get(st, "for_each");
    s->u.for_each.as = mc_json_get_str(st, "as");
    s->u.for_each.max = get_int(st, "max");
    s->u.for_each.where = mc_json_get(st, "where");
    s->u.for_each.when_value = mc_json_get(mc_json_get(st, "when"), "value");
    s->u.for_each.when_assert = mc_json_get(mc_json_get(st, "when"), "assert");
    return MC_OK;
}

static int parse_raw(json_object *st, mc_step_t *s)
{
    mc_step_raw_t *r = &s->u.raw;

    r->line = s->arg;
    r->line_tmpl = mc_json_get(st, "raw");
    r->expect_id = mc_json_get(st, "expect_id");
    r->within_ms = get_int(st, "within");
    if (parse_judge(s, st, &r->judge) != MC_OK)
        return MC_ENOMEM;
    if (r->line == NULL)
        return MC_OK;
    /* The one parse of the line: the linter, the coverage map and (when it
     * holds no variable) the runner read this. */
    r->literal = strstr(r->line, "${") == NULL;
    if (mc_json_parse(r->line, strlen(r->line), 0, &r->parsed, NULL) != MC_OK)
        r->parsed = NULL;
    return MC_OK;
}

static int parse_sleep(json_object *st, mc_step_t *s)
{
    s->u.sleep.ms = mc_json_get_int(st, "sleep", 0);
    return MC_OK;
}

static int parse_reconnect(json_object *st, mc_step_t *s)
{
    json_object *v = mc_json_get(st, "reconnect");

    s->u.reconnect.on = json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
    return MC_OK;
}

static int parse_await(json_object *st, mc_step_t *s)
{
    s->u.await.var = s->arg;
    s->u.await.timeout_ms = get_int(st, "timeout");
    return parse_judge(s, st, &s->u.await.judge);
}

static int parse_value(json_object *st, mc_step_t *s)
{
    s->u.value.value = mc_json_get(st, "value");
    s->u.value.asserts = mc_json_get(st, "assert");
    return MC_OK;
}

static const char *const http_methods[] = {[MC_STEP_HTTP_INVALID] = NULL,
                                           [MC_STEP_HTTP_POST] = "POST",
                                           [MC_STEP_HTTP_GET] = "GET",
                                           [MC_STEP_HTTP_DELETE] = "DELETE",
                                           [MC_STEP_HTTP_PUT] = "PUT"};

const char *mc_step_http_method_name(mc_step_http_method_t m)
{
    return (size_t)m < sizeof(http_methods) / sizeof(http_methods[0]) ? http_methods[m] : NULL;
}

/* "content_type": a prefix or a list of them. Returns MC_OK or MC_ENOMEM. */
static int parse_ctypes(mc_step_t *s, json_object *v, mc_step_http_t *h)
{
    size_t i, n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 1;
    const char **a;

    if (v == NULL)
        return MC_OK;
    h->ctype_text = step_text(s, v);
    a = step_alloc(s, n * sizeof(*a));
    if (h->ctype_text == NULL || a == NULL)
        return MC_ENOMEM;
    h->ctypes = a;
    if (json_object_is_type(v, json_type_string)) {
        a[h->n_ctypes++] = json_object_get_string(v);
        return MC_OK;
    }
    for (i = 0; json_object_is_type(v, json_type_array) && i < n; i++)
        if (json_object_is_type(json_object_array_get_idx(v, i), json_type_string))
            a[h->n_ctypes++] = json_object_get_string(json_object_array_get_idx(v, i));
    return MC_OK;
}

static int parse_http(json_object *st, mc_step_t *s)
{
    mc_step_http_t *h = &s->u.http;
    const char *session = mc_json_get_str(st, "session");
    json_object *status = mc_json_get(st, "status");
    size_t i;

    for (i = 1; s->arg != NULL && i < sizeof(http_methods) / sizeof(http_methods[0]); i++)
        if (strcmp(s->arg, http_methods[i]) == 0)
            h->method = (mc_step_http_method_t)i;
    h->message = mc_json_get(st, "message");
    h->body = mc_json_get(st, "body");
    h->headers = mc_json_get(st, "headers");
    h->resume = mc_json_get(st, "resume") != NULL;
    h->interleave = mc_json_get(mc_json_get(st, "resume"), "interleave");
    h->resume_response = get_true(mc_json_get(st, "resume"), "response");
    h->session = session == NULL || strcmp(session, "current") == 0 ? MC_STEP_SESSION_CURRENT
                 : strcmp(session, "unknown") == 0                  ? MC_STEP_SESSION_UNKNOWN
                                                                    : MC_STEP_SESSION_NONE;
    h->delete_first = get_true(st, "delete_first");
    h->empty_body = get_true(st, "empty_body");
    h->within_ms = get_int(st, "within");
    h->events = get_int(st, "events");
    h->has_error_code = mc_json_get(st, "error_code") != NULL;
    if (h->has_error_code)
        h->error_code = json_object_get_int64(mc_json_get(st, "error_code"));
    if (status != NULL) {
        h->status_text = step_text(s, status);
        if (h->status_text == NULL || get_ints(s, status, &h->status, &h->n_status) != MC_OK)
            return MC_ENOMEM;
    }
    return parse_ctypes(s, mc_json_get(st, "content_type"), h);
}

static const struct {
    const char *name, *what;
    int (*parse)(json_object *st, mc_step_t *s);
} kinds[MC_STEP_KIND_COUNT] = {[MC_STEP_NONE] = {"", "a step", NULL},
#define MC__STEP_ROW(id, n, w) [MC_STEP_##id] = {n, w, parse_##id},
                               MC_STEP_KINDS(MC__STEP_ROW)
#undef MC__STEP_ROW
};

const char *mc_step_kind_name(mc_step_kind_t kind)
{
    return kind < MC_STEP_KIND_COUNT ? kinds[kind].name : "";
}

const char *mc_step_kind_what(mc_step_kind_t kind)
{
    return kind < MC_STEP_KIND_COUNT ? kinds[kind].what : "a step";
}

mc_step_kind_t mc_step_kind_of(json_object *st, int *n_kinds)
{
    mc_step_kind_t kind = MC_STEP_NONE;
    int n = 0, k;

    if (json_object_is_type(st, json_type_object))
        for (k = MC_STEP_NONE + 1; k < MC_STEP_KIND_COUNT; k++)
            if (mc_json_get(st, kinds[k].name) != NULL) {
                kind = (mc_step_kind_t)k;
                n++;
            }
    if (n_kinds != NULL)
        *n_kinds = n;
    return n == 1 ? kind : MC_STEP_NONE;
}

int mc_step_parse(json_object *st, mc_step_t *out)
{
    memset(out, 0, sizeof(*out));
    out->json = st;
    out->kind = mc_step_kind_of(st, NULL);
    if (out->kind == MC_STEP_NONE)
        return MC_OK;
    out->arg = mc_json_get_str(st, kinds[out->kind].name);
    out->check = mc_json_get_str(st, "check");
    if (kinds[out->kind].parse(st, out) != MC_OK) {
        mc_step_clear(out);
        return MC_ENOMEM;
    }
    return MC_OK;
}

void mc_step_clear(mc_step_t *s)
{
    struct mc__step_mem *m, *next;

    mc_steps_free(s->steps, s->n_steps);
    if (s->kind == MC_STEP_raw)
        json_object_put(s->u.raw.parsed);
    for (m = s->mem; m != NULL; m = next) {
        next = m->next;
        free(m);
    }
    memset(s, 0, sizeof(*s));
}

void mc_steps_free(mc_step_t *steps, size_t n)
{
    size_t i;

    for (i = 0; steps != NULL && i < n; i++)
        mc_step_clear(&steps[i]);
    free(steps);
}

/* Methods that change nothing on the server: they list, read, get or
 * complete what it offers. */
static int read_only_method(const char *m)
{
    static const char *const ro[] = {"ping",         "tools/list",          "resources/list",
                                     "resources/read", "resources/templates/list", "prompts/list",
                                     "prompts/get",  "completion/complete", "server/discover",
                                     NULL};
    size_t i;

    for (i = 0; m != NULL && ro[i] != NULL; i++)
        if (strcmp(m, ro[i]) == 0)
            return 1;
    return 0;
}

int mc_steps_read_only(const mc_step_t *steps, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const mc_step_t *s = &steps[i];
        switch (s->kind) {
        case MC_STEP_request:
            if (!read_only_method(s->u.request.method) || s->u.request.async != NULL ||
                s->u.request.progress)
                return 0;
            break;
        case MC_STEP_paginate:
            if (!read_only_method(s->u.paginate.method))
                return 0;
            break;
        case MC_STEP_for_each:
            if (!mc_steps_read_only(s->steps, s->n_steps))
                return 0;
            break;
        case MC_STEP_value:
            break;
        default:
            return 0;
        }
    }
    return 1;
}

int mc_steps_judge_own_traffic(const mc_step_t *steps, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const mc_step_t *s = &steps[i];
        if (s->kind == MC_STEP_expect_notification && !s->u.expect_notification.related)
            return 0;
        if (s->kind == MC_STEP_expect_request && !s->u.expect_request.related)
            return 0;
        if (s->kind == MC_STEP_for_each && !mc_steps_judge_own_traffic(s->steps, s->n_steps))
            return 0;
    }
    return 1;
}
