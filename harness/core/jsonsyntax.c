#include "core/jsonsyntax.h"

#include <stdint.h>

#include "core/error.h"
#include "core/hex.h"

/* Container stack: one bit per level (1 = object), enough for any sane limit. */
#define MC__SYNTAX_MAX_DEPTH 4096

typedef struct scan {
    const unsigned char *p;
    const unsigned char *end;
    const unsigned char *start;
    const char *what;
    int err;
} scan_t;

static int fail(scan_t *s, int err, const char *what)
{
    s->err = err;
    s->what = what;
    return -1;
}

static void skip_ws(scan_t *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int hex4(scan_t *s, unsigned *out)
{
    unsigned v = 0;
    int i;

    if (s->end - s->p < 4)
        return fail(s, MC_EPARSE, "truncated \\u escape");
    for (i = 0; i < 4; i++) {
        int d = mc_hex_digit(s->p[i]);
        if (d < 0)
            return fail(s, MC_EPARSE, "bad hex digit in \\u escape");
        v = (v << 4) | (unsigned)d;
    }
    s->p += 4;
    *out = v;
    return 0;
}

/* Checks one UTF-8 sequence starting at a byte >= 0x80. */
static int utf8_seq(scan_t *s)
{
    const unsigned char *p = s->p;
    unsigned c = p[0], cp;
    int n, i;

    if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3;
        cp = c & 0x07;
    } else {
        return fail(s, MC_EUTF8, "invalid UTF-8 lead byte");
    }
    if (s->end - p <= n)
        return fail(s, MC_EUTF8, "truncated UTF-8 sequence");
    for (i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return fail(s, MC_EUTF8, "invalid UTF-8 continuation byte");
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000))
        return fail(s, MC_EUTF8, "overlong UTF-8 sequence");
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return fail(s, MC_EUTF8, "UTF-8 encoded surrogate");
    if (cp > 0x10FFFF)
        return fail(s, MC_EUTF8, "code point above U+10FFFF");
    s->p += n + 1;
    return 0;
}

/* Scans a string; s->p is on the opening quote. */
static int string(scan_t *s)
{
    s->p++;
    for (;;) {
        unsigned c;

        /* Fast path over plain ASCII. */
        while (s->p < s->end && *s->p >= 0x20 && *s->p < 0x80 && *s->p != '"' && *s->p != '\\')
            s->p++;
        if (s->p >= s->end)
            return fail(s, MC_EPARSE, "unterminated string");
        c = *s->p;
        if (c == '"') {
            s->p++;
            return 0;
        }
        if (c < 0x20)
            return fail(s, MC_EPARSE, "unescaped control character in string");
        if (c >= 0x80) {
            if (utf8_seq(s) != 0)
                return -1;
            continue;
        }
        /* Backslash escape. */
        s->p++;
        if (s->p >= s->end)
            return fail(s, MC_EPARSE, "unterminated escape");
        c = *s->p++;
        switch (c) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            break;
        case 'u': {
            unsigned u, lo;
            if (hex4(s, &u) != 0)
                return -1;
            if (u >= 0xDC00 && u <= 0xDFFF)
                return fail(s, MC_EUTF8, "unpaired low surrogate escape");
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u')
                    return fail(s, MC_EUTF8, "unpaired high surrogate escape");
                s->p += 2;
                if (hex4(s, &lo) != 0)
                    return -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(s, MC_EUTF8, "unpaired high surrogate escape");
            }
            break;
        }
        default:
            s->p--;
            return fail(s, MC_EPARSE, "invalid escape in string");
        }
    }
}

static int digits(scan_t *s)
{
    const unsigned char *b = s->p;

    while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
        s->p++;
    return s->p > b ? 0 : fail(s, MC_EPARSE, "digit expected in number");
}

static int number(scan_t *s)
{
    if (*s->p == '-')
        s->p++;
    if (s->p >= s->end)
        return fail(s, MC_EPARSE, "digit expected in number");
    if (*s->p == '0') {
        s->p++;
        if (s->p < s->end && *s->p >= '0' && *s->p <= '9')
            return fail(s, MC_EPARSE, "leading zero in number");
    } else if (digits(s) != 0) {
        return -1;
    }
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (digits(s) != 0)
            return -1;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (digits(s) != 0)
            return -1;
    }
    return 0;
}

static int literal(scan_t *s, const char *word, size_t n)
{
    size_t i;

    if ((size_t)(s->end - s->p) < n)
        return fail(s, MC_EPARSE, "truncated literal");
    for (i = 0; i < n; i++)
        if (s->p[i] != (unsigned char)word[i])
            return fail(s, MC_EPARSE, "invalid literal");
    s->p += n;
    return 0;
}

/* The open containers: one bit per level, 1 for an object. */
typedef struct nest {
    uint8_t stack[MC__SYNTAX_MAX_DEPTH / 8];
    int depth, max_depth;
} nest_t;

/* What the scanner expects next. */
typedef enum scan_state { ST_VALUE, ST_KEY, ST_AFTER, ST_DONE } scan_state_t;

static int top_is_object(const nest_t *n)
{
    return (n->stack[(n->depth - 1) / 8] >> ((n->depth - 1) % 8)) & 1;
}

/* At '{' or '[': opens the container, or closes it at once when empty. */
static scan_state_t open_container(scan_t *s, nest_t *n)
{
    if (n->depth >= n->max_depth) {
        fail(s, MC_ETOODEEP, "nesting exceeds the depth limit");
        return ST_DONE;
    }
    if (*s->p == '{')
        n->stack[n->depth / 8] |= (uint8_t)(1u << (n->depth % 8));
    else
        n->stack[n->depth / 8] &= (uint8_t)~(1u << (n->depth % 8));
    n->depth++;
    s->p++;
    skip_ws(s);
    if (s->p < s->end && (*s->p == '}' || *s->p == ']')) {
        if ((*s->p == '}') != top_is_object(n)) {
            fail(s, MC_EPARSE, "mismatched bracket");
            return ST_DONE;
        }
        s->p++;
        n->depth--;
        return ST_AFTER;
    }
    return top_is_object(n) ? ST_KEY : ST_VALUE;
}

/* Where a value is expected. */
static scan_state_t at_value(scan_t *s, nest_t *n)
{
    int rc;

    skip_ws(s);
    if (s->p >= s->end) {
        fail(s, MC_EPARSE, n->depth ? "input ends inside a value" : "empty input");
        return ST_DONE;
    }
    switch (*s->p) {
    case '{':
    case '[':
        return open_container(s, n);
    case '"':
        rc = string(s);
        break;
    case 't':
        rc = literal(s, "true", 4);
        break;
    case 'f':
        rc = literal(s, "false", 5);
        break;
    case 'n':
        rc = literal(s, "null", 4);
        break;
    default:
        if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) {
            rc = number(s);
            break;
        }
        fail(s, MC_EPARSE, "unexpected character where a value was expected");
        return ST_DONE;
    }
    return rc != 0 ? ST_DONE : ST_AFTER;
}

/* Where a property name and its ':' are expected. */
static scan_state_t at_key(scan_t *s)
{
    skip_ws(s);
    if (s->p >= s->end || *s->p != '"') {
        fail(s, MC_EPARSE, "quoted property name expected");
        return ST_DONE;
    }
    if (string(s) != 0)
        return ST_DONE;
    skip_ws(s);
    if (s->p >= s->end || *s->p != ':') {
        fail(s, MC_EPARSE, "':' expected after property name");
        return ST_DONE;
    }
    s->p++;
    return ST_VALUE;
}

/* After a value: the end of the input, a ',' or the container's end. */
static scan_state_t at_after(scan_t *s, nest_t *n)
{
    int is_obj;

    skip_ws(s);
    if (n->depth == 0) {
        if (s->p < s->end)
            fail(s, MC_EPARSE, "unexpected data after the JSON value");
        return ST_DONE;
    }
    if (s->p >= s->end) {
        fail(s, MC_EPARSE, "input ends inside a value");
        return ST_DONE;
    }
    is_obj = top_is_object(n);
    if (*s->p == ',') {
        s->p++;
        return is_obj ? ST_KEY : ST_VALUE;
    }
    if (*s->p == (is_obj ? '}' : ']')) {
        s->p++;
        n->depth--;
        return ST_AFTER;
    }
    fail(s, MC_EPARSE, is_obj ? "',' or '}' expected" : "',' or ']' expected");
    return ST_DONE;
}

int mc_json_syntax_check(const char *buf, size_t len, int max_depth, size_t *err_off,
                         const char **what)
{
    nest_t n;
    scan_t s;
    scan_state_t st = ST_VALUE;

    n.depth = 0;
    n.max_depth = max_depth <= 0 || max_depth > MC__SYNTAX_MAX_DEPTH ? MC__SYNTAX_MAX_DEPTH
                                                                     : max_depth;
    s.start = s.p = (const unsigned char *)buf;
    s.end = s.p + len;
    s.err = MC_OK;
    s.what = NULL;
    while (st != ST_DONE) {
        if (st == ST_VALUE)
            st = at_value(&s, &n);
        else if (st == ST_KEY)
            st = at_key(&s);
        else
            st = at_after(&s, &n);
    }
    if (s.err != MC_OK) {
        *err_off = (size_t)(s.p - s.start);
        *what = s.what;
    }
    return s.err;
}
