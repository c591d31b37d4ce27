#include "scenario/scenario.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json.h"
#include "core/version.h"
#include "scenario/builtin.h"
#include "scenario/match.h"
#include "scenario/vars.h"

/* --- problem collection ------------------------------------------------ */

typedef struct linebuf {
    char *buf;
    size_t len, cap;
} linebuf_t;

typedef struct lint {
    const mc_jsonc_doc_t *doc;
    linebuf_t problems;  /* accumulated problems */
    linebuf_t warnings;  /* accumulated warnings (the file still loads) */
    int count;
    int n_warnings;
    int nomem;
    /* Variables defined so far, in step order (names only). */
    char *vars[256];
    int n_vars;
    char *roles[64];
    int n_roles;
    const mc_requirement_t *reqs;
    size_t n_reqs;
    int steps_seen;
    json_object *client_caps; /* what the scenario's client declares (borrowed) */
} lint_t;

/* Appends "file:line:col: PREFIXmsg\n" for pointer to lb; sets l->nomem on failure. */
static void add_line(lint_t *l, linebuf_t *lb, const char *pointer, const char *prefix,
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

static void problem(lint_t *l, const char *pointer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void problem(lint_t *l, const char *pointer, const char *fmt, ...)
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

static void warning(lint_t *l, const char *pointer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void warning(lint_t *l, const char *pointer, const char *fmt, ...)
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
static void lint_client_sends(lint_t *l, const char *method, const char *ptr)
{
    json_object *roots = mc_json_get(l->client_caps, "roots");

    if (method != NULL && strcmp(method, "notifications/roots/list_changed") == 0 &&
        !json_object_get_boolean(mc_json_get(roots, "listChanged")))
        problem(l, ptr, "the client would send notifications/roots/list_changed without "
                        "declaring client.capabilities.roots.listChanged");
}

static int has_var(const lint_t *l, const char *name, size_t n)
{
    int i;

    for (i = 0; i < l->n_vars; i++)
        if (strlen(l->vars[i]) == n && strncmp(l->vars[i], name, n) == 0)
            return 1;
    return 0;
}

static void define_var(lint_t *l, const char *name)
{
    if (l->n_vars < (int)(sizeof(l->vars) / sizeof(l->vars[0])) &&
        !has_var(l, name, strlen(name)))
        l->vars[l->n_vars++] = strdup(name);
}

static void use_role(lint_t *l, const char *name, size_t n)
{
    int i;

    for (i = 0; i < l->n_roles; i++)
        if (strlen(l->roles[i]) == n && strncmp(l->roles[i], name, n) == 0)
            return;
    if (l->n_roles < (int)(sizeof(l->roles) / sizeof(l->roles[0])))
        l->roles[l->n_roles++] = strndup(name, n);
}

/* Checks every ${...} reference inside v. */
static void check_refs(lint_t *l, json_object *v, const char *pointer)
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
                problem(l, pointer, "unterminated variable reference in \"%.60s\"", s);
                return;
            }
            n = mc_var_name_len(name, (size_t)(end - name));
            if (strncmp(name, "role:", 5) == 0) {
                if (end - name == 5)
                    problem(l, pointer, "empty role name in \"%.60s\"", s);
                else
                    use_role(l, name + 5, (size_t)(end - name - 5));
            } else if (!mc_var_builtin(name, n) && !has_var(l, name, n)) {
                problem(l, pointer, "variable \"%.*s\" is used before it is captured", (int)n,
                        name);
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
            check_refs(l, json_object_array_get_idx(v, i), sub);
        }
        return;
    }
    case json_type_object: {
        char sub[512];
        json_object_object_foreach(v, key, val)
        {
            snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
            check_refs(l, val, sub);
        }
        return;
    }
    default:
        return;
    }
}

/* Checks that obj has only the allowed keys (NULL-terminated list). */
static void only_keys(lint_t *l, json_object *obj, const char *pointer, const char *what,
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
            problem(l, sub, "unknown field \"%s\" in %s", key, what);
        }
    }
}

static int is_str(json_object *v)
{
    return v != NULL && json_object_is_type(v, json_type_string);
}

static void want_type(lint_t *l, json_object *obj, const char *key, json_type t,
                      const char *pointer, const char *what)
{
    json_object *v = mc_json_get(obj, key);
    char sub[512];

    if (v == NULL)
        return;
    if (t == json_type_double ? !(json_object_is_type(v, json_type_int) ||
                                  json_object_is_type(v, json_type_double))
                              : !json_object_is_type(v, t)) {
        snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
        problem(l, sub, "\"%s\" in %s must be %s %s", key, what,
                t == json_type_object ? "an" : "a",
                t == json_type_double ? "number" : json_type_to_name(t));
    }
}

static int check_declared(const lint_t *l, const char *check)
{
    size_t i;

    if (mc_builtin_check(check) != NULL || mc_check_is_harness(check))
        return 1;
    for (i = 0; i < l->n_reqs; i++)
        if (strcmp(l->reqs[i].check, check) == 0)
            return 1;
    return 0;
}

static void lint_check_field(lint_t *l, json_object *obj, const char *pointer)
{
    json_object *c = mc_json_get(obj, "check");
    char sub[512];

    if (c == NULL)
        return;
    mc_str_join(sub, sizeof(sub), pointer, "/check");
    if (!is_str(c))
        problem(l, sub, "\"check\" must be a string (a check id declared in \"spec\")");
    else if (!check_declared(l, json_object_get_string(c)))
        problem(l, sub, "check \"%s\" is not declared in \"spec\" and is not a built-in check",
                json_object_get_string(c));
}

static void lint_assertions(lint_t *l, json_object *list, const char *pointer)
{
    static const char *const keys[] = {"path",   "equals", "type",   "matches", "present",
                                       "absent", "length", "range",  "contains", "base64",
                                       "uri",    "one_of", "check",  "message", "optional",
                                       "not_equals", "json_schema", "valid_against", NULL};
    size_t i, n;
    char sub[512];

    if (!json_object_is_type(list, json_type_array)) {
        problem(l, pointer, "\"assert\" must be an array of assertions");
        return;
    }
    n = json_object_array_length(list);
    for (i = 0; i < n; i++) {
        json_object *a = json_object_array_get_idx(list, i);
        int matchers = 0;
        snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
        if (!json_object_is_type(a, json_type_object)) {
            problem(l, sub, "an assertion must be an object with \"path\" and a matcher");
            continue;
        }
        only_keys(l, a, sub, "an assertion", keys);
        if (!is_str(mc_json_get(a, "path")))
            problem(l, sub, "assertion needs a \"path\" string (e.g. \"result.resources\")");
        else if (mc_path_check(json_object_get_string(mc_json_get(a, "path"))) != 0)
            problem(l, sub, "malformed path \"%s\"", json_object_get_string(mc_json_get(a, "path")));
        for (const char *const *k = mc_matcher_names; *k != NULL; k++)
            matchers += mc_json_get(a, *k) != NULL;
        if (matchers != 1)
            problem(l, sub, "assertion needs exactly one matcher (equals, not_equals, type, "
                            "matches, present, absent, length, range, contains, base64, uri, "
                            "one_of, json_schema, valid_against), found %d",
                    matchers);
        if (mc_json_get(a, "type") != NULL && !mc_matcher_type_known(mc_json_get(a, "type")))
            problem(l, sub, "unknown type in \"type\" matcher (use string, number, integer, "
                            "boolean, object, array, null)");
        if (mc_json_get(a, "matches") != NULL && mc_matcher_regex_ok(mc_json_get(a, "matches")) != 0)
            problem(l, sub, "\"matches\" is not a valid regular expression");
        lint_check_field(l, a, sub);
        check_refs(l, a, sub);
    }
}

static void lint_capture(lint_t *l, json_object *cap, const char *pointer)
{
    char sub[512];

    if (!json_object_is_type(cap, json_type_object)) {
        problem(l, pointer, "\"capture\" must map variable names to paths");
        return;
    }
    json_object_object_foreach(cap, name, path)
    {
        snprintf(sub, sizeof(sub), "%s/%s", pointer, name);
        if (!is_str(path) || mc_path_check(json_object_get_string(path)) != 0)
            problem(l, sub, "capture \"%s\" needs a path string", name);
        if (!mc_var_name_ok(name))
            problem(l, sub, "\"%s\" is not a valid variable name (letters, digits, _)", name);
        define_var(l, name);
    }
}

static void lint_expect(lint_t *l, json_object *e, const char *pointer)
{
    if (e == NULL)
        return;
    if (is_str(e)) {
        const char *s = json_object_get_string(e);
        if (strcmp(s, "result") != 0 && strcmp(s, "error") != 0 && strcmp(s, "any") != 0 &&
            strcmp(s, "none") != 0)
            problem(l, pointer, "\"expect\" must be \"result\", \"error\", \"any\", \"none\" or "
                                "{\"error\": CODE or [CODES]}");
        return;
    }
    if (json_object_is_type(e, json_type_object)) {
        static const char *const keys[] = {"error", NULL};
        json_object *c = mc_json_get(e, "error");
        only_keys(l, e, pointer, "\"expect\"", keys);
        if (c == NULL || !(json_object_is_type(c, json_type_int) ||
                           json_object_is_type(c, json_type_array)))
            problem(l, pointer, "\"expect\": {\"error\": ...} needs an integer code or an "
                                "array of codes");
        return;
    }
    problem(l, pointer, "\"expect\" must be a string or {\"error\": CODE}");
}

/* Runs fn on member key of step st, when present, with its pointer. */
static void lint_member(lint_t *l, json_object *st, const char *ptr, const char *key,
                        void (*fn)(lint_t *l, json_object *v, const char *pointer))
{
    char sub[512], suffix[64];

    if (mc_json_get(st, key) == NULL)
        return;
    mc_str_join(suffix, sizeof(suffix), "/", key);
    mc_str_join(sub, sizeof(sub), ptr, suffix);
    fn(l, mc_json_get(st, key), sub);
}

static void lint_steps(lint_t *l, json_object *steps, const char *pointer, int depth);

static void lint_step(lint_t *l, json_object *st, const char *ptr, int depth)
{
    static const char *const kinds[] = {"request", "notify", "expect_notification",
                                        "expect_no_notification", "expect_request",
                                        "expect_no_request", "answer", "paginate", "for_each",
                                        "raw", "sleep", "await", "value", "http", NULL};
    static const char *const k_request[] = {"request", "params", "expect", "assert", "capture",
                                            "check", "timeout", "progress", "async", "note",
                                            "retry", NULL};
    static const char *const k_notify[] = {"notify", "params", "note", NULL};
    static const char *const k_expect_n[] = {"expect_notification", "within", "assert",
                                             "capture", "check", "where", "note", NULL};
    static const char *const k_expect_no[] = {"expect_no_notification", "for", "check", "where",
                                              "note", NULL};
    static const char *const k_expect_r[] = {"expect_request", "within", "assert", "capture",
                                             "check", "where", "note", NULL};
    static const char *const k_expect_no_r[] = {"expect_no_request", "for", "check", "where",
                                                "note", NULL};
    static const char *const k_value[] = {"value", "assert", "check", "note", NULL};
    static const char *const k_answer[] = {"answer", "with", "error", "note", NULL};
    static const char *const k_paginate[] = {"paginate", "params", "items", "key", "max_pages",
                                             "capture", "timeout", "assert", "check", "note",
                                             NULL};
    static const char *const k_for_each[] = {"for_each", "as", "steps", "max", "where", "note",
                                             NULL};
    static const char *const k_raw[] = {"raw", "expect", "expect_id", "assert", "check",
                                        "within", "note", NULL};
    static const char *const k_sleep[] = {"sleep", "note", NULL};
    static const char *const k_http[] = {"http", "message", "body", "headers", "session",
                                         "delete_first", "status", "content_type", "empty_body",
                                         "within", "events", "check", "note", NULL};
    static const char *const k_await[] = {"await", "expect", "assert", "capture", "check",
                                          "timeout", "note", NULL};
    const char *kind = NULL;
    int n_kinds = 0;
    size_t i;
    char sub[512];

    l->steps_seen++;
    if (!json_object_is_type(st, json_type_object)) {
        problem(l, ptr, "a step must be an object with one step kind");
        return;
    }
    for (i = 0; kinds[i] != NULL; i++)
        if (mc_json_get(st, kinds[i]) != NULL) {
            kind = kinds[i];
            n_kinds++;
        }
    if (n_kinds != 1) {
        problem(l, ptr,
                n_kinds == 0 ? "unknown step kind: expected one of request, notify, "
                               "expect_notification, expect_no_notification, expect_request, "
                               "expect_no_request, answer, paginate, for_each, raw, sleep, "
                               "await, value, http"
                             : "a step must have exactly one step kind");
        return;
    }
    if (strcmp(kind, "request") == 0) {
        only_keys(l, st, ptr, "a request step", k_request);
        if (!is_str(mc_json_get(st, "request")))
            problem(l, ptr, "\"request\" must be a method name");
        want_type(l, st, "params", json_type_object, ptr, "a request step");
        want_type(l, st, "timeout", json_type_int, ptr, "a request step");
        want_type(l, st, "progress", json_type_boolean, ptr, "a request step");
        want_type(l, st, "retry", json_type_boolean, ptr, "a request step");
        if (mc_json_get(st, "progress") != NULL && json_object_is_type(mc_json_get(st, "progress"), json_type_boolean) &&
            json_object_get_boolean(mc_json_get(st, "progress")))
            define_var(l, "progress_token"); /* the runner sets it */
        check_refs(l, mc_json_get(st, "params"), ptr);
        mc_str_join(sub, sizeof(sub), ptr, "/expect");
        lint_expect(l, mc_json_get(st, "expect"), sub);
        lint_member(l, st, ptr, "assert", lint_assertions);
        lint_check_field(l, st, ptr);
        if (mc_json_get(st, "async") != NULL) {
            if (!is_str(mc_json_get(st, "async")) || !mc_var_name_ok(json_object_get_string(mc_json_get(st, "async"))))
                problem(l, ptr, "\"async\" must name a variable for the request id");
            else
                define_var(l, json_object_get_string(mc_json_get(st, "async")));
            if (mc_json_get(st, "expect") != NULL || mc_json_get(st, "assert") != NULL ||
                mc_json_get(st, "capture") != NULL)
                problem(l, ptr, "an \"async\" request takes its expectations in the \"await\" "
                                "step");
        }
        lint_member(l, st, ptr, "capture", lint_capture);
    } else if (strcmp(kind, "notify") == 0) {
        only_keys(l, st, ptr, "a notify step", k_notify);
        if (!is_str(mc_json_get(st, "notify")))
            problem(l, ptr, "\"notify\" must be a method name");
        else
            lint_client_sends(l, mc_json_get_str(st, "notify"), ptr);
        want_type(l, st, "params", json_type_object, ptr, "a notify step");
        check_refs(l, mc_json_get(st, "params"), ptr);
    } else if (strcmp(kind, "expect_notification") == 0 || strcmp(kind, "expect_request") == 0) {
        int is_n = kind[7] == 'n';
        only_keys(l, st, ptr, is_n ? "an expect_notification step" : "an expect_request step",
                  is_n ? k_expect_n : k_expect_r);
        if (!is_str(mc_json_get(st, kind)))
            problem(l, ptr, "\"%s\" must be a method name", kind);
        want_type(l, st, "within", json_type_int, ptr, "this step");
        lint_member(l, st, ptr, "where", lint_assertions);
        lint_member(l, st, ptr, "assert", lint_assertions);
        lint_check_field(l, st, ptr);
        lint_member(l, st, ptr, "capture", lint_capture);
    } else if (strcmp(kind, "expect_no_notification") == 0 ||
               strcmp(kind, "expect_no_request") == 0) {
        int is_n = kind[10] == 'n';
        only_keys(l, st, ptr,
                  is_n ? "an expect_no_notification step" : "an expect_no_request step",
                  is_n ? k_expect_no : k_expect_no_r);
        if (!is_str(mc_json_get(st, kind)))
            problem(l, ptr, "\"%s\" must be a method name or \"*\"", kind);
        want_type(l, st, "for", json_type_int, ptr, "this step");
        lint_member(l, st, ptr, "where", lint_assertions);
        lint_check_field(l, st, ptr);
    } else if (strcmp(kind, "value") == 0) {
        only_keys(l, st, ptr, "a value step", k_value);
        check_refs(l, mc_json_get(st, "value"), ptr);
        if (mc_json_get(st, "assert") == NULL) {
            problem(l, ptr, "a value step needs \"assert\" (paths start at the value)");
        } else {
            mc_str_join(sub, sizeof(sub), ptr, "/assert");
            lint_assertions(l, mc_json_get(st, "assert"), sub);
        }
        lint_check_field(l, st, ptr);
    } else if (strcmp(kind, "answer") == 0) {
        only_keys(l, st, ptr, "an answer step", k_answer);
        if (!is_str(mc_json_get(st, "answer")))
            problem(l, ptr, "\"answer\" must be the server request method to answer");
        if ((mc_json_get(st, "with") == NULL) == (mc_json_get(st, "error") == NULL))
            problem(l, ptr, "an answer step needs exactly one of \"with\" (a result object) or "
                            "\"error\" ({\"code\", \"message\"})");
        want_type(l, st, "with", json_type_object, ptr, "an answer step");
        want_type(l, st, "error", json_type_object, ptr, "an answer step");
        check_refs(l, mc_json_get(st, "with"), ptr);
    } else if (strcmp(kind, "paginate") == 0) {
        only_keys(l, st, ptr, "a paginate step", k_paginate);
        if (!is_str(mc_json_get(st, "paginate")))
            problem(l, ptr, "\"paginate\" must be a list method");
        if (!is_str(mc_json_get(st, "items")))
            problem(l, ptr, "a paginate step needs \"items\": the result field holding the list");
        want_type(l, st, "key", json_type_string, ptr, "a paginate step");
        want_type(l, st, "max_pages", json_type_int, ptr, "a paginate step");
        want_type(l, st, "params", json_type_object, ptr, "a paginate step");
        check_refs(l, mc_json_get(st, "params"), ptr);
        lint_member(l, st, ptr, "assert", lint_assertions);
        lint_check_field(l, st, ptr);
        if (mc_json_get(st, "capture") != NULL) {
            if (!is_str(mc_json_get(st, "capture")) ||
                !mc_var_name_ok(json_object_get_string(mc_json_get(st, "capture"))))
                problem(l, ptr, "\"capture\" of a paginate step names one variable");
            else
                define_var(l, json_object_get_string(mc_json_get(st, "capture")));
        }
    } else if (strcmp(kind, "for_each") == 0) {
        only_keys(l, st, ptr, "a for_each step", k_for_each);
        if (!is_str(mc_json_get(st, "for_each")))
            problem(l, ptr, "\"for_each\" must be a \"${variable}\" holding an array");
        check_refs(l, mc_json_get(st, "for_each"), ptr);
        if (!is_str(mc_json_get(st, "as")) || !mc_var_name_ok(json_object_get_string(mc_json_get(st, "as"))))
            problem(l, ptr, "a for_each step needs \"as\": the loop variable's name");
        else
            define_var(l, json_object_get_string(mc_json_get(st, "as")));
        want_type(l, st, "max", json_type_int, ptr, "a for_each step");
        lint_member(l, st, ptr, "where", lint_assertions);
        if (depth >= 4) {
            problem(l, ptr, "for_each nested more than 4 deep");
        } else if (mc_json_get(st, "steps") == NULL ||
                   !json_object_is_type(mc_json_get(st, "steps"), json_type_array)) {
            problem(l, ptr, "a for_each step needs \"steps\"");
        } else {
            mc_str_join(sub, sizeof(sub), ptr, "/steps");
            lint_steps(l, mc_json_get(st, "steps"), sub, depth + 1);
        }
    } else if (strcmp(kind, "raw") == 0) {
        only_keys(l, st, ptr, "a raw step", k_raw);
        if (!is_str(mc_json_get(st, "raw"))) {
            problem(l, ptr, "\"raw\" must be the exact line to send (a string)");
        } else {
            json_object *line = json_tokener_parse(mc_json_get_str(st, "raw"));
            if (json_object_is_type(line, json_type_object))
                lint_client_sends(l, mc_json_get_str(line, "method"), ptr);
            json_object_put(line);
        }
        mc_str_join(sub, sizeof(sub), ptr, "/expect");
        if (is_str(mc_json_get(st, "expect")) &&
            strcmp(mc_json_get_str(st, "expect"), "batch") == 0) {
            json_object *line = json_tokener_parse(mc_json_get_str(st, "raw"));
            if (!json_object_is_type(line, json_type_array) ||
                json_object_array_length(line) == 0)
                problem(l, sub, "\"expect\": \"batch\" needs a raw line holding a non-empty "
                                "JSON array (the batch)");
            if (mc_json_get(st, "expect_id") != NULL)
                problem(l, sub, "\"expect\": \"batch\" waits for an array: no \"expect_id\"");
            json_object_put(line);
        } else {
            lint_expect(l, mc_json_get(st, "expect"), sub);
        }
        want_type(l, st, "within", json_type_int, ptr, "a raw step");
        lint_member(l, st, ptr, "assert", lint_assertions);
        lint_check_field(l, st, ptr);
    } else if (strcmp(kind, "http") == 0) {
        const char *m = mc_json_get_str(st, "http");
        only_keys(l, st, ptr, "an http step", k_http);
        if (m == NULL || (strcmp(m, "POST") != 0 && strcmp(m, "GET") != 0 &&
                          strcmp(m, "DELETE") != 0 && strcmp(m, "PUT") != 0))
            problem(l, ptr, "\"http\" must be POST, GET, DELETE or PUT");
        want_type(l, st, "within", json_type_int, ptr, "an http step");
        want_type(l, st, "headers", json_type_object, ptr, "an http step");
        lint_check_field(l, st, ptr);
    } else if (strcmp(kind, "sleep") == 0) {
        only_keys(l, st, ptr, "a sleep step", k_sleep);
        if (!json_object_is_type(mc_json_get(st, "sleep"), json_type_int) ||
            json_object_get_int(mc_json_get(st, "sleep")) < 0 ||
            json_object_get_int(mc_json_get(st, "sleep")) > 10000)
            problem(l, ptr, "\"sleep\" must be milliseconds between 0 and 10000");
    } else if (strcmp(kind, "await") == 0) {
        only_keys(l, st, ptr, "an await step", k_await);
        if (!is_str(mc_json_get(st, "await")))
            problem(l, ptr, "\"await\" must name the variable of an async request");
        else if (!has_var(l, json_object_get_string(mc_json_get(st, "await")),
                          strlen(json_object_get_string(mc_json_get(st, "await")))))
            problem(l, ptr, "\"await\" names \"%s\", which no earlier async request defines",
                    json_object_get_string(mc_json_get(st, "await")));
        mc_str_join(sub, sizeof(sub), ptr, "/expect");
        lint_expect(l, mc_json_get(st, "expect"), sub);
        want_type(l, st, "timeout", json_type_int, ptr, "an await step");
        lint_member(l, st, ptr, "assert", lint_assertions);
        lint_check_field(l, st, ptr);
        lint_member(l, st, ptr, "capture", lint_capture);
    }
}

static void lint_steps(lint_t *l, json_object *steps, const char *pointer, int depth)
{
    size_t i, n = json_object_array_length(steps);
    char sub[512];

    for (i = 0; i < n; i++) {
        if (l->steps_seen >= MC_SCENARIO_MAX_STEPS) {
            problem(l, pointer, "more than %d steps", MC_SCENARIO_MAX_STEPS);
            return;
        }
        snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
        lint_step(l, json_object_array_get_idx(steps, i), sub, depth);
    }
}

/*
 * One version item: "2025-06-18", "2025-06-18..", "..2025-06-18" or "A..B",
 * every bound a published version of core's table. Adds the versions it
 * covers to *mask and widens the bounds *lo and *hi (version ids). Returns 0 if valid.
 */
static int parse_version_item(const char *s, unsigned *mask, int *lo, int *hi)
{
    const char *dots = strstr(s, "..");
    char minb[16], maxb[16];
    const mc_version_info_t *a = NULL, *b = NULL;
    int i, from, to;

    if (dots == NULL) {
        snprintf(minb, sizeof(minb), "%s", s);
        snprintf(maxb, sizeof(maxb), "%s", s);
    } else {
        if ((size_t)(dots - s) >= sizeof(minb) || strlen(dots + 2) >= sizeof(maxb))
            return -1;
        snprintf(minb, sizeof(minb), "%.*s", (int)(dots - s), s);
        snprintf(maxb, sizeof(maxb), "%s", dots + 2);
    }
    if (minb[0] == '\0' && maxb[0] == '\0')
        return -1;
    if ((minb[0] != '\0' && (a = mc_version_find(minb)) == NULL) ||
        (maxb[0] != '\0' && (b = mc_version_find(maxb)) == NULL))
        return -1;
    from = a != NULL ? (int)a->id : 0;
    to = b != NULL ? (int)b->id : MC_V_COUNT - 1;
    if (from > to)
        return -1;
    for (i = from; i <= to; i++)
        *mask |= 1u << i;
    if (from < *lo)
        *lo = from;
    if (to > *hi)
        *hi = to;
    return 0;
}

/*
 * "versions": one item (above) or an array of items. Fills mask and the
 * outermost bounds (NULL when open). Returns 0 if valid.
 */
static int parse_versions(lint_t *l, json_object *v, unsigned *mask, const char **min,
                          const char **max)
{
    static const char *const how =
        "\"versions\" must be \"V\", \"V..\", \"..V\", \"V1..V2\" or an array of them, each V a "
        "published protocol version (%s)";
    char known[128] = "";
    size_t used = 0, i, n;
    int lo = MC_V_COUNT, hi = -1, bad = 0, open_lo = 0, open_hi = 0;

    for (const char *const *k = mc_version_names(); *k != NULL && used < sizeof(known); k++) {
        int w = snprintf(known + used, sizeof(known) - used, "%s%s", used ? ", " : "", *k);
        used += w > 0 ? (size_t)w : 0;
    }
    *mask = 0;
    if (is_str(v)) {
        const char *t = json_object_get_string(v);
        bad = parse_version_item(t, mask, &lo, &hi) != 0;
        open_lo = strncmp(t, "..", 2) == 0;
        open_hi = strlen(t) >= 2 && strcmp(t + strlen(t) - 2, "..") == 0;
    } else if (json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0) {
        n = json_object_array_length(v);
        for (i = 0; i < n; i++) {
            json_object *it = json_object_array_get_idx(v, i);
            const char *t = is_str(it) ? json_object_get_string(it) : NULL;
            char ptr[64];
            snprintf(ptr, sizeof(ptr), "/versions/%zu", i);
            if (t == NULL || parse_version_item(t, mask, &lo, &hi) != 0) {
                problem(l, ptr, how, known);
                bad = -1;
                continue;
            }
            open_lo |= strncmp(t, "..", 2) == 0;
            open_hi |= strlen(t) >= 2 && strcmp(t + strlen(t) - 2, "..") == 0;
        }
        if (bad)
            return 0; /* reported item by item */
    } else {
        bad = 1;
    }
    if (bad) {
        problem(l, "/versions", how, known);
        return -1;
    }
    *min = open_lo ? NULL : mc_version_name(lo);
    *max = open_hi ? NULL : mc_version_name(hi);
    return 0;
}

/* The member key of obj when it is a string, else NULL. */
static const char *str_member(json_object *obj, const char *key)
{
    json_object *v = mc_json_get(obj, key);

    return is_str(v) ? json_object_get_string(v) : NULL;
}

/* Checks that quote carries the keyword of level; pointer names where it is. */
static void lint_level_fits(lint_t *l, const char *pointer, mc_level_t level, const char *quote)
{
    char kw[64];

    if (mc_check_level_fits(level, quote))
        return;
    mc_check_keywords_describe(mc_check_keywords(quote), kw, sizeof(kw));
    problem(l, pointer,
            "level %s does not match the quote, which says %s (the level is the quote's "
            "RFC 2119 keyword; a quote without one is INFO)",
            mc_level_name(level), kw);
}

/* The legacy form {check, level, ref: "VERSION/page#anchor", text}. */
static void parse_legacy(lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q)
{
    const char *ref = str_member(r, "ref"), *text = str_member(r, "text");

    if (ref == NULL || !mc_spec_ref_ok(ref))
        problem(l, ptr, "requirement needs \"ref\": \"VERSION/page#anchor\", e.g. "
                        "\"" MC_VERSION_BASELINE "/server/resources#reading-resources\"");
    if (text == NULL || strlen(text) < 8)
        problem(l, ptr, "requirement needs \"text\": the requirement sentence");
    if (ref == NULL || text == NULL || !mc_spec_ref_ok(ref))
        return;
    /* Keep the version part NUL-terminated in the document. */
    json_object_object_add(r, "$ref_version", json_object_new_string_len(ref, 10));
    q->refs[0].version = str_member(r, "$ref_version");
    q->refs[0].page = ref + 11;
    q->quote = text;
    q->legacy = 1;
    warning(l, ptr,
            "check \"%s\" uses the legacy {ref, text} form: write {\"quote\": the spec "
            "sentence verbatim, \"refs\": {\"%.10s\": \"%s\"}, and \"interpretation\" for "
            "anything the sentence does not say} (see scenarios/README.md)",
            q->check != NULL ? q->check : "?", ref, ref + 11);
}

/* The form {check, level, quote, refs {version: page#anchor}, quotes?, interpretation?}. */
static void parse_current(lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q,
                          int level_ok)
{
    json_object *refs = mc_json_get(r, "refs"), *quotes = mc_json_get(r, "quotes");
    json_object *levels = mc_json_get(r, "levels");
    json_object *interp = mc_json_get(r, "interpretation");
    const char *quote = str_member(r, "quote");
    char sub[512];
    size_t n = 0;

    mc_str_join(sub, sizeof(sub), ptr, "/quote");
    if (quote == NULL || strlen(quote) < 8)
        problem(l, quote == NULL ? ptr : sub,
                "requirement needs \"quote\": the spec sentence, verbatim");
    else if (strlen(quote) > MC_CHECK_MAX_QUOTE)
        problem(l, sub, "\"quote\" is longer than %d bytes: quote the sentence, not the page",
                MC_CHECK_MAX_QUOTE);
    else if (level_ok)
        lint_level_fits(l, sub, q->level, quote);
    q->quote = quote;

    mc_str_join(sub, sizeof(sub), ptr, "/refs");
    if (refs == NULL || !json_object_is_type(refs, json_type_object) ||
        json_object_object_length(refs) == 0) {
        problem(l, refs == NULL ? ptr : sub,
                "requirement needs \"refs\": {\"VERSION\": \"page#anchor\", ...}, e.g. "
                "{\"" MC_VERSION_BASELINE "\": \"server/resources#reading-resources\"}");
    } else {
        json_object_object_foreach(refs, ver, page)
        {
            char vp[800];
            size_t i;
            snprintf(vp, sizeof(vp), "%s/%s", sub, ver);
            if (mc_version_find(ver) == NULL) {
                problem(l, vp, "\"%s\" in \"refs\" is not a published protocol version", ver);
                continue;
            }
            if (!is_str(page) || !mc_check_page_ok(json_object_get_string(page))) {
                problem(l, vp,
                        "refs[\"%s\"] must be \"page#anchor\" without the version, e.g. "
                        "\"basic/utilities/progress#progress-flow\"",
                        ver);
                continue;
            }
            if (n == MC_CHECK_MAX_REFS) {
                problem(l, vp, "more than %d versions in \"refs\"", MC_CHECK_MAX_REFS);
                break;
            }
            /* Insert in version order (names are dates: string order is time order). */
            for (i = n; i > 0 && strcmp(q->refs[i - 1].version, ver) > 0; i--)
                q->refs[i] = q->refs[i - 1];
            q->refs[i].version = ver;
            q->refs[i].page = json_object_get_string(page);
            q->refs[i].quote = NULL;
            n++;
        }
    }

    if (quotes != NULL) {
        mc_str_join(sub, sizeof(sub), ptr, "/quotes");
        if (!json_object_is_type(quotes, json_type_object)) {
            problem(l, sub, "\"quotes\" must map versions to the wording at that version");
        } else {
            json_object_object_foreach(quotes, ver, text)
            {
                char vp[800];
                size_t i;
                snprintf(vp, sizeof(vp), "%s/%s", sub, ver);
                for (i = 0; i < n && strcmp(q->refs[i].version, ver) != 0; i++)
                    ;
                if (i == n) {
                    problem(l, vp, "quotes[\"%s\"]: that version is not in \"refs\"", ver);
                } else if (!is_str(text) || json_object_get_string_len(text) < 8 ||
                           json_object_get_string_len(text) > MC_CHECK_MAX_QUOTE) {
                    problem(l, vp, "quotes[\"%s\"] must be the sentence as that version words it",
                            ver);
                } else {
                    q->refs[i].quote = json_object_get_string(text);
                }
            }
        }
    }

    /* levels: the keyword at a version where the sentence carries another one. */
    if (levels != NULL) {
        mc_str_join(sub, sizeof(sub), ptr, "/levels");
        if (!json_object_is_type(levels, json_type_object)) {
            problem(l, sub, "\"levels\" must map versions to the level at that version");
        } else {
            json_object_object_foreach(levels, ver, lv)
            {
                char vp[800];
                size_t i;
                mc_level_t parsed;
                snprintf(vp, sizeof(vp), "%s/%s", sub, ver);
                for (i = 0; i < n && strcmp(q->refs[i].version, ver) != 0; i++)
                    ;
                if (i == n)
                    problem(l, vp, "levels[\"%s\"]: that version is not in \"refs\"", ver);
                else if (!is_str(lv) || mc_level_parse(json_object_get_string(lv), &parsed) != 0)
                    problem(l, vp, "levels[\"%s\"] must be MUST, SHOULD, MAY or INFO", ver);
                else {
                    q->refs[i].has_level = 1;
                    q->refs[i].level = parsed;
                }
            }
        }
    }
    /* Each version's wording carries the keyword of that version's level. */
    if (level_ok) {
        size_t i;
        for (i = 0; i < n; i++) {
            char vp[800];
            if (q->refs[i].quote == NULL && !q->refs[i].has_level)
                continue;
            snprintf(vp, sizeof(vp), "%s/%s/%s", ptr, q->refs[i].quote != NULL ? "quotes" : "levels",
                     q->refs[i].version);
            lint_level_fits(l, vp, q->refs[i].has_level ? q->refs[i].level : q->level,
                            q->refs[i].quote != NULL ? q->refs[i].quote : quote);
        }
    }

    if (interp != NULL) {
        mc_str_join(sub, sizeof(sub), ptr, "/interpretation");
        if (!is_str(interp) || json_object_get_string_len(interp) == 0 ||
            json_object_get_string_len(interp) > MC_CHECK_MAX_INTERPRETATION)
            problem(l, sub, "\"interpretation\" must be a non-empty string (at most %d bytes): "
                            "the harness's reading, apart from the quote",
                    MC_CHECK_MAX_INTERPRETATION);
        else
            q->interpretation = json_object_get_string(interp);
    }
}

/*
 * Reads one entry of "spec" into q (strings borrowed from the document).
 * Returns 0 when q holds a check id (the entry counts), -1 otherwise.
 * Problems and warnings go to l.
 */
static int parse_requirement(lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q)
{
    static const char *const keys[] = {"check", "level", "quote", "refs", "quotes", "levels",
                                       "interpretation", "ref", "text", NULL};
    const char *check, *level;
    int legacy, current, level_ok = 0;

    memset(q, 0, sizeof(*q));
    if (!json_object_is_type(r, json_type_object)) {
        problem(l, ptr, "a requirement is an object {check, level, quote, refs}");
        return -1;
    }
    only_keys(l, r, ptr, "a requirement", keys);
    check = str_member(r, "check");
    level = str_member(r, "level");
    if (check == NULL || !mc_check_id_ok(check))
        problem(l, ptr, "requirement needs \"check\": an id like \"area/thing/rule\" "
                        "(lowercase letters, digits, '-', '_', '/', '.')");
    q->check = check;
    if (level == NULL || mc_level_parse(level, &q->level) != 0)
        problem(l, ptr, "requirement needs \"level\": MUST, SHOULD, MAY or INFO (the RFC 2119 "
                        "keyword of the quote; INFO when it has none)");
    else
        level_ok = 1;
    legacy = mc_json_get(r, "ref") != NULL || mc_json_get(r, "text") != NULL;
    current = mc_json_get(r, "quote") != NULL || mc_json_get(r, "refs") != NULL ||
              mc_json_get(r, "quotes") != NULL || mc_json_get(r, "levels") != NULL ||
              mc_json_get(r, "interpretation") != NULL;
    if (legacy && current)
        problem(l, ptr, "a requirement is {check, level, quote, refs, quotes?, interpretation?}; "
                        "\"ref\" and \"text\" belong to the legacy form and do not mix with it");
    else if (legacy)
        parse_legacy(l, r, ptr, q);
    else
        parse_current(l, r, ptr, q, level_ok);
    return q->check != NULL ? 0 : -1;
}

static char *derive_id(const char *path, const char *root)
{
    const char *rel = path;
    size_t rl, n;
    char *id;

    if (root != NULL) {
        rl = strlen(root);
        while (rl > 0 && root[rl - 1] == '/')
            rl--;
        if (strncmp(path, root, rl) == 0 && path[rl] == '/')
            rel = path + rl + 1;
    }
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    n = strlen(rel);
    if (n > 6 && strcmp(rel + n - 6, ".jsonc") == 0)
        n -= 6;
    else if (n > 5 && strcmp(rel + n - 5, ".json") == 0)
        n -= 5;
    id = strndup(rel, n);
    return id;
}

/* "requires.features": names of core's version features; their bits go to *out. */
static void lint_features(lint_t *l, json_object *v, unsigned *out)
{
    size_t i, n;

    *out = 0;
    if (v == NULL)
        return;
    if (!json_object_is_type(v, json_type_array)) {
        problem(l, "/requires/features", "must be an array of feature names like "
                                         "\"elicitation\" or \"audio\"");
        return;
    }
    n = json_object_array_length(v);
    for (i = 0; i < n; i++) {
        json_object *f = json_object_array_get_idx(v, i);
        unsigned bit = is_str(f) ? mc_version_feature_bit(json_object_get_string(f)) : 0;
        char ptr[64];
        snprintf(ptr, sizeof(ptr), "/requires/features/%zu", i);
        if (bit == 0)
            problem(l, ptr, "\"%s\" is not a protocol feature of the version table (e.g. "
                            "\"elicitation\", \"audio\", \"title\", \"structured-content\", "
                            "\"batch\", \"completions-capability\")",
                    is_str(f) ? json_object_get_string(f) : "?");
        *out |= bit;
    }
}

int mc_scenario_load(const char *path, const char *root, mc_scenario_t *sc, char **problems,
                     mc_errbuf_t *eb)
{
    static const char *const top_keys[] = {"title", "description", "spec", "versions",
                                           "requires", "client", "steps", "tags", NULL};
    static const char *const requires_keys[] = {"capabilities", "roles", "transport",
                                                "features", NULL};
    static const char *const client_keys[] = {"capabilities", "answers", "version",
                                              "initialize", NULL};
    mc_scenario_t s;
    lint_t l;
    json_object *root_obj, *v;
    int rc, i;

    memset(&s, 0, sizeof(s));
    memset(&l, 0, sizeof(l));
    rc = mc_jsonc_load(path, &s.doc, eb);
    if (rc != MC_OK) {
        if (problems != NULL && eb != NULL) {
            size_t n = strlen(eb->msg);
            *problems = malloc(n + 2);
            if (*problems != NULL) {
                memcpy(*problems, eb->msg, n);
                (*problems)[n] = '\n';
                (*problems)[n + 1] = '\0';
            }
        }
        return rc == MC_EPARSE ? MC_EINVAL : rc;
    }
    l.doc = &s.doc;
    root_obj = s.doc.root;
    if (!json_object_is_type(root_obj, json_type_object)) {
        problem(&l, "", "a scenario file holds one JSON object");
        goto done;
    }
    only_keys(&l, root_obj, "", "the scenario", top_keys);
    v = mc_json_get(root_obj, "title");
    if (!is_str(v) || json_object_get_string_len(v) == 0)
        problem(&l, "", "the scenario needs a \"title\"");
    else
        s.title = json_object_get_string(v);

    /* spec: the requirements (and check ids) the scenario holds. */
    v = mc_json_get(root_obj, "spec");
    if (v == NULL || !json_object_is_type(v, json_type_array) ||
        json_object_array_length(v) == 0) {
        problem(&l, "", "the scenario needs \"spec\": a non-empty array of checks "
                        "{check, level, quote, refs}");
    } else {
        size_t n = json_object_array_length(v), k;
        s.reqs = calloc(n, sizeof(*s.reqs));
        if (s.reqs == NULL) {
            rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
            goto fail;
        }
        for (k = 0; k < n; k++) {
            char ptr[64];
            snprintf(ptr, sizeof(ptr), "/spec/%zu", k);
            if (parse_requirement(&l, json_object_array_get_idx(v, k), ptr, &s.reqs[s.n_reqs]) ==
                0) {
                if (mc_scenario_requirement(&s, s.reqs[s.n_reqs].check) != NULL)
                    problem(&l, ptr, "check \"%s\" is declared twice in \"spec\"",
                            s.reqs[s.n_reqs].check);
                s.n_reqs++;
            }
        }
    }
    l.reqs = s.reqs;
    l.n_reqs = s.n_reqs;

    v = mc_json_get(root_obj, "versions");
    s.version_mask = (1u << MC_V_COUNT) - 1;
    if (v != NULL)
        (void)parse_versions(&l, v, &s.version_mask, &s.min_version, &s.max_version);
    v = mc_json_get(root_obj, "requires");
    if (v != NULL) {
        if (!json_object_is_type(v, json_type_object)) {
            problem(&l, "/requires", "\"requires\" must be an object");
        } else {
            json_object *caps = mc_json_get(v, "capabilities"), *roles = mc_json_get(v, "roles");
            only_keys(&l, v, "/requires", "\"requires\"", requires_keys);
            if (caps != NULL && !json_object_is_type(caps, json_type_array))
                problem(&l, "/requires/capabilities", "must be an array of capability paths "
                                                      "like \"resources.subscribe\"");
            else
                s.requires_caps = caps;
            lint_features(&l, mc_json_get(v, "features"), &s.features);
            if (roles != NULL) {
                if (!json_object_is_type(roles, json_type_array)) {
                    problem(&l, "/requires/roles", "must be an array of role names");
                } else {
                    for (size_t k = 0; k < json_object_array_length(roles); k++) {
                        json_object *r = json_object_array_get_idx(roles, k);
                        if (is_str(r))
                            use_role(&l, json_object_get_string(r),
                                     (size_t)json_object_get_string_len(r));
                    }
                }
            }
        }
    }
    v = mc_json_get(root_obj, "client");
    if (v != NULL) {
        if (!json_object_is_type(v, json_type_object)) {
            problem(&l, "/client", "\"client\" must be an object");
        } else {
            only_keys(&l, v, "/client", "\"client\"", client_keys);
            want_type(&l, v, "capabilities", json_type_object, "/client", "\"client\"");
            want_type(&l, v, "answers", json_type_object, "/client", "\"client\"");
            want_type(&l, v, "initialize", json_type_boolean, "/client", "\"client\"");
            s.client_caps = mc_json_get(v, "capabilities");
            s.answers = mc_json_get(v, "answers");
            if (mc_json_get(v, "version") != NULL) {
                if (!is_str(mc_json_get(v, "version")))
                    problem(&l, "/client/version", "\"version\" must be a string");
                else
                    s.client_version = json_object_get_string(mc_json_get(v, "version"));
            }
            if (mc_json_get(v, "initialize") != NULL &&
                json_object_is_type(mc_json_get(v, "initialize"), json_type_boolean))
                s.manual_init = !json_object_get_boolean(mc_json_get(v, "initialize"));
            if (s.answers != NULL)
                check_refs(&l, s.answers, "/client/answers");
        }
    }
    v = mc_json_get(root_obj, "steps");
    if (v == NULL || !json_object_is_type(v, json_type_array) ||
        json_object_array_length(v) == 0) {
        problem(&l, "", "the scenario needs \"steps\": a non-empty array");
    } else {
        s.steps = v;
        l.client_caps = s.client_caps;
        lint_steps(&l, v, "/steps", 0);
    }

done:
    if (l.nomem) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto fail;
    }
    if (l.count > 0) {
        if (l.count > MC_SCENARIO_MAX_PROBLEMS) {
            char more[96];
            snprintf(more, sizeof(more), "%s: ... and %d more problems\n", s.doc.name,
                     l.count - MC_SCENARIO_MAX_PROBLEMS);
            l.count = 0; /* let problem() append the tail line */
            problem(&l, "", "... and more problems");
            (void)more;
        }
        if (problems != NULL) {
            *problems = l.problems.buf;
            l.problems.buf = NULL;
        }
        rc = MC_EINVAL;
        goto fail;
    }
    s.id = derive_id(path, root);
    {
        const char *slash = s.id ? strchr(s.id, '/') : NULL;
        s.area = s.id ? strndup(s.id, slash ? (size_t)(slash - s.id) : strlen(s.id)) : NULL;
    }
    if (s.id == NULL || s.area == NULL) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto fail;
    }
    /* Keep the version bounds past this frame: copy into the document. */
    if (s.min_version != NULL) {
        json_object_object_add(root_obj, "$min_version", json_object_new_string(s.min_version));
        s.min_version = json_object_get_string(mc_json_get(root_obj, "$min_version"));
    }
    if (s.max_version != NULL) {
        json_object_object_add(root_obj, "$max_version", json_object_new_string(s.max_version));
        s.max_version = json_object_get_string(mc_json_get(root_obj, "$max_version"));
    }
    s.roles = calloc((size_t)l.n_roles + 1, sizeof(char *));
    if (s.roles == NULL) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto fail;
    }
    for (i = 0; i < l.n_roles; i++) {
        s.roles[i] = l.roles[i];
        l.roles[i] = NULL;
    }
    s.n_roles = (size_t)l.n_roles;
    for (i = 0; i < l.n_vars; i++)
        free(l.vars[i]);
    free(l.problems.buf);
    s.warnings = l.warnings.buf;
    *sc = s;
    return MC_OK;

fail:
    for (i = 0; i < l.n_vars; i++)
        free(l.vars[i]);
    for (i = 0; i < l.n_roles; i++)
        free(l.roles[i]);
    free(l.problems.buf);
    free(l.warnings.buf);
    free(s.reqs);
    free(s.id);
    free(s.area);
    mc_jsonc_free(&s.doc);
    return rc;
}

void mc_scenario_free(mc_scenario_t *sc)
{
    size_t i;

    for (i = 0; sc->roles != NULL && i < sc->n_roles; i++)
        free(sc->roles[i]);
    free(sc->roles);
    free(sc->reqs);
    free(sc->warnings);
    free(sc->id);
    free(sc->area);
    mc_jsonc_free(&sc->doc);
    memset(sc, 0, sizeof(*sc));
}

const mc_requirement_t *mc_scenario_requirement(const mc_scenario_t *sc, const char *check)
{
    size_t i;

    for (i = 0; i < sc->n_reqs; i++)
        if (strcmp(sc->reqs[i].check, check) == 0)
            return &sc->reqs[i];
    return NULL;
}

int mc_scenario_applies(const mc_scenario_t *sc, const char *version)
{
    const mc_version_info_t *v = mc_version_find(version);

    if (v != NULL && sc->version_mask != 0)
        return (sc->version_mask & (1u << v->id)) != 0;
    /* A version the table does not know: by the outer bounds (dates). */
    if (sc->min_version != NULL && strcmp(version, sc->min_version) < 0)
        return 0;
    if (sc->max_version != NULL && strcmp(version, sc->max_version) > 0)
        return 0;
    return 1;
}

/* Capabilities a server can declare only from the version that has the feature. */
static const struct {
    const char *cap;
    unsigned feature;
} cap_features[] = {
    {"completions", MC_VF_COMPLETIONS_CAP},
};

int mc_scenario_version_gap(const mc_scenario_t *sc, const char *version, char *buf, size_t n)
{
    unsigned bit = mc_version_missing(version, sc->features);
    size_t i, k;

    if (bit != 0) {
        snprintf(buf, n, "%s lacks %s (the scenario needs it)", version,
                 mc_version_feature_what(bit));
        return 1;
    }
    for (i = 0; sc->requires_caps != NULL && i < json_object_array_length(sc->requires_caps);
         i++) {
        const char *cap = json_object_get_string(json_object_array_get_idx(sc->requires_caps, i));
        for (k = 0; cap != NULL && k < sizeof(cap_features) / sizeof(cap_features[0]); k++) {
            size_t cl = strlen(cap_features[k].cap);
            if (strncmp(cap, cap_features[k].cap, cl) == 0 && (cap[cl] == '\0' || cap[cl] == '.') &&
                mc_version_missing(version, cap_features[k].feature) != 0) {
                snprintf(buf, n, "%s lacks %s: a server cannot declare \"%s\"", version,
                         mc_version_feature_what(cap_features[k].feature), cap);
                return 1;
            }
        }
    }
    return 0;
}

int mc_scenario_line(const mc_scenario_t *sc, const char *pointer)
{
    int line, col;

    mc_jsonc_where(&sc->doc, pointer, &line, &col);
    return line;
}

/* --- finding files ------------------------------------------------------ */

typedef struct pathlist {
    char **v;
    size_t n, cap;
} pathlist_t;

static int pl_add(pathlist_t *pl, const char *p)
{
    if (pl->n >= MC_SCENARIO_MAX_FILES)
        return MC_EFULL;
    if (pl->n + 2 > pl->cap) {
        size_t cap = pl->cap ? pl->cap * 2 : 64;
        char **nv = realloc(pl->v, cap * sizeof(char *));
        if (nv == NULL)
            return MC_ENOMEM;
        pl->v = nv;
        pl->cap = cap;
    }
    pl->v[pl->n] = strdup(p);
    if (pl->v[pl->n] == NULL)
        return MC_ENOMEM;
    pl->n++;
    pl->v[pl->n] = NULL;
    return MC_OK;
}

static int walk(pathlist_t *pl, const char *dir, int depth, mc_errbuf_t *eb)
{
    DIR *d;
    struct dirent *e;
    int rc = MC_OK;

    if (depth > 8)
        return MC_OK;
    d = opendir(dir);
    if (d == NULL)
        return mc_errbuf_set(eb, MC_EIO, "%s: %s", dir, strerror(errno));
    while (rc == MC_OK && (e = readdir(d)) != NULL) {
        char full[4096];
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(full, sizeof(full), "%s/%s", dir, e->d_name);
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (strcmp(e->d_name, "profiles") == 0)
                continue;
            rc = walk(pl, full, depth + 1, eb);
        } else if (S_ISREG(st.st_mode) && n > 6 && strcmp(e->d_name + n - 6, ".jsonc") == 0) {
            rc = pl_add(pl, full);
        }
    }
    closedir(d);
    if (rc == MC_EFULL)
        mc_errbuf_set(eb, rc, "more than %d scenario files", MC_SCENARIO_MAX_FILES);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int mc_scenario_find(char *const *paths, size_t n_paths, char ***out, size_t *n_out,
                     mc_errbuf_t *eb)
{
    pathlist_t pl;
    size_t i;
    int rc = MC_OK;

    memset(&pl, 0, sizeof(pl));
    for (i = 0; i < n_paths && rc == MC_OK; i++) {
        struct stat st;
        char p[4096];
        size_t n;
        snprintf(p, sizeof(p), "%s", paths[i]);
        n = strlen(p);
        while (n > 1 && p[n - 1] == '/')
            p[--n] = '\0';
        if (stat(p, &st) != 0) {
            rc = mc_errbuf_set(eb, MC_EIO, "%s: %s", p, strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            rc = walk(&pl, p, 0, eb);
        } else {
            rc = pl_add(&pl, p);
        }
    }
    if (rc != MC_OK) {
        mc_scenario_paths_free(pl.v);
        return rc;
    }
    if (pl.v == NULL) {
        pl.v = calloc(1, sizeof(char *));
        if (pl.v == NULL)
            return MC_ENOMEM;
    }
    qsort(pl.v, pl.n, sizeof(char *), cmp_str);
    *out = pl.v;
    *n_out = pl.n;
    return MC_OK;
}

void mc_scenario_paths_free(char **paths)
{
    size_t i;

    if (paths == NULL)
        return;
    for (i = 0; paths[i] != NULL; i++)
        free(paths[i]);
    free(paths);
}
