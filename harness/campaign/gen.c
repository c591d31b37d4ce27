#include "campaign/gen.h"
#include "campaign/gen_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "scenario/instance.h"
#include "core/version.h"

/* Method names, field names and values the generator and mutator use. */
static const char *const k_words[] = {
    "initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get",
    "resources/list", "resources/read", "resources/templates/list", "resources/subscribe",
    "resources/unsubscribe", "logging/setLevel", "completion/complete",
    "notifications/initialized", "notifications/cancelled", "notifications/progress",
    "notifications/roots/list_changed", "name", "arguments", "uri", "cursor", "_meta",
    "progressToken", "requestId", "reason", "level", "ref", "argument", "value", "context",
    "protocolVersion", "capabilities", "clientInfo", "ref/prompt", "ref/resource", "debug",
    "info", "notice", "warning", "error", "critical", "alert", "emergency",
    "file:///etc/passwd", "test://", "../../../../etc/passwd", "server/discover",
    "subscriptions/listen", "notifications", "toolsListChanged", "resourceSubscriptions",
    MC_GEN_META_LOG_LEVEL,
};

static const char *const k_odd_strings[] = {
    "", " ", "\xff\xfe", "\xed\xa0\x80", "a\nb", "%s%n%x", "\\u0000", "null", "0",
    "-1", "{", "}\"]", "\xe2\x80\xae", "😀", "${x}", "'; --", "\x01\x02\x7f",
};

typedef enum { P_NONE, P_CURSOR, P_TOOL, P_PROMPT, P_URI, P_LEVEL, P_COMPLETE, P_INIT,
               P_CANCEL, P_PROGRESS, P_ODD, P_LISTEN } pkind_t;

typedef struct mdef {
    const char *method;
    int notification;
    pkind_t params;
    unsigned weight;  /* how often it is picked in a session of the initialize era */
    unsigned sweight; /* ... at a stateless version (2026-07-28) */
} mdef_t;

/*
 * At a stateless version the methods 2026-07-28 removed (ping,
 * logging/setLevel, resources/subscribe and unsubscribe, the initialized
 * and roots notifications; changelog items 2, 4 and 5) are still sent now
 * and then, for the server's refusal of them, but initialize is not: a
 * server of both eras MAY accept it (basic/versioning), and from then on
 * the process would serve the other era.
 */
static const mdef_t k_methods[] = {
    {"ping", 0, P_NONE, 4, 1},
    {"tools/list", 0, P_CURSOR, 4, 4},
    {"tools/call", 0, P_TOOL, 6, 6},
    {"prompts/list", 0, P_CURSOR, 4, 4},
    {"prompts/get", 0, P_PROMPT, 6, 6},
    {"resources/list", 0, P_CURSOR, 4, 4},
    {"resources/templates/list", 0, P_CURSOR, 3, 3},
    {"resources/read", 0, P_URI, 6, 6},
    {"resources/subscribe", 0, P_URI, 3, 1},
    {"resources/unsubscribe", 0, P_URI, 2, 1},
    {"logging/setLevel", 0, P_LEVEL, 3, 1},
    {"completion/complete", 0, P_COMPLETE, 3, 3},
    {"initialize", 0, P_INIT, 1, 0},
    {"server/discover", 0, P_NONE, 0, 3},
    {"subscriptions/listen", 0, P_LISTEN, 0, 3},
    {"mcpcheck/no-such-method", 0, P_ODD, 1, 1},
    {"notifications/initialized", 1, P_NONE, 1, 1},
    {"notifications/cancelled", 1, P_CANCEL, 2, 2},
    {"notifications/progress", 1, P_PROGRESS, 1, 1},
    {"notifications/roots/list_changed", 1, P_NONE, 1, 1},
    {"notifications/mcpcheck-unknown", 1, P_ODD, 1, 1},
};


uint64_t mc_gen_rand(mc_gen_t *g)
{
    uint64_t x = g->rng;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    g->rng = x;
    return x * 2685821657736338717ULL;
}

size_t mc_gen_below(mc_gen_t *g, size_t n)
{
    return n == 0 ? 0 : (size_t)(mc_gen_rand(g) % n);
}

/* True with probability 1/n. */
int mc__gen_one_in(mc_gen_t *g, size_t n)
{
    return mc_gen_below(g, n) == 0;
}

const char *mc__gen_any_word(mc_gen_t *g)
{
    return k_words[mc_gen_below(g, N_ELEMS(k_words))];
}

int mc_gen_init(mc_gen_t *g, uint64_t seed, json_object *safe_tools, int call_tools)
{
    memset(g, 0, sizeof(*g));
    g->rng = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (g->rng == 0)
        g->rng = 1;
    g->tool_schemas = json_object_new_object();
    g->prompt_args = json_object_new_object();
    if (safe_tools != NULL && json_object_deep_copy(safe_tools, &g->safe_tools, NULL) != 0)
        g->safe_tools = NULL;
    g->call_tools = call_tools;
    g->next_id = 100; /* the session prefix uses small ids */
    if (g->tool_schemas == NULL || g->prompt_args == NULL) {
        mc_gen_free(g);
        return -1;
    }
    return 0;
}

static void list_free(mc_gen_list_t *l)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        free(l->v[i]);
    memset(l, 0, sizeof(*l));
}

void mc_gen_free(mc_gen_t *g)
{
    list_free(&g->tools);
    list_free(&g->prompts);
    list_free(&g->resources);
    list_free(&g->templates);
    list_free(&g->cursors);
    json_object_put(g->tool_schemas);
    json_object_put(g->prompt_args);
    json_object_put(g->safe_tools);
    json_object_put(g->meta);
    memset(g, 0, sizeof(*g));
}

int mc_gen_set_meta(mc_gen_t *g, json_object *meta)
{
    json_object *copy = NULL;

    if (meta != NULL && json_object_deep_copy(meta, &copy, NULL) != 0)
        return -1;
    json_object_put(g->meta);
    g->meta = copy;
    return 0;
}

/* The member key of the object o, made an empty object when absent; NULL
 * when it is there but no object (odd values stay odd) or out of memory. */
static json_object *object_member(json_object *o, const char *key)
{
    json_object *v;

    if (!json_object_object_get_ex(o, key, &v)) {
        v = json_object_new_object();
        if (v == NULL || json_object_object_add(o, key, v) != 0) {
            json_object_put(v);
            return NULL;
        }
    }
    return json_object_is_type(v, json_type_object) ? v : NULL;
}

void mc_gen_stamp(const mc_gen_t *g, json_object *msg)
{
    json_object *params, *meta;

    if (g->meta == NULL || !json_object_is_type(msg, json_type_object) ||
        mc_json_get(msg, "method") == NULL || !json_object_object_get_ex(msg, "id", NULL))
        return;
    if ((params = object_member(msg, "params")) == NULL ||
        (meta = object_member(params, "_meta")) == NULL)
        return;
    json_object_object_foreach(g->meta, k, v)
    {
        json_object *cp = NULL;
        if (!json_object_object_get_ex(meta, k, NULL) && json_object_deep_copy(v, &cp, NULL) == 0)
            json_object_object_add(meta, k, cp);
    }
}

/* Adds s once; when full, replaces entries in turn. */
static void list_add(mc_gen_list_t *l, const char *s)
{
    size_t i;
    char *c;

    if (s == NULL || strlen(s) > MC_GEN_MAX_NAME_LEN)
        return;
    for (i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return;
    c = strdup(s);
    if (c == NULL)
        return;
    if (l->n < MC_GEN_MAX_NAMES) {
        l->v[l->n++] = c;
        return;
    }
    free(l->v[l->next]);
    l->v[l->next] = c;
    l->next = (l->next + 1) % MC_GEN_MAX_NAMES;
}

static const char *list_pick(mc_gen_t *g, const mc_gen_list_t *l)
{
    return l->n == 0 ? NULL : l->v[mc_gen_below(g, l->n)];
}

/* Makes a URI from a template: every {var} becomes a short value. */
static void template_uri(const char *tpl, char *out, size_t n)
{
    size_t o = 0;

    while (*tpl != '\0' && o + 2 < n) {
        if (*tpl == '{') {
            const char *end = strchr(tpl, '}');
            if (end == NULL)
                break;
            out[o++] = '1';
            tpl = end + 1;
            continue;
        }
        out[o++] = *tpl++;
    }
    out[o] = '\0';
}

void mc_gen_learn(mc_gen_t *g, const char *method, json_object *result)
{
    json_object *arr, *v;
    size_t i, n;

    if (method == NULL || result == NULL || !json_object_is_type(result, json_type_object))
        return;
    if (strcmp(method, "notifications/resources/updated") == 0) {
        list_add(&g->resources, mc_json_get_str(result, "uri"));
        return;
    }
    v = mc_json_get(result, "nextCursor");
    if (v != NULL && json_object_is_type(v, json_type_string))
        list_add(&g->cursors, json_object_get_string(v));
    if (strcmp(method, "tools/list") == 0 && (arr = mc_json_get(result, "tools")) != NULL &&
        json_object_is_type(arr, json_type_array)) {
        n = json_object_array_length(arr);
        for (i = 0; i < n; i++) {
            json_object *t = json_object_array_get_idx(arr, i), *sch;
            const char *name = mc_json_get_str(t, "name");
            if (name == NULL || strlen(name) > MC_GEN_MAX_NAME_LEN)
                continue;
            list_add(&g->tools, name);
            sch = mc_json_get(t, "inputSchema");
            if (sch != NULL && mc_json_get(g->tool_schemas, name) == NULL &&
                json_object_object_length(g->tool_schemas) < MC_GEN_MAX_NAMES)
                json_object_object_add(g->tool_schemas, name, json_object_get(sch));
        }
    } else if (strcmp(method, "prompts/list") == 0 &&
               (arr = mc_json_get(result, "prompts")) != NULL &&
               json_object_is_type(arr, json_type_array)) {
        n = json_object_array_length(arr);
        for (i = 0; i < n; i++) {
            json_object *p = json_object_array_get_idx(arr, i), *args, *names;
            const char *name = mc_json_get_str(p, "name");
            size_t k, na;
            if (name == NULL || strlen(name) > MC_GEN_MAX_NAME_LEN)
                continue;
            list_add(&g->prompts, name);
            args = mc_json_get(p, "arguments");
            if (args == NULL || !json_object_is_type(args, json_type_array) ||
                mc_json_get(g->prompt_args, name) != NULL ||
                json_object_object_length(g->prompt_args) >= MC_GEN_MAX_NAMES)
                continue;
            names = json_object_new_array();
            if (names == NULL)
                continue;
            na = json_object_array_length(args);
            for (k = 0; k < na && k < 16; k++) {
                const char *an = mc_json_get_str(json_object_array_get_idx(args, k), "name");
                if (an != NULL && strlen(an) <= MC_GEN_MAX_NAME_LEN)
                    json_object_array_add(names, json_object_new_string(an));
            }
            json_object_object_add(g->prompt_args, name, names);
        }
    } else if (strcmp(method, "resources/list") == 0 &&
               (arr = mc_json_get(result, "resources")) != NULL &&
               json_object_is_type(arr, json_type_array)) {
        n = json_object_array_length(arr);
        for (i = 0; i < n; i++)
            list_add(&g->resources, mc_json_get_str(json_object_array_get_idx(arr, i), "uri"));
    } else if (strcmp(method, "resources/templates/list") == 0 &&
               (arr = mc_json_get(result, "resourceTemplates")) != NULL &&
               json_object_is_type(arr, json_type_array)) {
        n = json_object_array_length(arr);
        for (i = 0; i < n; i++) {
            const char *t = mc_json_get_str(json_object_array_get_idx(arr, i), "uriTemplate");
            char uri[MC_GEN_MAX_NAME_LEN + 1];
            if (t == NULL || strlen(t) > MC_GEN_MAX_NAME_LEN)
                continue;
            template_uri(t, uri, sizeof(uri));
            list_add(&g->templates, uri);
        }
    }
}

int mc_gen_allowed(const mc_gen_t *g, const char *tool)
{
    size_t i, n;

    if (g->call_tools)
        return 1;
    if (tool == NULL || g->safe_tools == NULL ||
        !json_object_is_type(g->safe_tools, json_type_array))
        return 0;
    n = json_object_array_length(g->safe_tools);
    for (i = 0; i < n; i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(g->safe_tools, i));
        if (s != NULL && strcmp(s, tool) == 0)
            return 1;
    }
    return 0;
}

/* An odd value of any type (new reference; NULL stands for JSON null). */
/* A published protocol version, from core's table. */
static const char *any_version(mc_gen_t *g)
{
    return mc_version_name((int)mc_gen_below(g, MC_V_COUNT));
}

json_object *mc__gen_odd_value(mc_gen_t *g)
{
    static const double nums[] = {0,           -1,          1,           2147483647.0,
                                  2147483648.0, -2147483649.0, 9007199254740993.0,
                                  1e308,       -1e-9,       1.5,         18446744073709551615.0};
    char *big;
    json_object *o;

    switch (mc_gen_below(g, 9)) {
    case 0:
        return NULL;
    case 1:
        return json_object_new_boolean((int)mc_gen_below(g, 2));
    case 2: {
        double d = nums[mc_gen_below(g, N_ELEMS(nums))];
        /* Range first: converting an out-of-range double is undefined. */
        if (d < 9e18 && d > -9e18 && d == (double)(int64_t)d)
            return json_object_new_int64((int64_t)d);
        return json_object_new_double(d);
    }
    case 3:
        return json_object_new_string(k_odd_strings[mc_gen_below(g, N_ELEMS(k_odd_strings))]);
    case 4:
        if (mc__gen_one_in(g, 8))
            return json_object_new_string(any_version(g));
        return json_object_new_string(k_words[mc_gen_below(g, N_ELEMS(k_words))]);
    case 5:
        big = malloc(MC_GEN_LONG_STRING + 1);
        if (big == NULL)
            return NULL;
        memset(big, 'A' + (int)mc_gen_below(g, 26), MC_GEN_LONG_STRING);
        big[MC_GEN_LONG_STRING] = '\0';
        o = json_object_new_string(big);
        free(big);
        return o;
    case 6:
        return json_object_new_array();
    case 7:
        o = json_object_new_object();
        json_object_object_add(o, k_words[mc_gen_below(g, N_ELEMS(k_words))],
                               json_object_new_int64(-1));
        return o;
    default:
        return json_object_new_int64((int64_t)(mc_gen_rand(g) & 0xffff) - 0x8000);
    }
}

/* A known name of a list, or now and then a word or odd string. */
const char *mc__gen_pick_name(mc_gen_t *g, const mc_gen_list_t *l)
{
    const char *s;

    /* A later request names what an earlier one did (subscribe, then
     * unsubscribe the same URI), as stateful API fuzzers feed one
     * request's values to the next. */
    if (g->ctx != NULL && mc__gen_one_in(g, 3) && (s = mc__gen_used_name(g, l)) != NULL)
        return s;
    s = list_pick(g, l);

    if (s == NULL || mc__gen_one_in(g, 8))
        return mc__gen_one_in(g, 2) ? k_words[mc_gen_below(g, N_ELEMS(k_words))]
                            : k_odd_strings[mc_gen_below(g, N_ELEMS(k_odd_strings))];
    return s;
}

const char *mc__gen_level(mc_gen_t *g)
{
    static const char *const levels[] = {"debug", "info", "notice", "warning", "error",
                                         "critical", "alert", "emergency"};

    return mc__gen_one_in(g, 8) ? "verbose" : levels[mc_gen_below(g, N_ELEMS(levels))];
}

static json_object *gen_params(mc_gen_t *g, const mdef_t *m)
{
    json_object *p = json_object_new_object(), *v;
    const char *s;

    if (p == NULL)
        return NULL;
    switch (m->params) {
    case P_NONE:
        if (mc__gen_one_in(g, 2)) {
            json_object_put(p);
            return NULL;
        }
        break;
    case P_CURSOR:
        if (!mc__gen_one_in(g, 3))
            break;
        s = list_pick(g, &g->cursors);
        json_object_object_add(p, "cursor", json_object_new_string(s ? s : "bogus-cursor"));
        break;
    case P_TOOL: {
        const char *name = NULL;
        size_t tries;
        /* Only tools the user allowed are ever named. */
        for (tries = 0; tries < 8 && g->tools.n > 0; tries++) {
            const char *c = list_pick(g, &g->tools);
            if (mc_gen_allowed(g, c)) {
                name = c;
                break;
            }
        }
        if (name == NULL) {
            json_object_put(p);
            return NULL;
        }
        json_object_object_add(p, "name", json_object_new_string(name));
        v = NULL;
        if (mc_instance_make(mc_json_get(g->tool_schemas, name), &v) != 0 || v == NULL)
            v = json_object_new_object();
        json_object_object_add(p, "arguments", v);
        break;
    }
    case P_PROMPT: {
        json_object *args, *names;
        size_t i, n;
        s = mc__gen_pick_name(g, &g->prompts);
        json_object_object_add(p, "name", json_object_new_string(s));
        names = mc_json_get(g->prompt_args, s);
        if (names == NULL && !mc__gen_one_in(g, 4))
            break;
        args = json_object_new_object();
        n = names ? json_object_array_length(names) : 0;
        for (i = 0; i < n; i++)
            if (!mc__gen_one_in(g, 5))
                json_object_object_add(
                    args, json_object_get_string(json_object_array_get_idx(names, i)),
                    json_object_new_string(mc__gen_one_in(g, 4) ? mc__gen_pick_name(g, &g->resources) : "x"));
        json_object_object_add(p, "arguments", args);
        break;
    }
    case P_URI:
        s = mc__gen_one_in(g, 3) ? mc__gen_pick_name(g, &g->templates) : mc__gen_pick_name(g, &g->resources);
        json_object_object_add(p, "uri", json_object_new_string(s));
        break;
    case P_LEVEL:
        json_object_object_add(p, "level", json_object_new_string(mc__gen_level(g)));
        break;
    case P_COMPLETE: {
        json_object *ref = json_object_new_object(), *arg = json_object_new_object();
        const char *aname = mc__gen_one_in(g, 2) ? "arg1" : "id";
        if (mc__gen_one_in(g, 2)) {
            const char *pn = mc__gen_pick_name(g, &g->prompts);
            json_object *names = mc_json_get(g->prompt_args, pn);
            size_t na = json_object_is_type(names, json_type_array)
                            ? json_object_array_length(names)
                            : 0;
            json_object_object_add(ref, "type", json_object_new_string("ref/prompt"));
            json_object_object_add(ref, "name", json_object_new_string(pn));
            if (na > 0 && !mc__gen_one_in(g, 4))
                aname = json_object_get_string(
                    json_object_array_get_idx(names, mc_gen_below(g, na)));
        } else {
            json_object_object_add(ref, "type", json_object_new_string("ref/resource"));
            json_object_object_add(ref, "uri", json_object_new_string(mc__gen_pick_name(g, &g->templates)));
        }
        json_object_object_add(arg, "name", json_object_new_string(aname));
        json_object_object_add(arg, "value", json_object_new_string(mc__gen_one_in(g, 2) ? "" : "a"));
        json_object_object_add(p, "ref", ref);
        json_object_object_add(p, "argument", arg);
        break;
    }
    case P_INIT: {
        json_object *ci = json_object_new_object();
        json_object_object_add(p, "protocolVersion",
                               json_object_new_string(mc__gen_one_in(g, 2) ? any_version(g) : "1999-01-01"));
        json_object_object_add(p, "capabilities", json_object_new_object());
        json_object_object_add(ci, "name", json_object_new_string("mcpcheck-fuzz"));
        json_object_object_add(ci, "version", json_object_new_string("0"));
        json_object_object_add(p, "clientInfo", ci);
        break;
    }
    case P_CANCEL:
        json_object_object_add(p, "requestId", json_object_new_int64(g->next_id - 1));
        if (mc__gen_one_in(g, 2))
            json_object_object_add(p, "reason", json_object_new_string("fuzz"));
        break;
    case P_PROGRESS:
        json_object_object_add(p, "progressToken", json_object_new_string("t1"));
        json_object_object_add(p, "progress", json_object_new_int64((int64_t)mc_gen_below(g, 10)));
        break;
    case P_ODD:
        json_object_object_add(p, k_words[mc_gen_below(g, N_ELEMS(k_words))], mc__gen_odd_value(g));
        break;
    case P_LISTEN:
        json_object_object_add(p, "notifications", mc__gen_listen_filter(g));
        break;
    }
    return p;
}

/* The weight of method m in g's era. */
static unsigned weight_of(const mc_gen_t *g, const mdef_t *m)
{
    return g->meta != NULL ? m->sweight : m->weight;
}

/* What is sent when no tool may be called: a request every server of g's
 * era serves (ping; server/discover at a stateless version). */
static const mdef_t *fallback(const mc_gen_t *g)
{
    size_t i;

    for (i = 0; i < N_ELEMS(k_methods); i++)
        if (strcmp(k_methods[i].method, g->meta != NULL ? "server/discover" : "ping") == 0)
            return &k_methods[i];
    return &k_methods[0];
}

static const mdef_t *pick_method(mc_gen_t *g)
{
    unsigned total = 0, r;
    size_t i;

    for (i = 0; i < N_ELEMS(k_methods); i++)
        total += weight_of(g, &k_methods[i]);
    r = (unsigned)mc_gen_below(g, total);
    for (i = 0; i < N_ELEMS(k_methods); i++) {
        if (r < weight_of(g, &k_methods[i]))
            return &k_methods[i];
        r -= weight_of(g, &k_methods[i]);
    }
    return fallback(g);
}

json_object *mc_gen_message(mc_gen_t *g)
{
    const mdef_t *m = pick_method(g);
    json_object *msg, *params;

    if (m->params == P_TOOL && !g->call_tools && g->safe_tools == NULL)
        m = fallback(g); /* no tool may be called */
    params = gen_params(g, m);
    if (m->params == P_TOOL && params == NULL)
        m = fallback(g);
    msg = json_object_new_object();
    if (msg == NULL) {
        json_object_put(params);
        return NULL;
    }
    json_object_object_add(msg, "jsonrpc", json_object_new_string("2.0"));
    if (!m->notification) {
        if (mc__gen_one_in(g, 6)) {
            char sid[32];
            snprintf(sid, sizeof(sid), "s%lld", (long long)g->next_id++);
            json_object_object_add(msg, "id", json_object_new_string(sid));
        } else {
            json_object_object_add(msg, "id", json_object_new_int64(g->next_id++));
        }
    }
    json_object_object_add(msg, "method", json_object_new_string(m->method));
    if (params != NULL && !m->notification && mc__gen_one_in(g, 6)) {
        json_object *meta = json_object_new_object();
        char tok[32];
        snprintf(tok, sizeof(tok), "p%llu", (unsigned long long)(mc_gen_rand(g) & 0xffff));
        json_object_object_add(meta, "progressToken", json_object_new_string(tok));
        json_object_object_add(params, "_meta", meta);
    }
    if (params != NULL)
        json_object_object_add(msg, "params", params);
    mc_gen_stamp(g, msg);
    if (g->meta != NULL && !m->notification && mc__gen_one_in(g, 3))
        mc__gen_log_level(g, msg);
    return msg;
}

/* {"code": c, "message": m} (new reference). */
static json_object *rpc_error(int64_t code, const char *message)
{
    json_object *e = json_object_new_object();

    json_object_object_add(e, "code", json_object_new_int64(code));
    json_object_object_add(e, "message", json_object_new_string(message));
    return e;
}

json_object *mc_gen_answer(mc_gen_t *g)
{
    static const char *const methods[] = {"elicitation/create", "sampling/createMessage",
                                          "roots/list", "ping"};
    static const char *const actions[] = {"accept", "decline", "cancel"};
    static const int64_t codes[] = {-32603, -32601, -32602, -32600, -1, 0, 1, -32000};
    const char *m = methods[mc_gen_below(g, N_ELEMS(methods))];
    json_object *a = json_object_new_object(), *w, *c;

    if (a == NULL)
        return NULL;
    json_object_object_add(a, "answer", json_object_new_string(m));
    if (mc__gen_one_in(g, 4)) {
        json_object_object_add(a, "error",
                               rpc_error(codes[mc_gen_below(g, N_ELEMS(codes))],
                                         mc__gen_one_in(g, 4) ? "" : "declined by mcpcheck fuzz"));
        return a;
    }
    w = json_object_new_object();
    if (strcmp(m, "elicitation/create") == 0) {
        json_object_object_add(w, "action",
                               json_object_new_string(actions[mc_gen_below(g, N_ELEMS(actions))]));
        /* Without content, an acceptance gets a valid instance of the
         * requested schema; with it, what the mutator makes of it. */
        if (mc__gen_one_in(g, 3)) {
            c = json_object_new_object();
            json_object_object_add(c, mc__gen_one_in(g, 2) ? "username" : "name",
                                   json_object_new_string("mcpcheck"));
            json_object_object_add(w, "content", c);
        }
    } else if (strcmp(m, "sampling/createMessage") == 0) {
        c = json_object_new_object();
        json_object_object_add(c, "type", json_object_new_string("text"));
        json_object_object_add(c, "text", json_object_new_string(mc__gen_one_in(g, 4) ? "" : "fuzz"));
        json_object_object_add(w, "role", json_object_new_string("assistant"));
        json_object_object_add(w, "content", c);
        json_object_object_add(w, "model", json_object_new_string("mcpcheck-fuzz"));
        if (!mc__gen_one_in(g, 3))
            json_object_object_add(w, "stopReason",
                                   json_object_new_string(mc__gen_one_in(g, 2) ? "endTurn" : "maxTokens"));
    } else if (strcmp(m, "roots/list") == 0) {
        json_object *roots = json_object_new_array();
        size_t i, n = mc_gen_below(g, 3);
        for (i = 0; i < n; i++) {
            json_object *r = json_object_new_object();
            json_object_object_add(r, "uri",
                                   json_object_new_string(i ? "file:///tmp" : "file:///"));
            if (mc__gen_one_in(g, 2))
                json_object_object_add(r, "name", json_object_new_string("root"));
            json_object_array_add(roots, r);
        }
        json_object_object_add(w, "roots", roots);
    }
    json_object_object_add(a, "with", w);
    return a;
}

json_object *mc_gen_sequence(mc_gen_t *g)
{
    json_object *seq = json_object_new_array();
    size_t i, n = 1 + mc_gen_below(g, 6);

    /* How the client answers the server's own requests in this sequence. */
    if (seq != NULL && mc__gen_one_in(g, 4))
        json_object_array_add(seq, mc_gen_answer(g));

    g->ctx = seq;
    for (i = 0; i < n && seq != NULL; i++) {
        json_object *m = mc_gen_message(g);
        if (m != NULL)
            json_object_array_add(seq, m);
    }
    g->ctx = NULL;
    return seq;
}
