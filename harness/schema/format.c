/*
 * format.c - the string formats the validator asserts.
 *
 * uri / uri-reference: RFC 3986 syntax (ASCII only: an IRI is not a URI),
 *   checked by core/uri.h, which the reference server shares.
 * uri-template: RFC 6570 level 4 syntax.
 * byte: strict base64 (RFC 4648 alphabet, length a multiple of 4, padding
 *   only at the end); the unused bits before padding are not checked.
 * date-time: RFC 3339 date-time ("T"/"Z" case-insensitive, leap second only
 *   at 23:59:60 UTC). date: RFC 3339 full-date, days checked per month.
 * email: dot-atom or quoted local part "@" a domain of LDH labels or an [IP literal];
 *   quoted local parts are not accepted.
 * Each checker reads exactly len bytes and never allocates.
 */
#include <stdint.h>
#include <string.h>

#include "core/charclass.h"
#include "core/uri.h"
#include "schema/internal.h"

/* ---- URI template (RFC 6570) ---------------------------------------------------- */

static int template_literal(unsigned char ch)
{
    if (ch >= 0x80)
        return 1; /* ucschar / iprivate */
    if (ch <= 0x20 || ch == 0x7f)
        return 0;
    /* An apostrophe is accepted in a literal, as the JSON-Schema-Test-Suite
     * expects. */
    return strchr("\"%<>\\^`{|}", ch) == NULL;
}

static int template_expr(const char *s, size_t len)
{
    size_t i = 0;

    if (len == 0)
        return 0;
    if (strchr("+#./;?&=,!@|", s[0]) != NULL)
        i++;
    for (;;) {
        size_t start = i;
        /* varname = varchar *( ["."] varchar ) */
        while (i < len) {
            unsigned char ch = (unsigned char)s[i];
            if (mc_char_is(ch, MC_CC_ALPHA | MC_CC_DIGIT) || ch == '_') {
                i++;
            } else if (ch == '%') {
                if (i + 2 >= len || !mc_char_is((unsigned char)s[i + 1], MC_CC_HEX) ||
                    !mc_char_is((unsigned char)s[i + 2], MC_CC_HEX))
                    return 0;
                i += 3;
            } else if (ch == '.' && i > start && i + 1 < len && s[i + 1] != '.' &&
                       s[i + 1] != ',' && s[i + 1] != ':' && s[i + 1] != '*') {
                i++;
            } else {
                break;
            }
        }
        if (i == start)
            return 0;
        if (i < len && s[i] == ':') {
            size_t d = 0;
            i++;
            if (i >= len || s[i] < '1' || s[i] > '9')
                return 0;
            while (i < len && mc_char_is((unsigned char)s[i], MC_CC_DIGIT) && d < 4) {
                i++;
                d++;
            }
        } else if (i < len && s[i] == '*') {
            i++;
        }
        if (i == len)
            return 1;
        if (s[i] != ',')
            return 0;
        i++;
    }
}

static int uri_template_ok(const char *s, size_t len)
{
    size_t i = 0;

    while (i < len) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '{') {
            const char *close = memchr(s + i + 1, '}', len - i - 1);
            if (close == NULL || !template_expr(s + i + 1, (size_t)(close - s) - i - 1))
                return 0;
            i = (size_t)(close - s) + 1;
        } else if (ch == '%') {
            if (i + 2 >= len || !mc_char_is((unsigned char)s[i + 1], MC_CC_HEX) ||
                !mc_char_is((unsigned char)s[i + 2], MC_CC_HEX))
                return 0;
            i += 3;
        } else if (template_literal(ch)) {
            i++;
        } else {
            return 0;
        }
    }
    return 1;
}

/* ---- base64 ---------------------------------------------------------------------- */

static int byte_ok(const char *s, size_t len)
{
    size_t i, body;

    if (len % 4 != 0)
        return 0;
    body = len;
    if (len >= 1 && s[len - 1] == '=')
        body--;
    if (len >= 2 && s[len - 2] == '=')
        body--;
    i = 0;
    /* Eight characters at a time: every byte must fall in A-Z, a-z, 0-9 or
     * be '+' or '/'. With the high bits clear, x + (0x80 - lo) has a byte's
     * high bit set iff byte >= lo, and x + (0x7f - hi) iff byte > hi; no
     * carry crosses bytes. */
    for (; i + 8 <= body; i += 8) {
        const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
        uint64_t x, in;
        memcpy(&x, s + i, 8);
        if (x & high)
            return 0;
#define MC__IN(lo, hi) ((x + (0x80u - (lo)) * ones) & ~(x + (0x7fu - (hi)) * ones))
        in = MC__IN('A', 'Z') | MC__IN('a', 'z') | MC__IN('0', '9') | MC__IN('+', '+') |
             MC__IN('/', '/');
#undef MC__IN
        if ((in & high) != high)
            return 0;
    }
    for (; i < body; i++)
        if (!mc_char_is((unsigned char)s[i], MC_CC_B64))
            return 0;
    return 1;
}

/* ---- dates ----------------------------------------------------------------------- */

static int digits(const char *s, size_t n, int *out)
{
    size_t i;
    int v = 0;

    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

static int full_date_ok(const char *s, size_t len)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, m, d, max;

    if (len != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    if (!digits(s, 4, &y) || !digits(s + 5, 2, &m) || !digits(s + 8, 2, &d))
        return 0;
    if (m < 1 || m > 12 || d < 1)
        return 0;
    max = mdays[m - 1];
    if (m == 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        max = 29;
    return d <= max;
}

static int date_time_ok(const char *s, size_t len)
{
    int hh, mm, ss, oh = 0, om = 0, sign = 0;
    size_t i;

    if (len < 20 || !full_date_ok(s, 10) || (s[10] != 'T' && s[10] != 't'))
        return 0;
    s += 11;
    len -= 11;
    if (len < 9 || s[2] != ':' || s[5] != ':' || !digits(s, 2, &hh) || !digits(s + 3, 2, &mm) ||
        !digits(s + 6, 2, &ss))
        return 0;
    if (hh > 23 || mm > 59 || ss > 60)
        return 0;
    i = 8;
    if (i < len && s[i] == '.') {
        size_t start = ++i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return 0;
    }
    if (i < len && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < len && (s[i] == '+' || s[i] == '-')) {
        sign = s[i] == '+' ? 1 : -1;
        if (len - i != 6 || s[i + 3] != ':' || !digits(s + i + 1, 2, &oh) ||
            !digits(s + i + 4, 2, &om) || oh > 23 || om > 59)
            return 0;
        i += 6;
    } else {
        return 0;
    }
    if (i != len)
        return 0;
    if (ss == 60) {
        /* A leap second exists only at 23:59:60 UTC. */
        int minutes = hh * 60 + mm - sign * (oh * 60 + om);
        minutes = ((minutes % 1440) + 1440) % 1440;
        if (minutes != 23 * 60 + 59)
            return 0;
    }
    return 1;
}

/* ---- email ---------------------------------------------------------------------- */

/* RFC 5321 quoted-string local part: '"' *(qtext / quoted-pair) '"', with
 * printable ASCII only. Returns its length (closing quote included) or 0. */
static size_t quoted_local(const char *s, size_t len)
{
    size_t i;

    if (len < 2 || s[0] != '"')
        return 0;
    for (i = 1; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"')
            return i + 1;
        if (ch < 0x20 || ch > 0x7e)
            return 0;
        if (ch == '\\' && (++i >= len || (unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e))
            return 0;
    }
    return 0;
}

static int email_ok(const char *s, size_t len)
{
    const char *at;
    size_t llen, i, dlen, q = quoted_local(s, len);
    const char *d;

    at = q > 0 ? (q < len && s[q] == '@' ? s + q : NULL) : memchr(s, '@', len);
    if (at == NULL)
        return 0;
    llen = (size_t)(at - s);
    if (llen == 0 || llen > 64 || (q == 0 && (s[0] == '.' || s[llen - 1] == '.')))
        return 0;
    for (i = 0; i < llen && q == 0; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '.') {
            if (s[i + 1] == '.')
                return 0;
        } else if (!mc_char_is(ch, MC_CC_ALPHA | MC_CC_DIGIT | MC_CC_ATEXT)) {
            return 0;
        }
    }
    d = at + 1;
    dlen = len - llen - 1;
    if (dlen == 0 || dlen > 253)
        return 0;
    if (d[0] == '[' && dlen > 7 && strncmp(d + 1, "IPv6:", 5) == 0)
        return d[dlen - 1] == ']' && mc_uri_ip_literal_valid(d + 6, dlen - 7);
    if (d[0] == '[')
        return d[dlen - 1] == ']' && dlen > 2 &&
               (mc_uri_ip_literal_valid(d + 1, dlen - 2) || mc_uri_ipv4_valid(d + 1, dlen - 2));
    {
        size_t label = 0;
        for (i = 0; i < dlen; i++) {
            unsigned char ch = (unsigned char)d[i];
            if (ch == '.') {
                if (label == 0 || d[i - 1] == '-')
                    return 0;
                label = 0;
            } else if (mc_char_is(ch, MC_CC_ALPHA | MC_CC_DIGIT) || (ch == '-' && label > 0)) {
                if (++label > 63)
                    return 0;
            } else {
                return 0;
            }
        }
        return label > 0 && d[dlen - 1] != '-';
    }
}

/* ---- dispatch ----------------------------------------------------------------- */

mc__fmt_t mc__format_id(const char *name)
{
    static const struct {
        const char *name;
        mc__fmt_t id;
    } fmts[] = {{"uri", MC__FMT_URI},
                {"uri-reference", MC__FMT_URIREF},
                {"uri-template", MC__FMT_URITEMPLATE},
                {"byte", MC__FMT_BYTE},
                {"date-time", MC__FMT_DATETIME},
                {"date", MC__FMT_DATE},
                {"email", MC__FMT_EMAIL}};
    size_t i;

    for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
        if (strcmp(name, fmts[i].name) == 0)
            return fmts[i].id;
    return MC__FMT_NONE;
}

int mc__format_ok(mc__fmt_t f, const char *s, size_t len)
{
    switch (f) {
    case MC__FMT_URI:
        return mc_uri_valid(s, len);
    case MC__FMT_URIREF:
        return mc_uri_reference_valid(s, len);
    case MC__FMT_URITEMPLATE:
        return uri_template_ok(s, len);
    case MC__FMT_BYTE:
        return byte_ok(s, len);
    case MC__FMT_DATETIME:
        return date_time_ok(s, len);
    case MC__FMT_DATE:
        return full_date_ok(s, len);
    case MC__FMT_EMAIL:
        return email_ok(s, len);
    default:
        return 1;
    }
}

int mc_schema_format_check(const char *format, const char *s, size_t len)
{
    return mc__format_ok(mc__format_id(format), s, len);
}

int mc_schema_format_known(const char *format)
{
    return mc__format_id(format) != MC__FMT_NONE;
}
