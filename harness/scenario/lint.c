/*
 * lint.c - the checks mc_scenario_load() runs on a scenario file: where a
 * problem is, unknown fields, types, variables, roles, and the members
 * several step kinds share (assertions, capture, expect, check); each step
 * kind's own checks are in lint_steps.c (the format is documented in
 * scenarios/README.md).
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

int mc__lint_has_var(const mc__lint_t *l, const char *name, size_t n)
{
    int i;

    for (i = 0; i < l->n_vars; i++)
        if (strlen(l->vars[i]) == n && strncmp(l->vars[i], name, n) == 0)
            return 1;
    return 0;
}

void mc__lint_define_var(mc__lint_t *l, const char *name)
{
    if (l->n_vars < (int)(sizeof(l->vars) / sizeof(l->vars[0])) &&
        !mc__lint_has_var(l, name, strlen(name)))
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

/*
 * The forms the runner replaces in a template (scenarios/README.md,
 * "Variables"): {"$instance": SCHEMA} and {"$swapcase": STRING} alone, and
 * {"$arguments": ARGS} with at most a "$without" beside it (one argument
 * name or an array of names).
 * Anything else beside them would leave the object unreplaced and sent as
 * written.
 */
static void lint_replaced_forms(mc__lint_t *l, json_object *v, const char *pointer)
{
    json_object *w = mc_json_get(v, "$without");
    int args = mc_json_get(v, "$arguments") != NULL;
    json_object *sw = mc_json_get(v, "$swapcase");
    int inst = mc_json_get(v, "$instance") != NULL;
    size_t n = (size_t)json_object_object_length(v);

    if (inst && n != 1)
        mc__lint_problem(l, pointer, "{\"$instance\": SCHEMA} takes no other member");
    if (sw != NULL && (n != 1 || !json_object_is_type(sw, json_type_string)))
        mc__lint_problem(l, pointer, "{\"$swapcase\": STRING} takes a string and no other member");
    if (w != NULL && !args)
        mc__lint_problem(l, pointer, "\"$without\" goes beside \"$arguments\" only");
    if (args && n != 1 + (w != NULL))
        mc__lint_problem(l, pointer,
                         "{\"$arguments\": ARGS} takes no other member than \"$without\"");
    if (w != NULL && !json_object_is_type(w, json_type_string)) {
        size_t i, k = json_object_is_type(w, json_type_array) ? json_object_array_length(w) : 0;
        int ok = json_object_is_type(w, json_type_array);
        for (i = 0; i < k; i++)
            ok = ok && json_object_is_type(json_object_array_get_idx(w, i), json_type_string);
        if (!ok)
            mc__lint_problem(l, pointer,
                             "\"$without\" must be an argument name or an array of names");
    }
}

/* True when the scenario does the lifecycle itself (client.initialize false). */
static int lint_manual_init(const mc__lint_t *l)
{
    json_object *init = mc_json_get(mc_json_get(l->doc->root, "client"), "initialize");

    return init != NULL && json_object_is_type(init, json_type_boolean) &&
           !json_object_get_boolean(init);
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
            } else if (n == 10 && strncmp(name, "initialize", n) == 0 && lint_manual_init(l)) {
                mc__lint_problem(l, pointer,
                                 "${initialize} is the result of the runner's handshake, which a "
                                 "scenario with client.initialize false does not make: capture "
                                 "its own initialize result");
            } else if (!mc_var_builtin(name, n) && !mc__lint_has_var(l, name, n)) {
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
        lint_replaced_forms(l, v, pointer);
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
            char hint[160];
            snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
            mc__lint_suggest_key(key, allowed, hint, sizeof(hint));
            mc__lint_problem(l, sub, "unknown field \"%s\" in %s%s", key, what, hint);
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

void mc__lint_check_field(mc__lint_t *l, json_object *obj, const char *pointer)
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

void mc__lint_assertions(mc__lint_t *l, json_object *list, const char *pointer)
{
    static const char *const keys[] = {
        "path",     "equals",     "type",        "matches",       "present", "absent", "length",
        "range",    "contains",   "base64",      "uri",           "one_of",  "check",  "message",
        "optional", "not_equals", "json_schema", "valid_against", "text_json", NULL};
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
                             "one_of, json_schema, valid_against, text_json), found %d",
                             matchers);
        if (mc_json_get(a, "type") != NULL && !mc_matcher_type_known(mc_json_get(a, "type"))) {
            static const char *const types[] = {"string", "number", "integer", "boolean",
                                                "object", "array",  "null",    NULL};
            const char *t = mc_json_get_str(a, "type");
            char hint[160] = "";
            if (t != NULL)
                mc__lint_suggest_key(t, types, hint, sizeof(hint));
            mc__lint_problem(l, sub,
                             "unknown type in \"type\" matcher%s (use string, number, integer, "
                             "boolean, object, array, null)",
                             hint);
        }
        if (mc_json_get(a, "matches") != NULL &&
            mc_matcher_regex_ok(mc_json_get(a, "matches")) != 0)
            mc__lint_problem(l, sub, "\"matches\" is not a valid regular expression");
        mc__lint_check_field(l, a, sub);
        mc__lint_check_refs(l, a, sub);
    }
}

void mc__lint_capture(mc__lint_t *l, json_object *cap, const char *pointer)
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
        mc__lint_define_var(l, name);
    }
}

void mc__lint_expect(mc__lint_t *l, json_object *e, const char *pointer)
{
    if (e == NULL)
        return;
    if (mc__lint_is_str(e)) {
        const char *s = json_object_get_string(e);
        static const char *const words[] = {"result", "error", "any", "none", NULL};
        char hint[160];
        if (strcmp(s, "result") != 0 && strcmp(s, "error") != 0 && strcmp(s, "any") != 0 &&
            strcmp(s, "none") != 0) {
            mc__lint_suggest_key(s, words, hint, sizeof(hint));
            mc__lint_problem(l, pointer,
                             "\"expect\" must be \"result\", \"error\", \"any\", \"none\" or "
                             "{\"error\": CODE or [CODES]}%s",
                             hint);
        }
        return;
    }
    if (json_object_is_type(e, json_type_object)) {
        static const char *const keys[] = {"error", NULL};
        json_object *c = mc_json_get(e, "error");
        int ok = json_object_is_type(c, json_type_int) || json_object_is_type(c, json_type_array);
        /* The step's codes are typed as integers when the file loads. */
        for (size_t i = 0;
             ok && json_object_is_type(c, json_type_array) && i < json_object_array_length(c); i++)
            ok = json_object_is_type(json_object_array_get_idx(c, i), json_type_int);
        mc__lint_only_keys(l, e, pointer, "\"expect\"", keys);
        if (!ok)
            mc__lint_problem(l, pointer,
                             "\"expect\": {\"error\": ...} needs an integer code or an "
                             "array of codes");
        return;
    }
    mc__lint_problem(l, pointer, "\"expect\" must be a string or {\"error\": CODE}");
}

void mc__lint_member(mc__lint_t *l, json_object *st, const char *ptr, const char *key,
                     void (*fn)(mc__lint_t *l, json_object *v, const char *pointer))
{
    char sub[512], suffix[64];

    if (mc_json_get(st, key) == NULL)
        return;
    mc_str_join(suffix, sizeof(suffix), "/", key);
    mc_str_join(sub, sizeof(sub), ptr, suffix);
    fn(l, mc_json_get(st, key), sub);
}
