/*
 * keywords.c - what each keyword compiles to: the checks of one schema
 * object (objects, arrays, strings and numbers, types, enum/const, the
 * in-place applicators), its definitions, and the validation vocabulary's
 * removal under a meta-schema without it. mc__compile_node() (compile.c)
 * calls them for every schema object.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/compile.h"

/* Reads a non-negative integer keyword value (1.0 accepted). */
static int read_count(json_object *v, size_t *out)
{
    if (json_object_is_type(v, json_type_int)) {
        int64_t i = json_object_get_int64(v);
        if (i < 0)
            return 0;
        *out = (size_t)i;
        return 1;
    }
    if (json_object_is_type(v, json_type_double)) {
        double d = json_object_get_double(v);
        if (!(d >= 0) || d != floor(d) || d > 9.0e15)
            return 0;
        *out = (size_t)d;
        return 1;
    }
    return 0;
}

static int is_number(json_object *v)
{
    return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

static int type_bit(const char *name, uint8_t *bit)
{
    static const struct {
        const char *name;
        uint8_t bit;
    } types[] = {{"null", MC__T_NULL},  {"boolean", MC__T_BOOL}, {"integer", MC__T_INT},
                 {"number", MC__T_NUM}, {"string", MC__T_STR},   {"array", MC__T_ARR},
                 {"object", MC__T_OBJ}};
    size_t i;

    for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (strcmp(name, types[i].name) == 0) {
            *bit = types[i].bit;
            return 1;
        }
    }
    return 0;
}

/* Compiles an array of subschemas (allOf/anyOf/oneOf/items/prefixItems). */
static int compile_array(cctx_t *c, mc__snode_t *n, json_object *arr, const char *kw,
                         const char *base, mc__snode_t ***out, size_t *count, int allow_empty)
{
    size_t i, len;
    mc__snode_t **v;
    int rc;

    if (!json_object_is_type(arr, json_type_array))
        return mc__cerr(c, MC_ESCHEMA, n, kw, "must be an array of schemas");
    len = json_object_array_length(arr);
    if (len == 0 && !allow_empty)
        return mc__cerr(c, MC_ESCHEMA, n, kw, "must not be empty");
    v = mc__arena_alloc(c->s, (len == 0 ? 1 : len) * sizeof(*v));
    if (v == NULL)
        return MC_ENOMEM;
    for (i = 0; i < len; i++) {
        rc = mc__compile_node(c, json_object_array_get_idx(arr, i), n->doc, base, n, kw, NULL,
                              (long)i, &v[i]);
        if (rc != MC_OK)
            return rc;
    }
    *out = v;
    *count = len;
    return MC_OK;
}

int mc__compile_sub(cctx_t *c, mc__snode_t *n, json_object *v, const char *kw, const char *key,
                    const char *base, mc__snode_t **out)
{
    return mc__compile_node(c, v, n->doc, base, n, kw, key, -1, out);
}

static int compile_regex(cctx_t *c, mc__snode_t *n, const char *kw, const char *src,
                         mc__pattern_t *p)
{
    char ere[4096];
    mc_errbuf_t eb;
    locale_t old = (locale_t)0;
    int rc;

    mc_errbuf_clear(&eb);
    rc = mc__regex_translate(src, ere, sizeof(ere), &eb);
    if (rc != MC_OK) {
        char what[MC_ERRBUF_SIZE];
        snprintf(what, sizeof(what), "pattern \"%.120s\": %.300s", src,
                 eb.set ? eb.msg : mc_strerror(rc));
        return mc__cerr(c, rc, n, kw, what);
    }
    if (c->s->utf8 != (locale_t)0)
        old = uselocale(c->s->utf8);
    rc = regcomp(&p->re, ere, REG_EXTENDED | REG_NOSUB);
    if (c->s->utf8 != (locale_t)0)
        uselocale(old);
    if (rc != 0) {
        char what[MC_ERRBUF_SIZE];
        char rerr[128];
        regerror(rc, NULL, rerr, sizeof(rerr));
        snprintf(what, sizeof(what), "pattern \"%.120s\" does not compile: %s", src, rerr);
        return mc__cerr(c, MC_ESCHEMA, n, kw, what);
    }
    p->source = src;
    if (c->s->n_regexes == c->s->regexes_cap) {
        size_t ncap = c->s->regexes_cap == 0 ? 8 : c->s->regexes_cap * 2;
        mc__pattern_t **nr = realloc(c->s->regexes, ncap * sizeof(*nr));
        if (nr == NULL) {
            regfree(&p->re);
            return MC_ENOMEM;
        }
        c->s->regexes = nr;
        c->s->regexes_cap = ncap;
    }
    c->s->regexes[c->s->n_regexes++] = p;
    return MC_OK;
}

/* Finds or inserts a name in the node's property table. */
static mc__prop_t *prop_slot(mc__snode_t *n, const char *name)
{
    size_t len;
    uint32_t h = mc__hash_key(name, &len);
    size_t i;

    for (i = h & (n->props_cap - 1);; i = (i + 1) & (n->props_cap - 1)) {
        mc__prop_t *p = &n->props[i];
        if (p->name == NULL) {
            p->name = name;
            p->len = len;
            p->hash = h;
            p->req_bit = -1;
            return p;
        }
        if (p->hash == h && p->len == len && memcmp(p->name, name, len) == 0)
            return p;
    }
}

/* properties and required: one hash table of the names either mentions. */
static int compile_props(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    json_object *props = NULL, *req = NULL;
    size_t n_names = 0, cap, i;
    int has_props, has_req;
    struct lh_entry *e;
    uint64_t bits = 0;
    int next_bit = 0;
    int rc;

    has_props = json_object_object_get_ex(obj, "properties", &props);
    has_req = json_object_object_get_ex(obj, "required", &req);
    if (has_props && !json_object_is_type(props, json_type_object))
        return mc__cerr(c, MC_ESCHEMA, n, "properties", "must be an object");
    if (has_req && !json_object_is_type(req, json_type_array))
        return mc__cerr(c, MC_ESCHEMA, n, "required", "must be an array of strings");
    if (!has_props && !has_req)
        return MC_OK;
    if (has_props)
        n_names += (size_t)json_object_object_length(props);
    if (has_req)
        n_names += json_object_array_length(req);
    n->kw |= MC__KW_PROPS;
    for (cap = 4; cap < n_names * 2; cap *= 2)
        ;
    n->props = mc__arena_alloc(c->s, cap * sizeof(*n->props));
    if (n->props == NULL)
        return MC_ENOMEM;
    n->props_cap = cap;
    if (has_props) {
        for (e = json_object_get_object(props)->head; e != NULL; e = e->next) {
            const char *k = (const char *)lh_entry_k(e);
            mc__prop_t *p = prop_slot(n, k);
            rc = mc__compile_sub(c, n, (json_object *)lh_entry_v(e), "properties", k, base,
                                 &p->schema);
            if (rc != MC_OK)
                return rc;
            n->n_props++;
        }
    }
    if (has_req) {
        size_t len = json_object_array_length(req);
        n->required = mc__arena_alloc(c->s, (len + 1) * sizeof(*n->required));
        if (n->required == NULL)
            return MC_ENOMEM;
        for (i = 0; i < len; i++) {
            json_object *r = json_object_array_get_idx(req, i);
            mc__prop_t *p;
            if (!json_object_is_type(r, json_type_string))
                return mc__cerr(c, MC_ESCHEMA, n, "required", "must be an array of strings");
            p = prop_slot(n, json_object_get_string(r));
            if (p->req_bit < 0)
                p->req_bit = next_bit++;
            if (p->req_bit < 64)
                bits |= (uint64_t)1 << p->req_bit;
            n->required[n->n_required++] = json_object_get_string(r);
        }
    }
    n->req_mask = bits;
    n->n_req_unique = (size_t)next_bit;
    return MC_OK;
}

/* patternProperties (v, present in the schema). */
static int compile_pattern_props(cctx_t *c, mc__snode_t *n, json_object *v, const char *base)
{
    struct lh_entry *e;
    size_t k = 0;
    int rc;

    if (!json_object_is_type(v, json_type_object))
        return mc__cerr(c, MC_ESCHEMA, n, "patternProperties", "must be an object");
    n->kw |= MC__KW_PROPS;
    n->n_pprops = (size_t)json_object_object_length(v);
    n->pprops = mc__arena_alloc(c->s, (n->n_pprops + 1) * sizeof(*n->pprops));
    if (n->pprops == NULL)
        return MC_ENOMEM;
    for (e = json_object_get_object(v)->head; e != NULL; e = e->next, k++) {
        const char *pat = (const char *)lh_entry_k(e);
        rc = compile_regex(c, n, "patternProperties", pat, &n->pprops[k]);
        if (rc != MC_OK)
            return rc;
        rc = mc__compile_sub(c, n, (json_object *)lh_entry_v(e), "patternProperties", pat, base,
                             &n->pprops[k].schema);
        if (rc != MC_OK)
            return rc;
    }
    return MC_OK;
}

/* One member of dependencies / dependentRequired / dependentSchemas (kind k
 * 0, 1, 2): a list of names, or a schema. */
static int compile_dep(cctx_t *c, mc__snode_t *n, size_t k, const char *kw, const char *name,
                       json_object *dv, const char *base, mc__dep_t *dep)
{
    size_t i;

    dep->name = name;
    if (k != 2 && json_object_is_type(dv, json_type_array)) {
        size_t len = json_object_array_length(dv);
        dep->required = mc__arena_alloc(c->s, (len + 1) * sizeof(*dep->required));
        if (dep->required == NULL)
            return MC_ENOMEM;
        for (i = 0; i < len; i++) {
            json_object *r = json_object_array_get_idx(dv, i);
            if (!json_object_is_type(r, json_type_string))
                return mc__cerr(c, MC_ESCHEMA, n, kw, "property lists must hold strings");
            dep->required[dep->n_required++] = json_object_get_string(r);
        }
        return MC_OK;
    }
    if (k == 1)
        return mc__cerr(c, MC_ESCHEMA, n, kw, "values must be arrays of strings");
    return mc__compile_sub(c, n, dv, kw, name, base, &dep->schema);
}

/* dependencies, dependentRequired and dependentSchemas, into one list. */
static int compile_deps(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    static const char *const dep_kws[] = {"dependencies", "dependentRequired", "dependentSchemas"};
    size_t total = 0, k, d = 0;
    json_object *v;
    int rc;

    for (k = 0; k < 3; k++) {
        if (!json_object_object_get_ex(obj, dep_kws[k], &v))
            continue;
        if (!json_object_is_type(v, json_type_object))
            return mc__cerr(c, MC_ESCHEMA, n, dep_kws[k], "must be an object");
        total += (size_t)json_object_object_length(v);
    }
    if (total > 0) {
        n->deps = mc__arena_alloc(c->s, total * sizeof(*n->deps));
        if (n->deps == NULL)
            return MC_ENOMEM;
        n->kw |= MC__KW_DEPS;
    }
    for (k = 0; k < 3; k++) {
        struct lh_entry *e;
        if (!json_object_object_get_ex(obj, dep_kws[k], &v))
            continue;
        for (e = json_object_get_object(v)->head; e != NULL; e = e->next) {
            rc = compile_dep(c, n, k, dep_kws[k], (const char *)lh_entry_k(e),
                             (json_object *)lh_entry_v(e), base, &n->deps[d++]);
            if (rc != MC_OK)
                return rc;
        }
    }
    n->n_deps = d;
    return MC_OK;
}

int mc__compile_object_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    json_object *v;
    int rc;

    rc = compile_props(c, n, obj, base);
    if (rc != MC_OK)
        return rc;
    if (json_object_object_get_ex(obj, "additionalProperties", &v)) {
        n->kw |= MC__KW_PROPS;
        rc = mc__compile_sub(c, n, v, "additionalProperties", NULL, base, &n->additional);
        if (rc != MC_OK)
            return rc;
    }
    if (json_object_object_get_ex(obj, "patternProperties", &v)) {
        rc = compile_pattern_props(c, n, v, base);
        if (rc != MC_OK)
            return rc;
    }
    if (json_object_object_get_ex(obj, "propertyNames", &v)) {
        n->kw |= MC__KW_PROPNAMES;
        rc = mc__compile_sub(c, n, v, "propertyNames", NULL, base, &n->property_names);
        if (rc != MC_OK)
            return rc;
    }
    if (json_object_object_get_ex(obj, "minProperties", &v)) {
        if (!read_count(v, &n->min_props))
            return mc__cerr(c, MC_ESCHEMA, n, "minProperties", "must be a non-negative integer");
        n->kw |= MC__KW_MINPROPS;
    }
    if (json_object_object_get_ex(obj, "maxProperties", &v)) {
        if (!read_count(v, &n->max_props))
            return mc__cerr(c, MC_ESCHEMA, n, "maxProperties", "must be a non-negative integer");
        n->kw |= MC__KW_MAXPROPS;
    }
    return compile_deps(c, n, obj, base);
}

int mc__compile_array_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    json_object *v;
    int rc;

    if (json_object_object_get_ex(obj, "prefixItems", &v)) {
        rc = compile_array(c, n, v, "prefixItems", base, &n->tuple, &n->n_tuple, 0);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_ITEMS;
    }
    if (json_object_object_get_ex(obj, "items", &v)) {
        n->kw |= MC__KW_ITEMS;
        if (json_object_is_type(v, json_type_array)) {
            rc = compile_array(c, n, v, "items", base, &n->tuple, &n->n_tuple, 1);
            if (rc != MC_OK)
                return rc;
            if (json_object_object_get_ex(obj, "additionalItems", &v)) {
                rc = mc__compile_sub(c, n, v, "additionalItems", NULL, base, &n->additional_items);
                if (rc != MC_OK)
                    return rc;
            }
        } else {
            rc = mc__compile_sub(c, n, v, "items", NULL, base, &n->items);
            if (rc != MC_OK)
                return rc;
        }
    }
    if (json_object_object_get_ex(obj, "contains", &v)) {
        n->kw |= MC__KW_CONTAINS;
        rc = mc__compile_sub(c, n, v, "contains", NULL, base, &n->contains);
        if (rc != MC_OK)
            return rc;
        n->min_contains = 1;
        n->max_contains = SIZE_MAX;
        if (json_object_object_get_ex(obj, "minContains", &v) && !read_count(v, &n->min_contains))
            return mc__cerr(c, MC_ESCHEMA, n, "minContains", "must be a non-negative integer");
        if (json_object_object_get_ex(obj, "maxContains", &v) && !read_count(v, &n->max_contains))
            return mc__cerr(c, MC_ESCHEMA, n, "maxContains", "must be a non-negative integer");
    }
    if (json_object_object_get_ex(obj, "minItems", &v)) {
        if (!read_count(v, &n->min_items))
            return mc__cerr(c, MC_ESCHEMA, n, "minItems", "must be a non-negative integer");
        n->kw |= MC__KW_MINITEMS;
    }
    if (json_object_object_get_ex(obj, "maxItems", &v)) {
        if (!read_count(v, &n->max_items))
            return mc__cerr(c, MC_ESCHEMA, n, "maxItems", "must be a non-negative integer");
        n->kw |= MC__KW_MAXITEMS;
    }
    if (json_object_object_get_ex(obj, "uniqueItems", &v)) {
        if (!json_object_is_type(v, json_type_boolean))
            return mc__cerr(c, MC_ESCHEMA, n, "uniqueItems", "must be a boolean");
        if (json_object_get_boolean(v))
            n->kw |= MC__KW_UNIQUE;
    }
    return MC_OK;
}

int mc__compile_scalar_kws(cctx_t *c, mc__snode_t *n, json_object *obj)
{
    json_object *v;
    int rc;

    if (json_object_object_get_ex(obj, "minLength", &v)) {
        if (!read_count(v, &n->min_len))
            return mc__cerr(c, MC_ESCHEMA, n, "minLength", "must be a non-negative integer");
        n->kw |= MC__KW_MINLEN;
    }
    if (json_object_object_get_ex(obj, "maxLength", &v)) {
        if (!read_count(v, &n->max_len))
            return mc__cerr(c, MC_ESCHEMA, n, "maxLength", "must be a non-negative integer");
        n->kw |= MC__KW_MAXLEN;
    }
    if (json_object_object_get_ex(obj, "pattern", &v)) {
        if (!json_object_is_type(v, json_type_string))
            return mc__cerr(c, MC_ESCHEMA, n, "pattern", "must be a string");
        n->pattern = mc__arena_alloc(c->s, sizeof(*n->pattern));
        if (n->pattern == NULL)
            return MC_ENOMEM;
        rc = compile_regex(c, n, "pattern", json_object_get_string(v), n->pattern);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_PATTERN;
    }
    if (json_object_object_get_ex(obj, "format", &v)) {
        if (!json_object_is_type(v, json_type_string))
            return mc__cerr(c, MC_ESCHEMA, n, "format", "must be a string");
        n->format_name = json_object_get_string(v);
        n->format = mc__format_id(n->format_name);
        if (n->format != MC__FMT_NONE && c->s->docs[n->doc].formats)
            n->kw |= MC__KW_FORMAT;
    }
    {
        static const struct {
            const char *kw;
            uint32_t bit;
        } nums[] = {{"minimum", MC__KW_MIN},
                    {"maximum", MC__KW_MAX},
                    {"exclusiveMinimum", MC__KW_XMIN},
                    {"exclusiveMaximum", MC__KW_XMAX},
                    {"multipleOf", MC__KW_MULT}};
        size_t i;
        for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
            if (!json_object_object_get_ex(obj, nums[i].kw, &v))
                continue;
            if (!is_number(v))
                return mc__cerr(c, MC_ESCHEMA, n, nums[i].kw, "must be a number");
            n->kw |= nums[i].bit;
            switch (nums[i].bit) {
            case MC__KW_MIN:
                n->minimum = v;
                break;
            case MC__KW_MAX:
                n->maximum = v;
                break;
            case MC__KW_XMIN:
                n->xminimum = v;
                break;
            case MC__KW_XMAX:
                n->xmaximum = v;
                break;
            default:
                if (!(json_object_get_double(v) > 0))
                    return mc__cerr(c, MC_ESCHEMA, n, "multipleOf", "must be greater than 0");
                n->multiple_of = v;
                break;
            }
        }
    }
    return MC_OK;
}

int mc__compile_generic_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    json_object *v;
    int rc;

    if (json_object_object_get_ex(obj, "type", &v)) {
        uint8_t bit;
        n->kw |= MC__KW_TYPE;
        if (json_object_is_type(v, json_type_string)) {
            if (!type_bit(json_object_get_string(v), &bit))
                return mc__cerr(c, MC_ESCHEMA, n, "type", "unknown type name");
            n->types = bit;
        } else if (json_object_is_type(v, json_type_array)) {
            size_t i, len = json_object_array_length(v);
            for (i = 0; i < len; i++) {
                json_object *t = json_object_array_get_idx(v, i);
                if (!json_object_is_type(t, json_type_string) ||
                    !type_bit(json_object_get_string(t), &bit))
                    return mc__cerr(c, MC_ESCHEMA, n, "type", "unknown type name");
                n->types |= bit;
            }
        } else {
            return mc__cerr(c, MC_ESCHEMA, n, "type", "must be a type name or an array of them");
        }
        if (n->types & MC__T_NUM)
            n->types |= MC__T_INT;
    }
    if (json_object_object_get_ex(obj, "enum", &v)) {
        size_t i, len;
        if (!json_object_is_type(v, json_type_array))
            return mc__cerr(c, MC_ESCHEMA, n, "enum", "must be an array");
        n->kw |= MC__KW_ENUM;
        n->enum_v = v;
        len = json_object_array_length(v);
        n->n_enum = len;
        n->enum_strs = 1;
        for (i = 0; i < len; i++)
            if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string))
                n->enum_strs = 0;
        if (n->enum_strs) {
            n->enum_s = mc__arena_alloc(c->s, (len + 1) * sizeof(*n->enum_s));
            if (n->enum_s == NULL)
                return MC_ENOMEM;
            for (i = 0; i < len; i++) {
                json_object *e = json_object_array_get_idx(v, i);
                n->enum_s[i].s = json_object_get_string(e);
                n->enum_s[i].len = (size_t)json_object_get_string_len(e);
            }
        }
    }
    if (json_object_object_get_ex(obj, "const", &v)) {
        n->kw |= MC__KW_CONST;
        n->const_v = v;
    }
    if (json_object_object_get_ex(obj, "allOf", &v)) {
        rc = compile_array(c, n, v, "allOf", base, &n->all_of, &n->n_all_of, 0);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_ALLOF;
    }
    if (json_object_object_get_ex(obj, "anyOf", &v)) {
        rc = compile_array(c, n, v, "anyOf", base, &n->any_of, &n->n_any_of, 0);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_ANYOF;
    }
    if (json_object_object_get_ex(obj, "oneOf", &v)) {
        rc = compile_array(c, n, v, "oneOf", base, &n->one_of, &n->n_one_of, 0);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_ONEOF;
    }
    if (json_object_object_get_ex(obj, "not", &v)) {
        rc = mc__compile_sub(c, n, v, "not", NULL, base, &n->not_);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_NOT;
    }
    if (json_object_object_get_ex(obj, "if", &v)) {
        rc = mc__compile_sub(c, n, v, "if", NULL, base, &n->if_);
        if (rc == MC_OK && json_object_object_get_ex(obj, "then", &v))
            rc = mc__compile_sub(c, n, v, "then", NULL, base, &n->then_);
        if (rc == MC_OK && json_object_object_get_ex(obj, "else", &v))
            rc = mc__compile_sub(c, n, v, "else", NULL, base, &n->else_);
        if (rc != MC_OK)
            return rc;
        if (n->then_ != NULL || n->else_ != NULL)
            n->kw |= MC__KW_IF;
    }
    return MC_OK;
}

/* Compiles every member of definitions/$defs eagerly. */
int mc__compile_defs(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    static const char *const kws[] = {"definitions", "$defs"};
    size_t k;
    json_object *v;
    int rc;

    for (k = 0; k < 2; k++) {
        struct lh_entry *e;
        mc__snode_t *ignored;
        if (!json_object_object_get_ex(obj, kws[k], &v))
            continue;
        if (!json_object_is_type(v, json_type_object))
            return mc__cerr(c, MC_ESCHEMA, n, kws[k], "must be an object");
        for (e = json_object_get_object(v)->head; e != NULL; e = e->next) {
            rc = mc__compile_sub(c, n, (json_object *)lh_entry_v(e), kws[k],
                                 (const char *)lh_entry_k(e), base, &ignored);
            if (rc != MC_OK)
                return rc;
        }
    }
    return MC_OK;
}

/* Under a meta-schema without the validation vocabulary, the keywords of
 * that vocabulary are not assertions: they are switched off. */
void mc__drop_validation_vocab(mc__snode_t *n)
{
    size_t i;

    n->kw &= ~(uint32_t)(MC__KW_TYPE | MC__KW_ENUM | MC__KW_CONST | MC__KW_MINPROPS |
                         MC__KW_MAXPROPS | MC__KW_MINITEMS | MC__KW_MAXITEMS | MC__KW_UNIQUE |
                         MC__KW_MINLEN | MC__KW_MAXLEN | MC__KW_PATTERN | MC__KW_MIN | MC__KW_MAX |
                         MC__KW_XMIN | MC__KW_XMAX | MC__KW_MULT);
    n->n_required = 0;
    n->req_mask = 0;
    n->n_req_unique = 0;
    for (i = 0; i < n->props_cap; i++)
        n->props[i].req_bit = -1;
    for (i = 0; i < n->n_deps; i++)
        n->deps[i].n_required = 0;
    if (n->contains != NULL) {
        n->min_contains = 1;
        n->max_contains = SIZE_MAX;
    }
}
