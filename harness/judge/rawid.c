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
        if (k1 - k0 == 2 && memcmp(p + k0, "id", 2) == 0) {
            size_t e = i;
            while (e > v0 && (p[e - 1] == ' ' || p[e - 1] == '\t' || p[e - 1] == '\r' ||
                              p[e - 1] == '\n'))
                e--;
            *out = p + v0;
            *out_len = e - v0;
            return 1;
        }
        if (p[i] == '}')
            return 0;
        i++;
    }
}
