/*
 * validate.c - evaluates compiled schemas against json-c values.
 *
 * One evaluator, two modes. In the fast mode (collect == 0) it returns at
 * the first failure, records nothing and allocates nothing; this is all a
 * valid message costs. When the fast mode says "invalid" (or saw a
 * documented leniency), the same walk runs again in the collecting mode,
 * which tracks the instance path, keeps going after failures, and records
 * each finding with its location and message.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/internal.h"

typedef struct seg {
    const char *key; /* NULL: an array index */
    size_t index;
} seg_t;

typedef struct rec {
    mc_schema_severity_t sev;
    size_t depth; /* instance path segments at the finding */
    const mc__snode_t *node;
    const char *keyword;
    char *inst; /* malloc'd instance pointer (prefix included) */
    char *msg;  /* malloc'd text after the location */
} rec_t;

typedef struct vctx {
    const mc_schema_t *s;
    int collect;
    int depth;
    int lenient_seen;
    int nomem;
    const char *prefix;
    size_t plen;
    rec_t *recs;
    size_t n_recs, cap_recs;
    size_t dropped;
    unsigned long steps; /* evaluations so far (MC_SCHEMA_MAX_STEPS) */
    int over_budget;
    size_t n_scope; /* dynamic scope: the schema resources entered */
    int scope[MC_SCHEMA_MAX_DEPTH + 4];
    seg_t path[MC_SCHEMA_MAX_DEPTH + 4];
} vctx_t;

static int vnode(vctx_t *c, const mc__snode_t *n, json_object *v);

/* ---- findings -------------------------------------------------------------- */

/* Appends a JSON Pointer token, escaping ~ and /, and control characters
 * as "\uXXXX" so a location always fits on one line. */
static size_t put_token(char *out, size_t cap, size_t o, const char *tok)
{
    for (; *tok != '\0'; tok++) {
        unsigned char ch = (unsigned char)*tok;
        if (o + 7 >= cap)
            break;
        if (ch == '~' || ch == '/') {
            out[o++] = '~';
            out[o++] = ch == '~' ? '0' : '1';
        } else if (ch < 0x20 || ch == 0x7f) {
            o += (size_t)snprintf(out + o, cap - o, "\\u%04x", ch);
        } else {
            out[o++] = (char)ch;
        }
    }
    out[o] = '\0';
    return o;
}

static char *build_path(const vctx_t *c, const char *extra)
{
    char buf[MC_SCHEMA_PATH_SIZE * 2];
    size_t o = 0, i;

    buf[0] = '\0';
    if (c->prefix != NULL)
        o = (size_t)snprintf(buf, sizeof(buf), "%s", c->prefix);
    if (o >= sizeof(buf))
        o = sizeof(buf) - 1;
    for (i = 0; i < c->plen && o + 24 < sizeof(buf); i++) {
        buf[o++] = '/';
        if (c->path[i].key != NULL)
            o = put_token(buf, sizeof(buf), o, c->path[i].key);
        else
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%zu", c->path[i].index);
    }
    if (extra != NULL && o + 2 < sizeof(buf)) {
        buf[o++] = '/';
        o = put_token(buf, sizeof(buf), o, extra);
    }
    buf[o] = '\0';
    return strdup(buf);
}

/* Records a finding at the current instance location (+ extra token). */
static void note(vctx_t *c, mc_schema_severity_t sev, const mc__snode_t *n, const char *kw,
                 const char *extra, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static void note(vctx_t *c, mc_schema_severity_t sev, const mc__snode_t *n, const char *kw,
                 const char *extra, const char *fmt, ...)
{
    char msg[MC_SCHEMA_MSG_SIZE];
    va_list ap;
    rec_t *r;

    if (!c->collect)
        return;
    if (c->n_recs >= MC_SCHEMA_MAX_COLLECT) {
        c->dropped++;
        return;
    }
    if (c->n_recs == c->cap_recs) {
        size_t ncap = c->cap_recs == 0 ? 16 : c->cap_recs * 2;
        rec_t *nr = realloc(c->recs, ncap * sizeof(*nr));
        if (nr == NULL) {
            c->nomem = 1;
            return;
        }
        c->recs = nr;
        c->cap_recs = ncap;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    r = &c->recs[c->n_recs];
    r->sev = sev;
    r->depth = c->plen + (extra != NULL ? 1 : 0);
    r->node = n;
    r->keyword = kw;
    r->inst = build_path(c, extra);
    r->msg = strdup(msg);
    if (r->inst == NULL || r->msg == NULL) {
        free(r->inst);
        free(r->msg);
        c->nomem = 1;
        return;
    }
    c->n_recs++;
}

static void drop_recs(vctx_t *c, size_t from, size_t to)
{
    size_t i;

    if (from == to)
        return;
    for (i = from; i < to; i++) {
        free(c->recs[i].inst);
        free(c->recs[i].msg);
    }
    memmove(&c->recs[from], &c->recs[to], (c->n_recs - to) * sizeof(rec_t));
    c->n_recs -= to - from;
}

/*
 * Renders a JSON value for a message, cut to cap on a UTF-8 boundary.
 * json-c serializes into a buffer it keeps inside the object, so serializing
 * a schema's own value (an enum member, a const, a bound) would write to the
 * compiled schema, which other threads read at the same time. A private copy
 * is serialized instead; this runs only when a message is built.
 */
static void render(json_object *v, char *out, size_t cap)
{
    json_object *copy = NULL;
    const char *js;
    size_t len;

    if (v != NULL && json_object_deep_copy(v, &copy, NULL) != 0) {
        snprintf(out, cap, "(value)");
        return;
    }
    js = json_object_to_json_string_ext(copy, JSON_C_TO_STRING_PLAIN |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
    len = js != NULL ? strlen(js) : 0;
    if (len < cap) {
        memcpy(out, js != NULL ? js : "", len + 1);
    } else {
        len = cap > 4 ? cap - 4 : 0;
        while (len > 0 && ((unsigned char)js[len] & 0xC0) == 0x80)
            len--;
        memcpy(out, js, len);
        memcpy(out + len, "...", 4);
    }
    json_object_put(copy);
}

static const char *type_name_of(json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_null:
        return "null";
    case json_type_boolean:
        return "boolean";
    case json_type_int:
        return "integer";
    case json_type_double:
        return "number";
    case json_type_string:
        return "string";
    case json_type_array:
        return "array";
    default:
        return "object";
    }
}

static void types_text(uint8_t types, char *out, size_t cap)
{
    static const struct {
        uint8_t bit;
        const char *name;
    } names[] = {{MC__T_NULL, "null"},     {MC__T_BOOL, "boolean"}, {MC__T_NUM, "number"},
                 {MC__T_INT, "integer"},   {MC__T_STR, "string"},   {MC__T_ARR, "array"},
                 {MC__T_OBJ, "object"}};
    size_t i, o = 0;
    int first = 1;

    out[0] = '\0';
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!(types & names[i].bit))
            continue;
        if (names[i].bit == MC__T_INT && (types & MC__T_NUM))
            continue;
        o += (size_t)snprintf(out + o, cap - o, "%s%s", first ? "" : " or ", names[i].name);
        if (o >= cap)
            return;
        first = 0;
    }
}

/* ---- numbers --------------------------------------------------------------- */

/* True for an integer json-c value above INT64_MAX (kept as uint64). */
static int is_big_uint(json_object *v)
{
    return json_object_get_int64(v) == INT64_MAX && json_object_get_uint64(v) > INT64_MAX;
}

/* Compares two numbers: <0, 0, >0. Exact for integers. */
static int num_cmp(json_object *a, json_object *b)
{
    int ai = json_object_is_type(a, json_type_int), bi = json_object_is_type(b, json_type_int);

    if (ai && bi) {
        int ab = is_big_uint(a), bb = is_big_uint(b);
        if (ab || bb) {
            uint64_t x = json_object_get_uint64(a), y = json_object_get_uint64(b);
            if (ab && bb)
                return x < y ? -1 : x > y;
            return ab ? 1 : -1;
        }
        {
            int64_t x = json_object_get_int64(a), y = json_object_get_int64(b);
            return x < y ? -1 : x > y;
        }
    }
    {
        long double x = ai ? (is_big_uint(a) ? (long double)json_object_get_uint64(a)
                                             : (long double)json_object_get_int64(a))
                           : (long double)json_object_get_double(a);
        long double y = bi ? (is_big_uint(b) ? (long double)json_object_get_uint64(b)
                                             : (long double)json_object_get_int64(b))
                           : (long double)json_object_get_double(b);
        return x < y ? -1 : x > y;
    }
}

static int is_integral(json_object *v)
{
    double d;

    if (json_object_is_type(v, json_type_int))
        return 1;
    d = json_object_get_double(v);
    return isfinite(d) && d == floor(d);
}

static int multiple_ok(json_object *v, json_object *m)
{
    if (json_object_is_type(v, json_type_int) && json_object_is_type(m, json_type_int) &&
        !is_big_uint(v) && !is_big_uint(m)) {
        int64_t x = json_object_get_int64(v), y = json_object_get_int64(m);
        return y > 0 && x % y == 0;
    }
    {
        double x = json_object_get_double(v), y = json_object_get_double(m);
        double q = x / y, r;
        if (!isfinite(q))
            return 0;
        r = fabs(q - nearbyint(q));
        return r <= 1e-9 * (fabs(q) > 1.0 ? fabs(q) : 1.0);
    }
}

/* ---- equality ---------------------------------------------------------------- */

int mc__json_equal(json_object *a, json_object *b)
{
    enum json_type ta = json_object_get_type(a), tb = json_object_get_type(b);

    if ((ta == json_type_int || ta == json_type_double) &&
        (tb == json_type_int || tb == json_type_double))
        return num_cmp(a, b) == 0;
    if (ta != tb)
        return 0;
    switch (ta) {
    case json_type_null:
        return 1;
    case json_type_boolean:
        return !json_object_get_boolean(a) == !json_object_get_boolean(b);
    case json_type_string:
        return json_object_get_string_len(a) == json_object_get_string_len(b) &&
               memcmp(json_object_get_string(a), json_object_get_string(b),
                      (size_t)json_object_get_string_len(a)) == 0;
    case json_type_array: {
        size_t i, n = json_object_array_length(a);
        if (n != json_object_array_length(b))
            return 0;
        for (i = 0; i < n; i++)
            if (!mc__json_equal(json_object_array_get_idx(a, i), json_object_array_get_idx(b, i)))
                return 0;
        return 1;
    }
    case json_type_object: {
        struct lh_entry *e;
        if (json_object_object_length(a) != json_object_object_length(b))
            return 0;
        for (e = json_object_get_object(a)->head; e != NULL; e = e->next) {
            json_object *bv;
            if (!json_object_object_get_ex(b, (const char *)lh_entry_k(e), &bv) ||
                !mc__json_equal((json_object *)lh_entry_v(e), bv))
                return 0;
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- children ------------------------------------------------------------------ */

static int child_key(vctx_t *c, const mc__snode_t *n, json_object *v, const char *key)
{
    int ok;

    if (!c->collect)
        return vnode(c, n, v);
    c->path[c->plen].key = key;
    c->plen++;
    ok = vnode(c, n, v);
    c->plen--;
    return ok;
}

static int child_idx(vctx_t *c, const mc__snode_t *n, json_object *v, size_t idx)
{
    int ok;

    if (!c->collect)
        return vnode(c, n, v);
    c->path[c->plen].key = NULL;
    c->path[c->plen].index = idx;
    c->plen++;
    ok = vnode(c, n, v);
    c->plen--;
    return ok;
}

/* Evaluates n in the fast mode whatever the current mode. */
static int probe(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    int saved = c->collect, ok;

    c->collect = 0;
    ok = vnode(c, n, v);
    c->collect = saved;
    return ok;
}

/* ---- objects --------------------------------------------------------------- */

static const mc__prop_t *prop_find(const mc__snode_t *n, const char *k, size_t len, uint32_t h)
{
    size_t i, mask = n->props_cap - 1;

    for (i = h & mask; n->props[i].name != NULL; i = (i + 1) & mask) {
        const mc__prop_t *p = &n->props[i];
        if (p->hash == h && p->len == len && memcmp(p->name, k, len) == 0)
            return p;
    }
    return NULL;
}

#define FAIL_FAST()                                                                                \
    do {                                                                                           \
        ok = 0;                                                                                    \
        if (!c->collect)                                                                           \
            return 0;                                                                              \
    } while (0)

static int v_props(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    struct lh_entry *e;
    uint64_t seen = 0;
    int ok = 1;
    size_t i;

    for (e = json_object_get_object(v)->head; e != NULL; e = e->next) {
        const char *k = (const char *)lh_entry_k(e);
        json_object *cv = (json_object *)lh_entry_v(e);
        int matched = 0;

        if (n->props_cap != 0) {
            size_t len;
            uint32_t h = mc__hash_key(k, &len);
            const mc__prop_t *p = prop_find(n, k, len, h);
            if (p != NULL) {
                if (p->req_bit >= 0 && p->req_bit < 64)
                    seen |= (uint64_t)1 << p->req_bit;
                if (p->schema != NULL) {
                    matched = 1;
                    if (!child_key(c, p->schema, cv, k))
                        FAIL_FAST();
                }
            }
        }
        for (i = 0; i < n->n_pprops; i++) {
            if (!mc__regex_search(c->s, &n->pprops[i], k, strlen(k)))
                continue;
            matched = 1;
            if (!child_key(c, n->pprops[i].schema, cv, k))
                FAIL_FAST();
        }
        if (!matched && n->additional != NULL) {
            if (n->additional->boolean == 0) {
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "additionalProperties", k,
                     "property not allowed (additionalProperties is false)");
            } else if (!child_key(c, n->additional, cv, k)) {
                FAIL_FAST();
            }
        }
    }
    if (n->n_required > 0) {
        int missing;
        if (n->n_req_unique <= 64) {
            missing = seen != n->req_mask;
        } else {
            missing = 0;
            for (i = 0; i < n->n_required && !missing; i++)
                missing = !json_object_object_get_ex(v, n->required[i], NULL);
        }
        if (missing) {
            FAIL_FAST();
            for (i = 0; i < n->n_required; i++)
                if (!json_object_object_get_ex(v, n->required[i], NULL))
                    note(c, MC_SCHEMA_ERROR, n, "required", n->required[i],
                         "required property missing");
        }
    }
    return ok;
}

static int v_object(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    int ok = 1;
    size_t i, count;

    if ((n->kw & MC__KW_PROPS) && !v_props(c, n, v))
        FAIL_FAST();
    if (n->kw & (MC__KW_MINPROPS | MC__KW_MAXPROPS)) {
        count = (size_t)json_object_object_length(v);
        if ((n->kw & MC__KW_MINPROPS) && count < n->min_props) {
            FAIL_FAST();
            note(c, MC_SCHEMA_ERROR, n, "minProperties", NULL,
                 "has %zu properties, fewer than the minimum %zu", count, n->min_props);
        }
        if ((n->kw & MC__KW_MAXPROPS) && count > n->max_props) {
            FAIL_FAST();
            note(c, MC_SCHEMA_ERROR, n, "maxProperties", NULL,
                 "has %zu properties, more than the maximum %zu", count, n->max_props);
        }
    }
    if (n->kw & MC__KW_DEPS) {
        for (i = 0; i < n->n_deps; i++) {
            const mc__dep_t *d = &n->deps[i];
            size_t j;
            if (!json_object_object_get_ex(v, d->name, NULL))
                continue;
            for (j = 0; j < d->n_required; j++) {
                if (json_object_object_get_ex(v, d->required[j], NULL))
                    continue;
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "dependencies", NULL,
                     "property \"%.80s\" requires property \"%.80s\"", d->name, d->required[j]);
            }
            if (d->schema != NULL && !vnode(c, d->schema, v))
                FAIL_FAST();
        }
    }
    if (n->kw & MC__KW_PROPNAMES) {
        struct lh_entry *e;
        for (e = json_object_get_object(v)->head; e != NULL; e = e->next) {
            const char *k = (const char *)lh_entry_k(e);
            json_object *name = json_object_new_string(k);
            int good;
            if (name == NULL) {
                c->nomem = 1;
                return 0;
            }
            good = probe(c, n->property_names, name);
            json_object_put(name);
            if (!good) {
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "propertyNames", k,
                     "property name \"%.80s\" does not match propertyNames", k);
            }
        }
    }
    return ok;
}

/* ---- arrays ---------------------------------------------------------------- */

static int v_array(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    size_t len = json_object_array_length(v), i, j;
    int ok = 1;

    if (n->kw & MC__KW_ITEMS) {
        for (i = 0; i < len; i++) {
            const mc__snode_t *sub;
            if (i < n->n_tuple)
                sub = n->tuple[i];
            else if (n->items != NULL)
                sub = n->items;
            else
                sub = n->additional_items;
            if (sub == NULL)
                break;
            if (sub->boolean == 0 && sub == n->additional_items) {
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "additionalItems", NULL,
                     "has %zu items, at most %zu allowed (additionalItems is false)", len,
                     n->n_tuple);
                break;
            }
            if (!child_idx(c, sub, json_object_array_get_idx(v, i), i))
                FAIL_FAST();
        }
    }
    if (n->kw & MC__KW_CONTAINS) {
        size_t found = 0;
        for (i = 0; i < len; i++) {
            if (probe(c, n->contains, json_object_array_get_idx(v, i)))
                found++;
            if (found >= n->min_contains && n->max_contains == SIZE_MAX)
                break;
        }
        if (found < n->min_contains) {
            FAIL_FAST();
            if (n->min_contains <= 1)
                note(c, MC_SCHEMA_ERROR, n, "contains", NULL,
                     "no item matches the \"contains\" schema");
            else
                note(c, MC_SCHEMA_ERROR, n, "minContains", NULL,
                     "%zu items match the \"contains\" schema, fewer than %zu", found,
                     n->min_contains);
        }
        if (found > n->max_contains) {
            FAIL_FAST();
            note(c, MC_SCHEMA_ERROR, n, "maxContains", NULL,
                 "%zu items match the \"contains\" schema, more than %zu", found,
                 n->max_contains);
        }
    }
    if ((n->kw & MC__KW_MINITEMS) && len < n->min_items) {
        FAIL_FAST();
        note(c, MC_SCHEMA_ERROR, n, "minItems", NULL, "has %zu items, fewer than the minimum %zu",
             len, n->min_items);
    }
    if ((n->kw & MC__KW_MAXITEMS) && len > n->max_items) {
        FAIL_FAST();
        note(c, MC_SCHEMA_ERROR, n, "maxItems", NULL, "has %zu items, more than the maximum %zu",
             len, n->max_items);
    }
    if (n->kw & MC__KW_UNIQUE) {
        for (i = 1; i < len; i++) {
            json_object *a = json_object_array_get_idx(v, i);
            for (j = 0; j < i; j++) {
                if (!mc__json_equal(a, json_object_array_get_idx(v, j)))
                    continue;
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "uniqueItems", NULL,
                     "items %zu and %zu are equal (uniqueItems)", j, i);
                i = len; /* one finding is enough */
                break;
            }
        }
    }
    return ok;
}

/* ---- strings --------------------------------------------------------------- */

static size_t code_points(const char *s, size_t len)
{
    size_t i, n = 0;

    for (i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static const char *format_label(mc__fmt_t f)
{
    switch (f) {
    case MC__FMT_URI:
        return "an absolute URI (format \"uri\")";
    case MC__FMT_URIREF:
        return "a URI reference (format \"uri-reference\")";
    case MC__FMT_URITEMPLATE:
        return "a URI template (format \"uri-template\")";
    case MC__FMT_BYTE:
        return "strict base64 (format \"byte\")";
    case MC__FMT_DATETIME:
        return "an RFC 3339 date-time (format \"date-time\")";
    case MC__FMT_DATE:
        return "an RFC 3339 full-date (format \"date\")";
    case MC__FMT_EMAIL:
        return "an e-mail address (format \"email\")";
    default:
        return "valid";
    }
}

static int v_string(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    const char *str = json_object_get_string(v);
    size_t blen = (size_t)json_object_get_string_len(v);
    int ok = 1;

    if (n->kw & (MC__KW_MINLEN | MC__KW_MAXLEN)) {
        /* Bytes bound code points from above, so most checks skip counting. */
        if ((n->kw & MC__KW_MINLEN) && blen >= n->min_len) {
            size_t cp = blen < n->min_len * 4 ? code_points(str, blen) : blen;
            if (cp < n->min_len) {
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "minLength", NULL,
                     "is %zu characters long, shorter than the minimum %zu", cp, n->min_len);
            }
        } else if (n->kw & MC__KW_MINLEN) {
            FAIL_FAST();
            note(c, MC_SCHEMA_ERROR, n, "minLength", NULL,
                 "is %zu characters long, shorter than the minimum %zu", code_points(str, blen),
                 n->min_len);
        }
        if ((n->kw & MC__KW_MAXLEN) && blen > n->max_len) {
            size_t cp = code_points(str, blen);
            if (cp > n->max_len) {
                FAIL_FAST();
                note(c, MC_SCHEMA_ERROR, n, "maxLength", NULL,
                     "is %zu characters long, longer than the maximum %zu", cp, n->max_len);
            }
        }
    }
    if ((n->kw & MC__KW_PATTERN) && !mc__regex_search(c->s, n->pattern, str, blen)) {
        FAIL_FAST();
        note(c, MC_SCHEMA_ERROR, n, "pattern", NULL, "does not match the pattern \"%.120s\"",
             n->pattern->source);
    }
    if ((n->kw & MC__KW_FORMAT) && !mc__format_ok(n->format, str, blen)) {
        char shown[96];
        FAIL_FAST();
        render(v, shown, sizeof(shown));
        note(c, MC_SCHEMA_ERROR, n, "format", NULL, "%s is not %s", shown,
             format_label(n->format));
    }
    return ok;
}

/* ---- numbers --------------------------------------------------------------- */

static int v_number(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    char lim[64];
    int ok = 1;

    if ((n->kw & MC__KW_MIN) && num_cmp(v, n->minimum) < 0) {
        FAIL_FAST();
        render(n->minimum, lim, sizeof(lim));
        note(c, MC_SCHEMA_ERROR, n, "minimum", NULL, "must be >= %s", lim);
    }
    if ((n->kw & MC__KW_MAX) && num_cmp(v, n->maximum) > 0) {
        FAIL_FAST();
        render(n->maximum, lim, sizeof(lim));
        note(c, MC_SCHEMA_ERROR, n, "maximum", NULL, "must be <= %s", lim);
    }
    if ((n->kw & MC__KW_XMIN) && num_cmp(v, n->xminimum) <= 0) {
        FAIL_FAST();
        render(n->xminimum, lim, sizeof(lim));
        note(c, MC_SCHEMA_ERROR, n, "exclusiveMinimum", NULL, "must be > %s", lim);
    }
    if ((n->kw & MC__KW_XMAX) && num_cmp(v, n->xmaximum) >= 0) {
        FAIL_FAST();
        render(n->xmaximum, lim, sizeof(lim));
        note(c, MC_SCHEMA_ERROR, n, "exclusiveMaximum", NULL, "must be < %s", lim);
    }
    if ((n->kw & MC__KW_MULT) && !multiple_ok(v, n->multiple_of)) {
        FAIL_FAST();
        render(n->multiple_of, lim, sizeof(lim));
        note(c, MC_SCHEMA_ERROR, n, "multipleOf", NULL, "must be a multiple of %s", lim);
    }
    return ok;
}

/* ---- type, enum, const ------------------------------------------------------- */

static int v_type(vctx_t *c, const mc__snode_t *n, json_object *v, enum json_type t)
{
    uint8_t bit;
    char want[96], shown[64];

    switch (t) {
    case json_type_null:
        bit = MC__T_NULL;
        break;
    case json_type_boolean:
        bit = MC__T_BOOL;
        break;
    case json_type_int:
        bit = MC__T_INT;
        break;
    case json_type_double:
        bit = is_integral(v) ? MC__T_INT : MC__T_NUM;
        break;
    case json_type_string:
        bit = MC__T_STR;
        break;
    case json_type_array:
        bit = MC__T_ARR;
        break;
    default:
        bit = MC__T_OBJ;
        break;
    }
    if (n->types & bit)
        return 1;
    types_text(n->types, want, sizeof(want));
    if (bit == MC__T_NUM && (n->types & MC__T_INT) && n->lenient) {
        c->lenient_seen = 1;
        render(v, shown, sizeof(shown));
        note(c, MC_SCHEMA_WARNING, n, "type", NULL,
             "expected integer, got %s; accepted as a documented leniency (%s)", shown,
             n->lenient_note != NULL ? n->lenient_note : "TypeScript number");
        return 1;
    }
    if (c->collect) {
        if (bit == MC__T_NUM) {
            render(v, shown, sizeof(shown));
            note(c, MC_SCHEMA_ERROR, n, "type", NULL, "expected %s, got number %s", want, shown);
        } else {
            note(c, MC_SCHEMA_ERROR, n, "type", NULL, "expected %s, got %s", want,
                 type_name_of(v));
        }
    }
    return 0;
}

static int v_enum(vctx_t *c, const mc__snode_t *n, json_object *v, enum json_type t)
{
    size_t i;
    char list[200], shown[80];
    size_t o = 0;

    if (n->enum_strs) {
        if (t == json_type_string) {
            const char *str = json_object_get_string(v);
            size_t len = (size_t)json_object_get_string_len(v);
            for (i = 0; i < n->n_enum; i++)
                if (n->enum_s[i].len == len && memcmp(n->enum_s[i].s, str, len) == 0)
                    return 1;
        }
    } else {
        for (i = 0; i < n->n_enum; i++)
            if (mc__json_equal(v, json_object_array_get_idx(n->enum_v, i)))
                return 1;
    }
    if (!c->collect)
        return 0;
    list[0] = '\0';
    for (i = 0; i < n->n_enum && o + 8 < sizeof(list); i++) {
        char one[64];
        render(json_object_array_get_idx(n->enum_v, i), one, sizeof(one));
        o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "", one);
    }
    if (o >= sizeof(list))
        memcpy(list + sizeof(list) - 4, "...", 4);
    render(v, shown, sizeof(shown));
    note(c, MC_SCHEMA_ERROR, n, "enum", NULL, "%s is not one of %s", shown, list);
    return 0;
}

/* ---- combinators ------------------------------------------------------------- */

typedef struct score {
    int mismatch;
    size_t depth;
    size_t count;
} score_t;

/* Scores the findings recs[from..] of one alternative evaluated at path
 * depth base: a const/enum failure on the value or a direct member (a
 * discriminator such as "type": "text"), or a type failure on the value
 * itself, means the value is of another kind ("mismatch"). */
static score_t score_of(const vctx_t *c, size_t from, size_t base)
{
    score_t sc = {0, 0, 0};
    size_t i;

    for (i = from; i < c->n_recs; i++) {
        if (c->recs[i].sev != MC_SCHEMA_ERROR)
            continue;
        sc.count++;
        if ((c->recs[i].depth <= base + 1 && (strcmp(c->recs[i].keyword, "const") == 0 ||
                                               strcmp(c->recs[i].keyword, "enum") == 0)) ||
            (c->recs[i].depth == base && strcmp(c->recs[i].keyword, "type") == 0))
            sc.mismatch = 1;
        if (c->recs[i].depth > sc.depth)
            sc.depth = c->recs[i].depth;
    }
    return sc;
}

static int better(score_t a, score_t b)
{
    if (a.mismatch != b.mismatch)
        return a.mismatch < b.mismatch;
    if (a.depth != b.depth)
        return a.depth > b.depth;
    return a.count < b.count;
}

/*
 * Collecting mode, no alternative matched: keep the findings of the branch
 * that came closest (no discriminator/type mismatch, deepest, fewest);
 * when every branch failed on the kind of value, say so in one line.
 */
static void explain_none(vctx_t *c, const mc__snode_t *n, const char *kw,
                         mc__snode_t *const *alts, size_t n_alts, json_object *v)
{
    size_t mark = c->n_recs, i;
    score_t best = {1, 0, SIZE_MAX};
    int have = 0;

    for (i = 0; i < n_alts; i++) {
        size_t start = c->n_recs;
        score_t sc;
        (void)vnode(c, alts[i], v);
        sc = score_of(c, start, c->plen);
        if (!have || better(sc, best)) {
            drop_recs(c, mark, start); /* the previous best */
            best = sc;
            have = 1;
        } else {
            drop_recs(c, start, c->n_recs);
        }
    }
    if (!have || best.mismatch || best.count == 0) {
        drop_recs(c, mark, c->n_recs);
        note(c, MC_SCHEMA_ERROR, n, kw, NULL, "matches none of the %zu alternatives of %s",
             n_alts, kw);
    }
}

static int v_anyof(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    size_t i;

    if (n->disc_prop != NULL && !c->collect && json_object_is_type(v, json_type_object)) {
        /* Only the alternatives demanding the instance's tag can match. */
        json_object *tag;
        const char *str;
        size_t len;
        if (!json_object_object_get_ex(v, n->disc_prop, &tag) ||
            !json_object_is_type(tag, json_type_string))
            return 0;
        str = json_object_get_string(tag);
        len = (size_t)json_object_get_string_len(tag);
        for (i = 0; i < n->n_any_of; i++)
            if (n->disc_vals[i].len == len && memcmp(n->disc_vals[i].s, str, len) == 0 &&
                vnode(c, n->any_of[i], v))
                return 1;
        return 0;
    }
    for (i = 0; i < n->n_any_of; i++) {
        if (probe(c, n->any_of[i], v)) {
            if (c->collect)
                (void)vnode(c, n->any_of[i], v); /* its warnings, if any */
            return 1;
        }
    }
    if (c->collect)
        explain_none(c, n, "anyOf", n->any_of, n->n_any_of, v);
    return 0;
}

static int v_oneof(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    size_t i, matched = 0, first = 0, second = 0;

    for (i = 0; i < n->n_one_of; i++) {
        if (!probe(c, n->one_of[i], v))
            continue;
        if (matched == 0)
            first = i;
        else if (matched == 1)
            second = i;
        matched++;
        if (matched > 1 && !c->collect)
            return 0;
    }
    if (matched == 1) {
        if (c->collect)
            (void)vnode(c, n->one_of[first], v);
        return 1;
    }
    if (!c->collect)
        return 0;
    if (matched == 0)
        explain_none(c, n, "oneOf", n->one_of, n->n_one_of, v);
    else
        note(c, MC_SCHEMA_ERROR, n, "oneOf",
             NULL, "matches %zu alternatives of oneOf (#%zu and #%zu), exactly one is allowed",
             matched, first, second);
    return 0;
}

/* ---- $dynamicRef ------------------------------------------------------------- */

/* The schema a $dynamicRef stands for here: the outermost resource of the
 * dynamic scope that has a $dynamicAnchor of the name, else the static
 * target. */
static const mc__snode_t *dyn_target(const vctx_t *c, const mc__snode_t *n)
{
    size_t i, j;

    if (n->dyn_name == NULL)
        return n->dyn_ref;
    for (i = 0; i < c->n_scope; i++)
        for (j = 0; j < c->s->n_dyn; j++)
            if (c->s->dyn[j].res == c->scope[i] && c->s->dyn[j].node != NULL &&
                strcmp(c->s->dyn[j].name, n->dyn_name) == 0)
                return c->s->dyn[j].node;
    return n->dyn_ref;
}

/* ---- unevaluatedProperties / unevaluatedItems ----------------------------------- */

/* One bit per object member or array item, in instance order. */
typedef struct bits {
    uint64_t *w;
    size_t n;
} bits_t;

static void bit_set(bits_t *b, size_t i)
{
    if (i < b->n)
        b->w[i / 64] |= (uint64_t)1 << (i % 64);
}

static void bit_all(bits_t *b, size_t from)
{
    size_t i;

    for (i = from; i < b->n; i++)
        bit_set(b, i);
}

static int bit_get(const bits_t *b, size_t i)
{
    return (b->w[i / 64] >> (i % 64)) & 1u;
}

static int is_bool_schema(const mc__snode_t *n)
{
    return n->src == NULL || json_object_is_type(n->src, json_type_boolean);
}

/*
 * Marks the members (object) or items (array) of v that node n, which v
 * satisfies, evaluates: through its own keywords and every in-place
 * applicator that v also satisfies (annotations of failed subschemas are
 * dropped). self: n is the node whose own unevaluated* keyword asks, so
 * that keyword does not count.
 */
static void annotate(vctx_t *c, const mc__snode_t *n, json_object *v, bits_t *b, int is_obj,
                     int self, int depth)
{
    size_t i, k;

    if (n == NULL || is_bool_schema(n) || depth > MC_SCHEMA_MAX_DEPTH || c->over_budget)
        return;
    if (is_obj) {
        struct lh_entry *e;
        for (e = json_object_get_object(v)->head, i = 0; e != NULL; e = e->next, i++) {
            const char *key = (const char *)lh_entry_k(e);
            int matched = 0;
            if (n->props_cap != 0) {
                size_t len;
                uint32_t h = mc__hash_key(key, &len);
                const mc__prop_t *p = prop_find(n, key, len, h);
                matched = p != NULL && p->schema != NULL;
            }
            for (k = 0; k < n->n_pprops && !matched; k++)
                matched = mc__regex_search(c->s, &n->pprops[k], key, strlen(key));
            if (matched || n->additional != NULL || (!self && n->uneval_props != NULL))
                bit_set(b, i);
        }
        for (k = 0; k < n->n_deps; k++)
            if (n->deps[k].schema != NULL && json_object_object_get_ex(v, n->deps[k].name, NULL))
                annotate(c, n->deps[k].schema, v, b, is_obj, 0, depth + 1);
    } else {
        size_t len = json_object_array_length(v);
        if (n->items != NULL || n->additional_items != NULL || (!self && n->uneval_items != NULL))
            bit_all(b, 0);
        for (i = 0; i < n->n_tuple && i < len; i++)
            bit_set(b, i);
        if (n->contains != NULL)
            for (i = 0; i < len; i++)
                if (probe(c, n->contains, json_object_array_get_idx(v, i)))
                    bit_set(b, i);
    }
    if (n->ref != NULL)
        annotate(c, n->ref, v, b, is_obj, 0, depth + 1);
    if (n->dyn_ref != NULL)
        annotate(c, dyn_target(c, n), v, b, is_obj, 0, depth + 1);
    for (k = 0; k < n->n_all_of; k++)
        annotate(c, n->all_of[k], v, b, is_obj, 0, depth + 1);
    for (k = 0; k < n->n_any_of; k++)
        if (probe(c, n->any_of[k], v))
            annotate(c, n->any_of[k], v, b, is_obj, 0, depth + 1);
    for (k = 0; k < n->n_one_of; k++)
        if (probe(c, n->one_of[k], v))
            annotate(c, n->one_of[k], v, b, is_obj, 0, depth + 1);
    if (n->if_ != NULL) {
        if (probe(c, n->if_, v)) {
            annotate(c, n->if_, v, b, is_obj, 0, depth + 1);
            annotate(c, n->then_, v, b, is_obj, 0, depth + 1);
        } else {
            annotate(c, n->else_, v, b, is_obj, 0, depth + 1);
        }
    }
}

static int v_uneval(vctx_t *c, const mc__snode_t *n, json_object *v, enum json_type t)
{
    uint64_t stack[MC_SCHEMA_UNEVAL_STACK / 64];
    const mc__snode_t *sub;
    bits_t b;
    size_t count, words, i;
    int is_obj = t == json_type_object, ok = 1;

    if (is_obj && n->uneval_props != NULL)
        sub = n->uneval_props;
    else if (t == json_type_array && n->uneval_items != NULL)
        sub = n->uneval_items;
    else
        return 1;
    count = is_obj ? (size_t)json_object_object_length(v) : json_object_array_length(v);
    if (count == 0)
        return 1;
    words = (count + 63) / 64;
    b.w = count <= MC_SCHEMA_UNEVAL_STACK ? stack : calloc(words, sizeof(uint64_t));
    if (b.w == NULL) {
        c->nomem = 1;
        return 0;
    }
    if (b.w == stack)
        memset(stack, 0, words * sizeof(uint64_t));
    b.n = count;
    annotate(c, n, v, &b, is_obj, 1, 0);
    if (is_obj) {
        struct lh_entry *e;
        for (e = json_object_get_object(v)->head, i = 0; e != NULL; e = e->next, i++) {
            const char *key = (const char *)lh_entry_k(e);
            if (bit_get(&b, i))
                continue;
            if (sub->boolean == 0) {
                ok = 0;
                if (!c->collect)
                    break;
                note(c, MC_SCHEMA_ERROR, n, "unevaluatedProperties", key,
                     "property not allowed (unevaluatedProperties is false)");
            } else if (!child_key(c, sub, (json_object *)lh_entry_v(e), key)) {
                ok = 0;
                if (!c->collect)
                    break;
            }
        }
    } else {
        for (i = 0; i < count; i++) {
            if (bit_get(&b, i))
                continue;
            if (sub->boolean == 0) {
                ok = 0;
                note(c, MC_SCHEMA_ERROR, n, "unevaluatedItems", NULL,
                     "item %zu not allowed (unevaluatedItems is false)", i);
                break;
            }
            if (!child_idx(c, sub, json_object_array_get_idx(v, i), i)) {
                ok = 0;
                if (!c->collect)
                    break;
            }
        }
    }
    if (b.w != stack)
        free(b.w);
    return ok;
}

/* ---- one node ------------------------------------------------------------------ */

static int vbody(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    uint32_t kw = n->kw;
    enum json_type t = json_object_get_type(v);
    int ok = 1;
    size_t i;

    if ((kw & MC__KW_REF) && !vnode(c, n->ref, v))
        FAIL_FAST();
    if ((kw & MC__KW_DYNREF) && !vnode(c, dyn_target(c, n), v))
        FAIL_FAST();
    if ((kw & MC__KW_TYPE) && !v_type(c, n, v, t)) {
        /* Type-specific keywords would only repeat the point. */
        return 0;
    }
    if ((kw & MC__KW_CONST) && !mc__json_equal(v, n->const_v)) {
        FAIL_FAST();
        if (c->collect) {
            char want[120], shown[80];
            render(n->const_v, want, sizeof(want));
            render(v, shown, sizeof(shown));
            note(c, MC_SCHEMA_ERROR, n, "const", NULL, "must be %s, got %s", want, shown);
        }
    }
    if ((kw & MC__KW_ENUM) && !v_enum(c, n, v, t))
        FAIL_FAST();
    switch (t) {
    case json_type_object:
        if ((kw & MC__KW_OBJ_MASK) && !v_object(c, n, v))
            FAIL_FAST();
        break;
    case json_type_array:
        if ((kw & MC__KW_ARR_MASK) && !v_array(c, n, v))
            FAIL_FAST();
        break;
    case json_type_string:
        if ((kw & MC__KW_STR_MASK) && !v_string(c, n, v))
            FAIL_FAST();
        break;
    case json_type_int:
    case json_type_double:
        if ((kw & MC__KW_NUM_MASK) && !v_number(c, n, v))
            FAIL_FAST();
        break;
    default:
        break;
    }
    if (kw & MC__KW_ALLOF) {
        for (i = 0; i < n->n_all_of; i++)
            if (!vnode(c, n->all_of[i], v))
                FAIL_FAST();
    }
    if ((kw & MC__KW_ANYOF) && !v_anyof(c, n, v))
        FAIL_FAST();
    if ((kw & MC__KW_ONEOF) && !v_oneof(c, n, v))
        FAIL_FAST();
    if ((kw & MC__KW_NOT) && probe(c, n->not_, v)) {
        FAIL_FAST();
        note(c, MC_SCHEMA_ERROR, n, "not", NULL, "must not match the \"not\" schema");
    }
    if (kw & MC__KW_IF) {
        const mc__snode_t *branch = probe(c, n->if_, v) ? n->then_ : n->else_;
        if (branch != NULL && !vnode(c, branch, v))
            FAIL_FAST();
    }
    if ((kw & MC__KW_UNEVAL) && !v_uneval(c, n, v, t))
        FAIL_FAST();
    return ok;
}

static int vnode(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    int ok, pushed = 0;

    if (n->boolean >= 0) {
        if (n->boolean)
            return 1;
        note(c, MC_SCHEMA_ERROR, n, "false", NULL, "no value is allowed here (schema false)");
        return 0;
    }
    if (c->depth >= MC_SCHEMA_MAX_DEPTH || c->plen >= MC_SCHEMA_MAX_DEPTH) {
        note(c, MC_SCHEMA_ERROR, n, "$depth", NULL,
             "schema evaluation deeper than %d levels (recursive $ref?)", MC_SCHEMA_MAX_DEPTH);
        return 0;
    }
    if (++c->steps > c->s->max_steps) {
        c->over_budget = 1;
        return 0;
    }
    if (c->s->n_dyn > 0 && (c->n_scope == 0 || c->scope[c->n_scope - 1] != n->res)) {
        c->scope[c->n_scope++] = n->res; /* entering another schema resource */
        pushed = 1;
    }
    c->depth++;
    ok = vbody(c, n, v);
    c->depth--;
    if (pushed)
        c->n_scope--;
    return ok;
}

/* ---- public ------------------------------------------------------------------ */

void mc_schema_report_clear(mc_schema_report_t *r)
{
    r->valid = 1;
    r->n_errors = 0;
    r->n_warnings = 0;
    r->n_entries = 0;
    r->truncated = 0;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t len = src != NULL ? strlen(src) : 0;

    if (len >= cap) {
        len = cap - 1;
        while (len > 0 && ((unsigned char)src[len] & 0xC0) == 0x80)
            len--;
    }
    if (len > 0)
        memcpy(dst, src, len);
    dst[len] = '\0';
}

void mc_schema_report_add(mc_schema_report_t *r, mc_schema_severity_t sev,
                          const char *instance_path, const char *schema_path, const char *keyword,
                          const char *message)
{
    mc_schema_error_t *e;

    if (sev == MC_SCHEMA_ERROR) {
        r->valid = 0;
        r->n_errors++;
    } else {
        r->n_warnings++;
    }
    if (r->n_entries >= MC_SCHEMA_MAX_ERRORS) {
        r->truncated = 1;
        return;
    }
    e = &r->entries[r->n_entries++];
    e->severity = sev;
    copy_str(e->instance_path, sizeof(e->instance_path), instance_path);
    copy_str(e->schema_path, sizeof(e->schema_path), schema_path);
    copy_str(e->keyword, sizeof(e->keyword), keyword);
    snprintf(e->message, sizeof(e->message), "%s: %s",
             instance_path != NULL && instance_path[0] != '\0' ? instance_path : "(root)",
             message != NULL ? message : "");
}

int mc_schema_is_valid(const mc_schema_t *s, const mc_schema_node_t *node, json_object *inst)
{
    vctx_t c;

    c.s = s;
    c.collect = 0;
    c.depth = 0;
    c.lenient_seen = 0;
    c.nomem = 0;
    c.prefix = NULL;
    c.plen = 0;
    c.recs = NULL;
    c.n_recs = c.cap_recs = c.dropped = 0;
    c.steps = 0;
    c.over_budget = 0;
    c.n_scope = 0;
    return vnode(&c, node, inst) && !c.over_budget;
}

int mc_schema_validate(const mc_schema_t *s, const mc_schema_node_t *node, json_object *inst,
                       const char *prefix, mc_schema_report_t *report)
{
    vctx_t c;
    int ok;
    size_t i, errors = 0;

    c.s = s;
    c.collect = 0;
    c.depth = 0;
    c.lenient_seen = 0;
    c.nomem = 0;
    c.prefix = prefix;
    c.plen = 0;
    c.recs = NULL;
    c.n_recs = c.cap_recs = c.dropped = 0;
    c.steps = 0;
    c.over_budget = 0;
    c.n_scope = 0;
    ok = vnode(&c, node, inst);
    if (c.over_budget) {
        /* A cut-short evaluation has no findings worth collecting (and a
         * second pass would cost as much again): one line says why. */
        char msg[MC_SCHEMA_MSG_SIZE];
        snprintf(msg, sizeof(msg),
                 "schema evaluation takes more than %lu steps (nested composition keywords?); "
                 "the value is not accepted",
                 s->max_steps);
        mc_schema_report_add(report, MC_SCHEMA_ERROR, prefix, "#", "$budget", msg);
        return MC_EINVALID;
    }
    if (ok && !c.lenient_seen)
        return MC_OK;

    c.collect = 1;
    c.depth = 0;
    c.steps = 0;
    c.n_scope = 0;
    (void)vnode(&c, node, inst);
    for (i = 0; i < c.n_recs; i++) {
        char where[MC_SCHEMA_PATH_SIZE];
        mc__schema_path(s, c.recs[i].node, c.recs[i].keyword, where, sizeof(where));
        mc_schema_report_add(report, c.recs[i].sev, c.recs[i].inst, where, c.recs[i].keyword,
                             c.recs[i].msg);
        errors += c.recs[i].sev == MC_SCHEMA_ERROR;
    }
    if (c.dropped > 0) {
        report->truncated = 1;
        report->n_errors += c.dropped;
    }
    drop_recs(&c, 0, c.n_recs);
    free(c.recs);
    if (!ok && errors == 0 && c.dropped == 0)
        mc_schema_report_add(report, MC_SCHEMA_ERROR, prefix, "#", "",
                             c.nomem ? "invalid (out of memory while collecting the details)"
                                     : "invalid");
    if (c.nomem) {
        report->valid = report->valid && ok;
        return ok ? MC_OK : MC_ENOMEM;
    }
    if (!ok) {
        report->valid = 0;
        return MC_EINVALID;
    }
    return MC_OK;
}
