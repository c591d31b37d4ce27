/*
 * completion.c - completion/complete for prompt arguments and template
 * variables.
 *
 * Values are fixed candidate lists filtered by the typed prefix, at most
 * RS_MAX_COMPLETION_VALUES of them, with total and hasMore
 * (2025-06-18/server/utilities/completion#completion-results). An unknown
 * prompt, template or argument is answered -32602.
 *
 * As a client asks again while its user types further (the page's message
 * flow), a completion of the same reference, argument and context right
 * after the one before, whose value extends the value before, is narrowed:
 * filtered from the values answered last rather than looked up again. The
 * answer is the same either way. (The completion-renarrowed-objects switch
 * breaks the second narrowing in a row: a bug behind three requests whose
 * answers are the same on and off the path, which only the server's own
 * code can tell apart.)
 */
#include <stdio.h>
#include <string.h>

#include "refserver/internal.h"

/* Resources scanned to complete a resourceUri argument. */
#define RS_COMPLETE_SCAN_MAX 10000

typedef struct rs_candidates {
    const char *ref;  /* prompt name or template URI */
    const char *arg;  /* argument or variable name */
    const char *when; /* context argument that selects this list ("name=value"), or NULL */
    const char *values[8];
} rs_candidates_t;

static const rs_candidates_t rs_prompt_values[] = {
    {"test_prompt_with_arguments", "arg1", NULL,
     {"alpha", "alpine", "apple", "apricot", "banana", "blueberry", "cherry", NULL}},
    {"test_prompt_with_arguments", "arg2", NULL, {"one", "two", "three", "twenty", NULL}},
};

static const rs_candidates_t rs_template_values[] = {
    {"test://template/{id}/data", "id", NULL, {"1", "2", "3", "42", "123", NULL}},
    {"test://greeting/{name}", "name", NULL, {"alice", "bob", "carol", NULL}},
    {"test://items/{category}/{item}", "category", NULL, {"fruit", "tools", NULL}},
    {"test://items/{category}/{item}", "item", "category=tools", {"hammer", "saw", NULL}},
    {"test://items/{category}/{item}", "item", NULL, {"apple", "banana", "cherry", NULL}},
    {"test://blob/{size}", "size", NULL, {"1", "16", "256", "4096", NULL}},
};

/* True when the context holds name=value as given in when. */
static int context_matches(json_object *context, const char *when)
{
    const char *eq = strchr(when, '=');
    json_object *args;
    char name[32];
    const char *v;

    if (eq == NULL || (size_t)(eq - when) >= sizeof(name) || context == NULL ||
        !json_object_object_get_ex(context, "arguments", &args))
        return 0;
    memcpy(name, when, (size_t)(eq - when));
    name[eq - when] = '\0';
    v = mc__rs_get_str(args, name);
    return v != NULL && strcmp(v, eq + 1) == 0;
}

/* Finds the candidates for (ref, arg); NULL when ref is unknown, and *ref_known. */
static const rs_candidates_t *find_values(const rs_candidates_t *tab, size_t n, const char *ref,
                                          const char *arg, json_object *context, int *ref_known)
{
    size_t i;

    *ref_known = 0;
    for (i = 0; i < n; i++) {
        if (strcmp(tab[i].ref, ref) != 0)
            continue;
        *ref_known = 1;
        if (strcmp(tab[i].arg, arg) == 0 &&
            (tab[i].when == NULL || context_matches(context, tab[i].when)))
            return &tab[i];
    }
    return NULL;
}

/* Adds value to arr when it starts with prefix; counts matches in *total. */
static void offer(mc_refserver_t *rs, json_object *arr, const char *value, const char *prefix,
                  size_t *total)
{
    if (strncmp(value, prefix, strlen(prefix)) != 0)
        return;
    (*total)++;
    if (json_object_array_length(arr) < RS_MAX_COMPLETION_VALUES &&
        json_object_array_add(arr, json_object_new_string(value)) != 0)
        rs->failed = 1;
}

void mc__rs_complete_forget(mc_refserver_t *rs)
{
    rs->narrow.valid = 0;
}

/* The narrowing key of a request: reference type and name, argument name
 * and context, one per line. 0 when it does not fit. */
static int narrow_key(const char *type, const char *rname, const char *aname, json_object *context,
                      char *out, size_t n)
{
    const char *ctx = context != NULL ? json_object_to_json_string_ext(context, JSON_C_TO_STRING_PLAIN)
                                      : "";
    int w = snprintf(out, n, "%s\n%s\n%s\n%s", type, rname, aname, ctx);

    return w >= 0 && (size_t)w < n;
}

/*
 * Narrowing: when the completion kept has the same key and value extends
 * its value, the values are those kept that start with value (the same ones
 * a lookup gives, for a kept list is the whole match of a shorter prefix).
 * Returns the values, or NULL when the kept completion does not apply.
 */
static json_object *narrowed(mc_refserver_t *rs, const char *key, const char *value, size_t *total)
{
    const rs_narrow_t *nw = &rs->narrow;
    json_object *values;
    int i;

    if (!nw->valid || strcmp(nw->key, key) != 0 || strncmp(value, nw->value, strlen(nw->value)) != 0)
        return NULL;
    values = json_object_new_array();
    for (i = 0; i < nw->n; i++)
        offer(rs, values, nw->values[i], value, total);
    return values;
}

/* Keeps the completion just answered (values: strings) for the next one to
 * narrow; depth counts the narrowings in a row that made it. */
static void narrow_keep(mc_refserver_t *rs, const char *key, const char *value, json_object *values,
                        int depth)
{
    rs_narrow_t *nw = &rs->narrow;
    size_t i, n = json_object_array_length(values);

    nw->valid = 0;
    if (n > RS_NARROW_VALUES || strlen(key) >= sizeof(nw->key) || strlen(value) >= sizeof(nw->value))
        return;
    for (i = 0; i < n; i++) {
        const char *v = json_object_get_string(json_object_array_get_idx(values, i));
        if (v == NULL || strlen(v) >= sizeof(nw->values[0]))
            return;
        snprintf(nw->values[i], sizeof(nw->values[i]), "%s", v);
    }
    snprintf(nw->key, sizeof(nw->key), "%s", key);
    snprintf(nw->value, sizeof(nw->value), "%s", value);
    nw->n = (int)n;
    nw->depth = depth;
    nw->valid = 1;
}

/* The completion-renarrowed-objects switch: each value as {"value": v}. */
static json_object *as_records(mc_refserver_t *rs, json_object *values)
{
    json_object *out = json_object_new_array();
    size_t i, n = json_object_array_length(values);

    for (i = 0; i < n; i++) {
        json_object *r = json_object_new_object();
        mc__rs_put(rs, r, "value", json_object_get(json_object_array_get_idx(values, i)));
        if (json_object_array_add(out, r) != 0)
            rs->failed = 1;
    }
    json_object_put(values);
    return out;
}

/* Looks the values up: the candidates of (type, rname, aname) that start
 * with avalue. Returns them, or NULL after answering -32602; *narrowable
 * is set when they come from a candidate table (not a scan of resources). */
static json_object *lookup(mc_refserver_t *rs, json_object *id, const char *type, const char *rname,
                           const char *aname, const char *avalue, json_object *context,
                           size_t *total, int *narrowable)
{
    json_object *values = json_object_new_array();
    const rs_candidates_t *c = NULL;
    int known = 0;
    size_t i;

    *narrowable = 0;
    if (strcmp(type, "ref/prompt") == 0) {
        int has = mc__rs_prompt_has_arg(rs, rname, aname, &known);
        if (!known || !has) {
            json_object_put(values);
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                         known ? "the prompt has no such argument" : "unknown prompt", NULL);
            return NULL;
        }
        if (strcmp(aname, "resourceUri") == 0) {
            size_t n = mc__rs_resources_count(rs);
            char buf[RS_MAX_URI_LEN];
            for (i = 0; i < n && i < RS_COMPLETE_SCAN_MAX; i++)
                offer(rs, values, mc__rs_resource_uri(rs, i, buf, sizeof(buf)), avalue, total);
            return values;
        }
        c = find_values(rs_prompt_values, sizeof(rs_prompt_values) / sizeof(rs_prompt_values[0]),
                        rname, aname, context, &known);
    } else {
        c = find_values(rs_template_values,
                        sizeof(rs_template_values) / sizeof(rs_template_values[0]), rname, aname,
                        context, &known);
        if (c == NULL) {
            json_object_put(values);
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                         known ? "the template has no such variable" : "unknown resource template",
                         NULL);
            return NULL;
        }
    }
    for (i = 0; c != NULL && i < 8 && c->values[i] != NULL; i++)
        offer(rs, values, c->values[i], avalue, total);
    *narrowable = 1;
    return values;
}

void mc__rs_complete(mc_refserver_t *rs, json_object *id, json_object *params)
{
    json_object *ref = NULL, *argument = NULL, *context = NULL, *res, *comp, *values;
    const char *type, *aname, *avalue, *rname;
    char key[RS_NARROW_KEY_MAX];
    size_t total = 0;
    int narrowable = 0, depth = 0, keyed;

    if (!json_object_object_get_ex(params, "ref", &ref) ||
        !json_object_is_type(ref, json_type_object) ||
        !json_object_object_get_ex(params, "argument", &argument) ||
        !json_object_is_type(argument, json_type_object)) {
        mc__rs_complete_forget(rs);
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.ref and params.argument are required",
                     NULL);
        return;
    }
    json_object_object_get_ex(params, "context", &context);
    type = mc__rs_get_str(ref, "type");
    aname = mc__rs_get_str(argument, "name");
    avalue = mc__rs_get_str(argument, "value");
    if (type == NULL || aname == NULL || avalue == NULL) {
        mc__rs_complete_forget(rs);
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                     "ref.type, argument.name and argument.value must be strings", NULL);
        return;
    }
    if (strcmp(type, "ref/prompt") == 0)
        rname = mc__rs_get_str(ref, "name");
    else if (strcmp(type, "ref/resource") == 0)
        rname = mc__rs_get_str(ref, "uri");
    else
        rname = NULL;
    if (rname == NULL) {
        mc__rs_complete_forget(rs);
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                     "ref must be {type: ref/prompt, name} or {type: ref/resource, uri}", NULL);
        return;
    }
    keyed = narrow_key(type, rname, aname, context, key, sizeof(key));
    values = keyed ? narrowed(rs, key, avalue, &total) : NULL;
    if (values != NULL) {
        depth = rs->narrow.depth + 1;
        narrowable = 1;
    } else if ((values = lookup(rs, id, type, rname, aname, avalue, context, &total,
                                &narrowable)) == NULL) {
        mc__rs_complete_forget(rs);
        return;
    }
    if (keyed && narrowable)
        narrow_keep(rs, key, avalue, values, depth);
    else
        mc__rs_complete_forget(rs);
    if (depth >= 2 && rs_fault_hook(rs, RS_HOOK_RENARROWED_AS_OBJECTS))
        values = as_records(rs, values);
    res = json_object_new_object();
    comp = json_object_new_object();
    mc__rs_put(rs, comp, "values", values);
    mc__rs_put(rs, comp, "total", json_object_new_int64((int64_t)total));
    mc__rs_put(rs, comp, "hasMore",
               json_object_new_boolean(total > json_object_array_length(values)));
    mc__rs_put(rs, res, "completion", comp);
    mc__rs_result(rs, id, res);
}
