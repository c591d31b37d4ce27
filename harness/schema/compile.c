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

#include "core/hex.h"
#include "schema/internal.h"

/* ---- arena ------------------------------------------------------------- */

#define ARENA_BLOCK (64u * 1024u)
#define ARENA_ALIGN (sizeof(max_align_t))

static size_t align_up(size_t n)
{
    return (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
}

/* Returns zeroed memory owned by the schema, or NULL when out of memory. */
static void *arena_alloc(mc_schema_t *s, size_t n)
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

static char *arena_strndup(mc_schema_t *s, const char *str, size_t len)
{
    char *p = arena_alloc(s, len + 1);

    if (p == NULL)
        return NULL;
    memcpy(p, str, len);
    p[len] = '\0';
    return p;
}

static char *arena_strdup(mc_schema_t *s, const char *str)
{
    return arena_strndup(s, str, strlen(str));
}

/* ---- hashing ----------------------------------------------------------- */

uint32_t mc__hash_key(const char *str, size_t *len_out)
{
    uint32_t h = 2166136261u;
    const unsigned char *p = (const unsigned char *)str;

    while (*p != '\0') {
        h ^= *p++;
        h *= 16777619u;
    }
    *len_out = (size_t)((const char *)p - str);
    return h;
}

uint32_t mc__hash_mem(const char *str, size_t len)
{
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)str[i];
        h *= 16777619u;
    }
    return h;
}

/* ---- json_object* -> node map ------------------------------------------ */

static size_t ptr_slot(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;

    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (cap - 1);
}

static mc__snode_t *map_get(const mc_schema_t *s, json_object *key)
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

static int map_put(mc_schema_t *s, json_object *key, mc__snode_t *val)
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

/* ---- compile context ----------------------------------------------------- */

typedef struct cctx {
    mc_schema_t *s;
    mc_errbuf_t *eb;
    mc__snode_t **pending; /* nodes whose $ref or $dynamicRef is unresolved */
    size_t n_pending, cap_pending;
    size_t next_pending; /* pending[0..next_pending) are resolved */
    size_t n_nodes;
} cctx_t;

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
static int cerr(cctx_t *c, int err, const mc__snode_t *n, const char *kw, const char *what)
{
    char where[MC_SCHEMA_PATH_SIZE];

    mc__schema_path(c->s, n, kw, where, sizeof(where));
    return mc_errbuf_set(c->eb, err, "schema %s: %s", where, what);
}

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
    s->ids[s->n_ids].uri = arena_strdup(s, uri);
    s->ids[s->n_ids].base = arena_strdup(s, base);
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
static int res_index(mc_schema_t *s, const char *base)
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
    s->res[s->n_res] = arena_strdup(s, base);
    if (s->res[s->n_res] == NULL)
        return -1;
    return (int)s->n_res++;
}

/* Records a $dynamicAnchor of resource base. */
static int dyn_add(mc_schema_t *s, const char *base, const char *name, json_object *obj, int doc)
{
    int r = res_index(s, base);

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
    s->dyn[s->n_dyn].base = arena_strdup(s, base);
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
static int base_of(const mc_schema_t *s, json_object *obj, int modern, const char *parent_base,
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
    rc = base_of(s, obj, modern, parent_base, base);
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
static int add_doc(cctx_t *c, json_object *root, const char *base, int *out_doc)
{
    mc_schema_t *s = c->s;
    int d;
    int rc;

    if (s->n_docs >= MC_SCHEMA_MAX_DOCS) {
        json_object_put(root);
        return mc_errbuf_set(c->eb, MC_EFULL, "more than %d schema documents",
                             MC_SCHEMA_MAX_DOCS);
    }
    d = s->n_docs++;
    s->docs[d].root = root;
    s->docs[d].base = NULL;
    rc = doc_dialect(c, d);
    if (rc != MC_OK)
        return rc;
    s->docs[d].base = arena_strdup(s, base);
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

/* ---- node compilation ---------------------------------------------------- */

static int compile_node(cctx_t *c, json_object *obj, int doc, const char *base,
                        const mc__snode_t *parent, const char *loc_kw, const char *loc_key,
                        long loc_index, mc__snode_t **out);

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
    } types[] = {{"null", MC__T_NULL},   {"boolean", MC__T_BOOL}, {"integer", MC__T_INT},
                 {"number", MC__T_NUM},  {"string", MC__T_STR},   {"array", MC__T_ARR},
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
        return cerr(c, MC_ESCHEMA, n, kw, "must be an array of schemas");
    len = json_object_array_length(arr);
    if (len == 0 && !allow_empty)
        return cerr(c, MC_ESCHEMA, n, kw, "must not be empty");
    v = arena_alloc(c->s, (len == 0 ? 1 : len) * sizeof(*v));
    if (v == NULL)
        return MC_ENOMEM;
    for (i = 0; i < len; i++) {
        rc = compile_node(c, json_object_array_get_idx(arr, i), n->doc, base, n, kw, NULL, (long)i,
                          &v[i]);
        if (rc != MC_OK)
            return rc;
    }
    *out = v;
    *count = len;
    return MC_OK;
}

static int compile_sub(cctx_t *c, mc__snode_t *n, json_object *v, const char *kw,
                       const char *key, const char *base, mc__snode_t **out)
{
    return compile_node(c, v, n->doc, base, n, kw, key, -1, out);
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
        return cerr(c, rc, n, kw, what);
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
        return cerr(c, MC_ESCHEMA, n, kw, what);
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
        return cerr(c, MC_ESCHEMA, n, "properties", "must be an object");
    if (has_req && !json_object_is_type(req, json_type_array))
        return cerr(c, MC_ESCHEMA, n, "required", "must be an array of strings");
    if (!has_props && !has_req)
        return MC_OK;
    if (has_props)
        n_names += (size_t)json_object_object_length(props);
    if (has_req)
        n_names += json_object_array_length(req);
    n->kw |= MC__KW_PROPS;
    for (cap = 4; cap < n_names * 2; cap *= 2)
        ;
    n->props = arena_alloc(c->s, cap * sizeof(*n->props));
    if (n->props == NULL)
        return MC_ENOMEM;
    n->props_cap = cap;
    if (has_props) {
        for (e = json_object_get_object(props)->head; e != NULL; e = e->next) {
            const char *k = (const char *)lh_entry_k(e);
            mc__prop_t *p = prop_slot(n, k);
            rc = compile_sub(c, n, (json_object *)lh_entry_v(e), "properties", k, base,
                             &p->schema);
            if (rc != MC_OK)
                return rc;
            n->n_props++;
        }
    }
    if (has_req) {
        size_t len = json_object_array_length(req);
        n->required = arena_alloc(c->s, (len + 1) * sizeof(*n->required));
        if (n->required == NULL)
            return MC_ENOMEM;
        for (i = 0; i < len; i++) {
            json_object *r = json_object_array_get_idx(req, i);
            mc__prop_t *p;
            if (!json_object_is_type(r, json_type_string))
                return cerr(c, MC_ESCHEMA, n, "required", "must be an array of strings");
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
        return cerr(c, MC_ESCHEMA, n, "patternProperties", "must be an object");
    n->kw |= MC__KW_PROPS;
    n->n_pprops = (size_t)json_object_object_length(v);
    n->pprops = arena_alloc(c->s, (n->n_pprops + 1) * sizeof(*n->pprops));
    if (n->pprops == NULL)
        return MC_ENOMEM;
    for (e = json_object_get_object(v)->head; e != NULL; e = e->next, k++) {
        const char *pat = (const char *)lh_entry_k(e);
        rc = compile_regex(c, n, "patternProperties", pat, &n->pprops[k]);
        if (rc != MC_OK)
            return rc;
        rc = compile_sub(c, n, (json_object *)lh_entry_v(e), "patternProperties", pat, base,
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
        dep->required = arena_alloc(c->s, (len + 1) * sizeof(*dep->required));
        if (dep->required == NULL)
            return MC_ENOMEM;
        for (i = 0; i < len; i++) {
            json_object *r = json_object_array_get_idx(dv, i);
            if (!json_object_is_type(r, json_type_string))
                return cerr(c, MC_ESCHEMA, n, kw, "property lists must hold strings");
            dep->required[dep->n_required++] = json_object_get_string(r);
        }
        return MC_OK;
    }
    if (k == 1)
        return cerr(c, MC_ESCHEMA, n, kw, "values must be arrays of strings");
    return compile_sub(c, n, dv, kw, name, base, &dep->schema);
}

/* dependencies, dependentRequired and dependentSchemas, into one list. */
static int compile_deps(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    static const char *const dep_kws[] = {"dependencies", "dependentRequired",
                                          "dependentSchemas"};
    size_t total = 0, k, d = 0;
    json_object *v;
    int rc;

    for (k = 0; k < 3; k++) {
        if (!json_object_object_get_ex(obj, dep_kws[k], &v))
            continue;
        if (!json_object_is_type(v, json_type_object))
            return cerr(c, MC_ESCHEMA, n, dep_kws[k], "must be an object");
        total += (size_t)json_object_object_length(v);
    }
    if (total > 0) {
        n->deps = arena_alloc(c->s, total * sizeof(*n->deps));
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

static int compile_object_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    json_object *v;
    int rc;

    rc = compile_props(c, n, obj, base);
    if (rc != MC_OK)
        return rc;
    if (json_object_object_get_ex(obj, "additionalProperties", &v)) {
        n->kw |= MC__KW_PROPS;
        rc = compile_sub(c, n, v, "additionalProperties", NULL, base, &n->additional);
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
        rc = compile_sub(c, n, v, "propertyNames", NULL, base, &n->property_names);
        if (rc != MC_OK)
            return rc;
    }
    if (json_object_object_get_ex(obj, "minProperties", &v)) {
        if (!read_count(v, &n->min_props))
            return cerr(c, MC_ESCHEMA, n, "minProperties", "must be a non-negative integer");
        n->kw |= MC__KW_MINPROPS;
    }
    if (json_object_object_get_ex(obj, "maxProperties", &v)) {
        if (!read_count(v, &n->max_props))
            return cerr(c, MC_ESCHEMA, n, "maxProperties", "must be a non-negative integer");
        n->kw |= MC__KW_MAXPROPS;
    }
    return compile_deps(c, n, obj, base);
}

static int compile_array_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
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
                rc = compile_sub(c, n, v, "additionalItems", NULL, base, &n->additional_items);
                if (rc != MC_OK)
                    return rc;
            }
        } else {
            rc = compile_sub(c, n, v, "items", NULL, base, &n->items);
            if (rc != MC_OK)
                return rc;
        }
    }
    if (json_object_object_get_ex(obj, "contains", &v)) {
        n->kw |= MC__KW_CONTAINS;
        rc = compile_sub(c, n, v, "contains", NULL, base, &n->contains);
        if (rc != MC_OK)
            return rc;
        n->min_contains = 1;
        n->max_contains = SIZE_MAX;
        if (json_object_object_get_ex(obj, "minContains", &v) && !read_count(v, &n->min_contains))
            return cerr(c, MC_ESCHEMA, n, "minContains", "must be a non-negative integer");
        if (json_object_object_get_ex(obj, "maxContains", &v) && !read_count(v, &n->max_contains))
            return cerr(c, MC_ESCHEMA, n, "maxContains", "must be a non-negative integer");
    }
    if (json_object_object_get_ex(obj, "minItems", &v)) {
        if (!read_count(v, &n->min_items))
            return cerr(c, MC_ESCHEMA, n, "minItems", "must be a non-negative integer");
        n->kw |= MC__KW_MINITEMS;
    }
    if (json_object_object_get_ex(obj, "maxItems", &v)) {
        if (!read_count(v, &n->max_items))
            return cerr(c, MC_ESCHEMA, n, "maxItems", "must be a non-negative integer");
        n->kw |= MC__KW_MAXITEMS;
    }
    if (json_object_object_get_ex(obj, "uniqueItems", &v)) {
        if (!json_object_is_type(v, json_type_boolean))
            return cerr(c, MC_ESCHEMA, n, "uniqueItems", "must be a boolean");
        if (json_object_get_boolean(v))
            n->kw |= MC__KW_UNIQUE;
    }
    return MC_OK;
}

static int compile_scalar_kws(cctx_t *c, mc__snode_t *n, json_object *obj)
{
    json_object *v;
    int rc;

    if (json_object_object_get_ex(obj, "minLength", &v)) {
        if (!read_count(v, &n->min_len))
            return cerr(c, MC_ESCHEMA, n, "minLength", "must be a non-negative integer");
        n->kw |= MC__KW_MINLEN;
    }
    if (json_object_object_get_ex(obj, "maxLength", &v)) {
        if (!read_count(v, &n->max_len))
            return cerr(c, MC_ESCHEMA, n, "maxLength", "must be a non-negative integer");
        n->kw |= MC__KW_MAXLEN;
    }
    if (json_object_object_get_ex(obj, "pattern", &v)) {
        if (!json_object_is_type(v, json_type_string))
            return cerr(c, MC_ESCHEMA, n, "pattern", "must be a string");
        n->pattern = arena_alloc(c->s, sizeof(*n->pattern));
        if (n->pattern == NULL)
            return MC_ENOMEM;
        rc = compile_regex(c, n, "pattern", json_object_get_string(v), n->pattern);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_PATTERN;
    }
    if (json_object_object_get_ex(obj, "format", &v)) {
        if (!json_object_is_type(v, json_type_string))
            return cerr(c, MC_ESCHEMA, n, "format", "must be a string");
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
                return cerr(c, MC_ESCHEMA, n, nums[i].kw, "must be a number");
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
                    return cerr(c, MC_ESCHEMA, n, "multipleOf", "must be greater than 0");
                n->multiple_of = v;
                break;
            }
        }
    }
    return MC_OK;
}

static int compile_generic_kws(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
{
    json_object *v;
    int rc;

    if (json_object_object_get_ex(obj, "type", &v)) {
        uint8_t bit;
        n->kw |= MC__KW_TYPE;
        if (json_object_is_type(v, json_type_string)) {
            if (!type_bit(json_object_get_string(v), &bit))
                return cerr(c, MC_ESCHEMA, n, "type", "unknown type name");
            n->types = bit;
        } else if (json_object_is_type(v, json_type_array)) {
            size_t i, len = json_object_array_length(v);
            for (i = 0; i < len; i++) {
                json_object *t = json_object_array_get_idx(v, i);
                if (!json_object_is_type(t, json_type_string) ||
                    !type_bit(json_object_get_string(t), &bit))
                    return cerr(c, MC_ESCHEMA, n, "type", "unknown type name");
                n->types |= bit;
            }
        } else {
            return cerr(c, MC_ESCHEMA, n, "type", "must be a type name or an array of them");
        }
        if (n->types & MC__T_NUM)
            n->types |= MC__T_INT;
    }
    if (json_object_object_get_ex(obj, "enum", &v)) {
        size_t i, len;
        if (!json_object_is_type(v, json_type_array))
            return cerr(c, MC_ESCHEMA, n, "enum", "must be an array");
        n->kw |= MC__KW_ENUM;
        n->enum_v = v;
        len = json_object_array_length(v);
        n->n_enum = len;
        n->enum_strs = 1;
        for (i = 0; i < len; i++)
            if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string))
                n->enum_strs = 0;
        if (n->enum_strs) {
            n->enum_s = arena_alloc(c->s, (len + 1) * sizeof(*n->enum_s));
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
        rc = compile_sub(c, n, v, "not", NULL, base, &n->not_);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_NOT;
    }
    if (json_object_object_get_ex(obj, "if", &v)) {
        rc = compile_sub(c, n, v, "if", NULL, base, &n->if_);
        if (rc == MC_OK && json_object_object_get_ex(obj, "then", &v))
            rc = compile_sub(c, n, v, "then", NULL, base, &n->then_);
        if (rc == MC_OK && json_object_object_get_ex(obj, "else", &v))
            rc = compile_sub(c, n, v, "else", NULL, base, &n->else_);
        if (rc != MC_OK)
            return rc;
        if (n->then_ != NULL || n->else_ != NULL)
            n->kw |= MC__KW_IF;
    }
    return MC_OK;
}

/* Compiles every member of definitions/$defs eagerly. */
static int compile_defs(cctx_t *c, mc__snode_t *n, json_object *obj, const char *base)
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
            return cerr(c, MC_ESCHEMA, n, kws[k], "must be an object");
        for (e = json_object_get_object(v)->head; e != NULL; e = e->next) {
            rc = compile_sub(c, n, (json_object *)lh_entry_v(e), kws[k],
                             (const char *)lh_entry_k(e), base, &ignored);
            if (rc != MC_OK)
                return rc;
        }
    }
    return MC_OK;
}

/* Under a meta-schema without the validation vocabulary, the keywords of
 * that vocabulary are not assertions: they are switched off. */
static void drop_validation_vocab(mc__snode_t *n)
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

static int compile_node(cctx_t *c, json_object *obj, int doc, const char *parent_base,
                        const mc__snode_t *parent, const char *loc_kw, const char *loc_key,
                        long loc_index, mc__snode_t **out)
{
    mc_schema_t *s = c->s;
    mc__snode_t *n = map_get(s, obj);
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
    n = arena_alloc(s, sizeof(*n));
    if (n == NULL)
        return MC_ENOMEM;
    n->parent = parent;
    n->loc_kw = loc_kw;
    n->loc_key = loc_key;
    n->loc_index = loc_index;
    n->doc = doc;
    n->src = obj;
    n->boolean = -1;
    n->res = res_index(s, parent_base);
    if (n->res < 0)
        return MC_ENOMEM;
    if (obj == NULL)
        return cerr(c, MC_ESCHEMA, n, NULL, "a schema must be an object or a boolean, not null");
    rc = map_put(s, obj, n);
    if (rc != MC_OK)
        return rc;
    *out = n;
    if (json_object_is_type(obj, json_type_boolean)) {
        n->boolean = json_object_get_boolean(obj) ? 1 : 0;
        return MC_OK;
    }
    if (!json_object_is_type(obj, json_type_object))
        return cerr(c, MC_ESCHEMA, n, NULL, "a schema must be an object or a boolean");
    rc = base_of(s, obj, modern, parent_base, base);
    if (rc != MC_OK)
        return cerr(c, rc, n, "$id", "URI too long");
    n->res = res_index(s, base);
    if (n->res < 0)
        return MC_ENOMEM;

    rc = compile_defs(c, n, obj, base);
    if (rc != MC_OK)
        return rc;
    if (json_object_object_get_ex(obj, "$ref", &v)) {
        char uri[MC_SCHEMA_MAX_URI];
        if (!json_object_is_type(v, json_type_string))
            return cerr(c, MC_ESCHEMA, n, "$ref", "must be a string");
        if (mc__uri_resolve(base, json_object_get_string(v), uri, sizeof(uri)) != MC_OK)
            return cerr(c, MC_ESCHEMA, n, "$ref", "malformed or too long reference");
        n->ref_uri = arena_strdup(s, uri);
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
            return cerr(c, MC_ESCHEMA, n, "$dynamicRef", "must be a string");
        if (mc__uri_resolve(base, json_object_get_string(v), uri, sizeof(uri)) != MC_OK)
            return cerr(c, MC_ESCHEMA, n, "$dynamicRef", "malformed or too long reference");
        n->dyn_uri = arena_strdup(s, uri);
        if (n->dyn_uri == NULL)
            return MC_ENOMEM;
        n->kw |= MC__KW_DYNREF;
        rc = push_pending(c, n);
        if (rc != MC_OK)
            return rc;
    }
    if (modern && json_object_object_get_ex(obj, "unevaluatedProperties", &v)) {
        rc = compile_sub(c, n, v, "unevaluatedProperties", NULL, base, &n->uneval_props);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_UNEVAL;
    }
    if (modern && json_object_object_get_ex(obj, "unevaluatedItems", &v)) {
        rc = compile_sub(c, n, v, "unevaluatedItems", NULL, base, &n->uneval_items);
        if (rc != MC_OK)
            return rc;
        n->kw |= MC__KW_UNEVAL;
    }
    rc = compile_generic_kws(c, n, obj, base);
    if (rc == MC_OK)
        rc = compile_object_kws(c, n, obj, base);
    if (rc == MC_OK)
        rc = compile_array_kws(c, n, obj, base);
    if (rc == MC_OK)
        rc = compile_scalar_kws(c, n, obj);
    if (rc != MC_OK)
        return rc;
    /* An open object ({"type": "object", "additionalProperties": {}}) needs
     * no walk over its members. */
    if (n->props_cap == 0 && n->n_pprops == 0 &&
        (n->additional == NULL || n->additional->boolean == 1))
        n->kw &= ~(uint32_t)MC__KW_PROPS;
    if (s->docs[doc].no_validation)
        drop_validation_vocab(n);
    /* A schema without assertions ({} or only annotations) accepts all. */
    if (n->kw == 0)
        n->boolean = 1;
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
static json_object *walk_pointer(const mc_schema_t *s, int doc, json_object *obj,
                                 const char *ptr, char *base)
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
            if (errno != 0 || *end != '\0' || tok[0] == '-' ||
                idx >= json_object_array_length(obj))
                return NULL;
            obj = json_object_array_get_idx(obj, idx);
        } else {
            return NULL;
        }
        if (base_of(s, obj, s->docs[doc].modern, base, nb) == MC_OK)
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
    rc = add_doc(c, root, docuri, &d);
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
            return cerr(c, MC_ESCHEMA, n, kw, "malformed percent-encoding");
        *hash = '\0';
    }
    ix = index_find(s, docuri);
    if (ix == NULL) {
        rc = load_external(c, docuri, &ix);
        if (rc == MC_ENOTFOUND) {
            char what[MC_ERRBUF_SIZE];
            snprintf(what, sizeof(what), "cannot resolve \"%.300s\" (no such document)",
                     ref_uri);
            return cerr(c, MC_ENOTFOUND, n, kw, what);
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
        return cerr(c, MC_ENOTFOUND, n, kw, what);
    }
    *target_out = target;
    *out = map_get(s, target);
    if (*out == NULL) {
        /* Not reached by the keyword walk: compile it under its pointer. */
        char *loc = arena_strdup(s, frag);
        if (loc == NULL)
            return MC_ENOMEM;
        rc = compile_node(c, target, ix->doc, base, NULL, loc, NULL, -1, out);
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
        if (frag[0] != '\0' && frag[0] != '/' &&
            json_object_is_type(target, json_type_object) &&
            json_object_object_get_ex(target, "$dynamicAnchor", &anchor) &&
            json_object_is_type(anchor, json_type_string) &&
            strcmp(json_object_get_string(anchor), frag) == 0) {
            n->dyn_name = arena_strdup(c->s, frag);
            if (n->dyn_name == NULL)
                return MC_ENOMEM;
        }
    }
    return MC_OK;
}

/* Resolves every pending reference, then compiles the $dynamicAnchor
 * targets no keyword reached (their references join the list). */
static int resolve_all(cctx_t *c)
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
            s->dyn[i].node = map_get(s, s->dyn[i].obj);
            if (s->dyn[i].node == NULL) {
                rc = compile_node(c, s->dyn[i].obj, s->dyn[i].doc, s->dyn[i].base, NULL, "",
                                  NULL, -1, &s->dyn[i].node);
                if (rc != MC_OK)
                    return rc;
            }
        }
        if (c->next_pending == c->n_pending)
            return MC_OK;
    }
}

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
        n->disc_vals = arena_alloc(s, n->n_any_of * sizeof(*n->disc_vals));
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

static int build_discriminators(mc_schema_t *s)
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
    rc = add_doc(&c, json_object_get(doc), "urn:mcpcheck:schema", &d);
    if (rc == MC_OK) {
        const char *base = s->docs[d].base;
        char idbase[MC_SCHEMA_MAX_URI];
        /* A root $id gives the document a second name (and base). */
        if (base_of(s, doc, s->docs[d].modern, base, idbase) == MC_OK &&
            strcmp(idbase, base) != 0)
            base = s->docs[d].base = arena_strdup(s, idbase);
        if (base == NULL)
            rc = MC_ENOMEM;
        else
            rc = compile_node(&c, doc, d, base, NULL, NULL, NULL, -1, &s->root);
    }
    if (rc == MC_OK)
        rc = resolve_all(&c);
    if (rc == MC_OK)
        rc = build_discriminators(s);
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

    return def != NULL ? map_get(s, def) : NULL;
}

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

void mc__schema_path(const mc_schema_t *s, const mc__snode_t *node, const char *keyword,
                     char *out, size_t cap)
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
