#include "scenario/instance.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/json.h"

typedef struct gen {
    json_object *root;
    int nomem;
} gen_t;

static json_object *make(gen_t *g, json_object *s, int depth);

/* Follows a local JSON pointer reference ("#/$defs/x"); NULL when it
 * cannot be resolved. */
static json_object *deref(gen_t *g, const char *ref)
{
    char tok[256];
    json_object *cur = g->root;
    const char *p;

    if (ref[0] != '#')
        return NULL;
    p = ref + 1;
    while (*p == '/') {
        size_t n = 0;
        p++;
        while (*p != '\0' && *p != '/' && n + 1 < sizeof(tok)) {
            if (p[0] == '~' && p[1] == '1') {
                tok[n++] = '/';
                p += 2;
            } else if (p[0] == '~' && p[1] == '0') {
                tok[n++] = '~';
                p += 2;
            } else {
                tok[n++] = *p++;
            }
        }
        tok[n] = '\0';
        if (json_object_is_type(cur, json_type_array)) {
            char *end;
            long i = strtol(tok, &end, 10);
            if (*end != '\0' || i < 0 || (size_t)i >= json_object_array_length(cur))
                return NULL;
            cur = json_object_array_get_idx(cur, (size_t)i);
        } else if (!json_object_object_get_ex(cur, tok, &cur)) {
            return NULL;
        }
    }
    return *p == '\0' ? cur : NULL;
}

static json_object *copy(gen_t *g, json_object *v)
{
    json_object *out = NULL;

    if (v != NULL && json_object_deep_copy(v, &out, NULL) != 0)
        g->nomem = 1;
    return out;
}

/* The first type the schema names (a string or the first non-null member
 * of an array), or one inferred from its keywords. */
static const char *first_type(json_object *s)
{
    json_object *t = mc_json_get(s, "type");

    if (t != NULL && json_object_is_type(t, json_type_string))
        return json_object_get_string(t);
    if (t != NULL && json_object_is_type(t, json_type_array)) {
        size_t i, n = json_object_array_length(t);
        for (i = 0; i < n; i++) {
            const char *name = json_object_get_string(json_object_array_get_idx(t, i));
            if (name != NULL && strcmp(name, "null") != 0)
                return name;
        }
        return n > 0 ? "null" : "string";
    }
    if (mc_json_get(s, "properties") != NULL || mc_json_get(s, "required") != NULL)
        return "object";
    if (mc_json_get(s, "items") != NULL || mc_json_get(s, "prefixItems") != NULL)
        return "array";
    if (mc_json_get(s, "minimum") != NULL || mc_json_get(s, "maximum") != NULL)
        return "number";
    return "string";
}

static double num(json_object *s, const char *key, int *have)
{
    json_object *v = mc_json_get(s, key);

    *have = v != NULL && (json_object_is_type(v, json_type_int) ||
                          json_object_is_type(v, json_type_double));
    return *have ? json_object_get_double(v) : 0;
}

static json_object *make_number(json_object *s, int integer)
{
    int hmin, hmax, hxmin, hxmax, hmul;
    double min = num(s, "minimum", &hmin), max = num(s, "maximum", &hmax);
    double xmin = num(s, "exclusiveMinimum", &hxmin), xmax = num(s, "exclusiveMaximum", &hxmax);
    double mul = num(s, "multipleOf", &hmul), v;

    if (hxmin && (!hmin || xmin >= min)) {
        min = integer ? floor(xmin) + 1 : xmin + 1;
        hmin = 1;
    }
    if (hxmax && (!hmax || xmax <= max)) {
        max = integer ? ceil(xmax) - 1 : xmax - (hmin && xmax - min < 2 ? (xmax - min) / 2 : 1);
        hmax = 1;
    }
    v = hmin ? min : 1;
    if (hmax && v > max)
        v = hmin ? min : max;
    if (integer)
        v = ceil(v);
    if (hmul && mul > 0) {
        double k = ceil(v / mul);
        v = k * mul;
    }
    if (integer)
        return json_object_new_int64((int64_t)v);
    return json_object_new_double(v);
}

static json_object *make_string(json_object *s)
{
    const char *fmt = mc_json_get_str(s, "format");
    int minl = mc_json_get_int(s, "minLength", 0), maxl = mc_json_get_int(s, "maxLength", -1);
    char buf[256];
    size_t n;

    if (fmt != NULL && strcmp(fmt, "email") == 0)
        snprintf(buf, sizeof(buf), "mcpcheck@example.com");
    else if (fmt != NULL && (strcmp(fmt, "uri") == 0 || strcmp(fmt, "url") == 0 ||
                             strcmp(fmt, "iri") == 0 || strcmp(fmt, "uri-reference") == 0))
        snprintf(buf, sizeof(buf), "https://example.com/mcpcheck");
    else if (fmt != NULL && strcmp(fmt, "date") == 0)
        snprintf(buf, sizeof(buf), "2025-01-01");
    else if (fmt != NULL && strcmp(fmt, "date-time") == 0)
        snprintf(buf, sizeof(buf), "2025-01-01T00:00:00Z");
    else if (fmt != NULL && strcmp(fmt, "time") == 0)
        snprintf(buf, sizeof(buf), "00:00:00Z");
    else if (fmt != NULL && strcmp(fmt, "uuid") == 0)
        snprintf(buf, sizeof(buf), "00000000-0000-4000-8000-000000000000");
    else
        snprintf(buf, sizeof(buf), "mcpcheck");
    n = strlen(buf);
    while ((int)n < minl && n + 1 < sizeof(buf))
        buf[n++] = 'x';
    buf[n] = '\0';
    if (maxl >= 0 && (int)n > maxl)
        buf[maxl] = '\0';
    return json_object_new_string(buf);
}

/* Adds value v to arr unless uniqueness is wanted and an equal one is there. */
static int add_item(json_object *arr, json_object *v, int unique)
{
    size_t i, n = json_object_array_length(arr);

    if (unique)
        for (i = 0; i < n; i++)
            if (json_object_equal(json_object_array_get_idx(arr, i), v)) {
                json_object_put(v);
                return 0;
            }
    json_object_array_add(arr, v);
    return 1;
}

static json_object *make_array(gen_t *g, json_object *s, int depth)
{
    json_object *arr = json_object_new_array(), *items = mc_json_get(s, "items");
    json_object *prefix = mc_json_get(s, "prefixItems");
    int minn = mc_json_get_int(s, "minItems", 0), maxn = mc_json_get_int(s, "maxItems", -1);
    int unique = json_object_get_boolean(mc_json_get(s, "uniqueItems"));
    int want = minn > 0 ? minn : 1, i;

    if (arr == NULL) {
        g->nomem = 1;
        return NULL;
    }
    if (maxn >= 0 && want > maxn)
        want = maxn;
    if (want > MC_INSTANCE_MAX_MEMBERS)
        want = MC_INSTANCE_MAX_MEMBERS;
    if (prefix != NULL && json_object_is_type(prefix, json_type_array)) {
        int np = (int)json_object_array_length(prefix);
        for (i = 0; i < np && i < MC_INSTANCE_MAX_MEMBERS; i++)
            json_object_array_add(arr, make(g, json_object_array_get_idx(prefix, i), depth + 1));
    }
    if (items != NULL && json_object_is_type(items, json_type_object)) {
        /* Distinct values from an enum or a oneOf/anyOf of consts, so a
         * multi-select with uniqueItems gets what it asks for. */
        json_object *choices = mc_json_get(items, "enum");
        if (choices == NULL)
            choices = mc_json_get(items, "anyOf") ? mc_json_get(items, "anyOf")
                                                   : mc_json_get(items, "oneOf");
        if (choices != NULL && json_object_is_type(choices, json_type_array)) {
            size_t k, n = json_object_array_length(choices);
            for (k = 0; k < n && (int)json_object_array_length(arr) < want; k++) {
                json_object *c = json_object_array_get_idx(choices, k);
                json_object *v = mc_json_get(items, "enum") != NULL ? copy(g, c)
                                                                    : make(g, c, depth + 1);
                add_item(arr, v, 1);
            }
        }
        for (i = 0; (int)json_object_array_length(arr) < want && i < want; i++)
            add_item(arr, make(g, items, depth + 1), unique);
    }
    return arr;
}

static json_object *make_object(gen_t *g, json_object *s, int depth)
{
    json_object *obj = json_object_new_object(), *props = mc_json_get(s, "properties");
    json_object *req = mc_json_get(s, "required");
    size_t i, n = req != NULL && json_object_is_type(req, json_type_array)
                      ? json_object_array_length(req)
                      : 0;

    if (obj == NULL) {
        g->nomem = 1;
        return NULL;
    }
    for (i = 0; i < n && i < MC_INSTANCE_MAX_MEMBERS; i++) {
        const char *name = json_object_get_string(json_object_array_get_idx(req, i));
        if (name == NULL || mc_json_get(obj, name) != NULL)
            continue;
        json_object_object_add(obj, name, make(g, mc_json_get(props, name), depth + 1));
    }
    if (props != NULL && json_object_is_type(props, json_type_object)) {
        json_object_object_foreach(props, name, ps)
        {
            json_object *d = mc_json_get(ps, "default");
            if (d != NULL && mc_json_get(obj, name) == NULL)
                json_object_object_add(obj, name, copy(g, d));
        }
    }
    return obj;
}

/* Copies the object-shaping keywords of every allOf member into one schema. */
static json_object *merge_all_of(gen_t *g, json_object *s, int depth)
{
    json_object *m = NULL, *all = mc_json_get(s, "allOf"), *props, *req;
    size_t i, n;

    if (json_object_deep_copy(s, &m, NULL) != 0 || m == NULL) {
        g->nomem = 1;
        return NULL;
    }
    json_object_object_del(m, "allOf");
    props = json_object_new_object();
    req = json_object_new_array();
    n = json_object_array_length(all);
    for (i = 0; i <= n; i++) {
        json_object *part = i < n ? json_object_array_get_idx(all, i) : s;
        json_object *pp, *pr;
        const char *ref = mc_json_get_str(part, "$ref");
        if (ref != NULL && depth < MC_INSTANCE_MAX_DEPTH && deref(g, ref) != NULL)
            part = deref(g, ref);
        pp = mc_json_get(part, "properties");
        pr = mc_json_get(part, "required");
        if (pp != NULL && json_object_is_type(pp, json_type_object)) {
            json_object_object_foreach(pp, k, v)
            {
                if (mc_json_get(props, k) == NULL)
                    json_object_object_add(props, k, json_object_get(v));
            }
        }
        if (pr != NULL && json_object_is_type(pr, json_type_array)) {
            size_t j;
            for (j = 0; j < json_object_array_length(pr); j++)
                json_object_array_add(req, json_object_get(json_object_array_get_idx(pr, j)));
        }
        if (i < n && mc_json_get(m, "type") == NULL && mc_json_get(part, "type") != NULL)
            json_object_object_add(m, "type", json_object_get(mc_json_get(part, "type")));
    }
    json_object_object_add(m, "properties", props);
    json_object_object_add(m, "required", req);
    return m;
}

static json_object *make(gen_t *g, json_object *s, int depth)
{
    json_object *v, *alt;
    const char *type, *ref;

    if (s == NULL || !json_object_is_type(s, json_type_object) || depth > MC_INSTANCE_MAX_DEPTH)
        return json_object_new_string("mcpcheck");
    if ((v = mc_json_get(s, "const")) != NULL || json_object_object_get_ex(s, "const", NULL))
        return copy(g, v);
    if ((v = mc_json_get(s, "default")) != NULL)
        return copy(g, v);
    if ((v = mc_json_get(s, "enum")) != NULL && json_object_is_type(v, json_type_array) &&
        json_object_array_length(v) > 0)
        return copy(g, json_object_array_get_idx(v, 0));
    ref = mc_json_get_str(s, "$ref");
    if (ref != NULL && deref(g, ref) != NULL && mc_json_get(s, "properties") == NULL)
        return make(g, deref(g, ref), depth + 1);
    if ((alt = mc_json_get(s, "allOf")) != NULL && json_object_is_type(alt, json_type_array)) {
        json_object *m = merge_all_of(g, s, depth);
        json_object *out = m != NULL ? make(g, m, depth + 1) : NULL;
        json_object_put(m);
        return out;
    }
    alt = mc_json_get(s, "oneOf");
    if (alt == NULL)
        alt = mc_json_get(s, "anyOf");
    if (alt != NULL && json_object_is_type(alt, json_type_array) &&
        json_object_array_length(alt) > 0)
        return make(g, json_object_array_get_idx(alt, 0), depth + 1);
    type = first_type(s);
    if (strcmp(type, "object") == 0)
        return make_object(g, s, depth);
    if (strcmp(type, "array") == 0)
        return make_array(g, s, depth);
    if (strcmp(type, "integer") == 0)
        return make_number(s, 1);
    if (strcmp(type, "number") == 0)
        return make_number(s, 0);
    if (strcmp(type, "boolean") == 0)
        return json_object_new_boolean(1);
    if (strcmp(type, "null") == 0)
        return NULL;
    return make_string(s);
}

int mc_instance_make(json_object *schema, json_object **out)
{
    gen_t g;
    json_object *v;

    memset(&g, 0, sizeof(g));
    g.root = schema;
    v = make(&g, schema, 0);
    if (g.nomem) {
        json_object_put(v);
        return MC_ENOMEM;
    }
    *out = v;
    return MC_OK;
}

void mc_instance_fill_accept(const char *method, json_object *params, json_object *result)
{
    json_object *schema = mc_json_get(params, "requestedSchema");
    const char *action = mc_json_get_str(result, "action");
    json_object *inst = NULL;

    if (result == NULL || method == NULL || strcmp(method, "elicitation/create") != 0 ||
        action == NULL || strcmp(action, "accept") != 0 ||
        mc_json_get(result, "content") != NULL || mc_json_get(schema, "type") == NULL)
        return;
    if (mc_instance_make(schema, &inst) == MC_OK)
        json_object_object_add(result, "content", inst);
}
