/*
 * compile.h - what the schema compiler's files share: compile.c (the walk
 * and mc_schema_compile), keywords.c (each keyword), resolve.c ($id index,
 * dialects, $ref resolution), discrim.c (anyOf discriminators) and snode.c
 * (arena, node map, paths). Nothing outside them includes it; the validator
 * sees the compiled nodes through schema/internal.h.
 */
#ifndef MC_SCHEMA_COMPILE_H
#define MC_SCHEMA_COMPILE_H

#include "schema/internal.h"

/* One compilation in progress. */
typedef struct cctx {
    mc_schema_t *s;
    mc_errbuf_t *eb;
    mc__snode_t **pending; /* nodes whose $ref or $dynamicRef is unresolved */
    size_t n_pending, cap_pending;
    size_t next_pending; /* pending[0..next_pending) are resolved */
    size_t n_nodes;
} cctx_t;

/* ---- snode.c: storage ---- */

/* Zeroed memory owned by the schema (freed with it), or NULL when out of memory. */
void *mc__arena_alloc(mc_schema_t *s, size_t n);
/* A copy of str[0..len) / of str in the arena, or NULL when out of memory. */
char *mc__arena_strndup(mc_schema_t *s, const char *str, size_t len);
char *mc__arena_strdup(mc_schema_t *s, const char *str);

/* The node compiled for schema object key, or NULL. */
mc__snode_t *mc__map_get(const mc_schema_t *s, json_object *key);
/* Records key's node. Returns MC_OK or MC_ENOMEM. */
int mc__map_put(mc_schema_t *s, json_object *key, mc__snode_t *val);

/* ---- compile.c: the walk ---- */

/* Reports a compile error located at node n (+ keyword kw) in c->eb;
 * returns err. */
int mc__cerr(cctx_t *c, int err, const mc__snode_t *n, const char *kw, const char *what);

/*
 * Compiles schema object obj of document doc, under base URI parent_base,
 * reached from parent by loc_kw[loc_key] or loc_kw[loc_index] (for paths),
 * into *out. A schema object compiled before gives its node again. Returns
 * MC_OK or an error (in c->eb).
 */
int mc__compile_node(cctx_t *c, json_object *obj, int doc, const char *parent_base,
                     const mc__snode_t *parent, const char *loc_kw, const char *loc_key,
                     long loc_index, mc__snode_t **out);

/* ---- keywords.c: one schema object's keywords ---- */

/* Compiles v, the subschema at kw[key] of n, into *out. */
int mc__compile_sub(cctx_t *c, mc__snode_t *n, json_object *v, const char *kw, const char *key,
                    const char *base, mc__snode_t **out);
/* The keywords of obj for objects, arrays, strings and numbers, and the
 * others (type, enum, const, allOf/anyOf/oneOf/not/if). */
int mc__compile_object_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base);
int mc__compile_array_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base);
int mc__compile_scalar_kws(cctx_t *c, mc__snode_t *n, json_object *obj);
int mc__compile_generic_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base);
/* Compiles every member of definitions/$defs eagerly. */
int mc__compile_defs(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base);
/* Switches off the validation vocabulary's keywords of n. */
void mc__drop_validation_vocab(mc__snode_t *n);

/* ---- resolve.c: URIs and references ---- */

/* The base URI in force inside obj given its parent's, honouring obj's $id
 * (into out, MC_SCHEMA_MAX_URI bytes). MC_OK or MC_ETOOBIG. */
int mc__base_of(const mc_schema_t *s, json_object *obj, int modern, const char *parent_base,
                char *out);
/* The index of the schema resource named base (added when new), or -1
 * when out of memory. */
int mc__res_index(mc_schema_t *s, const char *base);
/* Adds a document (taking ownership of root), sets its dialect and indexes
 * its $id/$anchor values under base; *out_doc gets its number. */
int mc__add_doc(cctx_t *c, json_object *root, const char *base, int *out_doc);
/* Resolves every pending $ref/$dynamicRef (compiling targets no keyword
 * reached) and the $dynamicAnchor targets. */
int mc__resolve_all(cctx_t *c);

/* ---- discrim.c ---- */

/* Builds the discriminator of every anyOf whose branches demand distinct
 * constants for one property. */
int mc__build_discriminators(mc_schema_t *s);

#endif /* MC_SCHEMA_COMPILE_H */
