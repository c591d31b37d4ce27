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

#include "schema/vctx.h"

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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "minLength", NULL,
                          "is %zu characters long, shorter than the minimum %zu", cp, n->min_len);
            }
        } else if (n->kw & MC__KW_MINLEN) {
            FAIL_FAST();
            mc__vnote(c, MC_SCHEMA_ERROR, n, "minLength", NULL,
                      "is %zu characters long, shorter than the minimum %zu",
                      code_points(str, blen), n->min_len);
        }
        if ((n->kw & MC__KW_MAXLEN) && blen > n->max_len) {
            size_t cp = code_points(str, blen);
            if (cp > n->max_len) {
                FAIL_FAST();
                mc__vnote(c, MC_SCHEMA_ERROR, n, "maxLength", NULL,
                          "is %zu characters long, longer than the maximum %zu", cp, n->max_len);
            }
        }
    }
    if ((n->kw & MC__KW_PATTERN) && !mc__regex_search(c->s, n->pattern, str, blen)) {
        FAIL_FAST();
        mc__vnote(c, MC_SCHEMA_ERROR, n, "pattern", NULL, "does not match the pattern \"%.120s\"",
                  n->pattern->source);
    }
    if ((n->kw & MC__KW_FORMAT) && !mc__format_ok(n->format, str, blen)) {
        char shown[96];
        FAIL_FAST();
        mc__render(v, shown, sizeof(shown));
        mc__vnote(c, MC_SCHEMA_ERROR, n, "format", NULL, "%s is not %s", shown,
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
        mc__render(n->minimum, lim, sizeof(lim));
        mc__vnote(c, MC_SCHEMA_ERROR, n, "minimum", NULL, "must be >= %s", lim);
    }
    if ((n->kw & MC__KW_MAX) && num_cmp(v, n->maximum) > 0) {
        FAIL_FAST();
        mc__render(n->maximum, lim, sizeof(lim));
        mc__vnote(c, MC_SCHEMA_ERROR, n, "maximum", NULL, "must be <= %s", lim);
    }
    if ((n->kw & MC__KW_XMIN) && num_cmp(v, n->xminimum) <= 0) {
        FAIL_FAST();
        mc__render(n->xminimum, lim, sizeof(lim));
        mc__vnote(c, MC_SCHEMA_ERROR, n, "exclusiveMinimum", NULL, "must be > %s", lim);
    }
    if ((n->kw & MC__KW_XMAX) && num_cmp(v, n->xmaximum) >= 0) {
        FAIL_FAST();
        mc__render(n->xmaximum, lim, sizeof(lim));
        mc__vnote(c, MC_SCHEMA_ERROR, n, "exclusiveMaximum", NULL, "must be < %s", lim);
    }
    if ((n->kw & MC__KW_MULT) && !multiple_ok(v, n->multiple_of)) {
        FAIL_FAST();
        mc__render(n->multiple_of, lim, sizeof(lim));
        mc__vnote(c, MC_SCHEMA_ERROR, n, "multipleOf", NULL, "must be a multiple of %s", lim);
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
    mc__types_text(n->types, want, sizeof(want));
    if (bit == MC__T_NUM && (n->types & MC__T_INT) && n->lenient) {
        c->lenient_seen = 1;
        mc__render(v, shown, sizeof(shown));
        mc__vnote(c, MC_SCHEMA_WARNING, n, "type", NULL,
                  "expected integer, got %s; accepted as a documented leniency (%s)", shown,
                  n->lenient_note != NULL ? n->lenient_note : "TypeScript number");
        return 1;
    }
    if (c->collect) {
        if (bit == MC__T_NUM) {
            mc__render(v, shown, sizeof(shown));
            mc__vnote(c, MC_SCHEMA_ERROR, n, "type", NULL, "expected %s, got number %s", want,
                      shown);
        } else {
            mc__vnote(c, MC_SCHEMA_ERROR, n, "type", NULL, "expected %s, got %s", want,
                      mc__type_name_of(v));
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
        mc__render(json_object_array_get_idx(n->enum_v, i), one, sizeof(one));
        o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "", one);
    }
    if (o >= sizeof(list))
        memcpy(list + sizeof(list) - 4, "...", 4);
    mc__render(v, shown, sizeof(shown));
    mc__vnote(c, MC_SCHEMA_ERROR, n, "enum", NULL, "%s is not one of %s", shown, list);
    return 0;
}

/* ---- combinators ------------------------------------------------------------- */

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
                mc__vnode(c, n->any_of[i], v))
                return 1;
        return 0;
    }
    for (i = 0; i < n->n_any_of; i++) {
        if (probe(c, n->any_of[i], v)) {
            if (c->collect)
                (void)mc__vnode(c, n->any_of[i], v); /* its warnings, if any */
            return 1;
        }
    }
    if (c->collect)
        mc__explain_none(c, n, "anyOf", n->any_of, n->n_any_of, v);
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
            (void)mc__vnode(c, n->one_of[first], v);
        return 1;
    }
    if (!c->collect)
        return 0;
    if (matched == 0)
        mc__explain_none(c, n, "oneOf", n->one_of, n->n_one_of, v);
    else
        mc__vnote(c, MC_SCHEMA_ERROR, n, "oneOf", NULL,
                  "matches %zu alternatives of oneOf (#%zu and #%zu), exactly one is allowed",
                  matched, first, second);
    return 0;
}

/* ---- $dynamicRef ------------------------------------------------------------- */

/* The schema a $dynamicRef stands for here: the outermost resource of the
 * dynamic scope that has a $dynamicAnchor of the name, else the static
 * target. */
const mc__snode_t *mc__dyn_target(const vctx_t *c, const mc__snode_t *n)
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

/* ---- one node ------------------------------------------------------------------ */

static int vbody(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    uint32_t kw = n->kw;
    enum json_type t = json_object_get_type(v);
    int ok = 1;
    size_t i;

    if ((kw & MC__KW_REF) && !mc__vnode(c, n->ref, v))
        FAIL_FAST();
    if ((kw & MC__KW_DYNREF) && !mc__vnode(c, mc__dyn_target(c, n), v))
        FAIL_FAST();
    if ((kw & MC__KW_TYPE) && !v_type(c, n, v, t)) {
        /* Type-specific keywords would only repeat the point. */
        return 0;
    }
    if ((kw & MC__KW_CONST) && !mc__json_equal(v, n->const_v)) {
        FAIL_FAST();
        if (c->collect) {
            char want[120], shown[80];
            mc__render(n->const_v, want, sizeof(want));
            mc__render(v, shown, sizeof(shown));
            mc__vnote(c, MC_SCHEMA_ERROR, n, "const", NULL, "must be %s, got %s", want, shown);
        }
    }
    if ((kw & MC__KW_ENUM) && !v_enum(c, n, v, t))
        FAIL_FAST();
    switch (t) {
    case json_type_object:
        if ((kw & MC__KW_OBJ_MASK) && !mc__v_object(c, n, v))
            FAIL_FAST();
        break;
    case json_type_array:
        if ((kw & MC__KW_ARR_MASK) && !mc__v_array(c, n, v))
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
            if (!mc__vnode(c, n->all_of[i], v))
                FAIL_FAST();
    }
    if ((kw & MC__KW_ANYOF) && !v_anyof(c, n, v))
        FAIL_FAST();
    if ((kw & MC__KW_ONEOF) && !v_oneof(c, n, v))
        FAIL_FAST();
    if ((kw & MC__KW_NOT) && probe(c, n->not_, v)) {
        FAIL_FAST();
        mc__vnote(c, MC_SCHEMA_ERROR, n, "not", NULL, "must not match the \"not\" schema");
    }
    if (kw & MC__KW_IF) {
        const mc__snode_t *branch = probe(c, n->if_, v) ? n->then_ : n->else_;
        if (branch != NULL && !mc__vnode(c, branch, v))
            FAIL_FAST();
    }
    if ((kw & MC__KW_UNEVAL) && !mc__v_uneval(c, n, v, t))
        FAIL_FAST();
    return ok;
}

int mc__vnode(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    int ok, pushed = 0;

    if (n->boolean >= 0) {
        if (n->boolean)
            return 1;
        mc__vnote(c, MC_SCHEMA_ERROR, n, "false", NULL, "no value is allowed here (schema false)");
        return 0;
    }
    if (c->depth >= MC_SCHEMA_MAX_DEPTH || c->plen >= MC_SCHEMA_MAX_DEPTH) {
        mc__vnote(c, MC_SCHEMA_ERROR, n, "$depth", NULL,
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
    return mc__vnode(&c, node, inst) && !c.over_budget;
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
    ok = mc__vnode(&c, node, inst);
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
    (void)mc__vnode(&c, node, inst);
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
    mc__drop_recs(&c, 0, c.n_recs);
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
