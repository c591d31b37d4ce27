#include "judge/rawid.h"

#include <string.h>

/* Skips JSON whitespace. */
static size_t skip_ws(const char *p, size_t n, size_t i)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i;
}

/* Skips a string starting at p[i] == '"'; returns the index after it, or n. */
static size_t skip_string(const char *p, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return n;
}

/* See rawid.h. */
int mc__raw_member_id(const char *p, size_t n, const char **out, size_t *out_len)
{
    return mc__raw_member(p, n, "id", out, out_len);
}

/* Walks the members of the object in p[0..n): calls fn with each member's
 * name (the span inside its quotes, as written) and value span (surrounding
 * whitespace excluded) until fn returns non-zero. Returns that value, or 0
 * when the walk ended (the object's end, or text that is no object). */
static int each_member(const char *p, size_t n,
                       int (*fn)(void *ctx, const char *k, size_t kn, const char *v, size_t vn),
                       void *ctx)
{
    size_t i;

    if (p == NULL)
        return 0;
    i = skip_ws(p, n, 0);
    if (i >= n || p[i] != '{')
        return 0;
    i++;
    for (;;) {
        size_t k0, k1, v0;
        long depth = 0;
        i = skip_ws(p, n, i);
        if (i >= n || p[i] != '"')
            return 0;
        k0 = i + 1;
        i = skip_string(p, n, i);
        k1 = i - 1;
        i = skip_ws(p, n, i);
        if (i >= n || p[i] != ':')
            return 0;
        i = skip_ws(p, n, i + 1);
        v0 = i;
        while (i < n) {
            char ch = p[i];
            if (ch == '"') {
                i = skip_string(p, n, i);
                continue;
            }
            if (ch == '{' || ch == '[')
                depth++;
            else if (ch == '}' || ch == ']') {
                if (depth == 0)
                    break;
                depth--;
            } else if (ch == ',' && depth == 0)
                break;
            i++;
        }
        if (i >= n)
            return 0;
        {
            size_t e = i;
            int rc;
            while (e > v0 && (p[e - 1] == ' ' || p[e - 1] == '\t' || p[e - 1] == '\r' ||
                              p[e - 1] == '\n'))
                e--;
            rc = fn(ctx, p + k0, k1 - k0, p + v0, e - v0);
            if (rc != 0)
                return rc;
        }
        if (p[i] == '}')
            return 0;
        i++;
    }
}

typedef struct find_ctx {
    const char *name;
    size_t name_len;
    const char *v;
    size_t vn;
} find_ctx_t;

static int find_fn(void *ctx, const char *k, size_t kn, const char *v, size_t vn)
{
    find_ctx_t *f = ctx;

    if (kn != f->name_len || memcmp(k, f->name, kn) != 0)
        return 0;
    f->v = v;
    f->vn = vn;
    return 1;
}

/* See rawid.h. */
int mc__raw_member(const char *p, size_t n, const char *name, const char **out, size_t *out_len)
{
    find_ctx_t f = {name, strlen(name), NULL, 0};

    if (each_member(p, n, find_fn, &f) != 1)
        return 0;
    *out = f.v;
    *out_len = f.vn;
    return 1;
}

typedef struct dup_ctx {
    const char *keys[MC_RAW_MAX_KEYS];
    size_t lens[MC_RAW_MAX_KEYS];
    size_t n;
    const char *dup;
    size_t dup_len;
} dup_ctx_t;

static int dup_fn(void *ctx, const char *k, size_t kn, const char *v, size_t vn)
{
    dup_ctx_t *d = ctx;
    size_t i;

    (void)v;
    (void)vn;
    for (i = 0; i < d->n; i++)
        if (d->lens[i] == kn && memcmp(d->keys[i], k, kn) == 0) {
            d->dup = k;
            d->dup_len = kn;
            return 1;
        }
    if (d->n == MC_RAW_MAX_KEYS)
        return 2;
    d->keys[d->n] = k;
    d->lens[d->n++] = kn;
    return 0;
}

/* See rawid.h. */
int mc__raw_duplicate_key(const char *p, size_t n, const char **dup, size_t *dup_len)
{
    dup_ctx_t d;
    int rc;

    d.n = 0;
    rc = each_member(p, n, dup_fn, &d);
    if (rc == 1) {
        *dup = d.dup;
        *dup_len = d.dup_len;
        return 1;
    }
    return rc == 2 ? -1 : 0;
}
