/*
 * compile.c - turns a JSON Schema document into mc__snode_t trees.
 *
 * Compilation walks the document from its root and every definition, makes
 * one node per schema object (a json_object* -> node map keeps the identity,
 * so recursion through $ref meets an existing node), indexes $id/$anchor
 * URIs, compiles regular expressions, and finally resolves every $ref in a
 * worklist: resolving may compile new subtrees (pointers into non-keyword
 * places, other documents), whose own refs join the list.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/compile.h"

/* ---- compile context ----------------------------------------------------- */

static int push_pending(cctx_t *c, mc__snode_t *n)
{
    if (c->n_pending == c->cap_pending) {
        size_t ncap = c->cap_pending == 0 ? 64 : c->cap_pending * 2;
        mc__snode_t **np = realloc(c->pending, ncap * sizeof(*np));

        if (np == NULL)
            return MC_ENOMEM;
        c->pending = np;
        c->cap_pending = ncap;
    }
    c->pending[c->n_pending++] = n;
    return MC_OK;
}

/* Reports a compile error located at node (+keyword). */
int mc__cerr(cctx_t *c, int err, const mc__snode_t *n, const char *kw, const char *what)
{
    char where[MC_SCHEMA_PATH_SIZE];

    mc__schema_path(c->s, n, kw, where, sizeof(where));
    return mc_errbuf_set(c->eb, err, "schema %s: %s", where, what);
}

/* ---- node compilation ---------------------------------------------------- */

int mc__compile_node(cctx_t *c, json_object *obj, int doc, const char *parent_base,
                     const mc__snode_t *parent, const char *loc_kw, const char *loc_key,
                     long loc_index, mc__snode_t **out)
{
    mc_schema_t *s = c->s;
    mc__snode_t *n = mc__map_get(s, obj);
    char base[MC_SCHEMA_MAX_URI];
    json_object *v;
    int modern = s->docs[doc].modern;
    int rc;

    if (n != NULL) {
        *out = n;
        return MC_OK;
    }
    if (++c->n_nodes > MC_SCHEMA_MAX_NODES)
        return mc_errbuf_set(c->eb, MC_EFULL, "schema has more than %u subschemas",
                             MC_SCHEMA_MAX_NODES);
    n = mc__arena_alloc(s, sizeof(*n));
    if (n == NULL)
        return MC_ENOMEM;
    n->parent = parent;
    n->loc_kw = loc_kw;
    n->loc_key = loc_key;
    n->loc_index = loc_index;
    n->doc = doc;
    n->src = obj;
    n->boolean = -1;
    n->res = mc__res_index(s, parent_base);
    if (n->res < 0)
        return MC_ENOMEM;
    if (obj == NULL)
        return mc__cerr(c, MC_ESCHEMA, n, NULL,
                        "a schema must be an object or a boolean, not null");
    rc = mc__map_put(s, obj, n);
    if (rc != MC_OK)
        return rc;
    *out = n;
    if (json_object_is_type(obj, json_type_boolean)) {
        n->boolean = json_object_get_boolean(obj) ? 1 : 0;
        return MC_OK;
    }
    if (!json_object_is_type(obj, json_type_object))
        return mc__cerr(c, MC_ESCHEMA, n, NULL, "a schema must be an object or a boolean");
    rc = mc__base_of(s, obj, modern, parent_base, base);
    if (rc != MC_OK)
        return mc__cerr(c, rc, n, "$id", "URI too long");
    n->res = mc__res_index(s, base);
    if (n->res < 0)
        return MC_ENOMEM;

    rc = mc__compile_defs(c, n, obj, base);
    if (rc != MC_OK)
        return rc;
    if (json_object_object_get_ex(obj, "$ref", &v)) {
        char uri[MC_SCHEMA_MAX_URI];
        if (!json_object_is_type(v, json_type_string))
            return mc__cerr(c, MC_ESCHEMA, n, "$ref", "must be a string");
        if (mc__uri_resolve(base, json_object_get_string(v), uri, sizeof(uri)) != MC_OK)
            return mc__cerr(c, MC_ESCHEMA, n, "$ref", "malformed or too long reference");
        n->ref_uri = mc__arena_strdup(s, uri);
        if (n->ref_uri == NULL)
            return MC_ENOMEM;
        n->kw |= MC__KW_REF;
        rc = push_pending(c, n);
        if (rc != MC_OK)
            return rc;
        if (!modern)
            return MC_OK; /* draft-07: siblings of $ref are ignored */
    }
    if (modern && json_object_object_get_ex(obj, "$dynamicRef", &v)) {
        char uri[MC_SCHEMA_MAX_URI];
        if (!json_object_is_type(v, json_type_string))
            return mc__cerr(c, MC_ESCHEMA, n, "$dynamicRef", "must be a string");
        if (mc__uri_resolve(base, json_object_get_string(v), uri, sizeof(uri)) != MC_OK)
            return mc__cerr(c, MC_ESCHEMA, n, "$dynamicRef", "malformed or too long reference");
        n->dyn_uri = mc__arena_strdup(s, uri);
        if (n->dyn_uri == NULL)
            return MC_ENOMEM;
        n->kw |= MC__KW_DYNREF;
        rc = push_pending(c, n);
        if (rc != MC_OK)
            return rc;
    }
    if (modern && json_object_object_get_ex(obj, "unevaluatedProperties", &v)) {
        rc = mc__compile_sub(c, n, v, "unevaluatedProperties", NULL, base, &n->uneval_props);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_UNEVAL;
    }
    if (modern && json_object_object_get_ex(obj, "unevaluatedItems", &v)) {
        rc = mc__compile_sub(c, n, v, "unevaluatedItems", NULL, base, &n->uneval_items);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_UNEVAL;
    }
    rc = mc__compile_generic_kws(c, n, obj, base);
    if (rc == MC_OK)
        rc = mc__compile_object_kws(c, n, obj, base);
    if (rc == MC_OK)
        rc = mc__compile_array_kws(c, n, obj, base);
    if (rc == MC_OK)
        rc = mc__compile_scalar_kws(c, n, obj);
    if (rc != MC_OK)
        return rc;
    /* An open object ({"type": "object", "additionalProperties": {}}) needs
     * no walk over its members. */
    if (n->props_cap == 0 && n->n_pprops == 0 &&
        (n->additional == NULL || n->additional->boolean == 1))
        n->kw &= ~(uint32_t)MC__KW_PROPS;
    if (s->docs[doc].no_validation)
        mc__drop_validation_vocab(n);
    /* A schema without assertions ({} or only annotations) accepts all. */
    if (n->kw == 0)
        n->boolean = 1;
    return MC_OK;
}

/* ---- public -------------------------------------------------------------- */

int mc_schema_compile(json_object *doc, const mc_schema_options_t *opts, mc_schema_t **out,
                      mc_errbuf_t *eb)
{
    mc_schema_t *s;
    cctx_t c;
    int d;
    int rc;

    if (out == NULL || !(json_object_is_type(doc, json_type_object) ||
                         json_object_is_type(doc, json_type_boolean)))
        return mc_errbuf_set(eb, MC_EINVAL, "a schema document must be an object or a boolean");
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory compiling a schema");
    s->utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (opts != NULL) {
        s->resolver = opts->resolver;
        s->resolver_ctx = opts->resolver_ctx;
        s->dialect = opts->dialect;
        s->formats = opts->formats;
        s->max_steps = opts->max_steps;
    }
    if (s->max_steps == 0)
        s->max_steps = MC_SCHEMA_MAX_STEPS;
    memset(&c, 0, sizeof(c));
    c.s = s;
    c.eb = eb;
    rc = mc__add_doc(&c, json_object_get(doc), "urn:mcpcheck:schema", &d);
    if (rc == MC_OK) {
        const char *base = s->docs[d].base;
        char idbase[MC_SCHEMA_MAX_URI];
        /* A root $id gives the document a second name (and base). */
        if (mc__base_of(s, doc, s->docs[d].modern, base, idbase) == MC_OK &&
            strcmp(idbase, base) != 0)
            base = s->docs[d].base = mc__arena_strdup(s, idbase);
        if (base == NULL)
            rc = MC_ENOMEM;
        else
            rc = mc__compile_node(&c, doc, d, base, NULL, NULL, NULL, -1, &s->root);
    }
    if (rc == MC_OK)
        rc = mc__resolve_all(&c);
    if (rc == MC_OK)
        rc = mc__build_discriminators(s);
    free(c.pending);
    if (rc != MC_OK) {
        if (rc == MC_ENOMEM)
            mc_errbuf_set(eb, rc, "out of memory compiling a schema");
        mc_schema_free(s);
        return rc;
    }
    *out = s;
    return MC_OK;
}
