/*
 * refserver_session_read.c - the refserver_session target's reading of
 * lines: hashes, ids, and the scanner that builds the id -> method map of
 * what is fed without building JSON (json-c only for ids, methods or keys
 * with escapes). See refserver_session_fuzzer.c for the oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonrpc.h"
#include "core/jsonsyntax.h"
#include "refserver/units.h"
#include "refserver_session.h"

/* The bookkeeping below is the oracle's machinery, not code under test: it
 * keeps the sanitizers but no coverage instrumentation, so its loops neither
 * cost comparison callbacks nor feed the fuzzer features of their own. */

/* A 64-bit FNV-1a hash of s[0..n) (core/hash.h's, written out here so that
 * no instrumented function is called from this uninstrumented one). */
MC_FUZZ_NO_COVERAGE
uint64_t mc__rss_fnv(const char *s, size_t n, uint64_t h)
{
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * MC_FNV1A64_PRIME;
    return h;
}

/* A key for the version the server speaks, for the known-message table
 * (24 bits, so that known_hash can scale it without overflow). */
int mc__rss_version_key(const mc_refserver_t *rs)
{
    const char *v = mc_refserver_version(rs);

    return (int)(mc__rss_fnv(v, strlen(v), FNV_INIT) & 0xffffffu);
}

/* o[key] when it is a string without an embedded NUL, else NULL (borrowed):
 * what the server itself accepts as a name, URI or value. */
const char *mc__rss_get_str(json_object *o, const char *key)
{
    json_object *v;

    if (o == NULL || !json_object_is_type(o, json_type_object) ||
        !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return strlen(json_object_get_string(v)) == (size_t)json_object_get_string_len(v)
               ? json_object_get_string(v)
               : NULL;
}

/*
 * memcmp(a, b, n) == 0 without the C library: memcmp() and strcmp() report
 * their operands to libFuzzer (it hooks them to learn comparison values),
 * which would feed the oracle's own bookkeeping into the mutations.
 */
MC_FUZZ_NO_COVERAGE
int mc__rss_same_bytes(const char *a, const char *b, size_t n)
{
    uint64_t x, y;

    for (; n >= 8; a += 8, b += 8, n -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    for (; n > 0; a++, b++, n--)
        if (*a != *b)
            return 0;
    return 1;
}

/* strcmp(a, b) == 0 without the C library (see same_bytes). */
MC_FUZZ_NO_COVERAGE
int mc__rss_same_str(const char *a, const char *b)
{
    size_t n = strlen(a);

    return n == strlen(b) && mc__rss_same_bytes(a, b, n);
}

/* The key of an id from its compact JSON text. */
uint64_t mc__rss_id_key_text(const char *s, size_t n)
{
    return mc__rss_fnv(s, n, FNV_INIT);
}

/* The key of a parsed id ("null" for JSON null). */
uint64_t mc__rss_id_key(json_object *id)
{
    size_t n = 4;
    const char *s = id == NULL ? "null" : mc_json_compact(id, &n);

    return mc__rss_id_key_text(s, n);
}

/* ---- reading what is fed ---- */

/* What the scanner found in one object. */
typedef struct req {
    const char *method; /* the method string's bytes, or NULL */
    size_t method_len;
    const char *id; /* the id token (integer or string), or NULL */
    size_t id_len;
} req_t;

#define SCAN_OK 0
#define SCAN_JSONC (-1) /* something only json-c can read exactly */
#define SCAN_BAD (-2)   /* not an object this scanner can read */

MC_FUZZ_NO_COVERAGE
static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* Skips the string at p (its opening quote); returns the byte after it, or
 * NULL at the end of the line. The quote and the escapes are found with
 * memchr(), not a byte loop. */
MC_FUZZ_NO_COVERAGE
static const char *skip_string(const char *p, const char *end)
{
    const char *quote, *bs;

    for (p++; p < end;) {
        quote = memchr(p, '"', (size_t)(end - p));
        if (quote == NULL)
            return NULL;
        bs = memchr(p, '\\', (size_t)(quote - p));
        if (bs == NULL)
            return quote + 1;
        /* An escape: its second byte (maybe the quote) is not an end. */
        if (end - bs < 3)
            return NULL;
        p = bs + 2;
    }
    return NULL;
}

/* Skips one value at p; returns the byte after it, or NULL when malformed. */
MC_FUZZ_NO_COVERAGE
static const char *skip_value(const char *p, const char *end)
{
    int depth = 0;

    if (p >= end)
        return NULL;
    if (*p == '"')
        return skip_string(p, end);
    if (*p != '{' && *p != '[') {
        const char *s = p;
        while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\t' &&
               *p != '\r' && *p != '\n')
            p++;
        return p > s ? p : NULL;
    }
    while (p < end) {
        if (*p == '"') {
            p = skip_string(p, end);
            if (p == NULL)
                return NULL;
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']') {
            if (--depth == 0)
                return p + 1;
        }
        p++;
    }
    return NULL;
}

/*
 * Reads the members "method" and "id" of the object at *pp ('{'), the last
 * of each name winning as in json-c. Escapes in a member name, in the method
 * or in a string id, and integers json-c would not print back as written,
 * give SCAN_JSONC. On SCAN_OK *pp is past the object.
 */
MC_FUZZ_NO_COVERAGE
static int scan_object(const char **pp, const char *end, req_t *r)
{
    const char *p = *pp + 1, *k, *v;
    size_t kn;

    memset(r, 0, sizeof(*r));
    p = skip_ws(p, end);
    if (p < end && *p == '}') {
        *pp = p + 1;
        return SCAN_OK;
    }
    while (p < end) {
        if (*p != '"')
            return SCAN_BAD;
        k = p + 1;
        p = skip_string(p, end);
        if (p == NULL)
            return SCAN_BAD;
        kn = (size_t)(p - 1 - k);
        if (memchr(k, '\\', kn) != NULL)
            return SCAN_JSONC;
        p = skip_ws(p, end);
        if (p == end || *p != ':')
            return SCAN_BAD;
        v = skip_ws(p + 1, end);
        p = skip_value(v, end);
        if (p == NULL)
            return SCAN_BAD;
        if (kn == 6 && mc__rss_same_bytes(k, "method", 6)) {
            r->method = NULL;
            if (*v == '"') {
                if (memchr(v, '\\', (size_t)(p - v)) != NULL)
                    return SCAN_JSONC;
                r->method = v + 1;
                r->method_len = (size_t)(p - v) - 2;
            }
        } else if (kn == 2 && mc__rss_same_bytes(k, "id", 2)) {
            size_t n = (size_t)(p - v), d;
            r->id = NULL;
            if (*v == '"') {
                if (memchr(v, '\\', n) != NULL)
                    return SCAN_JSONC;
                r->id = v;
                r->id_len = n;
            } else if (*v == '-' || (*v >= '0' && *v <= '9')) {
                /* json-c prints an int64 back as written when it has no
                 * sign on zero, no leading zero, fraction or exponent. */
                const char *dg = v + (*v == '-');
                for (d = 0; dg + d < p && dg[d] >= '0' && dg[d] <= '9'; d++)
                    ;
                if (dg + d != p || d == 0 || d > 18 || (d > 1 && dg[0] == '0') ||
                    (dg != v && d == 1 && dg[0] == '0'))
                    return SCAN_JSONC;
                r->id = v;
                r->id_len = n;
            }
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') {
            p = skip_ws(p + 1, end);
            continue;
        }
        if (p < end && *p == '}') {
            *pp = p + 1;
            return SCAN_OK;
        }
        return SCAN_BAD;
    }
    return SCAN_BAD;
}

/*
 * Parses line[0..len) with the session's tokener: strict JSON with UTF-8
 * validation when strict is set (the server's output), lenient otherwise
 * (our own bookkeeping of the input). Returns a new reference or NULL, with
 * *ok telling a JSON null from a failure.
 */
json_object *mc__rss_parse_line(sess_t *ss, const char *line, size_t len, int strict, int *ok)
{
    json_object *v;
    size_t end;

    *ok = 0;
    if (ss->tok == NULL) {
        ss->tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH + 1);
        if (ss->tok == NULL)
            return NULL;
    }
    json_tokener_reset(ss->tok);
    json_tokener_set_flags(ss->tok, strict ? JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8 : 0);
    v = json_tokener_parse_ex(ss->tok, line, (int)len);
    if (v == NULL && json_tokener_get_error(ss->tok) == json_tokener_continue)
        v = json_tokener_parse_ex(ss->tok, " ", 1);
    if (json_tokener_get_error(ss->tok) != json_tokener_success) {
        /* json-c 0.16's json_tokener_reset() keeps a pending high surrogate
         * of a parse that stopped inside a string, which would turn the next
         * line's first surrogate pair into U+FFFD plus the pair: a failed
         * parse gets a new tokener next time. */
        json_tokener_free(ss->tok);
        ss->tok = NULL;
        json_object_put(v);
        return NULL;
    }
    /* JSON allows whitespace after the value; anything else is trailing data. */
    for (end = json_tokener_get_parse_end(ss->tok); end < len; end++) {
        if (line[end] != ' ' && line[end] != '\t' && line[end] != '\n' && line[end] != '\r') {
            json_object_put(v);
            return NULL;
        }
    }
    *ok = 1;
    return v;
}

/* Remembers id -> method for a request read by the scanner. */
static void note_scanned(sess_t *ss, const req_t *r)
{
    fed_id_t *f;

    if (ss->n_ids == MAX_IDS || r->method == NULL || r->id == NULL || r->method_len >= METHOD_CAP)
        return;
    f = &ss->ids[ss->n_ids++];
    f->key = mc__rss_id_key_text(r->id, r->id_len);
    memcpy(f->method, r->method, r->method_len);
    f->method[r->method_len] = '\0';
}

/* Remembers the id -> method of a request parsed by json-c. */
static void note_parsed(sess_t *ss, json_object *msg)
{
    json_object *id, *method;
    fed_id_t *f;

    if (ss->n_ids == MAX_IDS || !json_object_is_type(msg, json_type_object) ||
        !json_object_object_get_ex(msg, "method", &method) ||
        !json_object_is_type(method, json_type_string) ||
        !json_object_object_get_ex(msg, "id", &id))
        return;
    f = &ss->ids[ss->n_ids];
    if ((size_t)json_object_get_string_len(method) >= sizeof(f->method))
        return;
    f->key = mc__rss_id_key(id);
    memcpy(f->method, json_object_get_string(method),
           (size_t)json_object_get_string_len(method) + 1);
    ss->n_ids++;
}

/* Notes the requests of a line with json-c (the scanner could not). */
static void note_line_jsonc(sess_t *ss, const char *line, size_t len)
{
    int ok;
    json_object *v = mc__rss_parse_line(ss, line, len, 0, &ok);

    if (json_object_is_type(v, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            note_parsed(ss, json_object_array_get_idx(v, i));
    } else if (v != NULL) {
        note_parsed(ss, v);
    }
    json_object_put(v);
}

/* Notes the requests of a fed line: an object, or a batch of them. */
MC_FUZZ_NO_COVERAGE
void mc__rss_note_line(sess_t *ss, const char *line, size_t len)
{
    const char *p = skip_ws(line, line + len), *end = line + len;
    req_t r;
    int rc;

    if (p < end && *p == '{') {
        rc = scan_object(&p, end, &r);
        if (rc == SCAN_OK)
            note_scanned(ss, &r);
        else if (rc == SCAN_JSONC)
            note_line_jsonc(ss, line, len);
        return;
    }
    if (p == end || *p != '[')
        return;
    for (p = skip_ws(p + 1, end); p < end && *p != ']'; p = skip_ws(p, end)) {
        if (*p == '{') {
            rc = scan_object(&p, end, &r);
            if (rc == SCAN_JSONC) {
                note_line_jsonc(ss, line, len);
                return;
            }
            if (rc != SCAN_OK)
                return;
            note_scanned(ss, &r);
        } else {
            p = skip_value(p, end);
            if (p == NULL)
                return;
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',')
            p++;
    }
}

/* True when line is a JSON object whose "method" is "initialize" (the
 * server decides with its strict parser, so the line must pass the exact
 * syntax check). */
int mc__rss_is_initialize(sess_t *ss, const char *line, size_t len)
{
    const char *p = line, *what;
    size_t at;
    req_t r;
    int rc, ok, found;
    json_object *v, *m;

    if (mc_json_syntax_check(line, len, MC_MAX_JSON_DEPTH, &at, &what) != MC_OK)
        return 0;
    p = skip_ws(p, line + len);
    if (p == line + len || *p != '{')
        return 0;
    rc = scan_object(&p, line + len, &r);
    if (rc == SCAN_OK)
        return r.method != NULL && r.method_len == 10 && mc__rss_same_bytes(r.method, "initialize", 10);
    v = mc__rss_parse_line(ss, line, len, 0, &ok);
    found = json_object_is_type(v, json_type_object) &&
            json_object_object_get_ex(v, "method", &m) &&
            json_object_is_type(m, json_type_string) &&
            strcmp(json_object_get_string(m), "initialize") == 0;
    json_object_put(v);
    return found;
}
