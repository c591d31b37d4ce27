#include "core/xmcpheader.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"

/* The deepest schema nesting walked for annotations. */
#define ANNOT_MAX_DEPTH 64

/* True when c is a tchar of RFC 9110 (a header field name character). */
static int tchar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* The state of one walk over a tool's inputSchema. */
typedef struct annot_walk {
    const char *names[MC_XMCP_HEADER_MAX_NAMES];
    size_t n;
    char why[MC_XMCP_HEADER_WHY];
} annot_walk_t;

/* Checks the x-mcp-header annotation of schema node o, if any, against the
 * page's constraints (#schema-extension); reachable: the node is reached
 * from the root by properties keys alone. Records the first problem. */
static void annot_node(annot_walk_t *w, json_object *o, int reachable, int depth)
{
    json_object *hv;
    const char *v, *type, *p;
    size_t i;

    if (!json_object_object_get_ex(o, "x-mcp-header", &hv) || w->why[0] != '\0')
        return;
    v = json_object_is_type(hv, json_type_string) ? json_object_get_string(hv) : NULL;
    type = mc_json_get_str(o, "type");
    if (!reachable || depth == 0) {
        snprintf(w->why, sizeof(w->why), "an x-mcp-header annotation is not reachable from the "
                                         "root through properties keys alone");
        return;
    }
    if (v == NULL || v[0] == '\0') {
        snprintf(w->why, sizeof(w->why), "an x-mcp-header value is empty or no string");
        return;
    }
    for (p = v; *p; p++)
        if (!tchar(*p)) {
            snprintf(w->why, sizeof(w->why), "x-mcp-header \"%.60s\" is no HTTP field-name token",
                     v);
            return;
        }
    for (i = 0; i < w->n; i++)
        if (strcasecmp(w->names[i], v) == 0) {
            snprintf(w->why, sizeof(w->why), "x-mcp-header \"%.60s\" is used twice (case-"
                                             "insensitively)", v);
            return;
        }
    if (w->n < sizeof(w->names) / sizeof(w->names[0]))
        w->names[w->n++] = v;
    if (type == NULL ||
        (strcmp(type, "string") != 0 && strcmp(type, "integer") != 0 && strcmp(type, "boolean") != 0))
        snprintf(w->why, sizeof(w->why), "x-mcp-header \"%.60s\" is on a parameter of type %.20s, "
                                         "not integer, string or boolean", v,
                 type != NULL ? type : "(none)");
}

/* Walks every schema object under o; only properties keys keep a node
 * reachable. */
static void annot_walk(annot_walk_t *w, json_object *o, int reachable, int depth)
{
    if (!json_object_is_type(o, json_type_object) || depth > ANNOT_MAX_DEPTH ||
        w->why[0] != '\0')
        return;
    annot_node(w, o, reachable, depth);
    json_object_object_foreach(o, key, v)
    {
        if (strcmp(key, "properties") == 0 && json_object_is_type(v, json_type_object)) {
            json_object_object_foreach(v, name, sub)
            {
                (void)name;
                annot_walk(w, sub, reachable, depth + 1);
            }
        } else if (json_object_is_type(v, json_type_object)) {
            annot_walk(w, v, 0, depth + 1);
        } else if (json_object_is_type(v, json_type_array)) {
            size_t i, n = json_object_array_length(v);
            for (i = 0; i < n; i++)
                annot_walk(w, json_object_array_get_idx(v, i), 0, depth + 1);
        }
    }
}

int mc_xmcp_header_check(json_object *schema, char *why, size_t cap)
{
    annot_walk_t w;

    memset(&w, 0, sizeof(w));
    annot_walk(&w, schema, 1, 0);
    if (cap > 0)
        snprintf(why, cap, "%s", w.why);
    return w.why[0] != '\0' ? -1 : (int)w.n;
}
