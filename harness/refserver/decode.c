/*
 * decode.c - inbound messages: the exact RFC 8259 syntax check, then json-c.
 *
 * This is core's mc_msg_decode() made cheaper in two ways, with the same
 * outcome for every line:
 *
 *  - The session keeps one json_tokener and resets it for every message (the
 *    json-c convention of one tokener per stream) instead of allocating one
 *    per message; it is made the first time a line needs it. The depth limit
 *    and the flags are core's.
 *  - Most messages never reach the tokener. Once the syntax check has
 *    accepted a line, build() makes its tree with the same json-c calls, in
 *    the same order, that the tokener makes for objects, arrays, strings
 *    (escapes decoded as the tokener decodes them), integers of at most 18
 *    digits, true, false and null. Anything else (a fraction or exponent, a
 *    longer integer, a string over 4 KiB with escapes) makes it give up, and
 *    the line goes to the tokener. (json-c 0.16's tokener creates, switches
 * to and frees a C locale on every call, which alone costs more than the build.) The one difference
 * is storage: member names MCP uses are added as constants (JSON_C_OBJECT_KEY_IS_CONSTANT) instead
 * of copies, which gives the same tree with one allocation less per member.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/hex.h"
#include "core/jsonsyntax.h"
#include "refserver/fastimpl.h"

/* Creates the session's tokener unless it exists. Returns MC_OK or MC_ENOMEM. */
static int decoder_init(mc_refserver_t *rs)
{
    if (rs->tok != NULL)
        return MC_OK;
    /*
     * json-c counts the innermost scalar as a level of its own, so with the
     * same number it would refuse a document the syntax check accepted; one
     * level more keeps the syntax check the single authority on depth (as in
     * core's mc_json_parse()).
     */
    rs->tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH + 1);
    if (rs->tok == NULL)
        return MC_ENOMEM;
    json_tokener_set_flags(rs->tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    return MC_OK;
}

/* Fills msg as a -32700 Parse error with the reason given. */
static void parse_error(mc_msg_t *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void parse_error(mc_msg_t *msg, const char *fmt, ...)
{
    va_list ap;

    memset(msg, 0, sizeof(*msg));
    msg->kind = MC_MSG_INVALID;
    msg->rpc_error = MC_RPC_PARSE_ERROR;
    va_start(ap, fmt);
    vsnprintf(msg->reason, sizeof(msg->reason), fmt, ap);
    va_end(ap);
}

/*
 * Runs json-c on bytes the syntax check accepted. Returns 0 and *out (a new
 * reference; NULL for JSON null), or -1 with the tokener's error in msg.
 */
static int tokenize(mc_refserver_t *rs, const char *line, size_t len, json_object **out,
                    mc_msg_t *msg)
{
    json_tokener *tok;
    enum json_tokener_error jerr;
    json_object *v;

    if (decoder_init(rs) != MC_OK) {
        rs->failed = 1;
        parse_error(msg, "out of memory");
        return -1;
    }
    tok = rs->tok;
    json_tokener_reset(tok);
    v = json_tokener_parse_ex(tok, line, (int)len);
    jerr = json_tokener_get_error(tok);
    if (v == NULL && jerr == json_tokener_continue) {
        /* A top-level number or literal needs a delimiter to end. */
        v = json_tokener_parse_ex(tok, " ", 1);
        jerr = json_tokener_get_error(tok);
    }
    if (jerr != json_tokener_success) {
        size_t at = json_tokener_get_parse_end(tok);
        json_object_put(v);
        json_tokener_reset(tok);
        if (jerr == json_tokener_continue)
            parse_error(msg, "truncated JSON: input ends inside a value");
        else
            parse_error(msg, "%s at offset %zu", json_tokener_error_desc(jerr), at);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---- the quick builder ---- */

/* Longest integer built here: 18 digits always fit in int64, so json-c makes
 * the same int64 object and reports no range error. */
#define QUICK_MAX_DIGITS 18

/* Longest member name built here (a longer one goes to the tokener). */
#define QUICK_MAX_KEY 256

/* Longest string with escapes decoded here (a longer one goes to the tokener). */
#define QUICK_MAX_ESCAPED 4096

typedef struct quick {
    const char *p;   /* next byte */
    const char *end; /* one past the last byte */
    char scratch[QUICK_MAX_ESCAPED]; /* the last string decoded (read before the next) */
} quick_t;

/*
 * The builder runs under the fuzzers' comparison tracing, where every byte
 * compared in a loop costs a callback: it tests one bound before the four
 * whitespace bytes, and finds string ends with memchr().
 */
static void quick_ws(quick_t *q)
{
    while (q->p < q->end && (unsigned char)*q->p <= ' ' &&
           (*q->p == ' ' || *q->p == '\t' || *q->p == '\n' || *q->p == '\r'))
        q->p++;
}

static int quick_value(quick_t *q, json_object **out);

/* The value of four hex digits the syntax check has seen. */
static unsigned hex4(const char *p)
{
    return (unsigned)(mc_hex_digit(p[0]) << 12 | mc_hex_digit(p[1]) << 8 |
                      mc_hex_digit(p[2]) << 4 | mc_hex_digit(p[3]));
}

/* Appends code point u as UTF-8 (1 to 4 bytes) at out[*o], as json-c does. */
static void put_utf8(char *out, size_t *o, unsigned u)
{
    if (u < 0x80) {
        out[(*o)++] = (char)u;
    } else if (u < 0x800) {
        out[(*o)++] = (char)(0xc0 | (u >> 6));
        out[(*o)++] = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x10000) {
        out[(*o)++] = (char)(0xe0 | (u >> 12));
        out[(*o)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[(*o)++] = (char)(0x80 | (u & 0x3f));
    } else {
        out[(*o)++] = (char)(0xf0 | ((u >> 18) & 0x07));
        out[(*o)++] = (char)(0x80 | ((u >> 12) & 0x3f));
        out[(*o)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[(*o)++] = (char)(0x80 | (u & 0x3f));
    }
}

/*
 * Decodes the escapes of s[0..n), a string body the syntax check accepted,
 * into q->scratch the way json-c's tokener does: the short escapes give
 * their byte, \uXXXX its UTF-8 (\u0000 a NUL byte), a surrogate pair one
 * 4-byte sequence. Returns the decoded length, or -1 when it does not fit
 * (the tokener takes the line). Every escape shrinks or keeps the size, so
 * n bytes of room suffice. A surrogate outside a pair never gets here (the
 * syntax check refuses it), but is left to the tokener all the same.
 */
static long quick_unescape(quick_t *q, const char *s, size_t n)
{
    const char *end = s + n, *bs;
    size_t o = 0;
    unsigned u, lo;

    if (n > sizeof(q->scratch))
        return -1;
    while (s < end) {
        bs = memchr(s, '\\', (size_t)(end - s));
        if (bs == NULL)
            bs = end;
        memcpy(q->scratch + o, s, (size_t)(bs - s));
        o += (size_t)(bs - s);
        if (bs == end)
            break;
        switch (bs[1]) {
        case 'b':
            q->scratch[o++] = '\b';
            s = bs + 2;
            break;
        case 'f':
            q->scratch[o++] = '\f';
            s = bs + 2;
            break;
        case 'n':
            q->scratch[o++] = '\n';
            s = bs + 2;
            break;
        case 'r':
            q->scratch[o++] = '\r';
            s = bs + 2;
            break;
        case 't':
            q->scratch[o++] = '\t';
            s = bs + 2;
            break;
        case 'u':
            /* The syntax check has seen four hex digits after each \u. */
            u = hex4(bs + 2);
            s = bs + 6;
            if (u >= 0xdc00 && u <= 0xdfff)
                return -1;
            if (u >= 0xd800 && u <= 0xdbff) {
                if (end - s < 6 || s[0] != '\\' || s[1] != 'u')
                    return -1;
                lo = hex4(s + 2);
                if (lo < 0xdc00 || lo > 0xdfff)
                    return -1;
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                s += 6;
            }
            put_utf8(q->scratch, &o, u);
            break;
        default: /* '"', '\\', '/' */
            q->scratch[o++] = bs[1];
            s = bs + 2;
            break;
        }
    }
    return (long)o;
}

/* Scans the string starting at q->p (its opening quote). Sets *s and *n to
 * its bytes: in the line, or decoded in q->scratch when it holds escapes.
 * Returns 0, or -1 when the tokener must take the line. */
static int quick_string(quick_t *q, const char **s, size_t *n)
{
    const char *start = ++q->p, *p = start, *quote, *bs;
    int escaped = 0;
    long len;

    /* The syntax check has seen the closing quote and valid UTF-8. The first
     * '"' ends the string unless a backslash comes before it: then skip that
     * escape (its second byte may be the quote) and look again. */
    for (;;) {
        quote = memchr(p, '"', (size_t)(q->end - p));
        if (quote == NULL)
            return -1;
        bs = memchr(p, '\\', (size_t)(quote - p));
        if (bs == NULL)
            break;
        escaped = 1;
        p = bs + 2;
    }
    q->p = quote + 1;
    if (!escaped) {
        *s = start;
        *n = (size_t)(quote - start);
        return 0;
    }
    len = quick_unescape(q, start, (size_t)(quote - start));
    if (len < 0)
        return -1;
    *s = q->scratch;
    *n = (size_t)len;
    return 0;
}

/* Builds the integer at q->p, or returns -1 for any other number. */
static int quick_number(quick_t *q, json_object **out)
{
    const char *p = q->p;
    int neg = *p == '-';
    int64_t v = 0;
    size_t digits;

    if (neg)
        p++;
    for (digits = 0; p < q->end && *p >= '0' && *p <= '9'; p++, digits++) {
        if (digits == QUICK_MAX_DIGITS)
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (p < q->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return -1;
    *out = json_object_new_int64(neg ? -v : v);
    if (*out == NULL)
        return -1;
    q->p = p;
    return 0;
}

/*
 * Member names of MCP messages, stored by json-c without a copy of their own
 * (JSON_C_OBJECT_KEY_IS_CONSTANT): the tree is the same, one allocation per
 * member cheaper. Looked up by length and first byte, then one comparison
 * (quick_name); the candidate for names of 2 to 6 bytes, or NULL.
 */
static const char *quick_name_short(const char *name, size_t n)
{
    const char *c = NULL;

    switch (n) {
    case 2:
        c = "id";
        break;
    case 3:
        c = name[0] == 'u' ? (name[2] == 'i' ? "uri" : "url") : "ref";
        break;
    case 4:
        switch (name[0]) {
        case 'c':
            c = "code";
            break;
        case 'd':
            c = "data";
            break;
        case 'n':
            c = "name";
            break;
        case 'f':
            c = "form";
            break;
        case 'm':
            c = "mode";
            break;
        case 'r':
            c = "role";
            break;
        case 't':
            c = name[1] == 'e' ? "text" : "type";
            break;
        default:
            break;
        }
        break;
    case 5:
        switch (name[0]) {
        case 'l':
            c = "level";
            break;
        case 'e':
            c = "error";
            break;
        case 'm':
            c = "model";
            break;
        case 'r':
            c = "roots";
            break;
        case 't':
            c = "total";
            break;
        case 'v':
            c = "value";
            break;
        case '_':
            c = "_meta";
            break;
        default:
            break;
        }
        break;
    case 6:
        switch (name[0]) {
        case 'a':
            c = "action";
            break;
        case 'c':
            c = "cursor";
            break;
        case 'm':
            c = "method";
            break;
        case 'p':
            c = "params";
            break;
        case 'r':
            c = name[2] == 's' ? "result" : "reason";
            break;
        default:
            break;
        }
        break;
    default:
        break;
    }
    return c;
}

/* The candidate for names of 7 bytes and more, or NULL. */
static const char *quick_name_long(const char *name, size_t n)
{
    const char *c = NULL;

    switch (n) {
    case 7:
        switch (name[0]) {
        case 'c':
            c = name[5] == 'n' ? "content" : "context";
            break;
        case 'j':
            c = "jsonrpc";
            break;
        case 'm':
            c = "message";
            break;
        case 'v':
            c = "version";
            break;
        default:
            break;
        }
        break;
    case 8:
        switch (name[0]) {
        case 'a':
            c = "argument";
            break;
        case 'p':
            c = "progress";
            break;
        case 's':
            c = "sampling";
            break;
        default:
            break;
        }
        break;
    case 9:
        c = name[0] == 'a' ? "arguments" : "requestId";
        break;
    case 10:
        c = name[0] == 'c' ? "clientInfo" : "stopReason";
        break;
    case 11:
        c = name[0] == 'e' ? "elicitation" : "listChanged";
        break;
    case 12:
        c = "capabilities";
        break;
    case 13:
        c = name[0] == 'e' ? "elicitationId" : "progressToken";
        break;
    case 15:
        c = "protocolVersion";
        break;
    default:
        break;
    }
    return c;
}

/* The constant name equal to name[0..n), or NULL. */
static const char *quick_name(const char *name, size_t n)
{
    const char *c = n < 7 ? quick_name_short(name, n) : quick_name_long(name, n);

    return c != NULL && memcmp(c, name, n) == 0 ? c : NULL;
}

/* Builds the object at q->p ("{"). */
static int quick_object(quick_t *q, json_object **out)
{
    json_object *o = json_object_new_object(), *v;
    char key[QUICK_MAX_KEY + 1];
    const char *s, *known;
    size_t n;

    if (o == NULL)
        return -1;
    q->p++;
    quick_ws(q);
    while (*q->p != '}') {
        if (quick_string(q, &s, &n) != 0 || n > QUICK_MAX_KEY)
            goto fail;
        known = quick_name(s, n);
        memcpy(key, s, n);
        key[n] = '\0';
        quick_ws(q);
        q->p++; /* ':' */
        quick_ws(q);
        if (quick_value(q, &v) != 0)
            goto fail;
        /* As the tokener's json_object_object_add(): a repeated name
         * replaces the value. */
        if (json_object_object_add_ex(o, known != NULL ? known : key, v,
                                      known != NULL ? JSON_C_OBJECT_KEY_IS_CONSTANT : 0) != 0) {
            json_object_put(v);
            goto fail;
        }
        quick_ws(q);
        if (*q->p == ',') {
            q->p++;
            quick_ws(q);
        }
    }
    q->p++;
    *out = o;
    return 0;
fail:
    json_object_put(o);
    return -1;
}

/* Builds the array at q->p ("["). */
static int quick_array(quick_t *q, json_object **out)
{
    /* json_object_new_array() reserves 32 slots; requests hold short arrays
     * (often one inside another, up to the depth limit), so 8 to start: the
     * same array, a quarter of the memory. */
    json_object *a = json_object_new_array_ext(8), *v;

    if (a == NULL)
        return -1;
    q->p++;
    quick_ws(q);
    while (*q->p != ']') {
        if (quick_value(q, &v) != 0)
            goto fail;
        if (json_object_array_add(a, v) != 0) {
            json_object_put(v);
            goto fail;
        }
        quick_ws(q);
        if (*q->p == ',') {
            q->p++;
            quick_ws(q);
        }
    }
    q->p++;
    *out = a;
    return 0;
fail:
    json_object_put(a);
    return -1;
}

/* Builds the value at q->p into *out (a new reference; NULL for null). */
static int quick_value(quick_t *q, json_object **out)
{
    const char *s;
    size_t n;

    switch (*q->p) {
    case '{':
        return quick_object(q, out);
    case '[':
        return quick_array(q, out);
    case '"':
        if (quick_string(q, &s, &n) != 0)
            return -1;
        *out = json_object_new_string_len(s, (int)n);
        return *out == NULL ? -1 : 0;
    case 't':
        q->p += 4;
        *out = json_object_new_boolean(1);
        return *out == NULL ? -1 : 0;
    case 'f':
        q->p += 5;
        *out = json_object_new_boolean(0);
        return *out == NULL ? -1 : 0;
    case 'n':
        q->p += 4;
        *out = NULL;
        return 0;
    default:
        return quick_number(q, out);
    }
}

/*
 * Builds the tree of line, which the syntax check has accepted. Returns 0
 * and *out (a new reference), or -1 when the line is outside what the quick
 * builder handles (or memory ran out): the tokener must then parse it.
 */
static int build(const char *line, size_t len, json_object **out)
{
    quick_t q;

    q.p = line;
    q.end = line + len;
    quick_ws(&q);
    if (q.p == q.end)
        return -1;
    return quick_value(&q, out);
}

void mc__rs_fast_decode(mc_refserver_t *rs, const char *line, size_t len, mc_msg_t *msg)
{
    json_object *root = NULL;
    const char *what = NULL;
    const void *nul;
    size_t at = 0;

    if (len > MC_MAX_MESSAGE_SIZE) {
        parse_error(msg, "message of %zu bytes exceeds the %u-byte limit", len,
                    MC_MAX_MESSAGE_SIZE);
        return;
    }
    nul = len > 0 ? memchr(line, '\0', len) : NULL;
    if (nul != NULL) {
        parse_error(msg, "NUL byte at offset %zu", (size_t)((const char *)nul - line));
        return;
    }
    if (mc_json_syntax_check(line, len, MC_MAX_JSON_DEPTH, &at, &what) != MC_OK) {
        parse_error(msg, "%s at offset %zu", what, at);
        return;
    }
    if (build(line, len, &root) != 0 && tokenize(rs, line, len, &root, msg) != 0)
        return;
    mc_msg_classify(root, msg);
}
