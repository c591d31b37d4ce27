/*
 * resolve.c - $id, $anchor and $ref: the URI index of every schema resource
 * of every document (built before compiling), the dialect of a document
 * from its "$schema", and the resolution of every pending $ref and
 * $dynamicRef to a node (JSON Pointer fragments, anchors, other documents
 * from the built-ins or the resolver callback; never the network).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"

#include "schema/compile.h"

/* ---- $id index ----------------------------------------------------------- */

static int index_add(mc_schema_t *s, const char *uri, json_object *obj, int doc, const char *base)
{
    size_t i;

    for (i = 0; i < s->n_ids; i++)
        if (strcmp(s->ids[i].uri, uri) == 0)
            return MC_OK; /* first definition wins */
    if (s->n_ids == s->ids_cap) {
        size_t ncap = s->ids_cap == 0 ? 16 : s->ids_cap * 2;
        mc__idx_t *ni = realloc(s->ids, ncap * sizeof(*ni));

        if (ni == NULL)
            return MC_ENOMEM;
        s->ids = ni;
        s->ids_cap = ncap;
    }
    s->ids[s->n_ids].uri = mc__arena_strdup(s, uri);
    s->ids[s->n_ids].base = mc__arena_strdup(s, base);
    if (s->ids[s->n_ids].uri == NULL || s->ids[s->n_ids].base == NULL)
        return MC_ENOMEM;
    s->ids[s->n_ids].obj = obj;
    s->ids[s->n_ids].doc = doc;
    s->n_ids++;
    return MC_OK;
}

static const mc__idx_t *index_find(const mc_schema_t *s, const char *uri)
{
    size_t i;

    for (i = 0; i < s->n_ids; i++)
        if (strcmp(s->ids[i].uri, uri) == 0)
            return &s->ids[i];
    return NULL;
}

/* The index of the schema resource named base (added when new), or -1
 * when out of memory. */
int mc__res_index(mc_schema_t *s, const char *base)
{
    size_t i;

    for (i = s->n_res; i > 0; i--)
        if (strcmp(s->res[i - 1], base) == 0)
            return (int)(i - 1);
    if (s->n_res == s->res_cap) {
        size_t ncap = s->res_cap == 0 ? 8 : s->res_cap * 2;
        char **nr = realloc(s->res, ncap * sizeof(*nr));
        if (nr == NULL)
            return -1;
        s->res = nr;
        s->res_cap = ncap;
    }
    s->res[s->n_res] = mc__arena_strdup(s, base);
    if (s->res[s->n_res] == NULL)
        return -1;
    return (int)s->n_res++;
}

/* Records a $dynamicAnchor of resource base. */
static int dyn_add(mc_schema_t *s, const char *base, const char *name, json_object *obj, int doc)
{
    int r = mc__res_index(s, base);

    if (r < 0)
        return MC_ENOMEM;
    if (s->n_dyn == s->dyn_cap) {
        size_t ncap = s->dyn_cap == 0 ? 8 : s->dyn_cap * 2;
        mc__dyn_t *nd = realloc(s->dyn, ncap * sizeof(*nd));
        if (nd == NULL)
            return MC_ENOMEM;
        s->dyn = nd;
        s->dyn_cap = ncap;
    }
    s->dyn[s->n_dyn].res = r;
    s->dyn[s->n_dyn].doc = doc;
    s->dyn[s->n_dyn].name = name;
    s->dyn[s->n_dyn].obj = obj;
    s->dyn[s->n_dyn].base = mc__arena_strdup(s, base);
    s->dyn[s->n_dyn].node = NULL;
    if (s->dyn[s->n_dyn].base == NULL)
        return MC_ENOMEM;
    s->n_dyn++;
    return MC_OK;
}

/*
 * Computes the base URI in force inside schema object obj, given the base
 * of its parent, honouring obj's $id. Writes into out (MC_SCHEMA_MAX_URI).
 */
int mc__base_of(const mc_schema_t *s, json_object *obj, int modern, const char *parent_base,
                char *out)
{
    json_object *id, *ref;
    const char *ids;

    (void)s;
    snprintf(out, MC_SCHEMA_MAX_URI, "%s", parent_base);
    if (!json_object_is_type(obj, json_type_object))
        return MC_OK;
    if (!modern && json_object_object_get_ex(obj, "$ref", &ref))
        return MC_OK; /* draft-07: $ref hides its siblings, $id included */
    if (!json_object_object_get_ex(obj, "$id", &id) || !json_object_is_type(id, json_type_string))
        return MC_OK;
    ids = json_object_get_string(id);
    if (ids[0] == '#')
        return MC_OK; /* a plain-name fragment does not change the base */
    if (mc__uri_resolve(parent_base, ids, out, MC_SCHEMA_MAX_URI) != MC_OK)
        return MC_ETOOBIG;
    {
        char *hash = strchr(out, '#');
        if (hash != NULL)
            *hash = '\0';
    }
    return MC_OK;
}

static int is_schema_map_kw(const char *k)
{
    return strcmp(k, "properties") == 0 || strcmp(k, "patternProperties") == 0 ||
           strcmp(k, "definitions") == 0 || strcmp(k, "$defs") == 0 ||
           strcmp(k, "dependentSchemas") == 0 || strcmp(k, "dependencies") == 0;
}

static int is_schema_array_kw(const char *k)
{
    return strcmp(k, "allOf") == 0 || strcmp(k, "anyOf") == 0 || strcmp(k, "oneOf") == 0 ||
           strcmp(k, "items") == 0 || strcmp(k, "prefixItems") == 0;
}

static int is_schema_kw(const char *k)
{
    return strcmp(k, "items") == 0 || strcmp(k, "additionalItems") == 0 ||
           strcmp(k, "additionalProperties") == 0 || strcmp(k, "contains") == 0 ||
           strcmp(k, "propertyNames") == 0 || strcmp(k, "not") == 0 || strcmp(k, "if") == 0 ||
           strcmp(k, "then") == 0 || strcmp(k, "else") == 0 ||
           strcmp(k, "unevaluatedProperties") == 0 || strcmp(k, "unevaluatedItems") == 0;
}

/* Indexes $id and $anchor under obj (a schema position). Depth-bounded by
 * the document's own nesting. */
static int prewalk(mc_schema_t *s, json_object *obj, int doc, const char *parent_base)
{
    char base[MC_SCHEMA_MAX_URI];
    char uri[MC_SCHEMA_MAX_URI];
    json_object *v;
    struct lh_entry *e;
    int modern = s->docs[doc].modern;
    int rc;

    if (!json_object_is_type(obj, json_type_object))
        return MC_OK;
    rc = mc__base_of(s, obj, modern, parent_base, base);
    if (rc != MC_OK)
        return rc;
    if (strcmp(base, parent_base) != 0) {
        rc = index_add(s, base, obj, doc, base);
        if (rc != MC_OK)
            return rc;
    }
    if (modern || !json_object_object_get_ex(obj, "$ref", &v)) {
        if (json_object_object_get_ex(obj, "$id", &v) && json_object_is_type(v, json_type_string) &&
            json_object_get_string(v)[0] == '#' && json_object_get_string(v)[1] != '\0') {
            if (mc__uri_resolve(base, json_object_get_string(v), uri, sizeof(uri)) != MC_OK)
                return MC_ETOOBIG;
            rc = index_add(s, uri, obj, doc, base);
            if (rc != MC_OK)
                return rc;
        }
        if (json_object_object_get_ex(obj, "$anchor", &v) &&
            json_object_is_type(v, json_type_string)) {
            int len = snprintf(uri, sizeof(uri), "%s#%s", base, json_object_get_string(v));
            if (len < 0 || (size_t)len >= sizeof(uri))
                return MC_ETOOBIG;
            rc = index_add(s, uri, obj, doc, base);
            if (rc != MC_OK)
                return rc;
        }
        if (modern && json_object_object_get_ex(obj, "$dynamicAnchor", &v) &&
            json_object_is_type(v, json_type_string)) {
            /* A dynamic anchor is also a plain-name anchor for $ref. */
            int len = snprintf(uri, sizeof(uri), "%s#%s", base, json_object_get_string(v));
            if (len < 0 || (size_t)len >= sizeof(uri))
                return MC_ETOOBIG;
            rc = index_add(s, uri, obj, doc, base);
            if (rc == MC_OK)
                rc = dyn_add(s, base, json_object_get_string(v), obj, doc);
            if (rc != MC_OK)
                return rc;
        }
    }
    for (e = json_object_get_object(obj)->head; e != NULL; e = e->next) {
        const char *k = (const char *)lh_entry_k(e);
        json_object *val = (json_object *)lh_entry_v(e);

        if (is_schema_map_kw(k) && json_object_is_type(val, json_type_object)) {
            struct lh_entry *e2;
            for (e2 = json_object_get_object(val)->head; e2 != NULL; e2 = e2->next) {
                rc = prewalk(s, (json_object *)lh_entry_v(e2), doc, base);
                if (rc != MC_OK)
                    return rc;
            }
        } else if (is_schema_array_kw(k) && json_object_is_type(val, json_type_array)) {
            size_t i, n = json_object_array_length(val);
            for (i = 0; i < n; i++) {
                rc = prewalk(s, json_object_array_get_idx(val, i), doc, base);
                if (rc != MC_OK)
                    return rc;
            }
        } else if (is_schema_kw(k)) {
            rc = prewalk(s, val, doc, base);
            if (rc != MC_OK)
                return rc;
        }
    }
    return MC_OK;
}

/* Recognizes the meta-schema URIs of the dialects the validator knows:
 * 1 with *modern set, or 0 for any other URI. */
static int known_dialect(const char *uri, int *modern)
{
    if (strstr(uri, "json-schema.org/draft/2020-12/") != NULL ||
        strstr(uri, "json-schema.org/draft/2019-09/") != NULL) {
        *modern = 1;
        return 1;
    }
    if (strstr(uri, "json-schema.org/draft-07/schema") != NULL ||
        strstr(uri, "json-schema.org/draft-06/schema") != NULL ||
        strstr(uri, "json-schema.org/draft-04/schema") != NULL) {
        *modern = 0;
        return 1;
    }
    return 0;
}

/* True when a $vocabulary object names the vocabulary ending in suffix. */
static int has_vocab(json_object *vocab, const char *suffix)
{
    struct lh_entry *e;
    size_t sl = strlen(suffix);

    for (e = json_object_get_object(vocab)->head; e != NULL; e = e->next) {
        const char *k = (const char *)lh_entry_k(e);
        size_t kl = strlen(k);
        if (kl >= sl && strcmp(k + kl - sl, suffix) == 0 && strstr(k, "json-schema.org") != NULL)
            return 1;
    }
    return 0;
}

/*
 * Sets the dialect, the format behaviour and the vocabularies of document d
 * from its "$schema": a known dialect, or a meta-schema the built-ins or the
 * resolver provide (whose own "$schema" gives the dialect and whose
 * "$vocabulary" the vocabularies). A "$schema" that names none of these is
 * an unsupported dialect: MC_EUNSUPPORTED.
 */
static int doc_dialect(cctx_t *c, int d)
{
    mc_schema_t *s = c->s;
    json_object *sv, *meta = NULL, *vocab;
    const char *uri;
    int fmt_vocab = 0;

    s->docs[d].modern = s->dialect == MC_SCHEMA_DIALECT_2020_12;
    s->docs[d].no_validation = 0;
    if (json_object_object_get_ex(s->docs[d].root, "$schema", &sv) &&
        json_object_is_type(sv, json_type_string)) {
        uri = json_object_get_string(sv);
        if (!known_dialect(uri, &s->docs[d].modern)) {
            char docuri[MC_SCHEMA_MAX_URI];
            char *hash;
            const char *text;
            snprintf(docuri, sizeof(docuri), "%s", uri);
            hash = strchr(docuri, '#');
            if (hash != NULL)
                *hash = '\0';
            text = mc__builtin_schema(docuri);
            if (text != NULL)
                meta = json_tokener_parse(text);
            else if (s->resolver != NULL)
                meta = s->resolver(s->resolver_ctx, docuri);
            if (meta == NULL || !json_object_is_type(meta, json_type_object) ||
                !json_object_object_get_ex(meta, "$schema", &sv) ||
                !json_object_is_type(sv, json_type_string) ||
                !known_dialect(json_object_get_string(sv), &s->docs[d].modern)) {
                json_object_put(meta);
                return mc_errbuf_set(c->eb, MC_EUNSUPPORTED,
                                     "\"$schema\": \"%.300s\" names a dialect that is not "
                                     "supported (draft-04, -06, -07, 2019-09 and 2020-12 are)",
                                     uri);
            }
            if (json_object_object_get_ex(meta, "$vocabulary", &vocab) &&
                json_object_is_type(vocab, json_type_object)) {
                s->docs[d].no_validation = !has_vocab(vocab, "/vocab/validation");
                fmt_vocab = has_vocab(vocab, "/vocab/format-assertion");
            }
            json_object_put(meta);
        }
    }
    if (s->formats == MC_SCHEMA_FORMATS_ASSERT)
        s->docs[d].formats = 1;
    else if (s->formats == MC_SCHEMA_FORMATS_ANNOTATE)
        s->docs[d].formats = 0;
    else
        s->docs[d].formats = !s->docs[d].modern || fmt_vocab;
    return MC_OK;
}

/* Adds a document (taking ownership of root) and indexes it under base. */
int mc__add_doc(cctx_t *c, json_object *root, const char *base, int *out_doc)
{
    mc_schema_t *s = c->s;
    int d;
    int rc;

    if (s->n_docs >= MC_SCHEMA_MAX_DOCS) {
        json_object_put(root);
        return mc_errbuf_set(c->eb, MC_EFULL, "more than %d schema documents", MC_SCHEMA_MAX_DOCS);
    }
    d = s->n_docs++;
    s->docs[d].root = root;
    s->docs[d].base = NULL;
    rc = doc_dialect(c, d);
    if (rc != MC_OK)
        return rc;
    s->docs[d].base = mc__arena_strdup(s, base);
    if (s->docs[d].base == NULL)
        return MC_ENOMEM;
    rc = index_add(s, base, root, d, base);
    if (rc == MC_OK)
        rc = prewalk(s, root, d, base);
    if (rc != MC_OK)
        return mc_errbuf_set(c->eb, rc, "cannot index the $id values of %s: %s", base,
                             mc_strerror(rc));
    *out_doc = d;
    return MC_OK;
}

/* ---- reference resolution ------------------------------------------------ */

/* Percent-decodes src into dst (cap incl. NUL). Returns 0 on bad input. */
static int percent_decode(const char *src, char *dst, size_t cap)
{
    size_t o = 0;

    while (*src != '\0') {
        char ch = *src;
        if (ch == '%') {
            int h = mc_hex_digit(src[1]), l = h < 0 ? -1 : mc_hex_digit(src[2]);
            if (h < 0 || l < 0)
                return 0;
            ch = (char)(h * 16 + l);
            src += 3;
        } else {
            src++;
        }
        if (o + 1 >= cap)
            return 0;
        dst[o++] = ch;
    }
    dst[o] = '\0';
    return 1;
}

/*
 * Walks a JSON Pointer (already percent-decoded) from obj, tracking the base
 * URI through $id. Returns the target (borrowed from the document) or NULL.
 */
static json_object *walk_pointer(const mc_schema_t *s, int doc, json_object *obj, const char *ptr,
                                 char *base)
{
    char tok[1024];
    char nb[MC_SCHEMA_MAX_URI];

    while (*ptr == '/') {
        size_t o = 0;
        ptr++;
        while (*ptr != '\0' && *ptr != '/') {
            char ch = *ptr++;
            if (ch == '~') {
                if (*ptr == '0')
                    ch = '~';
                else if (*ptr == '1')
                    ch = '/';
                else
                    return NULL;
                ptr++;
            }
            if (o + 1 >= sizeof(tok))
                return NULL;
            tok[o++] = ch;
        }
        tok[o] = '\0';
        if (json_object_is_type(obj, json_type_object)) {
            json_object *next;
            if (!json_object_object_get_ex(obj, tok, &next))
                return NULL;
            obj = next;
        } else if (json_object_is_type(obj, json_type_array)) {
            char *end;
            unsigned long idx;
            if (tok[0] == '\0' || (tok[0] == '0' && tok[1] != '\0'))
                return NULL;
            errno = 0;
            idx = strtoul(tok, &end, 10);
            if (errno != 0 || *end != '\0' || tok[0] == '-' || idx >= json_object_array_length(obj))
                return NULL;
            obj = json_object_array_get_idx(obj, idx);
        } else {
            return NULL;
        }
        if (mc__base_of(s, obj, s->docs[doc].modern, base, nb) == MC_OK)
            memcpy(base, nb, strlen(nb) + 1);
    }
    return *ptr == '\0' ? obj : NULL;
}

/* Loads a document that is not part of the schema yet: built-in or resolver. */
static int load_external(cctx_t *c, const char *docuri, const mc__idx_t **out)
{
    const char *text = mc__builtin_schema(docuri);
    json_object *root = NULL;
    int d;
    int rc;

    if (text != NULL) {
        root = json_tokener_parse(text);
        if (root == NULL)
            return mc_errbuf_set(c->eb, MC_ENOMEM, "cannot load the built-in schema %s", docuri);
    } else if (c->s->resolver != NULL) {
        root = c->s->resolver(c->s->resolver_ctx, docuri);
    }
    if (root == NULL)
        return MC_ENOTFOUND;
    rc = mc__add_doc(c, root, docuri, &d);
    if (rc != MC_OK)
        return rc;
    *out = index_find(c->s, docuri);
    return *out != NULL ? MC_OK : MC_ENOTFOUND;
}

/*
 * Resolves the absolute reference uri of node n (keyword kw) to a node,
 * compiling the target when no keyword walk reached it. *anchor_obj gets
 * the target JSON and *frag_out (cap MC_SCHEMA_MAX_URI) the decoded fragment.
 */
static int resolve_uri(cctx_t *c, mc__snode_t *n, const char *kw, const char *ref_uri,
                       mc__snode_t **out, json_object **target_out, char *frag)
{
    mc_schema_t *s = c->s;
    char docuri[MC_SCHEMA_MAX_URI];
    char base[MC_SCHEMA_MAX_URI];
    const mc__idx_t *ix;
    char *hash;
    json_object *target;
    int rc;

    snprintf(docuri, sizeof(docuri), "%s", ref_uri);
    hash = strchr(docuri, '#');
    frag[0] = '\0';
    if (hash != NULL) {
        if (!percent_decode(hash + 1, frag, MC_SCHEMA_MAX_URI))
            return mc__cerr(c, MC_ESCHEMA, n, kw, "malformed percent-encoding");
        *hash = '\0';
    }
    ix = index_find(s, docuri);
    if (ix == NULL) {
        rc = load_external(c, docuri, &ix);
        if (rc == MC_ENOTFOUND) {
            char what[MC_ERRBUF_SIZE];
            snprintf(what, sizeof(what), "cannot resolve \"%.300s\" (no such document)", ref_uri);
            return mc__cerr(c, MC_ENOTFOUND, n, kw, what);
        }
        if (rc != MC_OK)
            return rc;
    }
    snprintf(base, sizeof(base), "%s", ix->base);
    if (frag[0] == '\0') {
        target = ix->obj;
    } else if (frag[0] == '/') {
        target = walk_pointer(s, ix->doc, ix->obj, frag, base);
    } else {
        char uri[MC_SCHEMA_MAX_URI];
        const mc__idx_t *anchor;
        int len = snprintf(uri, sizeof(uri), "%s#%s", docuri, frag);
        anchor = len > 0 && (size_t)len < sizeof(uri) ? index_find(s, uri) : NULL;
        target = anchor != NULL ? anchor->obj : NULL;
        if (anchor != NULL)
            snprintf(base, sizeof(base), "%s", anchor->base);
    }
    if (target == NULL) {
        char what[MC_ERRBUF_SIZE];
        snprintf(what, sizeof(what), "cannot resolve \"%.300s\" (no such location)", ref_uri);
        return mc__cerr(c, MC_ENOTFOUND, n, kw, what);
    }
    *target_out = target;
    *out = mc__map_get(s, target);
    if (*out == NULL) {
        /* Not reached by the keyword walk: compile it under its pointer. */
        char *loc = mc__arena_strdup(s, frag);
        if (loc == NULL)
            return MC_ENOMEM;
        rc = mc__compile_node(c, target, ix->doc, base, NULL, loc, NULL, -1, out);
        if (rc != MC_OK)
            return rc;
    }
    return MC_OK;
}

/* Resolves the $ref and the $dynamicRef of a node. A $dynamicRef whose
 * target carries a $dynamicAnchor of the fragment's name looks the name up
 * in the dynamic scope when validating; any other behaves as $ref. */
static int resolve_ref(cctx_t *c, mc__snode_t *n)
{
    char frag[MC_SCHEMA_MAX_URI];
    json_object *target, *anchor;
    int rc;

    if (n->ref_uri != NULL && n->ref == NULL) {
        rc = resolve_uri(c, n, "$ref", n->ref_uri, &n->ref, &target, frag);
        if (rc != MC_OK)
            return rc;
    }
    if (n->dyn_uri != NULL && n->dyn_ref == NULL) {
        rc = resolve_uri(c, n, "$dynamicRef", n->dyn_uri, &n->dyn_ref, &target, frag);
        if (rc != MC_OK)
            return rc;
        if (frag[0] != '\0' && frag[0] != '/' && json_object_is_type(target, json_type_object) &&
            json_object_object_get_ex(target, "$dynamicAnchor", &anchor) &&
            json_object_is_type(anchor, json_type_string) &&
            strcmp(json_object_get_string(anchor), frag) == 0) {
            n->dyn_name = mc__arena_strdup(c->s, frag);
            if (n->dyn_name == NULL)
                return MC_ENOMEM;
        }
    }
    return MC_OK;
}

/* Resolves every pending reference, then compiles the $dynamicAnchor
 * targets no keyword reached (their references join the list). */
int mc__resolve_all(cctx_t *c)
{
    mc_schema_t *s = c->s;
    size_t i;
    int rc;

    for (;;) {
        /* The list grows while it is processed. */
        for (; c->next_pending < c->n_pending; c->next_pending++) {
            rc = resolve_ref(c, c->pending[c->next_pending]);
            if (rc != MC_OK)
                return rc;
        }
        for (i = 0; i < s->n_dyn; i++) {
            if (s->dyn[i].node != NULL)
                continue;
            s->dyn[i].node = mc__map_get(s, s->dyn[i].obj);
            if (s->dyn[i].node == NULL) {
                rc = mc__compile_node(c, s->dyn[i].obj, s->dyn[i].doc, s->dyn[i].base, NULL, "",
                                      NULL, -1, &s->dyn[i].node);
                if (rc != MC_OK)
                    return rc;
            }
        }
        if (c->next_pending == c->n_pending)
            return MC_OK;
    }
}
