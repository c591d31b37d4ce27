/*
 * snode.c - where compiled schemas live: the arena that holds their nodes
 * and strings, the json_object* -> node map that keeps a schema object's
 * identity, the name hashes, schema paths for messages, and the public
 * accessors and destructor of mc_schema_t.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "schema/compile.h"

/* ---- arena ------------------------------------------------------------- */

#define ARENA_BLOCK (64u * 1024u)
#define ARENA_ALIGN (sizeof(max_align_t))

static size_t align_up(size_t n)
{
    return (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
}

/* Returns zeroed memory owned by the schema, or NULL when out of memory. */
void *mc__arena_alloc(mc_schema_t *s, size_t n)
{
    mc__arena_block_t *b = s->arena;
    size_t hdr = align_up(sizeof(mc__arena_block_t));
    char *p;

    n = align_up(n == 0 ? 1 : n);
    if (b == NULL || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = calloc(1, hdr + cap);
        if (b == NULL)
            return NULL;
        b->cap = cap;
        b->next = s->arena;
        s->arena = b;
    }
    p = (char *)b + hdr + b->used;
    b->used += n;
    return p;
}

char *mc__arena_strndup(mc_schema_t *s, const char *str, size_t len)
{
    char *p = mc__arena_alloc(s, len + 1);

    if (p == NULL)
        return NULL;
    memcpy(p, str, len);
    p[len] = '\0';
    return p;
}

char *mc__arena_strdup(mc_schema_t *s, const char *str)
{
    return mc__arena_strndup(s, str, strlen(str));
}

/* ---- hashing ----------------------------------------------------------- */

uint32_t mc__hash_key(const char *str, size_t *len_out)
{
    *len_out = strlen(str);
    return mc_fnv1a32(MC_FNV1A32_INIT, str, *len_out);
}

uint32_t mc__hash_mem(const char *str, size_t len)
{
    return mc_fnv1a32(MC_FNV1A32_INIT, str, len);
}

/* ---- json_object* -> node map ------------------------------------------ */

static size_t ptr_slot(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;

    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (cap - 1);
}

mc__snode_t *mc__map_get(const mc_schema_t *s, json_object *key)
{
    size_t i;

    if (s->map_cap == 0)
        return NULL;
    for (i = ptr_slot(key, s->map_cap);; i = (i + 1) & (s->map_cap - 1)) {
        if (s->map_keys[i] == NULL)
            return NULL;
        if (s->map_keys[i] == key)
            return s->map_vals[i];
    }
}

int mc__map_put(mc_schema_t *s, json_object *key, mc__snode_t *val)
{
    size_t i;

    if ((s->map_len + 1) * 2 > s->map_cap) {
        size_t ncap = s->map_cap == 0 ? 256 : s->map_cap * 2;
        json_object **nk = calloc(ncap, sizeof(*nk));
        mc__snode_t **nv = calloc(ncap, sizeof(*nv));
        size_t j;

        if (nk == NULL || nv == NULL) {
            free(nk);
            free(nv);
            return MC_ENOMEM;
        }
        for (j = 0; j < s->map_cap; j++) {
            if (s->map_keys[j] == NULL)
                continue;
            for (i = ptr_slot(s->map_keys[j], ncap); nk[i] != NULL; i = (i + 1) & (ncap - 1))
                ;
            nk[i] = s->map_keys[j];
            nv[i] = s->map_vals[j];
        }
        free(s->map_keys);
        free(s->map_vals);
        s->map_keys = nk;
        s->map_vals = nv;
        s->map_cap = ncap;
    }
    for (i = ptr_slot(key, s->map_cap); s->map_keys[i] != NULL; i = (i + 1) & (s->map_cap - 1))
        ;
    s->map_keys[i] = key;
    s->map_vals[i] = val;
    s->map_len++;
    return MC_OK;
}

void mc_schema_free(mc_schema_t *s)
{
    mc__arena_block_t *b, *next;
    size_t i;
    int d;

    if (s == NULL)
        return;
    for (i = 0; i < s->n_regexes; i++)
        regfree(&s->regexes[i]->re);
    free(s->regexes);
    for (d = 0; d < s->n_docs; d++)
        json_object_put(s->docs[d].root);
    free(s->map_keys);
    free(s->map_vals);
    free(s->ids);
    free(s->res);
    free(s->dyn);
    if (s->utf8 != (locale_t)0)
        freelocale(s->utf8);
    for (b = s->arena; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    free(s);
}

const mc_schema_node_t *mc_schema_root(const mc_schema_t *s)
{
    return s->root;
}

json_object *mc_schema_document(const mc_schema_t *s)
{
    return s->docs[0].root;
}

json_object *mc_schema_definition_json(const mc_schema_t *s, const char *name)
{
    json_object *defs, *def;
    json_object *root = s->docs[0].root;

    if (json_object_object_get_ex(root, "$defs", &defs) &&
        json_object_object_get_ex(defs, name, &def))
        return def;
    if (json_object_object_get_ex(root, "definitions", &defs) &&
        json_object_object_get_ex(defs, name, &def))
        return def;
    return NULL;
}

const mc_schema_node_t *mc_schema_definition(const mc_schema_t *s, const char *name)
{
    json_object *def = mc_schema_definition_json(s, name);

    return def != NULL ? mc__map_get(s, def) : NULL;
}

/* ---- schema paths -------------------------------------------------------- */

static size_t append(char *out, size_t cap, size_t o, const char *str)
{
    while (*str != '\0' && o + 1 < cap)
        out[o++] = *str++;
    out[o] = '\0';
    return o;
}

static size_t append_escaped(char *out, size_t cap, size_t o, const char *str)
{
    for (; *str != '\0' && o + 1 < cap; str++) {
        if (*str == '~' || *str == '/') {
            if (o + 2 >= cap)
                break;
            out[o++] = '~';
            out[o++] = *str == '~' ? '0' : '1';
        } else if ((unsigned char)*str < 0x20) {
            out[o++] = '?';
        } else {
            out[o++] = *str;
        }
    }
    out[o] = '\0';
    return o;
}

void mc__schema_path(const mc_schema_t *s, const mc__snode_t *node, const char *keyword, char *out,
                     size_t cap)
{
    const mc__snode_t *chain[128];
    size_t depth = 0, o = 0;
    char num[32];

    if (cap == 0)
        return;
    out[0] = '\0';
    if (node != NULL && node->doc != 0)
        o = append(out, cap, o, s->docs[node->doc].base);
    o = append(out, cap, o, "#");
    while (node != NULL && depth < sizeof(chain) / sizeof(chain[0])) {
        chain[depth++] = node;
        node = node->parent;
    }
    while (depth > 0) {
        const mc__snode_t *n = chain[--depth];
        if (n->loc_kw == NULL)
            continue;
        if (n->parent == NULL) {
            o = append(out, cap, o, n->loc_kw); /* an escaped pointer already */
            continue;
        }
        o = append(out, cap, o, "/");
        o = append(out, cap, o, n->loc_kw);
        if (n->loc_key != NULL) {
            o = append(out, cap, o, "/");
            o = append_escaped(out, cap, o, n->loc_key);
        } else if (n->loc_index >= 0) {
            snprintf(num, sizeof(num), "/%ld", n->loc_index);
            o = append(out, cap, o, num);
        }
    }
    if (keyword != NULL) {
        o = append(out, cap, o, "/");
        append(out, cap, o, keyword);
    }
}
