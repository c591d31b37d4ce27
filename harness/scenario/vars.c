#include "scenario/vars.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mc_vars_init(mc_vars_t *v)
{
    memset(v, 0, sizeof(*v));
}

void mc_vars_free(mc_vars_t *v)
{
    size_t i;

    for (i = 0; i < v->n; i++) {
        free(v->names[i]);
        json_object_put(v->values[i]);
    }
    memset(v, 0, sizeof(*v));
}

/*
 * Values are deep-copied: a variable never shares a json_object with the
 * scenario, the profile or another thread (json-c reference counts and
 * serialization buffers are not thread-safe, and scenarios run in
 * parallel).
 */
static json_object *copy(json_object *value, int *ok)
{
    json_object *c = NULL;

    *ok = 1;
    if (value == NULL)
        return NULL;
    if (json_object_deep_copy(value, &c, NULL) != 0) {
        *ok = 0;
        return NULL;
    }
    return c;
}

int mc_vars_set(mc_vars_t *v, const char *name, json_object *value)
{
    size_t i;
    int ok;
    json_object *c = copy(value, &ok);

    if (!ok)
        return MC_ENOMEM;
    for (i = 0; i < v->n; i++) {
        if (strcmp(v->names[i], name) == 0) {
            json_object_put(v->values[i]);
            v->values[i] = c;
            return MC_OK;
        }
    }
    if (v->n == MC_VARS_MAX) {
        json_object_put(c);
        return MC_EFULL;
    }
    v->names[v->n] = strdup(name);
    if (v->names[v->n] == NULL) {
        json_object_put(c);
        return MC_ENOMEM;
    }
    v->values[v->n] = c;
    v->n++;
    return MC_OK;
}

json_object *mc_vars_get(const mc_vars_t *v, const char *name, int *found)
{
    size_t i;

    for (i = 0; i < v->n; i++) {
        if (strcmp(v->names[i], name) == 0) {
            if (found != NULL)
                *found = 1;
            return v->values[i];
        }
    }
    if (found != NULL)
        *found = 0;
    return NULL;
}

static int ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

int mc_var_name_ok(const char *name)
{
    const char *p;

    if (name == NULL || !ident_start(name[0]))
        return 0;
    for (p = name; *p != '\0'; p++)
        if (!ident_char(*p))
            return 0;
    return p - name <= 64;
}

size_t mc_var_name_len(const char *ref, size_t n)
{
    size_t i = 0;

    if (n >= 5 && strncmp(ref, "role:", 5) == 0)
        return n;
    while (i < n && ref[i] != '.' && ref[i] != '[')
        i++;
    return i;
}

int mc_var_builtin(const char *name, size_t n)
{
    static const char *const names[] = {"version", "server_versions", "server_versions_older",
                                        "initialize"};
    size_t i;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strlen(names[i]) == n && strncmp(name, names[i], n) == 0)
            return 1;
    return 0;
}

/* --- paths ---------------------------------------------------------------- */

typedef enum seg_kind { SEG_KEY, SEG_INDEX, SEG_ALL } seg_kind_t;

typedef struct seg {
    seg_kind_t kind;
    char key[256];
    long index;
} seg_t;

#define MC__MAX_SEGS 32

/* Splits a path into segments. Returns the count, or -1 if malformed. */
static int split(const char *path, seg_t *segs)
{
    const char *p = path;
    int n = 0;

    if (*p == '\0')
        return 0;
    for (;;) {
        if (n == MC__MAX_SEGS)
            return -1;
        if (*p == '[') {
            p++;
            if (*p == '*' && p[1] == ']') {
                segs[n].kind = SEG_ALL;
                p += 2;
            } else if (*p == '"') {
                const char *end = strchr(p + 1, '"');
                size_t len;
                if (end == NULL || end[1] != ']')
                    return -1;
                len = (size_t)(end - p - 1);
                if (len >= sizeof(segs[n].key))
                    return -1;
                segs[n].kind = SEG_KEY;
                memcpy(segs[n].key, p + 1, len);
                segs[n].key[len] = '\0';
                p = end + 2;
            } else {
                char *end = NULL;
                long idx = strtol(p, &end, 10);
                if (end == p || *end != ']' || idx < 0)
                    return -1;
                segs[n].kind = SEG_INDEX;
                segs[n].index = idx;
                p = end + 1;
            }
        } else {
            size_t len = 0;
            while (p[len] != '\0' && p[len] != '.' && p[len] != '[')
                len++;
            if (len == 0 || len >= sizeof(segs[n].key))
                return -1;
            segs[n].kind = len == 1 && p[0] == '*' ? SEG_ALL : SEG_KEY;
            memcpy(segs[n].key, p, len);
            segs[n].key[len] = '\0';
            p += len;
        }
        n++;
        if (*p == '\0')
            return n;
        if (*p == '.') {
            p++;
            if (*p == '\0' || *p == '.' || *p == '[')
                return -1;
        } else if (*p != '[') {
            return -1;
        }
    }
}

int mc_path_check(const char *path)
{
    seg_t *segs = malloc(sizeof(seg_t) * MC__MAX_SEGS);
    int n;

    if (segs == NULL)
        return -1;
    n = split(path, segs);
    free(segs);
    return n < 0 ? -1 : 0;
}

static void append_where(char *where, size_t cap, const seg_t *s, long idx)
{
    size_t len = strlen(where);

    if (s->kind == SEG_KEY) {
        int plain = 1;
        for (const char *k = s->key; *k; k++)
            if (!ident_char(*k) && *k != '-' && *k != '$')
                plain = 0;
        if (plain)
            snprintf(where + len, cap - len, "%s%s", len ? "." : "", s->key);
        else
            snprintf(where + len, cap - len, "[\"%s\"]", s->key);
    } else {
        snprintf(where + len, cap - len, "[%ld]", idx);
    }
}

static int walk(json_object *cur, const seg_t *segs, int i, int n, char *where, size_t cap,
                mc_path_cb cb, void *ctx)
{
    size_t mark = strlen(where);
    int visits = 0;

    if (i == n) {
        cb(ctx, cur, 1, where);
        return 1;
    }
    if (segs[i].kind == SEG_KEY) {
        json_object *next = NULL;
        append_where(where, cap, &segs[i], 0);
        if (cur != NULL && json_object_is_type(cur, json_type_object) &&
            json_object_object_get_ex(cur, segs[i].key, &next)) {
            visits = walk(next, segs, i + 1, n, where, cap, cb, ctx);
        } else {
            cb(ctx, NULL, 0, where);
            visits = 1;
        }
    } else if (segs[i].kind == SEG_INDEX) {
        append_where(where, cap, &segs[i], segs[i].index);
        if (cur != NULL && json_object_is_type(cur, json_type_array) &&
            (size_t)segs[i].index < json_object_array_length(cur)) {
            visits = walk(json_object_array_get_idx(cur, (size_t)segs[i].index), segs, i + 1, n,
                          where, cap, cb, ctx);
        } else {
            cb(ctx, NULL, 0, where);
            visits = 1;
        }
    } else {
        if (cur != NULL && json_object_is_type(cur, json_type_object)) {
            /* [*] over an object visits every member, in document order. */
            json_object_object_foreach(cur, key, val)
            {
                seg_t member;
                where[mark] = '\0';
                member.kind = SEG_KEY;
                snprintf(member.key, sizeof(member.key), "%s", key);
                append_where(where, cap, &member, 0);
                visits += walk(val, segs, i + 1, n, where, cap, cb, ctx);
            }
        } else if (cur == NULL || !json_object_is_type(cur, json_type_array)) {
            append_where(where, cap, &segs[i], 0);
            cb(ctx, NULL, 0, where);
            visits = 1;
        } else {
            size_t k, len = json_object_array_length(cur);
            for (k = 0; k < len; k++) {
                where[mark] = '\0';
                append_where(where, cap, &segs[i], (long)k);
                visits += walk(json_object_array_get_idx(cur, k), segs, i + 1, n, where, cap, cb,
                               ctx);
            }
        }
    }
    where[mark] = '\0';
    return visits;
}

int mc_path_each(json_object *root, const char *path, mc_path_cb cb, void *ctx)
{
    seg_t *segs = malloc(sizeof(seg_t) * MC__MAX_SEGS);
    char where[1024] = "";
    int n, visits;

    if (segs == NULL)
        return -1;
    n = split(path, segs);
    if (n < 0) {
        free(segs);
        return -1;
    }
    visits = walk(root, segs, 0, n, where, sizeof(where), cb, ctx);
    free(segs);
    return visits;
}

typedef struct first {
    json_object *value;
    int found;
    int done;
} first_t;

static void take_first(void *ctx, json_object *value, int found, const char *where)
{
    first_t *f = ctx;

    (void)where;
    if (f->done)
        return;
    f->done = 1;
    f->value = value;
    f->found = found;
}

json_object *mc_path_get(json_object *root, const char *path, int *found)
{
    first_t f = {NULL, 0, 0};

    mc_path_each(root, path, take_first, &f);
    if (found != NULL)
        *found = f.found;
    return f.value;
}

/* --- expansion ------------------------------------------------------------ */

/* Resolves the text between "${" and "}" to a value. */
static int resolve(const mc_vars_t *v, const char *ref, size_t n, json_object **out,
                   mc_errbuf_t *eb)
{
    char name[320];
    size_t nl = mc_var_name_len(ref, n);
    json_object *val;
    int found = 0;

    if (nl >= sizeof(name) || n >= sizeof(name))
        return mc_errbuf_set(eb, MC_ENOTFOUND, "variable reference too long");
    memcpy(name, ref, nl);
    name[nl] = '\0';
    val = mc_vars_get(v, name, &found);
    if (!found) {
        if (strncmp(name, "role:", 5) == 0)
            return mc_errbuf_set(eb, MC_ENOTFOUND, "the profile has no role \"%s\"", name + 5);
        return mc_errbuf_set(eb, MC_ENOTFOUND, "variable \"%s\" is not set", name);
    }
    if (nl < n) {
        char path[320];
        size_t pl = n - nl;
        const char *rest = ref + nl;
        if (rest[0] == '.') {
            rest++;
            pl--;
        }
        memcpy(path, rest, pl);
        path[pl] = '\0';
        val = mc_path_get(val, path, &found);
        if (!found)
            return mc_errbuf_set(eb, MC_ENOTFOUND, "\"${%.*s}\" selects nothing", (int)n, ref);
    }
    *out = val;
    return MC_OK;
}

static int expand_string(const mc_vars_t *v, json_object *s, json_object **out, mc_errbuf_t *eb)
{
    const char *str = json_object_get_string(s);
    size_t len = (size_t)json_object_get_string_len(s);
    const char *p, *start;
    char *buf = NULL;
    size_t blen = 0, bcap = 0;
    int rc;

    if (strstr(str, "${") == NULL) {
        *out = json_object_new_string_len(str, (int)len);
        return *out != NULL ? MC_OK : MC_ENOMEM;
    }
    /* The whole string is one reference: keep the value's type. */
    if (str[0] == '$' && str[1] == '{' && str[len - 1] == '}' &&
        memchr(str + 2, '}', len - 3) == NULL) {
        json_object *val = NULL;
        rc = resolve(v, str + 2, len - 3, &val, eb);
        if (rc != MC_OK)
            return rc;
        if (val == NULL) {
            *out = NULL;
            return MC_OK;
        }
        return json_object_deep_copy(val, out, NULL) == 0 ? MC_OK : MC_ENOMEM;
    }
    for (start = p = str;; ) {
        const char *ref = strstr(p, "${");
        const char *piece;
        size_t plen;
        json_object *val = NULL;
        char tmp[64];

        if (ref == NULL) {
            piece = p;
            plen = strlen(p);
        } else {
            piece = p;
            plen = (size_t)(ref - p);
        }
        /* Append the literal part, then the reference. */
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                const char *end;
                if (ref == NULL)
                    break;
                end = strchr(ref + 2, '}');
                if (end == NULL) {
                    free(buf);
                    return mc_errbuf_set(eb, MC_ENOTFOUND, "unterminated ${ in \"%.60s\"", str);
                }
                rc = resolve(v, ref + 2, (size_t)(end - ref - 2), &val, eb);
                if (rc != MC_OK) {
                    free(buf);
                    return rc;
                }
                if (val == NULL) {
                    piece = "null";
                } else if (json_object_is_type(val, json_type_string)) {
                    piece = json_object_get_string(val);
                } else {
                    size_t n2;
                    piece = json_object_to_json_string_length(val, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n2);
                    (void)tmp;
                }
                plen = strlen(piece);
                p = end + 1;
            }
            if (blen + plen + 1 > bcap) {
                size_t cap = bcap ? bcap : 64;
                char *nb;
                while (cap < blen + plen + 1)
                    cap *= 2;
                nb = realloc(buf, cap);
                if (nb == NULL) {
                    free(buf);
                    return MC_ENOMEM;
                }
                buf = nb;
                bcap = cap;
            }
            memcpy(buf + blen, piece, plen);
            blen += plen;
            buf[blen] = '\0';
        }
        if (ref == NULL)
            break;
    }
    (void)start;
    *out = json_object_new_string_len(buf ? buf : "", (int)blen);
    free(buf);
    return *out != NULL ? MC_OK : MC_ENOMEM;
}

int mc_vars_expand(const mc_vars_t *v, json_object *tmpl, json_object **out, mc_errbuf_t *eb)
{
    int rc;

    if (tmpl == NULL) {
        *out = NULL;
        return MC_OK;
    }
    switch (json_object_get_type(tmpl)) {
    case json_type_string:
        return expand_string(v, tmpl, out, eb);
    case json_type_array: {
        size_t i, n = json_object_array_length(tmpl);
        json_object *arr = json_object_new_array_ext((int)n);
        if (arr == NULL)
            return MC_ENOMEM;
        for (i = 0; i < n; i++) {
            json_object *e = NULL;
            rc = mc_vars_expand(v, json_object_array_get_idx(tmpl, i), &e, eb);
            if (rc != MC_OK) {
                json_object_put(arr);
                return rc;
            }
            json_object_array_add(arr, e);
        }
        *out = arr;
        return MC_OK;
    }
    case json_type_object: {
        json_object *obj = json_object_new_object();
        if (obj == NULL)
            return MC_ENOMEM;
        json_object_object_foreach(tmpl, key, val)
        {
            json_object *e = NULL;
            rc = mc_vars_expand(v, val, &e, eb);
            if (rc != MC_OK) {
                json_object_put(obj);
                return rc;
            }
            json_object_object_add(obj, key, e);
        }
        *out = obj;
        return MC_OK;
    }
    default:
        /* A fresh copy, never a shared reference (see mc_vars_set). */
        return json_object_deep_copy(tmpl, out, NULL) == 0 ? MC_OK : MC_ENOMEM;
    }
}
