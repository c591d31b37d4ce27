#include "core/jsonfast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hex.h"
#include "core/limits.h"

/* Longest input taken (the key buffer grows to this much at most). */
#define MC__FAST_MAX_INPUT MC_MAX_MESSAGE_SIZE
/* Integers with more digits are left to json-c (its overflow rules). */
#define MC__FAST_MAX_INT_DIGITS 18
/* Longest number text converted here with strtod (json-c keeps the text). */
#define MC__FAST_MAX_NUMBER 64
/*
 * Containers nested this close to the caller's json-c depth limit are left
 * to json-c: it counts levels its own way (the innermost scalar is a level
 * too), and it alone decides at the limit.
 */
#define MC__FAST_DEPTH_MARGIN 2

/* json-c before 0.16 names the constant-key flag only by its older name. */
#ifndef JSON_C_OBJECT_ADD_CONSTANT_KEY
#define JSON_C_OBJECT_ADD_CONSTANT_KEY JSON_C_OBJECT_KEY_IS_CONSTANT
#endif

/* Declines the input: json-c decides. */
#define DECLINE (-1)

typedef struct fast {
    const unsigned char *p;
    const unsigned char *end;
    char *kp;   /* next free byte of the key buffer */
    char *kend; /* end of the key buffer */
    int depth, max_depth;
    int nomem;
    unsigned add_flags; /* how objects take their keys */
} fast_t;

/*
 * Byte classes inside a string: 0 plain ASCII, 1 stops the plain run ('"',
 * '\\', control characters), 2 starts a UTF-8 multi-byte sequence.
 */
/* clang-format off */
static const unsigned char classes[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};
/* clang-format on */

static void skip_ws(fast_t *f)
{
    while (f->p < f->end && (*f->p == ' ' || *f->p == '\t' || *f->p == '\n' || *f->p == '\r'))
        f->p++;
}

/* Length of the valid UTF-8 sequence (2..4 bytes) at p, or 0: no overlongs,
 * no encoded surrogates, nothing above U+10FFFF. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0], cp;
    size_t n, i;

    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if ((size_t)(end - p) < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((p[i] & 0xC0u) != 0x80u)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xD800 && cp <= 0xDFFF) ||
        cp > 0x10FFFF)
        return 0;
    return n;
}

/* Four hex digits at p (p + 4 <= end checked by the caller). */
static long hex4(const unsigned char *p)
{
    long v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        int d = mc_hex_digit(p[i]);
        if (d < 0)
            return -1;
        v = (v << 4) | d;
    }
    return v;
}

/*
 * Scans the string whose opening quote f->p is on. Returns its raw body
 * [*body, *body + *raw) and sets *escaped when it holds escapes; leaves
 * f->p after the closing quote. Returns 0 or DECLINE.
 */
static int scan_string(fast_t *f, const unsigned char **body, size_t *raw, int *escaped)
{
    const unsigned char *p = f->p + 1;

    *body = p;
    *escaped = 0;
    for (;;) {
        unsigned char c;
        while (p < f->end && classes[*p] == 0)
            p++;
        if (p >= f->end)
            return DECLINE;
        c = *p;
        if (c == '"')
            break;
        if (c >= 0x80) {
            size_t n = utf8_len(p, f->end);
            if (n == 0)
                return DECLINE;
            p += n;
            continue;
        }
        if (c != '\\')
            return DECLINE; /* a raw control character */
        *escaped = 1;
        if (f->end - p < 2)
            return DECLINE;
        if (p[1] == 'u') {
            long u;
            if (f->end - p < 6)
                return DECLINE;
            u = hex4(p + 2);
            /* Surrogates (pairing rules) and U+0000 are left to json-c. */
            if (u <= 0 || (u >= 0xD800 && u <= 0xDFFF))
                return DECLINE;
            p += 6;
            continue;
        }
        if (strchr("\"\\/bfnrt", p[1]) == NULL || p[1] == '\0')
            return DECLINE;
        p += 2;
    }
    *raw = (size_t)(p - *body);
    f->p = p + 1;
    return 0;
}

/* Decodes the escaped body [s, s + raw) (checked by scan_string) into dst,
 * which has room for raw bytes. Returns the decoded length. */
static size_t unescape(const unsigned char *s, size_t raw, char *dst)
{
    const unsigned char *end = s + raw;
    char *d = dst;

    while (s < end) {
        unsigned long u;
        if (*s != '\\') {
            *d++ = (char)*s++;
            continue;
        }
        switch (s[1]) {
        case 'b':
            *d++ = '\b';
            break;
        case 'f':
            *d++ = '\f';
            break;
        case 'n':
            *d++ = '\n';
            break;
        case 'r':
            *d++ = '\r';
            break;
        case 't':
            *d++ = '\t';
            break;
        case 'u':
            u = (unsigned long)hex4(s + 2);
            if (u < 0x80) {
                *d++ = (char)u;
            } else if (u < 0x800) {
                *d++ = (char)(0xC0 | (u >> 6));
                *d++ = (char)(0x80 | (u & 0x3F));
            } else {
                *d++ = (char)(0xE0 | (u >> 12));
                *d++ = (char)(0x80 | ((u >> 6) & 0x3F));
                *d++ = (char)(0x80 | (u & 0x3F));
            }
            s += 6;
            continue;
        default: /* '"', '\\', '/' */
            *d++ = (char)s[1];
            break;
        }
        s += 2;
    }
    return (size_t)(d - dst);
}

static int fast_value(fast_t *f, json_object **out);

/* A string value: straight from the input when it has no escapes. */
static int fast_string(fast_t *f, json_object **out)
{
    const unsigned char *body;
    size_t raw, n;
    int escaped;
    json_object *v;

    if (scan_string(f, &body, &raw, &escaped) != 0)
        return DECLINE;
    if (!escaped) {
        v = json_object_new_string_len((const char *)body, (int)raw);
    } else {
        /* Decoded into the free part of the key buffer, which is not kept. */
        if ((size_t)(f->kend - f->kp) < raw + 1)
            return DECLINE;
        n = unescape(body, raw, f->kp);
        v = json_object_new_string_len(f->kp, (int)n);
    }
    if (v == NULL) {
        f->nomem = 1;
        return DECLINE;
    }
    *out = v;
    return 0;
}

/* A key, copied NUL-terminated into the key buffer; *key points at it. */
static int fast_key(fast_t *f, const char **key)
{
    const unsigned char *body;
    size_t raw, n;
    int escaped;

    if (f->p >= f->end || *f->p != '"' || scan_string(f, &body, &raw, &escaped) != 0)
        return DECLINE;
    if ((size_t)(f->kend - f->kp) < raw + 1)
        return DECLINE;
    if (escaped) {
        n = unescape(body, raw, f->kp);
    } else {
        memcpy(f->kp, body, raw);
        n = raw;
    }
    f->kp[n] = '\0';
    *key = f->kp;
    f->kp += n + 1;
    return 0;
}

static int is_digit(const unsigned char *p, const unsigned char *end)
{
    return p < end && *p >= '0' && *p <= '9';
}

/* A number with json-c's types: an int64, or a double keeping its text. */
static int fast_number(fast_t *f, json_object **out)
{
    const unsigned char *start = f->p, *p = f->p;
    int neg = 0, is_double = 0;
    json_object *v;

    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (!is_digit(p, f->end))
        return DECLINE;
    if (*p == '0') {
        p++;
        if (is_digit(p, f->end))
            return DECLINE;
    } else {
        while (is_digit(p, f->end))
            p++;
    }
    if (p < f->end && *p == '.') {
        p++;
        is_double = 1;
        if (!is_digit(p, f->end))
            return DECLINE;
        while (is_digit(p, f->end))
            p++;
    }
    if (p < f->end && (*p == 'e' || *p == 'E')) {
        p++;
        is_double = 1;
        if (p < f->end && (*p == '+' || *p == '-'))
            p++;
        if (!is_digit(p, f->end))
            return DECLINE;
        while (is_digit(p, f->end))
            p++;
    }
    if (is_double) {
        char text[MC__FAST_MAX_NUMBER];
        char *stop = NULL;
        size_t n = (size_t)(p - start);
        double d;
        if (n >= sizeof(text))
            return DECLINE;
        memcpy(text, start, n);
        text[n] = '\0';
        d = strtod(text, &stop);
        if (stop != text + n)
            return DECLINE;
        v = json_object_new_double_s(d, text);
    } else {
        const unsigned char *q = start + neg;
        int64_t x = 0;
        if (p - q > MC__FAST_MAX_INT_DIGITS)
            return DECLINE;
        for (; q < p; q++)
            x = x * 10 + (*q - '0');
        v = json_object_new_int64(neg ? -x : x);
    }
    if (v == NULL) {
        f->nomem = 1;
        return DECLINE;
    }
    f->p = p;
    *out = v;
    return 0;
}

static int literal(fast_t *f, const char *word, size_t n)
{
    if ((size_t)(f->end - f->p) < n || memcmp(f->p, word, n) != 0)
        return DECLINE;
    f->p += n;
    return 0;
}

/* After a member or element: ',' (returns 1) or the closing byte (0). */
static int next_or_close(fast_t *f, unsigned char close)
{
    skip_ws(f);
    if (f->p < f->end && *f->p == ',') {
        f->p++;
        skip_ws(f);
        return 1;
    }
    if (f->p < f->end && *f->p == close) {
        f->p++;
        return 0;
    }
    return DECLINE;
}

static int fast_object(fast_t *f, json_object **out)
{
    json_object *obj = json_object_new_object();
    int more;

    if (obj == NULL) {
        f->nomem = 1;
        return DECLINE;
    }
    f->p++;
    skip_ws(f);
    more = f->p < f->end && *f->p == '}' ? 0 : 1;
    if (!more)
        f->p++;
    while (more == 1) {
        const char *key;
        json_object *v = NULL;
        if (fast_key(f, &key) != 0)
            break;
        skip_ws(f);
        if (f->p >= f->end || *f->p != ':')
            break;
        f->p++;
        skip_ws(f);
        if (fast_value(f, &v) != 0)
            break;
        /* No KEY_IS_NEW: a repeated key replaces the value in place, as json-c does. */
        if (json_object_object_add_ex(obj, key, v, f->add_flags) != 0) {
            json_object_put(v);
            f->nomem = 1;
            break;
        }
        more = next_or_close(f, '}');
    }
    if (more != 0) {
        json_object_put(obj);
        return DECLINE;
    }
    *out = obj;
    return 0;
}

static int fast_array(fast_t *f, json_object **out)
{
    json_object *arr = json_object_new_array();
    int more;

    if (arr == NULL) {
        f->nomem = 1;
        return DECLINE;
    }
    f->p++;
    skip_ws(f);
    more = f->p < f->end && *f->p == ']' ? 0 : 1;
    if (!more)
        f->p++;
    while (more == 1) {
        json_object *v = NULL;
        if (fast_value(f, &v) != 0)
            break;
        if (json_object_array_add(arr, v) != 0) {
            json_object_put(v);
            f->nomem = 1;
            break;
        }
        more = next_or_close(f, ']');
    }
    if (more != 0) {
        json_object_put(arr);
        return DECLINE;
    }
    *out = arr;
    return 0;
}

/* One value at f->p (no whitespace before it). JSON null gives NULL. */
static int fast_value(fast_t *f, json_object **out)
{
    int rc;

    if (f->p >= f->end)
        return DECLINE;
    switch (*f->p) {
    case '{':
    case '[':
        if (f->depth >= f->max_depth)
            return DECLINE;
        f->depth++;
        rc = *f->p == '{' ? fast_object(f, out) : fast_array(f, out);
        f->depth--;
        return rc;
    case '"':
        return fast_string(f, out);
    case 't':
        *out = json_object_new_boolean(1);
        rc = literal(f, "true", 4);
        break;
    case 'f':
        *out = json_object_new_boolean(0);
        rc = literal(f, "false", 5);
        break;
    case 'n':
        *out = NULL;
        return literal(f, "null", 4);
    default:
        return fast_number(f, out);
    }
    if (*out == NULL)
        f->nomem = 1;
    if (rc != 0 || *out == NULL) {
        json_object_put(*out);
        *out = NULL;
        return DECLINE;
    }
    return 0;
}

void mc_json_keys_free(mc_json_keys_t *keys)
{
    free(keys->buf);
    keys->buf = NULL;
    keys->cap = 0;
}

/* Grows keys to hold len bytes of keys and their terminators. */
static int reserve(mc_json_keys_t *keys, size_t len)
{
    char *nb;

    if (keys->cap >= len + 1)
        return MC_OK;
    nb = realloc(keys->buf, len + 1);
    if (nb == NULL)
        return MC_ENOMEM;
    keys->buf = nb;
    keys->cap = len + 1;
    return MC_OK;
}

/* Builds the tree; keys is the key (and decoding) buffer, flags how the
 * objects take their keys. */
static int build(const char *buf, size_t len, int max_depth, mc_json_keys_t *keys, unsigned flags,
                 json_object **out)
{
    fast_t f;
    json_object *v = NULL;

    f.p = (const unsigned char *)buf;
    f.end = f.p + len;
    f.kp = keys->buf;
    f.kend = keys->buf + keys->cap;
    f.depth = 0;
    f.max_depth = max_depth - MC__FAST_DEPTH_MARGIN;
    f.nomem = 0;
    f.add_flags = flags;
    skip_ws(&f);
    if (f.p >= f.end || (*f.p != '{' && *f.p != '['))
        return MC_EUNSUPPORTED;
    if (fast_value(&f, &v) != 0)
        return f.nomem ? MC_ENOMEM : MC_EUNSUPPORTED;
    skip_ws(&f);
    if (f.p != f.end) {
        json_object_put(v);
        return MC_EUNSUPPORTED;
    }
    *out = v;
    return MC_OK;
}

int mc_json_fast_parse(const char *buf, size_t len, int max_depth, mc_json_keys_t *keys,
                       json_object **out)
{
    mc_json_keys_t scratch = {NULL, 0};
    int rc;

    if (len > MC__FAST_MAX_INPUT || max_depth <= MC__FAST_DEPTH_MARGIN)
        return MC_EUNSUPPORTED;
    /* Every key and every decoded string fits in the input's length. */
    if (keys != NULL)
        return reserve(keys, len) != MC_OK
                   ? MC_ENOMEM
                   : build(buf, len, max_depth, keys, JSON_C_OBJECT_ADD_CONSTANT_KEY, out);
    /* The objects copy their keys: the buffer only serves the decoding. */
    if (reserve(&scratch, len) != MC_OK)
        return MC_ENOMEM;
    rc = build(buf, len, max_depth, &scratch, 0, out);
    mc_json_keys_free(&scratch);
    return rc;
}
