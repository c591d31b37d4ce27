/*
 * text.c - the output buffer and the escapers of the report writers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base64.h"
#include "report/internal.h"

void mc__buf_init(mc__buf_t *b)
{
    memset(b, 0, sizeof(*b));
}

void mc__buf_free(mc__buf_t *b)
{
    free(b->p);
    memset(b, 0, sizeof(*b));
}

static int grow(mc__buf_t *b, size_t more)
{
    size_t want, ncap;
    char *np;

    if (b->err != MC_OK)
        return 0;
    if (more > MC_REPORT_MAX_OUTPUT || b->len + more > MC_REPORT_MAX_OUTPUT) {
        b->err = MC_ETOOBIG;
        return 0;
    }
    want = b->len + more + 1;
    if (want <= b->cap)
        return 1;
    ncap = b->cap == 0 ? 4096 : b->cap;
    while (ncap < want)
        ncap *= 2;
    np = realloc(b->p, ncap);
    if (np == NULL) {
        b->err = MC_ENOMEM;
        return 0;
    }
    b->p = np;
    b->cap = ncap;
    return 1;
}

void mc__buf_add(mc__buf_t *b, const char *s, size_t n)
{
    if (n == 0 || !grow(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void mc__buf_puts(mc__buf_t *b, const char *s)
{
    if (s != NULL)
        mc__buf_add(b, s, strlen(s));
}

void mc__buf_printf(mc__buf_t *b, const char *fmt, ...)
{
    va_list ap;
    char small[512];
    int k;

    va_start(ap, fmt);
    k = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k < sizeof(small)) {
        mc__buf_add(b, small, (size_t)k);
        return;
    }
    if (!grow(b, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)k;
}

size_t mc__utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
    uint32_t c;
    size_t len, i;

    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2;
        c = s[0] & 0x1F;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        c = s[0] & 0x0F;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        c = s[0] & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

int mc__utf8_valid(const char *s, size_t n)
{
    size_t i = 0;
    uint32_t cp;

    while (i < n) {
        size_t k = mc__utf8_seq((const unsigned char *)s + i, n - i, &cp);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

void mc__buf_utf8(mc__buf_t *b, const char *s, size_t n)
{
    size_t i = 0, run = 0;
    uint32_t cp;

    while (i < n) {
        size_t k = mc__utf8_seq((const unsigned char *)s + i, n - i, &cp);
        if (k == 0) {
            mc__buf_add(b, s + run, i - run);
            mc__buf_add(b, "\xEF\xBF\xBD", 3);
            i++;
            run = i;
            continue;
        }
        i += k;
    }
    mc__buf_add(b, s + run, i - run);
}

void mc__buf_xml(mc__buf_t *b, const char *s, size_t n, int attribute)
{
    size_t i = 0;
    uint32_t cp;

    if (s == NULL)
        return;
    while (i < n) {
        const unsigned char *u = (const unsigned char *)s + i;
        size_t k = mc__utf8_seq(u, n - i, &cp);
        if (k == 0) {
            mc__buf_add(b, "\xEF\xBF\xBD", 3);
            i++;
            continue;
        }
        switch (cp) {
        case '&':
            mc__buf_puts(b, "&amp;");
            break;
        case '<':
            mc__buf_puts(b, "&lt;");
            break;
        case '>':
            mc__buf_puts(b, "&gt;");
            break;
        case '"':
            mc__buf_puts(b, "&quot;");
            break;
        case '\'':
            mc__buf_puts(b, "&#39;");
            break;
        case '\t':
            mc__buf_puts(b, attribute ? "&#9;" : "\t");
            break;
        case '\n':
            mc__buf_puts(b, attribute ? "&#10;" : "\n");
            break;
        case '\r':
            mc__buf_puts(b, "&#13;");
            break;
        default:
            if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xFFFE ||
                cp == 0xFFFF)
                mc__buf_printf(b, "\\u%04X", (unsigned)cp);
            else
                mc__buf_add(b, (const char *)u, k);
            break;
        }
        i += k;
    }
}

void mc__buf_html(mc__buf_t *b, const char *s)
{
    if (s != NULL)
        mc__buf_xml(b, s, strlen(s), 0);
}

void mc__buf_uri_path(mc__buf_t *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";

    for (; s != NULL && *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
            mc__buf_add(b, (const char *)&c, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            mc__buf_add(b, e, 3);
        }
    }
}

json_object *mc__json_strn(const char *s, size_t n)
{
    mc__buf_t b;
    json_object *o;

    if (s == NULL)
        return NULL;
    if (mc__utf8_valid(s, n))
        return json_object_new_string_len(s, (int)n);
    mc__buf_init(&b);
    mc__buf_utf8(&b, s, n);
    o = json_object_new_string_len(b.p != NULL ? b.p : "", (int)b.len);
    mc__buf_free(&b);
    return o;
}

json_object *mc__json_str(const char *s)
{
    return s == NULL ? NULL : mc__json_strn(s, strlen(s));
}

int mc__spec_url(const char *ref, char *out, size_t n)
{
    int k;

    if (ref == NULL || ref[0] == '\0' || n == 0)
        return 0;
    k = snprintf(out, n, "https://modelcontextprotocol.io/specification/%s", ref);
    return k > 0 && (size_t)k < n;
}

const char *mc__relpath(const char *path, const char *base)
{
    size_t n;

    if (path == NULL || base == NULL || base[0] == '\0')
        return path;
    n = strlen(base);
    while (n > 1 && base[n - 1] == '/')
        n--;
    if (strncmp(path, base, n) == 0 && path[n] == '/' && path[n + 1] != '\0')
        return path + n + 1;
    return path;
}

int mc__path_join(char *out, size_t n, const char *dir, const char *name)
{
    int k = snprintf(out, n, "%s/%s", dir, name);

    return k > 0 && (size_t)k < n;
}

int mc__buf_write(mc__buf_t *b, const char *path, mc_errbuf_t *eb)
{
    if (b->err != MC_OK)
        return mc_errbuf_set(eb, b->err, "cannot build %s: %s", path, mc_strerror(b->err));
    return mc_report_write_file(path, b->p != NULL ? b->p : "", b->len, eb);
}

int mc_report_mkdirs(const char *dir, mc_errbuf_t *eb)
{
    char buf[4096];
    size_t i, n;

    n = (size_t)snprintf(buf, sizeof(buf), "%s", dir);
    if (n >= sizeof(buf))
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", dir);
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return mc_errbuf_set(eb, MC_EIO, "cannot create %s: %s", buf, strerror(errno));
            buf[i] = c;
        }
    }
    return MC_OK;
}

int mc_report_write_file(const char *path, const char *data, size_t len, mc_errbuf_t *eb)
{
    char tmp[4200];
    FILE *f;
    int ok;

    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp))
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", path);
    f = fopen(tmp, "wb");
    if (f == NULL)
        return mc_errbuf_set(eb, MC_EIO, "cannot write %s: %s", tmp, strerror(errno));
    ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return mc_errbuf_set(eb, MC_EIO, "cannot write %s: %s", path, strerror(e));
    }
    return MC_OK;
}

void mc__buf_base64(mc__buf_t *b, const unsigned char *s, size_t n)
{
    char chunk[4 * 1024 + 1];
    size_t i;

    /* 3 KiB of input at a time: 4 KiB of text, no allocation. */
    for (i = 0; i < n; i += 3 * 1024) {
        size_t take = n - i < 3 * 1024 ? n - i : 3 * 1024;
        mc_base64_encode(s + i, take, chunk);
        mc__buf_add(b, chunk, mc_base64_encoded_len(take));
    }
}

char *mc_report_utf8_clean(const char *s)
{
    mc__buf_t b;

    mc__buf_init(&b);
    mc__buf_utf8(&b, s, strlen(s));
    if (b.err != MC_OK) {
        mc__buf_free(&b);
        return NULL;
    }
    return b.p != NULL ? b.p : calloc(1, 1);
}

/* See internal.h. */
void mc__buf_md(mc__buf_t *b, const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");
    size_t n = strlen((const char *)p), i = 0;
    uint32_t cp;

    while (i < n) {
        size_t k = mc__utf8_seq(p + i, n - i, &cp);
        if (i >= max) {
            mc__buf_puts(b, "\xE2\x80\xA6");
            return;
        }
        if (k == 0) {
            mc__buf_puts(b, "\xEF\xBF\xBD");
            i++;
            continue;
        }
        if (k == 1) {
            char c = (char)p[i];
            if (p[i] < 0x20 || p[i] == 0x7F)
                mc__buf_puts(b, " ");
            else if (c == '<')
                mc__buf_puts(b, "&lt;");
            else if (c == '>')
                mc__buf_puts(b, "&gt;");
            else if (c == '&')
                mc__buf_puts(b, "&amp;");
            else if (strchr("\\`*_[]#!|~@", c) != NULL) {
                char esc[3] = {'\\', c, '\0'};
                mc__buf_puts(b, esc);
            } else
                mc__buf_add(b, &c, 1);
        } else {
            mc__buf_add(b, (const char *)p + i, k);
        }
        i += k;
    }
}
