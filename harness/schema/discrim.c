/*
 * discrim.c - anyOf discriminators: when every branch of an anyOf demands a
 * distinct constant for one property (a "type" or "method" tag), the
 * validator picks the branch by that value instead of trying each.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/compile.h"

/* ---- anyOf discriminators -------------------------------------------------- */

/* Follows $ref-only nodes. */
static const mc__snode_t *deref(const mc__snode_t *n)
{
    int hops = 0;

    while (n != NULL && n->kw == MC__KW_REF && n->ref != NULL && hops++ < 16)
        n = n->ref;
    return n;
}

static const mc__snode_t *prop_schema(const mc__snode_t *n, const char *name)
{
    size_t len;
    uint32_t h = mc__hash_key(name, &len);
    size_t i;

    if (n == NULL || n->props_cap == 0)
        return NULL;
    for (i = h & (n->props_cap - 1); n->props[i].name != NULL; i = (i + 1) & (n->props_cap - 1))
        if (n->props[i].hash == h && n->props[i].len == len &&
            memcmp(n->props[i].name, name, len) == 0)
            return n->props[i].schema;
    return NULL;
}

/* The const string alternative n demands for a required property (borrowed
 * from the schema document), or NULL. */
static json_object *demanded(const mc__snode_t *n, const char *name)
{
    const mc__snode_t *alt = deref(n), *ps;
    size_t i;
    int required = 0;

    if (alt == NULL || alt->boolean >= 0)
        return NULL;
    for (i = 0; i < alt->n_required && !required; i++)
        required = strcmp(alt->required[i], name) == 0;
    ps = deref(prop_schema(alt, name));
    if (!required || ps == NULL || ps->boolean >= 0 || !(ps->kw & MC__KW_CONST) ||
        !json_object_is_type(ps->const_v, json_type_string))
        return NULL;
    return ps->const_v;
}

static int build_discriminator(mc_schema_t *s, mc__snode_t *n)
{
    const mc__snode_t *first = deref(n->any_of[0]);
    size_t r, i;

    if (first == NULL || first->boolean >= 0)
        return MC_OK;
    for (r = 0; r < first->n_required; r++) {
        const char *name = first->required[r];
        for (i = 0; i < n->n_any_of; i++)
            if (demanded(n->any_of[i], name) == NULL)
                break;
        if (i < n->n_any_of)
            continue;
        n->disc_vals = mc__arena_alloc(s, n->n_any_of * sizeof(*n->disc_vals));
        if (n->disc_vals == NULL)
            return MC_ENOMEM;
        for (i = 0; i < n->n_any_of; i++) {
            json_object *c = demanded(n->any_of[i], name);
            n->disc_vals[i].s = json_object_get_string(c);
            n->disc_vals[i].len = (size_t)json_object_get_string_len(c);
        }
        n->disc_prop = name;
        return MC_OK;
    }
    return MC_OK;
}

int mc__build_discriminators(mc_schema_t *s)
{
    size_t i;
    int rc;

    for (i = 0; i < s->map_cap; i++) {
        mc__snode_t *n = s->map_vals[i];
        if (s->map_keys[i] == NULL || n == NULL || n->n_any_of < 2)
            continue;
        rc = build_discriminator(s, n);
        if (rc != MC_OK)
            return rc;
    }
    return MC_OK;
}
