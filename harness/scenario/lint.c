/*
 * lint.c - the checks mc_scenario_load() runs on a scenario file: where a
 * problem is, unknown fields, types, variables, roles and every step kind
 * (the format is documented in scenarios/README.md).
 */
#include "scenario/lint.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "judge/builtin.h"
#include "scenario/match.h"
#include "scenario/vars.h"

/* Longest pause a sleep step may ask for. */
#define MAX_SLEEP_MS 10000
/* Deepest nesting of for_each steps. */
#define MAX_FOR_EACH_DEPTH 4

/* --- problem collection ------------------------------------------------ */

/* Appends "file:line:col: PREFIXmsg\n" for pointer to lb; sets l->nomem on failure. */
static void add_line(mc__lint_t *l, mc__linebuf_t *lb, const char *pointer, const char *prefix,
                     char *msg)
{
    char line[768];
    int ln, col;
    size_t n;

    /* One problem, one line: user text (a key, a value) may hold newlines
     * or other control characters; show them as spaces. */
    for (char *q = msg; *q != '\0'; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = ' ';
    mc_jsonc_where(l->doc, pointer, &ln, &col);
    n = (size_t)snprintf(line, sizeof(line), "%s:%d:%d: %s%s\n", l->doc->name, ln, col, prefix,
                         msg);
    if (n >= sizeof(line))
        n = sizeof(line) - 1;
    if (lb->len + n + 1 > lb->cap) {
        size_t cap = lb->cap ? lb->cap * 2 : 1024;
        char *nb;
        while (cap < lb->len + n + 1)
            cap *= 2;
        nb = realloc(lb->buf, cap);
        if (nb == NULL) {
            l->nomem = 1;
            return;
        }
        lb->buf = nb;
        lb->cap = cap;
    }
    memcpy(lb->buf + lb->len, line, n);
    lb->len += n;
    lb->buf[lb->len] = '\0';
}

void mc__lint_problem(mc__lint_t *l, const char *pointer, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    l->count++;
    if (l->count > MC_SCENARIO_MAX_PROBLEMS || l->nomem)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    add_line(l, &l->problems, pointer, "", msg);
}

void mc__lint_warning(mc__lint_t *l, const char *pointer, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    l->n_warnings++;
    if (l->n_warnings > MC_SCENARIO_MAX_PROBLEMS || l->nomem)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    add_line(l, &l->warnings, pointer, "warning: ", msg);
}

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

static int has_var(const mc__lint_t *l, const char *name, size_t n)
{
    int i;

    for (i = 0; i < l->n_vars; i++)
        if (strlen(l->vars[i]) == n && strncmp(l->vars[i], name, n) == 0)
            return 1;
    return 0;
}

static void define_var(mc__lint_t *l, const char *name)
{
    if (l->n_vars < (int)(sizeof(l->vars) / sizeof(l->vars[0])) && !has_var(l, name, strlen(name)))
        l->vars[l->n_vars++] = strdup(name);
}

void mc__lint_use_role(mc__lint_t *l, const char *name, size_t n)
{
    int i;

    for (i = 0; i < l->n_roles; i++)
        if (strlen(l->roles[i]) == n && strncmp(l->roles[i], name, n) == 0)
            return;
    if (l->n_roles < (int)(sizeof(l->roles) / sizeof(l->roles[0])))
        l->roles[l->n_roles++] = strndup(name, n);
}

void mc__lint_check_refs(mc__lint_t *l, json_object *v, const char *pointer)
{
    if (v == NULL)
        return;
    switch (json_object_get_type(v)) {
    case json_type_string: {
        const char *s = json_object_get_string(v);
        const char *p = s;
        while ((p = strstr(p, "${")) != NULL) {
            const char *end = strchr(p, '}');
            const char *name = p + 2;
            size_t n;
            if (end == NULL) {
                mc__lint_problem(l, pointer, "unterminated variable reference in \"%.60s\"", s);
                return;
            }
            n = mc_var_name_len(name, (size_t)(end - name));
            if (strncmp(name, "role:", 5) == 0) {
                if (end - name == 5)
                    mc__lint_problem(l, pointer, "empty role name in \"%.60s\"", s);
                else
                    mc__lint_use_role(l, name + 5, (size_t)(end - name - 5));
            } else if (!mc_var_builtin(name, n) && !has_var(l, name, n)) {
                mc__lint_problem(l, pointer, "variable \"%.*s\" is used before it is captured",
                                 (int)n, name);
            }
            p = end + 1;
        }
        return;
    }
    case json_type_array: {
        size_t i, n = json_object_array_length(v);
        char sub[512];
        for (i = 0; i < n; i++) {
            snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
            mc__lint_check_refs(l, json_object_array_get_idx(v, i), sub);
        }
        return;
    }
    case json_type_object: {
        char sub[512];
        json_object_object_foreach(v, key, val)
        {
            snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
            mc__lint_check_refs(l, val, sub);
        }
        return;
    }
    default:
        return;
    }
}

void mc__lint_only_keys(mc__lint_t *l, json_object *obj, const char *pointer, const char *what,
                        const char *const *allowed)
{
    json_object_object_foreach(obj, key, val)
    {
        size_t i;
        int ok = 0;
        char sub[512];
        (void)val;
        for (i = 0; allowed[i] != NULL; i++)
            if (strcmp(key, allowed[i]) == 0)
                ok = 1;
        if (!ok) {
            snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
            mc__lint_problem(l, sub, "unknown field \"%s\" in %s", key, what);
        }
    }
}

void mc__lint_want_type(mc__lint_t *l, json_object *obj, const char *key, json_type t,
                        const char *pointer, const char *what)
{
    json_object *v = mc_json_get(obj, key);
    char sub[512];

    if (v == NULL)
        return;
    if (t == json_type_double
            ? !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
            : !json_object_is_type(v, t)) {
        snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
        mc__lint_problem(l, sub, "\"%s\" in %s must be %s %s", key, what,
                         t == json_type_object ? "an" : "a",
                         t == json_type_double ? "number" : json_type_to_name(t));
    }
}

static int check_declared(const mc__lint_t *l, const char *check)
{
    size_t i;

    if (mc_builtin_check(check) != NULL || mc_check_is_harness(check))
        return 1;
    for (i = 0; i < l->n_reqs; i++)
        if (strcmp(l->reqs[i].check, check) == 0)
            return 1;
    return 0;
}

static void lint_check_field(mc__lint_t *l, json_object *obj, const char *pointer)
{
    json_object *c = mc_json_get(obj, "check");
    char sub[512];

    if (c == NULL)
        return;
    mc_str_join(sub, sizeof(sub), pointer, "/check");
    if (!mc__lint_is_str(c))
        mc__lint_problem(l, sub, "\"check\" must be a string (a check id declared in \"spec\")");
    else if (!check_declared(l, json_object_get_string(c)))
        mc__lint_problem(l, sub,
                         "check \"%s\" is not declared in \"spec\" and is not a built-in check",
                         json_object_get_string(c));
}

static void lint_assertions(mc__lint_t *l, json_object *list, const char *pointer)
{
    static const char *const keys[] = {
        "path",     "equals",     "type",        "matches",       "present", "absent", "length",
        "range",    "contains",   "base64",      "uri",           "one_of",  "check",  "message",
        "optional", "not_equals", "json_schema", "valid_against", NULL};
    size_t i, n;
    char sub[512];

    if (!json_object_is_type(list, json_type_array)) {
        mc__lint_problem(l, pointer, "\"assert\" must be an array of assertions");
        return;
    }
    n = json_object_array_length(list);
    for (i = 0; i < n; i++) {
        json_object *a = json_object_array_get_idx(list, i);
        int matchers = 0;
        snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
        if (!json_object_is_type(a, json_type_object)) {
            mc__lint_problem(l, sub, "an assertion must be an object with \"path\" and a matcher");
            continue;
        }
        mc__lint_only_keys(l, a, sub, "an assertion", keys);
        if (!mc__lint_is_str(mc_json_get(a, "path")))
            mc__lint_problem(l, sub,
                             "assertion needs a \"path\" string (e.g. \"result.resources\")");
        else if (mc_path_check(json_object_get_string(mc_json_get(a, "path"))) != 0)
            mc__lint_problem(l, sub, "malformed path \"%s\"",
                             json_object_get_string(mc_json_get(a, "path")));
        for (const char *const *k = mc_matcher_names; *k != NULL; k++)
            matchers += mc_json_get(a, *k) != NULL;
        if (matchers != 1)
            mc__lint_problem(l, sub,
                             "assertion needs exactly one matcher (equals, not_equals, type, "
                             "matches, present, absent, length, range, contains, base64, uri, "
                             "one_of, json_schema, valid_against), found %d",
                             matchers);
        if (mc_json_get(a, "type") != NULL && !mc_matcher_type_known(mc_json_get(a, "type")))
            mc__lint_problem(l, sub,
                             "unknown type in \"type\" matcher (use string, number, integer, "
                             "boolean, object, array, null)");
        if (mc_json_get(a, "matches") != NULL &&
            mc_matcher_regex_ok(mc_json_get(a, "matches")) != 0)
            mc__lint_problem(l, sub, "\"matches\" is not a valid regular expression");
        lint_check_field(l, a, sub);
        mc__lint_check_refs(l, a, sub);
    }
}

static void lint_capture(mc__lint_t *l, json_object *cap, const char *pointer)
{
    char sub[512];

    if (!json_object_is_type(cap, json_type_object)) {
        mc__lint_problem(l, pointer, "\"capture\" must map variable names to paths");
        return;
    }
    json_object_object_foreach(cap, name, path)
    {
        snprintf(sub, sizeof(sub), "%s/%s", pointer, name);
        if (!mc__lint_is_str(path) || mc_path_check(json_object_get_string(path)) != 0)
            mc__lint_problem(l, sub, "capture \"%s\" needs a path string", name);
        if (!mc_var_name_ok(name))
            mc__lint_problem(l, sub, "\"%s\" is not a valid variable name (letters, digits, _)",
                             name);
        define_var(l, name);
    }
}

static void lint_expect(mc__lint_t *l, json_object *e, const char *pointer)
{
    if (e == NULL)
        return;
    if (mc__lint_is_str(e)) {
        const char *s = json_object_get_string(e);
        if (strcmp(s, "result") != 0 && strcmp(s, "error") != 0 && strcmp(s, "any") != 0 &&
            strcmp(s, "none") != 0)
            mc__lint_problem(l, pointer,
                             "\"expect\" must be \"result\", \"error\", \"any\", \"none\" or "
                             "{\"error\": CODE or [CODES]}");
        return;
    }
    if (json_object_is_type(e, json_type_object)) {
        static const char *const keys[] = {"error", NULL};
        json_object *c = mc_json_get(e, "error");
        mc__lint_only_keys(l, e, pointer, "\"expect\"", keys);
        if (c == NULL ||
            !(json_object_is_type(c, json_type_int) || json_object_is_type(c, json_type_array)))
            mc__lint_problem(l, pointer,
                             "\"expect\": {\"error\": ...} needs an integer code or an "
                             "array of codes");
        return;
    }
    mc__lint_problem(l, pointer, "\"expect\" must be a string or {\"error\": CODE}");
}

/* Runs fn on member key of step st, when present, with its pointer. */
static void lint_member(mc__lint_t *l, json_object *st, const char *ptr, const char *key,
                        void (*fn)(mc__lint_t *l, json_object *v, const char *pointer))
{
    char sub[512], suffix[64];

    if (mc_json_get(st, key) == NULL)
        return;
    mc_str_join(suffix, sizeof(suffix), "/", key);
    mc_str_join(sub, sizeof(sub), ptr, suffix);
    fn(l, mc_json_get(st, key), sub);
}

/* ---- step kinds: one function each, behind one table ---- */

static void lint_request(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    char sub[512];

    (void)depth;
    if (!mc__lint_is_str(mc_json_get(st, "request")))
        mc__lint_problem(l, ptr, "\"request\" must be a method name");
    mc__lint_want_type(l, st, "params", json_type_object, ptr, "a request step");
    mc__lint_want_type(l, st, "timeout", json_type_int, ptr, "a request step");
    mc__lint_want_type(l, st, "progress", json_type_boolean, ptr, "a request step");
    mc__lint_want_type(l, st, "retry", json_type_boolean, ptr, "a request step");
    if (mc_json_get(st, "progress") != NULL &&
        json_object_is_type(mc_json_get(st, "progress"), json_type_boolean) &&
        json_object_get_boolean(mc_json_get(st, "progress")))
        define_var(l, "progress_token"); /* the runner sets it */
    mc__lint_check_refs(l, mc_json_get(st, "params"), ptr);
    mc_str_join(sub, sizeof(sub), ptr, "/expect");
    lint_expect(l, mc_json_get(st, "expect"), sub);
    lint_member(l, st, ptr, "assert", lint_assertions);
    lint_check_field(l, st, ptr);
    if (mc_json_get(st, "async") != NULL) {
        if (!mc__lint_is_str(mc_json_get(st, "async")) ||
            !mc_var_name_ok(json_object_get_string(mc_json_get(st, "async"))))
            mc__lint_problem(l, ptr, "\"async\" must name a variable for the request id");
        else
            define_var(l, json_object_get_string(mc_json_get(st, "async")));
        if (mc_json_get(st, "expect") != NULL || mc_json_get(st, "assert") != NULL ||
            mc_json_get(st, "capture") != NULL)
            mc__lint_problem(l, ptr,
                             "an \"async\" request takes its expectations in the \"await\" "
                             "step");
    }
    lint_member(l, st, ptr, "capture", lint_capture);
}

static void lint_notify(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    if (!mc__lint_is_str(mc_json_get(st, "notify")))
        mc__lint_problem(l, ptr, "\"notify\" must be a method name");
    else
        lint_client_sends(l, mc_json_get_str(st, "notify"), ptr);
    mc__lint_want_type(l, st, "params", json_type_object, ptr, "a notify step");
    mc__lint_check_refs(l, mc_json_get(st, "params"), ptr);
}

/* expect_notification and expect_request; kind is the step's kind. */
static void lint_expect_message(mc__lint_t *l, json_object *st, const char *ptr, const char *kind)
{
    if (!mc__lint_is_str(mc_json_get(st, kind)))
        mc__lint_problem(l, ptr, "\"%s\" must be a method name", kind);
    mc__lint_want_type(l, st, "within", json_type_int, ptr, "this step");
    mc__lint_want_type(l, st, "related", json_type_boolean, ptr, "this step");
    lint_member(l, st, ptr, "where", lint_assertions);
    lint_member(l, st, ptr, "assert", lint_assertions);
    lint_check_field(l, st, ptr);
    lint_member(l, st, ptr, "capture", lint_capture);
}

static void lint_expect_notification(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    lint_expect_message(l, st, ptr, "expect_notification");
}

static void lint_expect_request(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    lint_expect_message(l, st, ptr, "expect_request");
}

/* expect_no_notification and expect_no_request. */
static void lint_expect_none(mc__lint_t *l, json_object *st, const char *ptr, const char *kind)
{
    if (!mc__lint_is_str(mc_json_get(st, kind)))
        mc__lint_problem(l, ptr, "\"%s\" must be a method name or \"*\"", kind);
    mc__lint_want_type(l, st, "for", json_type_int, ptr, "this step");
    mc__lint_want_type(l, st, "related", json_type_boolean, ptr, "this step");
    lint_member(l, st, ptr, "where", lint_assertions);
    lint_check_field(l, st, ptr);
}

static void lint_expect_no_notification(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    lint_expect_none(l, st, ptr, "expect_no_notification");
}

static void lint_expect_no_request(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    lint_expect_none(l, st, ptr, "expect_no_request");
}

static void lint_value(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    char sub[512];

    (void)depth;
    mc__lint_check_refs(l, mc_json_get(st, "value"), ptr);
    if (mc_json_get(st, "assert") == NULL) {
        mc__lint_problem(l, ptr, "a value step needs \"assert\" (paths start at the value)");
    } else {
        mc_str_join(sub, sizeof(sub), ptr, "/assert");
        lint_assertions(l, mc_json_get(st, "assert"), sub);
    }
    lint_check_field(l, st, ptr);
}

static void lint_answer(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    if (!mc__lint_is_str(mc_json_get(st, "answer")))
        mc__lint_problem(l, ptr, "\"answer\" must be the server request method to answer");
    if ((mc_json_get(st, "with") == NULL) == (mc_json_get(st, "error") == NULL))
        mc__lint_problem(l, ptr,
                         "an answer step needs exactly one of \"with\" (a result object) or "
                         "\"error\" ({\"code\", \"message\"})");
    mc__lint_want_type(l, st, "with", json_type_object, ptr, "an answer step");
    mc__lint_want_type(l, st, "error", json_type_object, ptr, "an answer step");
    mc__lint_check_refs(l, mc_json_get(st, "with"), ptr);
}

static void lint_paginate(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    if (!mc__lint_is_str(mc_json_get(st, "paginate")))
        mc__lint_problem(l, ptr, "\"paginate\" must be a list method");
    if (!mc__lint_is_str(mc_json_get(st, "items")))
        mc__lint_problem(l, ptr,
                         "a paginate step needs \"items\": the result field holding the list");
    mc__lint_want_type(l, st, "key", json_type_string, ptr, "a paginate step");
    mc__lint_want_type(l, st, "max_pages", json_type_int, ptr, "a paginate step");
    mc__lint_want_type(l, st, "params", json_type_object, ptr, "a paginate step");
    mc__lint_check_refs(l, mc_json_get(st, "params"), ptr);
    lint_member(l, st, ptr, "assert", lint_assertions);
    lint_check_field(l, st, ptr);
    if (mc_json_get(st, "capture") != NULL) {
        if (!mc__lint_is_str(mc_json_get(st, "capture")) ||
            !mc_var_name_ok(json_object_get_string(mc_json_get(st, "capture"))))
            mc__lint_problem(l, ptr, "\"capture\" of a paginate step names one variable");
        else
            define_var(l, json_object_get_string(mc_json_get(st, "capture")));
    }
}

static void lint_for_each(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    char sub[512];

    if (!mc__lint_is_str(mc_json_get(st, "for_each")))
        mc__lint_problem(l, ptr, "\"for_each\" must be a \"${variable}\" holding an array");
    mc__lint_check_refs(l, mc_json_get(st, "for_each"), ptr);
    if (!mc__lint_is_str(mc_json_get(st, "as")) ||
        !mc_var_name_ok(json_object_get_string(mc_json_get(st, "as"))))
        mc__lint_problem(l, ptr, "a for_each step needs \"as\": the loop variable's name");
    else
        define_var(l, json_object_get_string(mc_json_get(st, "as")));
    mc__lint_want_type(l, st, "max", json_type_int, ptr, "a for_each step");
    lint_member(l, st, ptr, "where", lint_assertions);
    if (depth >= MAX_FOR_EACH_DEPTH) {
        mc__lint_problem(l, ptr, "for_each nested more than %d deep", MAX_FOR_EACH_DEPTH);
    } else if (mc_json_get(st, "steps") == NULL ||
               !json_object_is_type(mc_json_get(st, "steps"), json_type_array)) {
        mc__lint_problem(l, ptr, "a for_each step needs \"steps\"");
    } else {
        mc_str_join(sub, sizeof(sub), ptr, "/steps");
        mc__lint_steps(l, mc_json_get(st, "steps"), sub, depth + 1);
    }
}

static void lint_raw(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    char sub[512];

    (void)depth;
    if (!mc__lint_is_str(mc_json_get(st, "raw"))) {
        mc__lint_problem(l, ptr, "\"raw\" must be the exact line to send (a string)");
    } else {
        json_object *line = json_tokener_parse(mc_json_get_str(st, "raw"));
        if (json_object_is_type(line, json_type_object))
            lint_client_sends(l, mc_json_get_str(line, "method"), ptr);
        json_object_put(line);
    }
    mc_str_join(sub, sizeof(sub), ptr, "/expect");
    if (mc__lint_is_str(mc_json_get(st, "expect")) &&
        strcmp(mc_json_get_str(st, "expect"), "batch") == 0) {
        /* A batch: the raw line is a JSON array, answered by an array. */
        json_object *line = json_tokener_parse(mc_json_get_str(st, "raw"));
        if (!json_object_is_type(line, json_type_array) || json_object_array_length(line) == 0)
            mc__lint_problem(l, sub, "\"expect\": \"batch\" needs a raw line holding a non-empty "
                                     "JSON array (the batch)");
        if (mc_json_get(st, "expect_id") != NULL)
            mc__lint_problem(l, sub, "\"expect\": \"batch\" waits for an array: no \"expect_id\"");
        json_object_put(line);
    } else {
        lint_expect(l, mc_json_get(st, "expect"), sub);
    }
    mc__lint_want_type(l, st, "within", json_type_int, ptr, "a raw step");
    lint_member(l, st, ptr, "assert", lint_assertions);
    lint_check_field(l, st, ptr);
}

static void lint_http(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    const char *m = mc_json_get_str(st, "http");

    (void)depth;
    if (m == NULL || (strcmp(m, "POST") != 0 && strcmp(m, "GET") != 0 && strcmp(m, "DELETE") != 0 &&
                      strcmp(m, "PUT") != 0))
        mc__lint_problem(l, ptr, "\"http\" must be POST, GET, DELETE or PUT");
    mc__lint_want_type(l, st, "within", json_type_int, ptr, "an http step");
    mc__lint_want_type(l, st, "headers", json_type_object, ptr, "an http step");
    mc__lint_want_type(l, st, "resume", json_type_object, ptr, "an http step");
    if (mc_json_get(st, "resume") != NULL &&
        (m == NULL || strcmp(m, "POST") != 0 || mc_json_get(st, "message") == NULL ||
         !json_object_is_type(mc_json_get(mc_json_get(st, "resume"), "interleave"),
                              json_type_object)))
        mc__lint_problem(l, ptr, "\"resume\" needs a POST with a \"message\" and "
                                 "{\"interleave\": MESSAGE}");
    lint_check_field(l, st, ptr);
}

static void lint_sleep(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    (void)depth;
    if (!json_object_is_type(mc_json_get(st, "sleep"), json_type_int) ||
        json_object_get_int(mc_json_get(st, "sleep")) < 0 ||
        json_object_get_int(mc_json_get(st, "sleep")) > MAX_SLEEP_MS)
        mc__lint_problem(l, ptr, "\"sleep\" must be milliseconds between 0 and %d", MAX_SLEEP_MS);
}

static void lint_await(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    char sub[512];

    (void)depth;
    if (!mc__lint_is_str(mc_json_get(st, "await")))
        mc__lint_problem(l, ptr, "\"await\" must name the variable of an async request");
    else if (!has_var(l, json_object_get_string(mc_json_get(st, "await")),
                      strlen(json_object_get_string(mc_json_get(st, "await")))))
        mc__lint_problem(l, ptr, "\"await\" names \"%s\", which no earlier async request defines",
                         json_object_get_string(mc_json_get(st, "await")));
    mc_str_join(sub, sizeof(sub), ptr, "/expect");
    lint_expect(l, mc_json_get(st, "expect"), sub);
    mc__lint_want_type(l, st, "timeout", json_type_int, ptr, "an await step");
    lint_member(l, st, ptr, "assert", lint_assertions);
    lint_check_field(l, st, ptr);
    lint_member(l, st, ptr, "capture", lint_capture);
}

static const char *const k_request[] = {"request", "params", "expect",  "assert",
                                        "capture", "check",  "timeout", "progress",
                                        "async",   "note",   "retry",   NULL};
static const char *const k_notify[] = {"notify", "params", "note", NULL};
static const char *const k_expect_notification[] = {"expect_notification", "within", "assert",
                                         "capture", "check", "where", "related", "note", NULL};
static const char *const k_expect_no_notification[] = {
    "expect_no_notification", "for", "check", "where", "related", "note", NULL};
static const char *const k_expect_request[] = {"expect_request", "within", "assert", "capture",
                                         "check", "where", "related", "note", NULL};
static const char *const k_expect_no_request[] = {
    "expect_no_request", "for", "check", "where", "related", "note", NULL};
static const char *const k_value[] = {"value", "assert", "check", "note", NULL};
static const char *const k_answer[] = {"answer", "with", "error", "note", NULL};
static const char *const k_paginate[] = {"paginate",  "params",  "items",   "key",
                                         "max_pages", "capture", "timeout", "assert",
                                         "check",     "note",    NULL};
static const char *const k_for_each[] = {"for_each", "as", "steps", "max", "where", "note", NULL};
static const char *const k_raw[] = {"raw",   "expect", "expect_id", "assert",
                                    "check", "within", "note",      NULL};
static const char *const k_sleep[] = {"sleep", "note", NULL};
static const char *const k_http[] = {
    "http",         "message",    "body",   "headers", "session", "delete_first", "status",
    "content_type", "empty_body", "within", "events",  "resume",  "check",        "note",
    "error_code",   NULL};
static const char *const k_await[] = {"await", "expect",  "assert", "capture",
                                      "check", "timeout", "note",   NULL};

/* Every step kind (step.h): the members it takes, and its own checks (run
 * after the members are checked). */
static const struct step_lint {
    const char *const *keys;
    void (*lint)(mc__lint_t *l, json_object *st, const char *ptr, int depth);
} step_lints[MC_STEP_KIND_COUNT] = {
#define LINT_ROW(id, name, what) [MC_STEP_##id] = {k_##id, lint_##id},
    MC_STEP_KINDS(LINT_ROW)
#undef LINT_ROW
};

static void lint_step(mc__lint_t *l, json_object *st, const char *ptr, int depth)
{
    mc_step_kind_t kind;
    int n_kinds = 0;

    l->steps_seen++;
    if (!json_object_is_type(st, json_type_object)) {
        mc__lint_problem(l, ptr, "a step must be an object with one step kind");
        return;
    }
    kind = mc_step_kind_of(st, &n_kinds);
    if (n_kinds != 1) {
        mc__lint_problem(l, ptr,
                         n_kinds == 0
                             ? "unknown step kind: expected one of request, notify, "
                               "expect_notification, expect_no_notification, expect_request, "
                               "expect_no_request, answer, paginate, for_each, raw, sleep, "
                               "await, value, http"
                             : "a step must have exactly one step kind");
        return;
    }
    mc__lint_only_keys(l, st, ptr, mc_step_kind_what(kind), step_lints[kind].keys);
    step_lints[kind].lint(l, st, ptr, depth);
}

void mc__lint_steps(mc__lint_t *l, json_object *steps, const char *pointer, int depth)
{
    size_t i, n = json_object_array_length(steps);
    char sub[512];

    for (i = 0; i < n; i++) {
        if (l->steps_seen >= MC_SCENARIO_MAX_STEPS) {
            mc__lint_problem(l, pointer, "more than %d steps", MC_SCENARIO_MAX_STEPS);
            return;
        }
        snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
        lint_step(l, json_object_array_get_idx(steps, i), sub, depth);
    }
}
