/*
 * lenient.c - documented leniencies: integer-typed places of a definition
 * that accept a number with a fraction, reported as a warning with the
 * leniency's note instead of an error (mc_schema_mark_lenient_integer).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/compile.h"

/* ---- leniency marking ---------------------------------------------------- */

#define LEN_MAX_SET 64

/* Adds n and everything it stands for (through $ref and combinators). */
static void expand(mc__snode_t *n, mc__snode_t **set, size_t *count, int depth)
{
    size_t i;

    if (n == NULL || depth > 16 || *count >= LEN_MAX_SET)
        return;
    for (i = 0; i < *count; i++)
        if (set[i] == n)
            return;
    set[(*count)++] = n;
    expand(n->ref, set, count, depth + 1);
    for (i = 0; i < n->n_all_of; i++)
        expand(n->all_of[i], set, count, depth + 1);
    for (i = 0; i < n->n_any_of; i++)
        expand(n->any_of[i], set, count, depth + 1);
    for (i = 0; i < n->n_one_of; i++)
        expand(n->one_of[i], set, count, depth + 1);
}

static mc__snode_t *prop_lookup(mc__snode_t *n, const char *name, size_t len)
{
    uint32_t h = mc__hash_mem(name, len);
    size_t i;

    if (n->props_cap == 0)
        return NULL;
    for (i = h & (n->props_cap - 1); n->props[i].name != NULL; i = (i + 1) & (n->props_cap - 1))
        if (n->props[i].hash == h && n->props[i].len == len &&
            memcmp(n->props[i].name, name, len) == 0)
            return n->props[i].schema;
    return NULL;
}

int mc_schema_mark_lenient_integer(mc_schema_t *s, const char *def, const char *path,
                                   const char *note)
{
    mc__snode_t *cur[LEN_MAX_SET], *next[LEN_MAX_SET];
    size_t n_cur = 0, n_next, i;
    const char *p = path;
    const mc_schema_node_t *start = mc_schema_definition(s, def);
    int marked = 0;

    if (start == NULL)
        return 0;
    expand((mc__snode_t *)start, cur, &n_cur, 0);
    while (p != NULL && *p != '\0') {
        const char *slash = strchr(p, '/');
        size_t len = slash != NULL ? (size_t)(slash - p) : strlen(p);
        n_next = 0;
        for (i = 0; i < n_cur; i++) {
            mc__snode_t *child;
            if (len == 1 && p[0] == '*')
                child = cur[i]->additional;
            else if (len == 2 && p[0] == '[' && p[1] == ']')
                child = cur[i]->items;
            else
                child = prop_lookup(cur[i], p, len);
            expand(child, next, &n_next, 0);
        }
        memcpy(cur, next, n_next * sizeof(*cur));
        n_cur = n_next;
        p = slash != NULL ? slash + 1 : NULL;
    }
    for (i = 0; i < n_cur; i++) {
        if ((cur[i]->kw & MC__KW_TYPE) && (cur[i]->types & MC__T_INT) &&
            !(cur[i]->types & MC__T_NUM)) {
            cur[i]->lenient = 1;
            cur[i]->lenient_note = note;
            marked++;
        }
    }
    return marked;
}
