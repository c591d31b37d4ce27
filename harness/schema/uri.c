/*
 * uri.c - RFC 3986 reference resolution (section 5.2) for $id and $ref.
 *
 * Only what JSON Schema needs: split a URI reference into its five parts,
 * merge it with a base, remove dot segments, and write the result into a
 * bounded buffer. No normalisation beyond that (case, percent-encoding).
 */
#include <string.h>

#include "schema/internal.h"

typedef struct part {
    const char *p;
    size_t len;
    int defined;
} part_t;

typedef struct uri {
    part_t scheme, authority, path, query, fragment;
} uri_t;

static int is_alpha(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static void split(const char *s, uri_t *u)
{
    const char *p = s;
    size_t i;

    memset(u, 0, sizeof(*u));
    /* scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
    if (is_alpha(*p)) {
        for (i = 1; is_alpha(p[i]) || is_digit(p[i]) || p[i] == '+' || p[i] == '-' || p[i] == '.';
             i++)
            ;
        if (p[i] == ':') {
            u->scheme.p = p;
            u->scheme.len = i;
            u->scheme.defined = 1;
            p += i + 1;
        }
    }
    if (p[0] == '/' && p[1] == '/') {
        p += 2;
        u->authority.p = p;
        u->authority.defined = 1;
        while (*p != '\0' && *p != '/' && *p != '?' && *p != '#')
            p++;
        u->authority.len = (size_t)(p - u->authority.p);
    }
    u->path.p = p;
    u->path.defined = 1;
    while (*p != '\0' && *p != '?' && *p != '#')
        p++;
    u->path.len = (size_t)(p - u->path.p);
    if (*p == '?') {
        p++;
        u->query.p = p;
        u->query.defined = 1;
        while (*p != '\0' && *p != '#')
            p++;
        u->query.len = (size_t)(p - u->query.p);
    }
    if (*p == '#') {
        p++;
        u->fragment.p = p;
        u->fragment.defined = 1;
        u->fragment.len = strlen(p);
    }
}

typedef struct wbuf {
    char *out;
    size_t cap, len;
    int overflow;
} wbuf_t;

static void put(wbuf_t *w, const char *s, size_t n)
{
    if (w->overflow || w->len + n + 1 > w->cap) {
        w->overflow = 1;
        return;
    }
    memcpy(w->out + w->len, s, n);
    w->len += n;
    w->out[w->len] = '\0';
}

/*
 * Removes "." and ".." segments from in[0..n) (RFC 3986 section 5.2.4),
 * writing into w. Works on a copy in a scratch buffer.
 */
static void remove_dots(wbuf_t *w, const char *in, size_t n)
{
    char buf[MC_SCHEMA_MAX_URI];
    size_t out = 0;
    size_t i = 0;

    if (n >= sizeof(buf)) {
        w->overflow = 1;
        return;
    }
    while (i < n) {
        const char *s = in + i;
        size_t rest = n - i;
        if (rest >= 3 && memcmp(s, "../", 3) == 0) {
            i += 3;
        } else if (rest >= 2 && memcmp(s, "./", 2) == 0) {
            i += 2;
        } else if (rest >= 3 && memcmp(s, "/./", 3) == 0) {
            i += 2;
        } else if (rest == 2 && memcmp(s, "/.", 2) == 0) {
            buf[out++] = '/';
            i += 2;
        } else if ((rest >= 4 && memcmp(s, "/../", 4) == 0) ||
                   (rest == 3 && memcmp(s, "/..", 3) == 0)) {
            while (out > 0 && buf[out - 1] != '/')
                out--;
            if (out > 0)
                out--;
            if (rest == 3) {
                buf[out++] = '/';
                i += 3;
            } else {
                i += 3;
            }
        } else if ((rest == 1 && s[0] == '.') || (rest == 2 && memcmp(s, "..", 2) == 0)) {
            i += rest;
        } else {
            size_t j = 1;
            while (j < rest && s[j] != '/')
                j++;
            if (s[0] != '/') {
                j = 0;
                while (j < rest && s[j] != '/')
                    j++;
            }
            memcpy(buf + out, s, j);
            out += j;
            i += j;
        }
    }
    put(w, buf, out);
}

static void put_part(wbuf_t *w, const char *pre, const part_t *p, const char *post)
{
    if (!p->defined)
        return;
    put(w, pre, strlen(pre));
    put(w, p->p, p->len);
    put(w, post, strlen(post));
}

int mc__uri_resolve(const char *base, const char *ref, char *out, size_t cap)
{
    uri_t b, r;
    char tmp[MC_SCHEMA_MAX_URI];
    wbuf_t w;
    const part_t *query;

    if (cap == 0)
        return MC_ETOOBIG;
    split(base, &b);
    split(ref, &r);
    w.out = tmp;
    w.cap = sizeof(tmp);
    w.len = 0;
    w.overflow = 0;
    tmp[0] = '\0';
    if (r.scheme.defined) {
        put_part(&w, "", &r.scheme, ":");
        put_part(&w, "//", &r.authority, "");
        remove_dots(&w, r.path.p, r.path.len);
        query = &r.query;
    } else {
        put_part(&w, "", &b.scheme, ":");
        if (r.authority.defined) {
            put_part(&w, "//", &r.authority, "");
            remove_dots(&w, r.path.p, r.path.len);
            query = &r.query;
        } else {
            put_part(&w, "//", &b.authority, "");
            if (r.path.len == 0) {
                put(&w, b.path.p, b.path.len);
                query = r.query.defined ? &r.query : &b.query;
            } else if (r.path.p[0] == '/') {
                remove_dots(&w, r.path.p, r.path.len);
                query = &r.query;
            } else {
                char merged[MC_SCHEMA_MAX_URI];
                size_t m = 0, keep = 0, i;
                if (b.authority.defined && b.path.len == 0) {
                    merged[m++] = '/';
                } else {
                    for (i = 0; i < b.path.len; i++)
                        if (b.path.p[i] == '/')
                            keep = i + 1;
                }
                if (keep + r.path.len + 2 > sizeof(merged))
                    return MC_ETOOBIG;
                memcpy(merged + m, b.path.p, keep);
                m += keep;
                memcpy(merged + m, r.path.p, r.path.len);
                m += r.path.len;
                remove_dots(&w, merged, m);
                query = &r.query;
            }
        }
    }
    put_part(&w, "?", query, "");
    if (r.fragment.defined)
        put_part(&w, "#", &r.fragment, "");
    if (w.overflow || w.len + 1 > cap)
        return MC_ETOOBIG;
    memcpy(out, tmp, w.len + 1);
    return MC_OK;
}
