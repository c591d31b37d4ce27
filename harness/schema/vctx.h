/*
 * vctx.h - what the validator's files share: validate.c (the walk over
 * nodes, scalar keywords, combinators), vobject.c (object and array
 * keywords, unevaluated*) and vreport.c (findings and the report). Nothing
 * else includes it.
 */
#ifndef MC_SCHEMA_VCTX_H
#define MC_SCHEMA_VCTX_H

#include <stdint.h>

#include "schema/internal.h"

/* One instance path segment. */
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

/* ---- validate.c ---- */

/* Evaluates node n against v: 1 when v satisfies it. In the collecting
 * mode (c->collect) the findings are recorded on the way. */
int mc__vnode(vctx_t *c, const mc__snode_t *n, json_object *v);

/* The schema a $dynamicRef of n stands for in the current dynamic scope. */
const mc__snode_t *mc__dyn_target(const vctx_t *c, const mc__snode_t *n);

/* Records a failed check and, in the fast mode, returns 0 at once (used
 * inside the evaluation functions, whose result variable is `ok`). */
#define FAIL_FAST()                                                                                \
    do {                                                                                           \
        ok = 0;                                                                                    \
        if (!c->collect)                                                                           \
            return 0;                                                                              \
    } while (0)

/* Evaluates a member (key) or an item (idx) of the current value, tracking
 * the instance path in the collecting mode. */
static inline int child_key(vctx_t *c, const mc__snode_t *n, json_object *v, const char *key)
{
    int ok;

    if (!c->collect)
        return mc__vnode(c, n, v);
    c->path[c->plen].key = key;
    c->plen++;
    ok = mc__vnode(c, n, v);
    c->plen--;
    return ok;
}

static inline int child_idx(vctx_t *c, const mc__snode_t *n, json_object *v, size_t idx)
{
    int ok;

    if (!c->collect)
        return mc__vnode(c, n, v);
    c->path[c->plen].key = NULL;
    c->path[c->plen].index = idx;
    c->plen++;
    ok = mc__vnode(c, n, v);
    c->plen--;
    return ok;
}

/* Evaluates n in the fast mode whatever the current mode. */
static inline int probe(vctx_t *c, const mc__snode_t *n, json_object *v)
{
    int saved = c->collect, ok;

    c->collect = 0;
    ok = mc__vnode(c, n, v);
    c->collect = saved;
    return ok;
}

/* ---- vobject.c ---- */

/* The object keywords of n on object v, the array keywords on array v, and
 * unevaluatedProperties/unevaluatedItems (t: v's type). */
int mc__v_object(vctx_t *c, const mc__snode_t *n, json_object *v);
int mc__v_array(vctx_t *c, const mc__snode_t *n, json_object *v);
int mc__v_uneval(vctx_t *c, const mc__snode_t *n, json_object *v, enum json_type t);

/* ---- vreport.c ---- */

/* Records a finding (collecting mode only) at the current instance
 * location, plus the token extra when not NULL. */
void mc__note_rec(vctx_t *c, mc_schema_severity_t sev, const mc__snode_t *n, const char *kw,
                  const char *extra, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* mc__note_rec() without a call in the fast mode, where nothing is kept. */
#define mc__vnote(c, ...)                                                                          \
    do {                                                                                           \
        if ((c)->collect)                                                                          \
            mc__note_rec((c), __VA_ARGS__);                                                        \
    } while (0)

/* Frees the records recs[from..to) and closes the gap. */
void mc__drop_recs(vctx_t *c, size_t from, size_t to);

/* A JSON value for a message, cut to cap on a UTF-8 boundary. */
void mc__render(json_object *v, char *out, size_t cap);

/* The JSON type name of v / the names of a type set ("string or null"). */
const char *mc__type_name_of(json_object *v);
void mc__types_text(uint8_t types, char *out, size_t cap);

/* Collecting mode, no alternative of n's kw (anyOf/oneOf) matched v: keeps
 * the findings of the branch that came closest, or says none matched. */
void mc__explain_none(vctx_t *c, const mc__snode_t *n, const char *kw, mc__snode_t *const *alts,
                      size_t n_alts, json_object *v);

#endif /* MC_SCHEMA_VCTX_H */
