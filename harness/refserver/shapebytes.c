/*
 * shapebytes.c - the byte stage of the send path: the faults of the violation
 * switches that no json_object can say (a member written twice, a line that
 * is no message).
 */
#include <stdlib.h>
#include <string.h>

#include "refserver/internal.h"


/* The end of the JSON value that starts at s[i] (string-aware), or n. */
static size_t value_end(const char *s, size_t n, size_t i)
{
    int depth = 0, in_str = 0;

    for (; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;
            depth--;
        } else if (c == ',' && depth == 0) {
            return i;
        }
    }
    return n;
}

/* The first member of a message's inputRequests written twice (a parser
 * keeps one of them): a new line (caller frees) of *len bytes, or NULL when
 * the line has no such member. */
static char *duplicated_key(mc_refserver_t *rs, const char *s, size_t n, size_t *len)
{
    static const char mark[] = "\"inputRequests\":{\"";
    const char *at = strstr(s, mark);
    size_t k, e;
    char *out;

    if (at == NULL)
        return NULL;
    k = (size_t)(at - s) + sizeof(mark) - 2; /* the first member's opening quote */
    e = value_end(s, n, k);
    if (e >= n)
        return NULL;
    out = malloc(n + (e - k) + 2);
    if (out == NULL) {
        rs->failed = 1;
        return NULL;
    }
    memcpy(out, s, e);
    out[e] = ',';
    memcpy(out + e + 1, s + k, e - k);
    memcpy(out + e + 1 + (e - k), s + e, n - e);
    *len = n + (e - k) + 1;
    return out;
}

char *mc__rs_shape_bytes(mc_refserver_t *rs, const char *s, size_t n, size_t *len)
{
    if (rs->bug == RS_BUG_INPUT_REQUEST_KEY_DUPLICATED)
        return duplicated_key(rs, s, n, len);
    return NULL;
}

const char *mc_refserver_banner(const mc_refserver_t *rs)
{
    if (rs != NULL && rs->bug == RS_BUG_STDOUT_BANNER)
        return "mcpcheck-refserver starting (stdout banner)\n";
    return NULL;
}
