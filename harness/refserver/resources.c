/*
 * resources.c - resources/list, resources/templates/list, resources/read,
 * subscriptions and resource update notifications.
 *
 * The listed resources are, in this order: the fixtures below, the dynamic
 * resource while test_trigger_resource_list_change has it switched on, the
 * files under --root, and the synthetic resources of --resources N. Items are
 * built from their index on demand, so a page costs O(page size).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/internal.h"

typedef struct rs_res_fixture {
    const char *uri;
    const char *name;
    const char *title;
    const char *description;
    const char *mime;
    int annotated;
} rs_res_fixture_t;

static const rs_res_fixture_t rs_res_fixtures[] = {
    {"test://static-text", "static-text", "Static text", "A fixed plain-text resource",
     "text/plain", 1},
    {"test://static-binary", "static-binary", "Static binary", "A 1x1 PNG image (base64 blob)",
     "image/png", 0},
    {"test://watched-resource", "watched-resource", "Watched resource",
     "Changes whenever test_trigger_resource_update runs; subscribe to hear about it",
     "text/plain", 0},
    {"test://annotated", "annotated", "Annotated document",
     "A markdown document with audience, priority and lastModified annotations",
     "text/markdown", 1},
    {"test://json-document", "json-document", "JSON document", "A small JSON document",
     "application/json", 0},
};
#define RS_NRES ((size_t)(sizeof(rs_res_fixtures) / sizeof(rs_res_fixtures[0])))

static const rs_res_fixture_t rs_templates[] = {
    {"test://template/{id}/data", "template-data", "Template data",
     "JSON data for an id ([A-Za-z0-9_.-], 1 to 64 characters)", "application/json", 0},
    {"test://greeting/{name}", "greeting", "Greeting", "A greeting for a name", "text/plain", 0},
    {"test://items/{category}/{item}", "items", "Catalogue item",
     "An item of a category; both variables complete", "text/plain", 0},
    {"test://blob/{size}", "blob-of-size", "Binary blob", "size (1 to 4096) bytes of binary data",
     "application/octet-stream", 0},
};
#define RS_NTPL ((size_t)(sizeof(rs_templates) / sizeof(rs_templates[0])))

#define DYN_URI "test://dynamic-resource"
#define SYN_PREFIX "test://synthetic/"
#define STATIC_TEXT "This is the content of the static text resource."

size_t mc__rs_resources_count(mc_refserver_t *rs)
{
    return RS_NRES + (rs->dyn_resource ? 1 : 0) +
           (rs->root != NULL ? mc__rs_fileroot_count(rs->root) : 0) + (size_t)rs->extra;
}

const char *mc__rs_resource_uri(mc_refserver_t *rs, size_t i, char *buf, size_t cap)
{
    size_t nfiles = rs->root != NULL ? mc__rs_fileroot_count(rs->root) : 0;

    if (i < RS_NRES) {
        snprintf(buf, cap, "%s", rs_res_fixtures[i].uri);
        return buf;
    }
    i -= RS_NRES;
    if (rs->dyn_resource) {
        if (i == 0) {
            snprintf(buf, cap, "%s", DYN_URI);
            return buf;
        }
        i--;
    }
    if (i < nfiles)
        return mc__rs_fileroot_uri(rs->root, i, buf, cap);
    i -= nfiles;
    snprintf(buf, cap, SYN_PREFIX "%zu", i + 1);
    return buf;
}

static json_object *build_item(mc_refserver_t *rs, size_t i);

/* Listed resource i (new reference). Fixture items depend only on the
 * negotiated version, so they are built once per session and shared. */
static json_object *resource_item(mc_refserver_t *rs, size_t i)
{
    if (i < RS_NRES && rs->phase != RS_PHASE_NEW) {
        if (rs->res_cache[i] == NULL)
            rs->res_cache[i] = build_item(rs, i);
        return json_object_get(rs->res_cache[i]);
    }
    return build_item(rs, i);
}

/* Builds listed resource i. Returns a new reference. */
static json_object *build_item(mc_refserver_t *rs, size_t i)
{
    json_object *o = json_object_new_object();
    size_t nfiles = rs->root != NULL ? mc__rs_fileroot_count(rs->root) : 0;
    char buf[RS_MAX_URI_LEN];
    const char *name, *title = NULL, *desc = NULL, *mime = NULL;
    int annotated = 0;
    long size = -1;

    mc__rs_resource_uri(rs, i, buf, sizeof(buf));
    if (i < RS_NRES) {
        const rs_res_fixture_t *f = &rs_res_fixtures[i];
        name = f->name;
        title = f->title;
        desc = f->description;
        mime = f->mime;
        annotated = f->annotated;
        if (i == 0)
            size = (long)strlen(STATIC_TEXT);
    } else if (rs->dyn_resource && i == RS_NRES) {
        name = "dynamic-resource";
        title = "Dynamic resource";
        desc = "Present while test_trigger_resource_list_change has switched it on";
        mime = "text/plain";
    } else if (i - RS_NRES - (rs->dyn_resource ? 1 : 0) < nfiles) {
        name = mc__rs_fileroot_name(rs->root, i - RS_NRES - (rs->dyn_resource ? 1 : 0));
        desc = "A file under --root";
    } else {
        name = buf + strlen("test://");
        desc = "A synthetic resource (--resources)";
        mime = "text/plain";
    }
    mc__rs_put_str(rs, o, "uri", buf);
    mc__rs_put_str(rs, o, "name", name);
    mc__rs_add_title(rs, o, title);
    if (desc != NULL)
        mc__rs_put_str(rs, o, "description", desc);
    if (mime != NULL)
        mc__rs_put_str(rs, o, "mimeType", mime);
    if (size >= 0)
        mc__rs_put(rs, o, "size", json_object_new_int64(size));
    if (annotated)
        mc__rs_put(rs, o, "annotations", mc__rs_annotations(rs, 1, 1, 0.8));
    if (i < RS_NRES)
        mc__rs_add_icons(rs, o);
    return o;
}

void mc__rs_resources_list(mc_refserver_t *rs, json_object *id, json_object *params)
{
    mc__rs_serve_list(rs, RS_LIST_RESOURCES, id, params, mc__rs_resources_count(rs), "resources",
                      resource_item);
}

/* Template i of the fixture table (a new reference). */
static json_object *template_item(mc_refserver_t *rs, size_t i)
{
    const rs_res_fixture_t *t = &rs_templates[i];
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "uriTemplate", t->uri);
    mc__rs_put_str(rs, o, "name", t->name);
    mc__rs_add_title(rs, o, t->title);
    mc__rs_put_str(rs, o, "description", t->description);
    mc__rs_put_str(rs, o, "mimeType", t->mime);
    mc__rs_add_icons(rs, o);
    return o;
}

void mc__rs_templates_list(mc_refserver_t *rs, json_object *id, json_object *params)
{
    mc__rs_serve_list(rs, RS_LIST_TEMPLATES, id, params, RS_NTPL, "resourceTemplates",
                      template_item);
}

/* True when s[0..n) is 1..64 characters of [A-Za-z0-9_.-]. */
static int valid_var(const char *s, size_t n)
{
    size_t i;

    if (n == 0 || n > 64)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

/* Parses a positive decimal without leading zeros from s[0..n); returns it or 0. */
static size_t parse_pos(const char *s, size_t n, size_t max)
{
    size_t v = 0, i;

    if (n == 0 || n > 9 || s[0] == '0')
        return 0;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    return v <= max ? v : 0;
}

/* One contents entry with text. Returns a new reference. */
static json_object *text_contents(mc_refserver_t *rs, const char *uri, const char *mime,
                                  const char *text)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "uri", uri);
    mc__rs_put_str(rs, o, "mimeType", mime);
    mc__rs_put_str(rs, o, "text", text);
    return o;
}

/* One contents entry with a blob (base64 string b64). Returns a new reference. */
static json_object *blob_contents(mc_refserver_t *rs, const char *uri, const char *mime,
                                  const char *b64)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "uri", uri);
    mc__rs_put_str(rs, o, "mimeType", mime);
    mc__rs_put_str(rs, o, "blob", b64);
    return o;
}

/* Reads a template URI. Returns a contents entry (new reference) or NULL. */
static json_object *read_template(mc_refserver_t *rs, const char *uri)
{
    size_t n = strlen(uri);
    char text[512];

    if (strncmp(uri, "test://template/", 16) == 0 && n > 21 &&
        strcmp(uri + n - 5, "/data") == 0 && valid_var(uri + 16, n - 21)) {
        json_object *doc = json_object_new_object(), *c;
        char idbuf[72];
        snprintf(idbuf, sizeof(idbuf), "%.*s", (int)(n - 21), uri + 16);
        mc__rs_put_str(rs, doc, "id", idbuf);
        mc__rs_put(rs, doc, "templateTest", json_object_new_boolean(1));
        snprintf(text, sizeof(text), "Data for ID: %s", idbuf);
        mc__rs_put_str(rs, doc, "data", text);
        c = text_contents(rs, uri, "application/json",
                          json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
        json_object_put(doc);
        return c;
    }
    if (strncmp(uri, "test://greeting/", 16) == 0 && valid_var(uri + 16, n - 16)) {
        snprintf(text, sizeof(text), "Hello, %s!", uri + 16);
        return text_contents(rs, uri, "text/plain", text);
    }
    if (strncmp(uri, "test://items/", 13) == 0) {
        const char *slash = strchr(uri + 13, '/');
        if (slash != NULL && valid_var(uri + 13, (size_t)(slash - uri - 13)) &&
            valid_var(slash + 1, strlen(slash + 1))) {
            snprintf(text, sizeof(text), "Item %s of category %.*s", slash + 1,
                     (int)(slash - uri - 13), uri + 13);
            return text_contents(rs, uri, "text/plain", text);
        }
        return NULL;
    }
    if (strncmp(uri, "test://blob/", 12) == 0) {
        size_t size = parse_pos(uri + 12, n - 12, 4096), i;
        unsigned char bytes[4096];
        char *b64;
        json_object *c;
        if (size == 0)
            return NULL;
        for (i = 0; i < size; i++)
            bytes[i] = (unsigned char)(i * 31u + 7u);
        b64 = mc__rs_base64(bytes, size);
        if (b64 == NULL) {
            rs->failed = 1;
            return NULL;
        }
        c = blob_contents(rs, uri, "application/octet-stream", b64);
        free(b64);
        return c;
    }
    return NULL;
}

/*
 * Reads uri into one contents entry. Returns 0 and *out (new reference), or
 * the JSON-RPC error code with a reason in why.
 */
static int read_uri(mc_refserver_t *rs, const char *uri, json_object **out, char *why,
                    size_t why_cap)
{
    char text[160];
    size_t k;

    *out = NULL;
    if (strcmp(uri, "test://static-text") == 0) {
        *out = text_contents(rs, uri, "text/plain", STATIC_TEXT);
    } else if (strcmp(uri, "test://static-binary") == 0) {
        *out = blob_contents(rs, uri, "image/png", mc__rs_png_b64);
    } else if (strcmp(uri, "test://watched-resource") == 0) {
        snprintf(text, sizeof(text), "Watched resource, revision %u", (unsigned)rs->watched_rev);
        *out = text_contents(rs, uri, "text/plain", text);
    } else if (strcmp(uri, "test://annotated") == 0) {
        *out = text_contents(rs, uri, "text/markdown",
                             "# Annotated\n\nThis document carries resource annotations.\n");
    } else if (strcmp(uri, "test://json-document") == 0) {
        *out = text_contents(rs, uri, "application/json", "{\"fixture\":\"json-document\"}");
    } else if (rs->dyn_resource && strcmp(uri, DYN_URI) == 0) {
        *out = text_contents(rs, uri, "text/plain",
                             "This resource exists while the list change toggle is on.");
    } else if (strncmp(uri, SYN_PREFIX, strlen(SYN_PREFIX)) == 0 &&
               (k = parse_pos(uri + strlen(SYN_PREFIX), strlen(uri + strlen(SYN_PREFIX)),
                              (size_t)rs->extra)) > 0) {
        snprintf(text, sizeof(text), "Synthetic resource %zu", k);
        *out = text_contents(rs, uri, "text/plain", text);
    } else if (mc__rs_fileroot_claims(uri)) {
        if (rs->root == NULL) {
            snprintf(why, why_cap, "no --root directory is served");
            return MC_RPC_RESOURCE_NOT_FOUND;
        }
        return mc__rs_fileroot_read(rs->root, uri, out, why, why_cap);
    } else {
        *out = read_template(rs, uri);
    }
    if (*out == NULL) {
        snprintf(why, why_cap, "resource not found");
        return MC_RPC_RESOURCE_NOT_FOUND;
    }
    return 0;
}

int mc__rs_resource_exists(mc_refserver_t *rs, const char *uri)
{
    json_object *c = NULL;
    char why[128];
    int rc = read_uri(rs, uri, &c, why, sizeof(why));

    json_object_put(c);
    return rc == 0;
}

/* Sends the error for a failed read of uri. */
static void read_error(mc_refserver_t *rs, json_object *id, int code, const char *uri,
                       const char *why)
{
    json_object *data = NULL;

    if (code == MC_RPC_RESOURCE_NOT_FOUND) {
        if (rs_fault_hook(rs, RS_HOOK_READ_UNKNOWN_AS_EMPTY)) {
            json_object *res = json_object_new_object();
            mc__rs_put(rs, res, "contents", json_object_new_array());
            mc__rs_result(rs, id, res);
            return;
        }
        /* 2026-07-28/server/resources#error-handling: -32602 from then on. */
        if (rs->version >= MC_V_2026_07_28)
            code = MC_RPC_INVALID_PARAMS;
    }
    data = json_object_new_object();
    mc__rs_put_str(rs, data, "uri", uri);
    rs->error_reason = why; /* the server's own reason, for the send path */
    mc__rs_error(rs, id, code,
                 code == MC_RPC_RESOURCE_NOT_FOUND || code == MC_RPC_INVALID_PARAMS
                     ? "Resource not found"
                     : why,
                 data);
    rs->error_reason = NULL;
}

/* Returns params.uri, or sends -32602 and returns NULL. */
static const char *want_uri(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *uri = mc__rs_get_str(params, "uri");

    if (uri == NULL) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.uri must be a string", NULL);
        return NULL;
    }
    if (strlen(uri) >= RS_MAX_URI_LEN) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.uri is too long", NULL);
        return NULL;
    }
    return uri;
}

_Static_assert(RS_NRES <= RS_READ_CACHE_SLOTS, "one read cache slot per fixture");

/* The fixture index of uri when its contents never change (every fixture
 * but the watched resource), else -1. */
static int fixed_fixture(const char *uri)
{
    size_t i;

    for (i = 0; i < RS_NRES; i++)
        if (strcmp(uri, rs_res_fixtures[i].uri) == 0)
            return strcmp(uri, "test://watched-resource") == 0 ? -1 : (int)i;
    return -1;
}

void mc__rs_resources_read(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *uri = want_uri(rs, id, params);
    json_object *c = NULL, *res, *arr;
    char why[256];
    int rc, fixed;

    rs->other_served = 1;
    if (uri == NULL)
        return;
    mc__rs_log_activity(rs, "resources", "reading", uri);
    fixed = fixed_fixture(uri);
    if (fixed >= 0 && mc__rs_fast_replay(rs, RS_BODY_READ, (size_t)fixed, id))
        return;
    if (rs_fault_hook(rs, RS_HOOK_ACCEPT_ANY_URI) && strchr(uri, ':') == NULL) {
        /* The switch: a string that is no URI is read as an empty resource. */
        res = json_object_new_object();
        mc__rs_put(rs, res, "contents", json_object_new_array());
        mc__rs_result(rs, id, res);
        return;
    }
    rc = read_uri(rs, uri, &c, why, sizeof(why));
    if (rc != 0) {
        read_error(rs, id, rc, uri, why);
        return;
    }
    res = json_object_new_object();
    arr = json_object_new_array_ext(1);
    if (json_object_array_add(arr, c) != 0) {
        json_object_put(c);
        rs->failed = 1;
    }
    mc__rs_put(rs, res, "contents", arr);
    if (fixed >= 0)
        mc__rs_fast_keep(rs, RS_BODY_READ, (size_t)fixed, id, res);
    else
        mc__rs_result(rs, id, res);
}

/* Index of uri in the subscription table, or -1. */
static int find_sub(mc_refserver_t *rs, const char *uri)
{
    int i;

    for (i = 0; i < rs->nsubs; i++)
        if (strcmp(rs->subs[i], uri) == 0)
            return i;
    return -1;
}

void mc__rs_resources_subscribe(mc_refserver_t *rs, json_object *id, json_object *params,
                                int subscribe)
{
    const char *uri = want_uri(rs, id, params);
    int at;

    if (uri == NULL)
        return;
    at = find_sub(rs, uri);
    if (subscribe) {
        if (at >= 0 && rs->sub_gone[at]) {
            /* Only with the switch: a tombstone revived, and its entry
             * loses its URI in the updates that follow. */
            rs->sub_gone[at] = 0;
            rs->sub_again[at] = 1;
        } else if (at < 0) {
            char *copy;
            if (!mc__rs_resource_exists(rs, uri)) {
                read_error(rs, id, MC_RPC_RESOURCE_NOT_FOUND, uri, "resource not found");
                return;
            }
            if (rs->nsubs >= RS_MAX_SUBSCRIPTIONS) {
                mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "too many subscriptions", NULL);
                return;
            }
            copy = strdup(uri);
            if (copy == NULL) {
                rs->failed = 1;
                return;
            }
            rs->sub_gone[rs->nsubs] = 0;
            rs->sub_again[rs->nsubs] = 0;
            rs->subs[rs->nsubs++] = copy;
        }
    } else if (at >= 0 && !rs->sub_gone[at]) {
        if (rs_fault_hook(rs, RS_HOOK_REFUSE_UNSUBSCRIBE)) {
            /* the switch: the subscription stays, and the request fails */
            mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "cannot unsubscribe", NULL);
            return;
        }
        if (rs_fault_hook(rs, RS_HOOK_KEEP_UNSUBSCRIBED)) {
            rs->sub_gone[at] = 1; /* the switch: the entry stays, as a tombstone */
        } else {
            free(rs->subs[at]);
            rs->subs[at] = rs->subs[--rs->nsubs];
            rs->sub_gone[at] = rs->sub_gone[rs->nsubs];
            rs->sub_again[at] = rs->sub_again[rs->nsubs];
        }
    }
    mc__rs_result(rs, id, NULL);
}

void mc__rs_resources_touch(mc_refserver_t *rs)
{
    static const char watched[] = "test://watched-resource";
    json_object *p;

    int at = find_sub(rs, watched);

    if (at >= 0 && rs->sub_gone[at])
        at = -1; /* unsubscribed */
    rs->watched_rev++;
    p = json_object_new_object();
    if (at >= 0 && rs->sub_again[at])
        mc__rs_put(rs, p, "uri", NULL); /* the switch: the entry lost its URI */
    else
        mc__rs_put_str(rs, p, "uri", watched);
    mc__rs_notify_change(rs, "notifications/resources/updated", watched, at >= 0, p);
}
