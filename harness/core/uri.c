/*
 * uri.c - RFC 3986 syntax, ASCII only (an IRI is not a URI).
 *
 * Each checker reads exactly len bytes and never allocates. The JSON Schema
 * formats "uri" and "uri-reference" (schema/format.c) and the reference
 * server's choice of which client URIs it may echo use the same code.
 */
#include "core/uri.h"

#include <string.h>

#include "core/charclass.h"

/* Scans *( allowed / pct-encoded ) from s[*i] up to a stop character; returns 0
 * on a malformed percent-encoding or a character that is neither. */
static int scan(const char *s, size_t len, size_t *i, unsigned mask, const char *extra,
                const char *stops)
{
    /* Whether a character of the mask's classes can stop the scan (none of
     * the callers' stops is in a class, so the common run skips strchr). */
    int mask_stops = 0;
    const char *st;

    for (st = stops; *st != '\0'; st++)
        mask_stops |= mc_char_is((unsigned char)*st, mask);
    while (*i < len) {
        unsigned char ch = (unsigned char)s[*i];
        if (!mask_stops && mc_char_is(ch, mask)) {
            (*i)++;
            continue;
        }
        if (strchr(stops, ch) != NULL && ch != '\0')
            return 1;
        if (ch == '%') {
            if (*i + 2 >= len || !mc_char_is((unsigned char)s[*i + 1], MC_CC_HEX) ||
                !mc_char_is((unsigned char)s[*i + 2], MC_CC_HEX))
                return 0;
            *i += 3;
            continue;
        }
        if (!mc_char_is(ch, mask) && (ch == '\0' || strchr(extra, ch) == NULL))
            return 0;
        (*i)++;
    }
    return 1;
}

#define PCHAR (MC_CC_ALPHA | MC_CC_DIGIT | MC_CC_UNRES | MC_CC_SUB)

int mc_uri_ip_literal_valid(const char *s, size_t len)
{
    size_t i;

    if (len == 0)
        return 0;
    if (s[0] == 'v' || s[0] == 'V') {
        /* IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
        for (i = 1; i < len && mc_char_is((unsigned char)s[i], MC_CC_HEX); i++)
            ;
        if (i == 1 || i >= len || s[i] != '.' || i + 1 >= len)
            return 0;
        for (i++; i < len; i++)
            if (!mc_char_is((unsigned char)s[i], PCHAR) && s[i] != ':')
                return 0;
        return 1;
    }
    /* IPv6 (loosely): hex groups, colons, an optional dotted IPv4 tail,
     * at least two colons, at most one "::". */
    {
        size_t colons = 0, doubles = 0, group = 0;
        for (i = 0; i < len; i++) {
            char ch = s[i];
            if (ch == ':') {
                colons++;
                if (i + 1 < len && s[i + 1] == ':')
                    doubles++;
                group = 0;
            } else if (mc_char_is((unsigned char)ch, MC_CC_HEX) || ch == '.') {
                if (++group > 15)
                    return 0;
            } else {
                return 0;
            }
        }
        if (memchr(s, '.', len) != NULL) {
            /* The dotted tail is a real IPv4 address (no leading zeros). */
            const char *last = s + len;
            while (last > s && last[-1] != ':')
                last--;
            if (!mc_uri_ipv4_valid(last, (size_t)(s + len - last)))
                return 0;
        }
        return colons >= 2 && colons <= 7 && doubles <= 1;
    }
}

/* authority = [ userinfo "@" ] host [ ":" port ] */
static int authority_ok(const char *s, size_t len)
{
    const char *at = memchr(s, '@', len);
    size_t i = 0, hlen;
    const char *h;

    if (at != NULL) {
        size_t ulen = (size_t)(at - s);
        if (!scan(s, ulen, &i, PCHAR, ":", "") || i != ulen)
            return 0;
        s = at + 1;
        len -= ulen + 1;
    }
    h = s;
    if (len > 0 && s[0] == '[') {
        const char *close = memchr(s, ']', len);
        if (close == NULL || !mc_uri_ip_literal_valid(s + 1, (size_t)(close - s - 1)))
            return 0;
        i = (size_t)(close - s) + 1;
    } else {
        i = 0;
        if (!scan(s, len, &i, MC_CC_ALPHA | MC_CC_DIGIT | MC_CC_UNRES | MC_CC_SUB, "", ":"))
            return 0;
    }
    hlen = i;
    (void)h;
    (void)hlen;
    if (i < len) {
        if (s[i] != ':')
            return 0;
        for (i++; i < len; i++)
            if (!mc_char_is((unsigned char)s[i], MC_CC_DIGIT))
                return 0;
    }
    return 1;
}

/* Checks a URI (absolute) or, with relative_ok, a URI reference. */
static int uri_ok(const char *s, size_t len, int relative_ok)
{
    size_t i = 0, start;
    int has_scheme = 0;

    if (len > 0 && mc_char_is((unsigned char)s[0], MC_CC_ALPHA)) {
        for (i = 1; i < len && (mc_char_is((unsigned char)s[i], MC_CC_ALPHA | MC_CC_DIGIT) ||
                                s[i] == '+' || s[i] == '-' || s[i] == '.');
             i++)
            ;
        if (i < len && s[i] == ':') {
            has_scheme = 1;
            i++;
        } else {
            i = 0;
        }
    }
    if (!has_scheme && !relative_ok)
        return 0;
    if (i + 1 < len && s[i] == '/' && s[i + 1] == '/') {
        i += 2;
        start = i;
        while (i < len && s[i] != '/' && s[i] != '?' && s[i] != '#')
            i++;
        if (!authority_ok(s + start, i - start))
            return 0;
    } else if (!has_scheme) {
        /* path-noscheme: no ":" in the first segment */
        size_t j;
        for (j = i; j < len && s[j] != '/' && s[j] != '?' && s[j] != '#'; j++)
            if (s[j] == ':')
                return 0;
    }
    /* path */
    if (!scan(s, len, &i, PCHAR, ":@/", "?#"))
        return 0;
    if (i < len && s[i] == '?') {
        i++;
        if (!scan(s, len, &i, PCHAR, ":@/?", "#"))
            return 0;
    }
    if (i < len && s[i] == '#') {
        i++;
        if (!scan(s, len, &i, PCHAR, ":@/?", ""))
            return 0;
    }
    return i == len;
}

int mc_uri_ipv4_valid(const char *s, size_t len)
{
    size_t i = 0;
    int part;

    for (part = 0; part < 4; part++) {
        size_t start = i;
        int v = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 3)
            v = v * 10 + (s[i++] - '0');
        if (i == start || v > 255 || (i - start > 1 && s[start] == '0'))
            return 0;
        if (part < 3) {
            if (i >= len || s[i] != '.')
                return 0;
            i++;
        }
    }
    return i == len;
}

int mc_uri_valid(const char *s, size_t len)
{
    return uri_ok(s, len, 0);
}

int mc_uri_reference_valid(const char *s, size_t len)
{
    return uri_ok(s, len, 1);
}
