/*
 * vocab.c - the methods and capability paths of each protocol version,
 * read from its schema file (vocab.h).
 */
#include "schema/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/file.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"

/* Largest schema file read, in bytes. */
#define VOCAB_MAX_FILE (8u * 1024u * 1024u)
/* Deepest nesting of a schema file. */
#define VOCAB_MAX_JSON_DEPTH 512

typedef struct wordlist {
    char *w[MC_VOCAB_MAX_WORDS];
    size_t n;
} wordlist_t;

struct mc_vocab {
    wordlist_t words[MC_V_COUNT][MC_VOCAB_KIND_COUNT];
};

/* Appends a copy of word unless it is there. Returns MC_OK, MC_EFULL or
 * MC_ENOMEM. */
static int add_word(wordlist_t *l, const char *word)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strcmp(l->w[i], word) == 0)
            return MC_OK;
    if (l->n == MC_VOCAB_MAX_WORDS)
        return MC_EFULL;
    l->w[l->n] = strdup(word);
    if (l->w[l->n] == NULL)
        return MC_ENOMEM;
    l->n++;
    return MC_OK;
}

/* The definition a node refers to ("#/definitions/X", "#/$defs/X"), or the
 * node itself (borrowed). */
static json_object *deref(json_object *defs, json_object *node)
{
    const char *ref = mc_json_get_str(node, "$ref");
    const char *slash = ref != NULL ? strrchr(ref, '/') : NULL;

    return slash != NULL ? mc_json_get(defs, slash + 1) : node;
}

/* The method of a definition: properties.method.const, or NULL. */
static const char *def_method(json_object *def)
{
    return mc_json_get_str(mc_json_get(mc_json_get(def, "properties"), "method"), "const");
}

/* Adds the method of every member of union definition name to l. */
static int add_union(wordlist_t *l, json_object *defs, const char *name)
{
    json_object *any = mc_json_get(mc_json_get(defs, name), "anyOf");
    size_t i, n = json_object_is_type(any, json_type_array) ? json_object_array_length(any) : 0;
    int rc = MC_OK;

    for (i = 0; i < n && rc == MC_OK; i++) {
        const char *m = def_method(deref(defs, json_object_array_get_idx(any, i)));
        if (m != NULL)
            rc = add_word(l, m);
    }
    return rc;
}

/* Adds the method of every definition named *Notification to l. */
static int add_notifications(wordlist_t *l, json_object *defs)
{
    static const char suffix[] = "Notification";
    const size_t ns = sizeof(suffix) - 1;
    int rc = MC_OK;

    json_object_object_foreach(defs, name, def)
    {
        size_t n = strlen(name);
        const char *m = def_method(def);
        if (rc == MC_OK && m != NULL && n > ns && strcmp(name + n - ns, suffix) == 0)
            rc = add_word(l, m);
    }
    return rc;
}

/* Adds the capability path of every property below node (prefix: the path
 * so far, "" at the top) to l. */
static int add_caps(wordlist_t *l, json_object *defs, json_object *node, const char *prefix,
                    int depth)
{
    json_object *props = mc_json_get(deref(defs, node), "properties");
    int rc = MC_OK;

    if (depth >= MC_VOCAB_MAX_DEPTH || !json_object_is_type(props, json_type_object))
        return MC_OK;
    json_object_object_foreach(props, key, sub)
    {
        char path[MC_VOCAB_MAX_PATH];
        json_object *open = mc_json_get(deref(defs, sub), "additionalProperties");
        if (rc != MC_OK)
            break;
        if (snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "." : "", key) >=
            (int)sizeof(path))
            continue;
        rc = add_word(l, path);
        if (rc == MC_OK && json_object_is_type(open, json_type_object)) {
            char any[MC_VOCAB_MAX_PATH + 2];
            snprintf(any, sizeof(any), "%s.*", path);
            rc = add_word(l, any);
        }
        if (rc == MC_OK)
            rc = add_caps(l, defs, sub, path, depth + 1);
    }
    return rc;
}

/* Fills the word lists of version id from its schema document. */
static int index_version(mc_vocab_t *v, int id, json_object *doc)
{
    json_object *defs = mc_json_get(doc, "definitions");
    wordlist_t *w = v->words[id];
    int rc;

    if (defs == NULL)
        defs = mc_json_get(doc, "$defs");
    rc = add_union(&w[MC_VOCAB_CLIENT_REQUEST], defs, "ClientRequest");
    if (rc == MC_OK)
        rc = add_union(&w[MC_VOCAB_SERVER_REQUEST], defs, "ServerRequest");
    if (rc == MC_OK)
        rc = add_union(&w[MC_VOCAB_SERVER_REQUEST], defs, "InputRequest");
    if (rc == MC_OK)
        rc = add_notifications(&w[MC_VOCAB_NOTIFICATION], defs);
    if (rc == MC_OK)
        rc =
            add_caps(&w[MC_VOCAB_SERVER_CAP], defs, mc_json_get(defs, "ServerCapabilities"), "", 0);
    if (rc == MC_OK)
        rc =
            add_caps(&w[MC_VOCAB_CLIENT_CAP], defs, mc_json_get(defs, "ClientCapabilities"), "", 0);
    return rc;
}

int mc_vocab_load(const char *dir, mc_vocab_t **out, mc_errbuf_t *eb)
{
    mc_vocab_t *v = calloc(1, sizeof(*v));
    int id, rc = MC_OK;

    if (v == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    for (id = 0; id < MC_V_COUNT && rc == MC_OK; id++) {
        char path[1200], *buf = NULL;
        size_t len;
        json_object *doc = NULL;
        mc_errbuf_t inner;
        snprintf(path, sizeof(path), "%s/%s.json", dir, mc_version_name(id));
        rc = mc_file_read(path, VOCAB_MAX_FILE, &buf, &len, eb);
        if (rc != MC_OK)
            break;
        mc_errbuf_clear(&inner);
        rc = mc_json_parse(buf, len, VOCAB_MAX_JSON_DEPTH, &doc, &inner);
        free(buf);
        if (rc != MC_OK) {
            rc = mc_errbuf_set(eb, MC_EPARSE, "%s: %s", path, inner.msg);
            break;
        }
        rc = index_version(v, id, doc);
        json_object_put(doc);
        if (rc != MC_OK)
            mc_errbuf_set(eb, rc, "%s: %s", path,
                          rc == MC_EFULL ? "more words of a kind than the vocabulary holds"
                                         : "out of memory");
    }
    if (rc != MC_OK) {
        mc_vocab_free(v);
        return rc;
    }
    *out = v;
    return MC_OK;
}

void mc_vocab_free(mc_vocab_t *v)
{
    int id, k;
    size_t i;

    if (v == NULL)
        return;
    for (id = 0; id < MC_V_COUNT; id++)
        for (k = 0; k < MC_VOCAB_KIND_COUNT; k++)
            for (i = 0; i < v->words[id][k].n; i++)
                free(v->words[id][k].w[i]);
    free(v);
}

int mc_vocab_has(const mc_vocab_t *v, int version, mc_vocab_kind_t kind, const char *word)
{
    const wordlist_t *l;
    size_t i, n = strlen(word);

    if (v == NULL || version < 0 || version >= MC_V_COUNT || (unsigned)kind >= MC_VOCAB_KIND_COUNT)
        return 0;
    l = &v->words[version][kind];
    for (i = 0; i < l->n; i++) {
        size_t ln = strlen(l->w[i]);
        if (strcmp(l->w[i], word) == 0)
            return 1;
        /* "experimental.*" takes "experimental.anything". */
        if (ln >= 2 && strcmp(l->w[i] + ln - 2, ".*") == 0 && n > ln - 1 &&
            strncmp(l->w[i], word, ln - 1) == 0)
            return 1;
    }
    return 0;
}

const char *mc_vocab_word(const mc_vocab_t *v, int version, mc_vocab_kind_t kind, size_t i)
{
    if (v == NULL || version < 0 || version >= MC_V_COUNT ||
        (unsigned)kind >= MC_VOCAB_KIND_COUNT || i >= v->words[version][kind].n)
        return NULL;
    return v->words[version][kind].w[i];
}

const char *mc_vocab_kind_what(mc_vocab_kind_t kind)
{
    static const char *const what[MC_VOCAB_KIND_COUNT] = {
        "client request method", "server request method", "notification method",
        "server capability", "client capability"};

    return (unsigned)kind < MC_VOCAB_KIND_COUNT ? what[kind] : "word";
}
