/*
 * vobject.c - the validator's object and array keywords: properties,
 * required, additionalProperties, patternProperties, propertyNames, the
 * dependency keywords, items/prefixItems, contains, uniqueItems, and the
 * unevaluatedProperties/unevaluatedItems annotations.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/vctx.h"

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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "additionalProperties", k,
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
                    mc__vnote(c, MC_SCHEMA_ERROR, n, "required", n->required[i],
                              "required property missing");
        }
    }
    return ok;
}

int mc__v_object(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    int ok = 1;
    size_t i, count;

    if ((n->kw & MC__KW_PROPS) && !v_props(c, n, v))
        FAIL_FAST();
    if (n->kw & (MC__KW_MINPROPS | MC__KW_MAXPROPS)) {
        count = (size_t)json_object_object_length(v);
        if ((n->kw & MC__KW_MINPROPS) && count < n->min_props) {
            FAIL_FAST();
            mc__vnote(c, MC_SCHEMA_ERROR, n, "minProperties", NULL,
                      "has %zu properties, fewer than the minimum %zu", count, n->min_props);
        }
        if ((n->kw & MC__KW_MAXPROPS) && count > n->max_props) {
            FAIL_FAST();
            mc__vnote(c, MC_SCHEMA_ERROR, n, "maxProperties", NULL,
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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "dependencies", NULL,
                          "property \"%.80s\" requires property \"%.80s\"", d->name,
                          d->required[j]);
            }
            if (d->schema != NULL && !mc__vnode(c, d->schema, v))
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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "propertyNames", k,
                          "property name \"%.80s\" does not match propertyNames", k);
            }
        }
    }
    return ok;
}

/* ---- arrays ---------------------------------------------------------------- */

int mc__v_array(vctx_t *c, const mc__snode_t *n, json_object *v)
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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "additionalItems", NULL,
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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "contains", NULL,
                          "no item matches the \"contains\" schema");
            else
                mc__vnote(c, MC_SCHEMA_ERROR, n, "minContains", NULL,
                          "%zu items match the \"contains\" schema, fewer than %zu", found,
                          n->min_contains);
        }
        if (found > n->max_contains) {
            FAIL_FAST();
            mc__vnote(c, MC_SCHEMA_ERROR, n, "maxContains", NULL,
                      "%zu items match the \"contains\" schema, more than %zu", found,
                      n->max_contains);
        }
    }
    if ((n->kw & MC__KW_MINITEMS) && len < n->min_items) {
        FAIL_FAST();
        mc__vnote(c, MC_SCHEMA_ERROR, n, "minItems", NULL,
                  "has %zu items, fewer than the minimum %zu", len, n->min_items);
    }
    if ((n->kw & MC__KW_MAXITEMS) && len > n->max_items) {
        FAIL_FAST();
        mc__vnote(c, MC_SCHEMA_ERROR, n, "maxItems", NULL,
                  "has %zu items, more than the maximum %zu", len, n->max_items);
    }
    if (n->kw & MC__KW_UNIQUE) {
        for (i = 1; i < len; i++) {
            json_object *a = json_object_array_get_idx(v, i);
            for (j = 0; j < i; j++) {
                if (!mc__json_equal(a, json_object_array_get_idx(v, j)))
                    continue;
                FAIL_FAST();
                mc__vnote(c, MC_SCHEMA_ERROR, n, "uniqueItems", NULL,
                          "items %zu and %zu are equal (uniqueItems)", j, i);
                i = len; /* one finding is enough */
                break;
            }
        }
    }
    return ok;
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
        annotate(c, mc__dyn_target(c, n), v, b, is_obj, 0, depth + 1);
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

int mc__v_uneval(vctx_t *c, const mc__snode_t *n, json_object *v, enum json_type t)
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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "unevaluatedProperties", key,
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
                mc__vnote(c, MC_SCHEMA_ERROR, n, "unevaluatedItems", NULL,
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
