/*
 * refserver_session_fuzzer.c - a whole client session against the reference
 * server, in memory, with the MCP schemas as the oracle.
 *
 * Input: newline-delimited client messages. When no line is an initialize
 * request, the session starts from the state of an initialize (protocol
 * 2025-11-25, declaring roots, sampling and form + URL elicitation so every
 * server->client path is reachable) followed by notifications/initialized.
 * Each line goes to mc_refserver_handle() on a virtual clock; afterwards due
 * timers are run.
 *
 * Oracle (abort() on a violation, besides the sanitizers):
 *  - every emitted line is exactly one line of strict JSON (RFC 8259, the
 *    exact check of core/jsonsyntax.c, and json-c's strict parser);
 *  - it validates against the MCP schema of the negotiated version
 *    (versions without a bundled schema get the JSON-RPC envelope check);
 *    a response is validated against the result definition of the method of
 *    the request it answers (this target keeps an id -> method map of what
 *    it fed; with duplicate ids any of the candidate methods may match);
 *  - a success response answers an id that was fed as a request.
 * Documented leniency: error responses with "id": null (parse errors and
 * invalid requests, refserver/server.c answer_invalid) are checked with the
 * id removed, since the 2025-06-18 schema requires an id no server can give.
 *
 * Speed (the fuzzer runs under ASan, where every allocation counts), with the
 * same verdict for every input:
 *  - The handshake is not replayed per input. LLVMFuzzerInitialize runs it
 *    once, through the full oracle, and keeps the server as a read-only
 *    template; an input without an initialize starts from
 *    mc_refserver_clone() of it, which is the state the handshake leaves.
 *  - Messages the oracle has already passed are not validated again. At
 *    start-up a fixed script (every list page, read, prompt, tool, logging
 *    level and common error of each version) runs through the full oracle,
 *    and each message it passes is kept in a read-only set, keyed by the
 *    negotiated version, the method it answers and its bytes with the id
 *    taken out. An emitted line whose bytes are such a message with an id of
 *    the same kind (a plain integer, a plain ASCII string, or null) is that
 *    message: the schemas never tie a definition to the value of a RequestId
 *    (each kept message was also validated with an integer and a string id
 *    in place of its own). Every other line is parsed and validated in full.
 *  - The id -> method map is read from the fed lines by a scanner that
 *    builds nothing (json-c only for ids, methods or keys with escapes). It
 *    is lenient: a line the server refuses as malformed may still add an
 *    entry, which can only widen the map, as json-c's lenient mode did.
 * The set and the template are built once and never change, so every input
 * runs the same way whatever ran before it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/jsonrpc.h"
#include "core/jsonsyntax.h"
#include "core/version.h"
#include "refserver/internal.h"
#include "refserver/refserver.h"

#define MAX_IDS (MC_FUZZ_MAX_LINES + 2)
#define METHOD_CAP 64

static const char init_line[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
    "\"protocolVersion\":\"" MC_VERSION_NEWEST_HANDSHAKE "\",\"capabilities\":{\"roots\":{\"listChanged\":true},"
    "\"sampling\":{},\"elicitation\":{\"form\":{},\"url\":{}}},"
    "\"clientInfo\":{\"name\":\"mcpcheck-fuzz\",\"version\":\"1.0\"}}}";
static const char initialized_line[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

/* Where the start-of-line id sits in what the server writes. */
static const char head_id[] = "{\"jsonrpc\":\"2.0\",\"id\":";
static const char head_method[] = "{\"jsonrpc\":\"2.0\",\"method\":";

/* The kind of id an emitted line carries (part of a known message's key). */
enum { ID_NONE = 0, ID_NULL = 1, ID_VALUE = 2 };

/* ---- read-only after LLVMFuzzerInitialize ---- */

static mc_registry_t *g_reg;
static mc_refserver_cache_t *g_cache; /* answers every session shares (refserver.h) */
static mc_refserver_t *g_tmpl;        /* the server after the handshake */

/* One message the oracle passed at start-up: `tail` is the line after its id
 * (the whole line when it has none), without the newline. */
typedef struct known {
    uint64_t h; /* 0 = empty slot */
    char *tail;
    size_t len;
    int version;
    int idclass;
    char method[METHOD_CAP]; /* the method a response was validated for, or "" */
} known_t;

#define KNOWN_SLOTS 8192
static known_t *g_known; /* open addressing, KNOWN_SLOTS slots */
static size_t g_known_n;

/* ---- per input ---- */

typedef struct fed_id {
    uint64_t key; /* hash of the id's compact JSON */
    char method[METHOD_CAP];
} fed_id_t;

typedef struct sess {
    mc_refserver_t *rs;
    json_tokener *tok; /* made when a line needs json-c; reset between lines */
    int record;        /* start-up script: keep what passes in the known set */
    char *capture;     /* start-up script: what the server wrote, for the script */
    size_t capture_len, capture_cap;
    fed_id_t ids[MAX_IDS];
    size_t n_ids;
} sess_t;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bookkeeping below is the oracle's machinery, not code under test: it
 * keeps the sanitizers but no coverage instrumentation, so its loops neither
 * cost comparison callbacks nor feed the fuzzer features of their own. */

/* A 64-bit FNV-1a hash of s[0..n). */
MC_FUZZ_NO_COVERAGE
static uint64_t fnv(const char *s, size_t n, uint64_t h)
{
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

#define FNV_INIT 14695981039346656037ull

/*
 * memcmp(a, b, n) == 0 without the C library: memcmp() and strcmp() report
 * their operands to libFuzzer (it hooks them to learn comparison values),
 * which would feed the oracle's own bookkeeping into the mutations.
 */
MC_FUZZ_NO_COVERAGE
static int same_bytes(const char *a, const char *b, size_t n)
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
static int same_str(const char *a, const char *b)
{
    size_t n = strlen(a);

    return n == strlen(b) && same_bytes(a, b, n);
}

/* The key of an id from its compact JSON text. */
static uint64_t id_key_text(const char *s, size_t n)
{
    return fnv(s, n, FNV_INIT);
}

/* The key of a parsed id ("null" for JSON null). */
static uint64_t id_key(json_object *id)
{
    size_t n = 4;
    const char *s = id == NULL ? "null" : mc_json_compact(id, &n);

    return id_key_text(s, n);
}

/* ---- the shape of an emitted line ---- */

typedef struct shape {
    int idclass;
    const char *id; /* the id token (ID_VALUE) */
    size_t id_len;
    const char *tail; /* what the known set is keyed by */
    size_t tail_len;
    int is_result;
} shape_t;

/*
 * Splits an emitted line (without its newline) into id and tail when it has
 * the envelope the server writes and an id this target can stand in for:
 * an integer of at most 18 digits (no "-0"), a string of printable ASCII
 * without escapes, or null. Returns 1, or 0 when the line has another shape.
 */
MC_FUZZ_NO_COVERAGE
static int line_shape(const char *line, size_t len, shape_t *sh)
{
    const char *p, *end = line + len;
    size_t n;

    memset(sh, 0, sizeof(*sh));
    if (len > sizeof(head_method) - 1 && same_bytes(line, head_method, sizeof(head_method) - 1)) {
        sh->idclass = ID_NONE;
        sh->tail = line;
        sh->tail_len = len;
        return 1;
    }
    if (len <= sizeof(head_id) - 1 || !same_bytes(line, head_id, sizeof(head_id) - 1))
        return 0;
    p = line + sizeof(head_id) - 1;
    if (*p == '"') {
        for (n = 1; p + n < end && p[n] != '"'; n++)
            if ((unsigned char)p[n] < 0x20 || (unsigned char)p[n] > 0x7e || p[n] == '\\')
                return 0;
        if (p + n == end)
            return 0;
        n++;
        sh->idclass = ID_VALUE;
    } else if ((size_t)(end - p) >= 4 && same_bytes(p, "null", 4)) {
        n = 4;
        sh->idclass = ID_NULL;
    } else {
        size_t d = 0, neg = *p == '-';
        while (p + neg + d < end && p[neg + d] >= '0' && p[neg + d] <= '9')
            d++;
        if (d == 0 || d > 18 || (d > 1 && p[neg] == '0') || (neg && d == 1 && p[1] == '0'))
            return 0;
        n = neg + d;
        sh->idclass = ID_VALUE;
    }
    sh->id = p;
    sh->id_len = n;
    sh->tail = p + n;
    sh->tail_len = (size_t)(end - sh->tail);
    if (sh->tail_len < 2 || sh->tail[0] != ',')
        return 0;
    sh->is_result = sh->tail_len > 10 && same_bytes(sh->tail, ",\"result\":", 10);
    return 1;
}

/* ---- the known set ---- */

/* The hash of a message's bytes: its first and last 32 and its length
 * (lookups compare the whole text). */
MC_FUZZ_NO_COVERAGE
static uint64_t tail_hash(const char *tail, size_t len)
{
    size_t k = len < 32 ? len : 32;
    uint64_t h = fnv(tail, k, FNV_INIT);

    h = fnv(tail + len - k, k, h);
    return fnv((const char *)&len, sizeof(len), h);
}

/* The hash of a known message: its bytes' hash th, version, id kind and
 * the method it answers. */
MC_FUZZ_NO_COVERAGE
static uint64_t known_hash(int version, int idclass, const char *method, uint64_t th)
{
    return fnv(method, strlen(method), th ^ (uint64_t)(version * 4 + idclass)) | 1u;
}

/* True when the message (th: tail_hash of its bytes) is in the set. */
MC_FUZZ_NO_COVERAGE
static int known_has(int version, int idclass, const char *method, const char *tail, size_t len,
                     uint64_t th)
{
    uint64_t h;
    size_t i;

    if (g_known == NULL)
        return 0;
    h = known_hash(version, idclass, method, th);
    for (i = h % KNOWN_SLOTS; g_known[i].h != 0; i = (i + 1) % KNOWN_SLOTS) {
        const known_t *k = &g_known[i];
        if (k->h == h && k->len == len && k->version == version && k->idclass == idclass &&
            same_str(k->method, method) && same_bytes(k->tail, tail, len))
            return 1;
    }
    return 0;
}

/* Adds a message to the set (start-up only). Full or out of memory: not added. */
static void known_add(int version, int idclass, const char *method, const char *tail, size_t len)
{
    uint64_t h;
    size_t i;
    known_t *k;

    uint64_t th = tail_hash(tail, len);

    if (g_known == NULL || g_known_n >= KNOWN_SLOTS / 2 || strlen(method) >= METHOD_CAP ||
        known_has(version, idclass, method, tail, len, th))
        return;
    h = known_hash(version, idclass, method, th);
    for (i = h % KNOWN_SLOTS; g_known[i].h != 0; i = (i + 1) % KNOWN_SLOTS)
        ;
    k = &g_known[i];
    k->tail = malloc(len);
    if (k->tail == NULL)
        return;
    memcpy(k->tail, tail, len);
    k->len = len;
    k->version = version;
    k->idclass = idclass;
    memcpy(k->method, method, strlen(method) + 1);
    k->h = h;
    g_known_n++;
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
        if (kn == 6 && same_bytes(k, "method", 6)) {
            r->method = NULL;
            if (*v == '"') {
                if (memchr(v, '\\', (size_t)(p - v)) != NULL)
                    return SCAN_JSONC;
                r->method = v + 1;
                r->method_len = (size_t)(p - v) - 2;
            }
        } else if (kn == 2 && same_bytes(k, "id", 2)) {
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
static json_object *parse_line(sess_t *ss, const char *line, size_t len, int strict, int *ok)
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
    f->key = id_key_text(r->id, r->id_len);
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
    f->key = id_key(id);
    memcpy(f->method, json_object_get_string(method),
           (size_t)json_object_get_string_len(method) + 1);
    ss->n_ids++;
}

/* Notes the requests of a line with json-c (the scanner could not). */
static void note_line_jsonc(sess_t *ss, const char *line, size_t len)
{
    int ok;
    json_object *v = parse_line(ss, line, len, 0, &ok);

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
static void note_line(sess_t *ss, const char *line, size_t len)
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
static int is_initialize(sess_t *ss, const char *line, size_t len)
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
        return r.method != NULL && r.method_len == 10 && same_bytes(r.method, "initialize", 10);
    v = parse_line(ss, line, len, 0, &ok);
    found = json_object_is_type(v, json_type_object) &&
            json_object_object_get_ex(v, "method", &m) &&
            json_object_is_type(m, json_type_string) &&
            strcmp(json_object_get_string(m), "initialize") == 0;
    json_object_put(v);
    return found;
}

/* ---- the oracle ---- */

static void fail_report(const char *what, const char *version, const char *answered,
                        const mc_schema_report_t *rep, const char *line, size_t len)
{
    size_t i;

    fprintf(stderr, "\n==== schema violation (%s, version %s, answering %s)\n", what, version,
            answered != NULL ? answered : "-");
    for (i = 0; rep != NULL && i < rep->n_entries; i++)
        if (rep->entries[i].severity == MC_SCHEMA_ERROR)
            fprintf(stderr, "  %s [%s at %s]\n", rep->entries[i].message, rep->entries[i].keyword,
                    rep->entries[i].schema_path);
    mc_fuzz_fail("the reference server emitted a message that breaks the MCP schema", line, len);
}

/* True when msg, with its id replaced by an integer and then by a string,
 * still validates (start-up only: what makes a kept message stand for any
 * id of those kinds). */
static int valid_with_other_ids(const char *version, json_object *msg, const char *method)
{
    json_object *copy = NULL;
    mc_schema_report_t *rep = malloc(sizeof(*rep));
    mc_errbuf_t eb;
    int ok = 0, pass;

    if (rep == NULL || json_object_deep_copy(msg, &copy, NULL) != 0) {
        free(rep);
        return 0;
    }
    for (pass = 0; pass < 2; pass++) {
        json_object_object_add(
            copy, "id", pass == 0 ? json_object_new_int(7) : json_object_new_string("fuzz-id"));
        mc_schema_report_clear(rep);
        mc_errbuf_clear(&eb);
        if (mc_registry_validate_message(g_reg, version, copy, method, rep, &eb) == MC_EINVALID)
            goto out;
    }
    ok = 1;
out:
    json_object_put(copy);
    free(rep);
    return ok;
}

/* At start-up: keeps a message the oracle passed, when its shape allows. */
static void record(sess_t *ss, json_object *msg, const char *method, const char *line, size_t len)
{
    shape_t sh;
    const char *version = mc__rs_version_str(ss->rs->version);

    if (!line_shape(line, len - 1, &sh))
        return;
    if (sh.idclass == ID_VALUE && mc_fuzz_registry_has(g_reg, version) &&
        !valid_with_other_ids(version, msg, method))
        return;
    known_add((int)ss->rs->version, sh.idclass, method != NULL ? method : "", sh.tail, sh.tail_len);
}

/* Checks one message object (not a batch) against the negotiated version.
 * whole: the message is the whole line (not a batch element). */
static void check_message(sess_t *ss, const char *version, int has_schema, json_object *msg,
                          const char *line, size_t len, int whole)
{
    json_object *id = NULL, *copy = NULL, *target = msg;
    mc_schema_report_t rep;
    mc_errbuf_t eb;
    mc_msg_t m;
    const char *cand[MAX_IDS];
    size_t n_cand = 0, i;
    int is_response, has_id;
    uint64_t key;

    /* The envelope, by the core classifier, for every version. */
    mc_msg_classify(json_object_get(msg), &m);
    if (m.kind == MC_MSG_INVALID) {
        /* An error response whose id is null is the documented leniency. */
        int null_id_error = json_object_is_type(msg, json_type_object) &&
                            json_object_object_get_ex(msg, "error", NULL) &&
                            json_object_object_get_ex(msg, "id", &id) && id == NULL;
        if (!null_id_error) {
            fprintf(stderr, "classifier: %s\n", m.reason);
            mc_msg_free(&m);
            mc_fuzz_fail("the reference server emitted an invalid JSON-RPC message", line, len);
        }
    }
    is_response = m.kind == MC_MSG_RESULT || m.kind == MC_MSG_ERROR;
    if (m.kind == MC_MSG_RESULT) {
        /* A success response must answer something we asked. */
        key = id_key(m.id);
        for (i = 0; i < ss->n_ids; i++)
            if (ss->ids[i].key == key)
                cand[n_cand++] = ss->ids[i].method;
        if (n_cand == 0) {
            mc_msg_free(&m);
            mc_fuzz_fail("a success response answers an id that was never sent as a request",
                         line, len);
        }
    }
    mc_msg_free(&m);
    if (!has_schema) {
        /* The envelope alone: the verdict does not depend on the method. */
        if (ss->record && whole)
            record(ss, msg, n_cand > 0 ? cand[0] : NULL, line, len);
        return;
    }

    has_id = json_object_object_get_ex(msg, "id", &id);
    if (has_id && id == NULL && json_object_object_get_ex(msg, "error", NULL)) {
        if (json_object_deep_copy(msg, &copy, NULL) != 0)
            return;
        json_object_object_del(copy, "id");
        /* Up to 2025-06-18 an error requires an id: stand in a valid one for
         * the envelope. */
        if (!mc_version_has(version, MC_VF_ERROR_NO_ID))
            json_object_object_add(copy, "id", json_object_new_int(0));
        target = copy;
    }
    if (!is_response || n_cand == 0) {
        mc_schema_report_clear(&rep);
        mc_errbuf_clear(&eb);
        if (mc_registry_validate_message(g_reg, version, target, NULL, &rep, &eb) == MC_EINVALID)
            fail_report("message", version, NULL, &rep, line, len);
        json_object_put(copy);
        if (ss->record && whole)
            record(ss, msg, NULL, line, len);
        return;
    }
    for (i = 0; i < n_cand; i++) {
        mc_schema_report_clear(&rep);
        mc_errbuf_clear(&eb);
        if (mc_registry_validate_message(g_reg, version, target, cand[i], &rep, &eb) !=
            MC_EINVALID) {
            json_object_put(copy);
            if (ss->record && whole)
                record(ss, msg, cand[i], line, len);
            return;
        }
    }
    fail_report("response", version, cand[0], &rep, line, len);
}

/*
 * The fast path: 1 when line[0..len) (without its newline) is a message the
 * oracle passed at start-up, with an id this session may see there. A
 * success response whose id was never fed fails here as in check_message().
 */
MC_FUZZ_NO_COVERAGE
static int known_line(sess_t *ss, const char *line, size_t len)
{
    shape_t sh;
    int version = (int)ss->rs->version;
    size_t i, n_cand = 0;
    uint64_t key, th;

    if (g_known_n == 0 || !line_shape(line, len, &sh))
        return 0;
    th = tail_hash(sh.tail, sh.tail_len);
    if (!sh.is_result)
        return known_has(version, sh.idclass, "", sh.tail, sh.tail_len, th);
    key = id_key_text(sh.id, sh.id_len);
    for (i = 0; i < ss->n_ids; i++) {
        if (ss->ids[i].key != key)
            continue;
        n_cand++;
        if (known_has(version, sh.idclass, ss->ids[i].method, sh.tail, sh.tail_len, th))
            return 1;
    }
    if (n_cand == 0)
        mc_fuzz_fail("a success response answers an id that was never sent as a request", line,
                     len + 1);
    return 0;
}

/* Keeps what the server wrote during the start-up script. */
static void capture(sess_t *ss, const char *line, size_t len)
{
    char *nb;
    size_t cap;

    if (ss->capture_len + len + 1 > ss->capture_cap) {
        cap = (ss->capture_len + len + 1) * 2;
        nb = realloc(ss->capture, cap);
        if (nb == NULL)
            return;
        ss->capture = nb;
        ss->capture_cap = cap;
    }
    memcpy(ss->capture + ss->capture_len, line, len);
    ss->capture_len += len;
    ss->capture[ss->capture_len] = '\0';
}

/* The server's emit callback: one line per call. */
static void on_emit(void *ctx, const char *line, size_t len)
{
    sess_t *ss = ctx;
    const char *version, *what;
    json_object *v;
    size_t at;
    int has_schema, ok;

    if (len == 0 || line[len - 1] != '\n')
        mc_fuzz_fail("an emitted line does not end in a newline", line, len);
    if (memchr(line, '\n', len - 1) != NULL)
        mc_fuzz_fail("an emitted line holds an embedded newline", line, len);
    if (ss->record)
        capture(ss, line, len);
    if (known_line(ss, line, len - 1))
        return;
    /* The grammar only: depth is json-c's to judge, as before. */
    if (mc_json_syntax_check(line, len - 1, 0, &at, &what) != MC_OK) {
        fprintf(stderr, "syntax: %s at offset %zu\n", what, at);
        mc_fuzz_fail("an emitted line is not RFC 8259 JSON", line, len);
    }
    v = parse_line(ss, line, len - 1, 1, &ok);
    if (!ok)
        mc_fuzz_fail("an emitted line is not strict JSON", line, len);
    version = mc__rs_version_str(ss->rs->version);
    has_schema = mc_fuzz_registry_has(g_reg, version);
    if (json_object_is_type(v, json_type_array)) {
        /* A batch answer (2025-03-26 only): check each element. */
        size_t i, n = json_object_array_length(v);
        if (n == 0)
            mc_fuzz_fail("the server emitted an empty batch", line, len);
        for (i = 0; i < n; i++)
            check_message(ss, version, has_schema, json_object_array_get_idx(v, i), line, len, 0);
    } else {
        check_message(ss, version, has_schema, v, line, len, 1);
    }
    json_object_put(v);
}

/* ---- sessions ---- */

/* Starts a session: a clone of the template, or a fresh server when the
 * input brings its own initialize (or there is no template yet). */
static int sess_open(sess_t *ss, int fresh)
{
    mc_refserver_opts_t opts;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    if (!fresh && g_tmpl != NULL) {
        ss->rs = mc_refserver_clone(g_tmpl, on_emit, ss, &eb);
        /* The handshake's id 0 answered initialize. */
        ss->ids[0].key = id_key_text("0", 1);
        memcpy(ss->ids[0].method, "initialize", sizeof("initialize"));
        ss->n_ids = 1;
    } else {
        memset(&opts, 0, sizeof(opts));
        opts.step_delay_ms = -1; /* every tool step at once: no waiting in a fuzzer */
        opts.cache = g_cache;
        ss->rs = mc_refserver_new(&opts, on_emit, ss, &eb);
    }
    if (ss->rs == NULL) {
        fprintf(stderr, "refserver_session: cannot start a server: %s\n", eb.msg);
        abort();
    }
    return 0;
}

static void sess_close(sess_t *ss)
{
    mc_refserver_free(ss->rs);
    if (ss->tok != NULL)
        json_tokener_free(ss->tok);
    free(ss->capture);
    ss->rs = NULL;
    ss->tok = NULL;
    ss->capture = NULL;
}

/* Feeds one line (without its newline or a trailing CR) to the server. */
static int feed(sess_t *ss, const char *line, size_t len, int64_t now)
{
    note_line(ss, line, len);
    return mc_refserver_handle(ss->rs, line, len, now);
}

/* Runs the timers that are due until none is left (at most 64 rounds). */
static int run_timers(sess_t *ss, int64_t *now)
{
    int i, rc = MC_OK;

    for (i = 0; rc == MC_OK && i < 64; i++) {
        int64_t due = mc_refserver_next_deadline(ss->rs);
        if (due < 0)
            break;
        if (due > *now)
            *now = due;
        rc = mc_refserver_tick(ss->rs, *now);
    }
    return rc;
}

/* One line of the input. */
typedef struct in_line {
    const char *p;
    size_t len; /* CR removed; 0 for lines the framer would not hand on */
} in_line_t;

/* Runs one input. */
static void run_session(const uint8_t *data, size_t size)
{
    sess_t ss;
    in_line_t lines[MC_FUZZ_MAX_LINES];
    const char *line;
    size_t len, n = 0, i;
    int64_t now = 1000000;
    int rc = MC_OK, own_init = 0;

    memset(&ss, 0, offsetof(sess_t, ids));
    ss.n_ids = 0;
    while (n < MC_FUZZ_MAX_LINES && mc_fuzz_next_line(&data, &size, &line, &len)) {
        if (len > 0 && line[len - 1] == '\r')
            len--;
        lines[n].p = line;
        lines[n].len = len;
        n++;
    }
    /* Cheap filter first: most inputs either contain the word or do not. */
    for (i = 0; i < n && !own_init; i++)
        own_init = lines[i].len >= 12 &&
                   mc_fuzz_contains((const uint8_t *)lines[i].p, lines[i].len, "initialize\"") &&
                   is_initialize(&ss, lines[i].p, lines[i].len);
    sess_open(&ss, own_init);
    for (i = 0; rc == MC_OK && i < n; i++) {
        now += 7;
        if (lines[i].len == 0)
            continue; /* the framer never hands empty lines to the server */
        rc = feed(&ss, lines[i].p, lines[i].len, now);
    }
    /* Let timed work finish: progress steps, deferred notifications. */
    if (rc == MC_OK)
        run_timers(&ss, &now);
    sess_close(&ss);
}

/* ---- start-up: the template and the known set ---- */

/* The script's view of the server's answers. */
static json_object *answer_to(sess_t *ss, int64_t id)
{
    const char *p = ss->capture, *nl;
    json_object *found = NULL;

    while (p != NULL && *p != '\0' && found == NULL) {
        json_object *v, *vid;
        nl = strchr(p, '\n');
        v = mc_fuzz_parse(p, nl != NULL ? (size_t)(nl - p) : strlen(p));
        if (json_object_is_type(v, json_type_object) && json_object_object_get_ex(v, "id", &vid) &&
            json_object_is_type(vid, json_type_int) && json_object_get_int64(vid) == id &&
            !json_object_object_get_ex(v, "method", NULL))
            found = json_object_get(v);
        json_object_put(v);
        p = nl != NULL ? nl + 1 : NULL;
    }
    return found;
}

/* Feeds a script line and runs the timers. */
static void script_line(sess_t *ss, const char *line, int64_t *now)
{
    *now += 7;
    if (feed(ss, line, strlen(line), *now) == MC_OK)
        run_timers(ss, now);
}

/* Sends a request with the script's next id; returns the id. */
static int64_t script_call(sess_t *ss, int64_t *next_id, const char *method, json_object *params,
                           int64_t *now)
{
    json_object *req = mc_jsonrpc_request(json_object_new_int64(*next_id), method, params);
    size_t n = 0;
    const char *s = req != NULL ? mc_json_compact(req, &n) : NULL;

    /* The script sends more requests than an input can; each is answered
     * before the next, so older ids can be forgotten (entry 0 stays). */
    if (ss->n_ids > MAX_IDS - 8)
        ss->n_ids = 1;

    if (s != NULL)
        script_line(ss, s, now);
    json_object_put(req);
    return (*next_id)++;
}

static void capture_clear(sess_t *ss)
{
    ss->capture_len = 0;
    if (ss->capture != NULL)
        ss->capture[0] = '\0';
}

/* How the script answers the server's requests (as fuzz/record_seeds.py
 * does, so the seeds' answers are among the known messages). */
enum { ANSWER_ACCEPT, ANSWER_DECLINE, ANSWER_CANCEL, ANSWER_ERROR, ANSWER_POLICIES };

/* Content accepting a form elicitation: a value for each property of the
 * requested schema, chosen like the seed recorder's. New reference. */
static json_object *form_content(json_object *req)
{
    json_object *content = json_object_new_object(), *params, *schema, *props;

    if (!json_object_object_get_ex(req, "params", &params) ||
        !json_object_object_get_ex(params, "requestedSchema", &schema) ||
        !json_object_object_get_ex(schema, "properties", &props) ||
        !json_object_is_type(props, json_type_object))
        return content;
    json_object_object_foreach(props, key, prop)
    {
        json_object *en, *one, *items, *v = NULL, *dflt;
        const char *t = mc__rs_get_str(prop, "type"), *fmt = mc__rs_get_str(prop, "format");
        if (json_object_object_get_ex(prop, "enum", &en) &&
            json_object_is_type(en, json_type_array) && json_object_array_length(en) > 0) {
            v = json_object_get(json_object_array_get_idx(en, 0));
        } else if (json_object_object_get_ex(prop, "oneOf", &one) &&
                   json_object_is_type(one, json_type_array) && json_object_array_length(one) > 0) {
            const char *c = mc__rs_get_str(json_object_array_get_idx(one, 0), "const");
            v = json_object_new_string(c != NULL ? c : "x");
        } else if (t != NULL && strcmp(t, "array") == 0) {
            json_object *first = NULL, *any;
            v = json_object_new_array();
            if (json_object_object_get_ex(prop, "items", &items)) {
                if (json_object_object_get_ex(items, "enum", &en) &&
                    json_object_is_type(en, json_type_array) && json_object_array_length(en) > 0)
                    first = json_object_array_get_idx(en, 0);
                else if (json_object_object_get_ex(items, "anyOf", &any) &&
                         json_object_is_type(any, json_type_array) &&
                         json_object_array_length(any) > 0)
                    json_object_object_get_ex(json_object_array_get_idx(any, 0), "const", &first);
            }
            if (first != NULL)
                json_object_array_add(v, json_object_get(first));
        } else if (t != NULL && strcmp(t, "boolean") == 0) {
            v = json_object_new_boolean(1);
        } else if (t != NULL && (strcmp(t, "number") == 0 || strcmp(t, "integer") == 0)) {
            v = json_object_object_get_ex(prop, "minimum", &dflt) ? json_object_get(dflt)
                                                                  : json_object_new_int(1);
        } else if (fmt != NULL && strcmp(fmt, "email") == 0) {
            v = json_object_new_string("user@example.com");
        } else {
            v = json_object_object_get_ex(prop, "default", &dflt)
                    ? json_object_get(dflt)
                    : json_object_new_string("recorded");
        }
        json_object_object_add(content, key, v);
    }
    return content;
}

/* The script's answer to one server request. New reference. */
static json_object *answer_for(json_object *req, json_object *id, const char *method, int policy)
{
    json_object *res;
    const char *mode;

    if (policy == ANSWER_ERROR)
        return mc_jsonrpc_error(json_object_get(id), -32601, "not supported", NULL);
    if (strcmp(method, "roots/list") == 0) {
        res = json_tokener_parse(
            "{\"roots\":[{\"uri\":\"file:///home/user/project\",\"name\":\"project\"}]}");
    } else if (strcmp(method, "sampling/createMessage") == 0) {
        res = json_tokener_parse("{\"role\":\"assistant\",\"content\":{\"type\":\"text\","
                                 "\"text\":\"42\"},\"model\":\"recorded-model\","
                                 "\"stopReason\":\"endTurn\"}");
    } else if (strcmp(method, "elicitation/create") == 0) {
        json_object *params = NULL;
        json_object_object_get_ex(req, "params", &params);
        mode = mc__rs_get_str(params, "mode");
        res = json_object_new_object();
        if (policy == ANSWER_DECLINE || policy == ANSWER_CANCEL) {
            json_object_object_add(
                res, "action",
                json_object_new_string(policy == ANSWER_DECLINE ? "decline" : "cancel"));
        } else {
            json_object_object_add(res, "action", json_object_new_string("accept"));
            if (mode == NULL || strcmp(mode, "url") != 0)
                json_object_object_add(res, "content", form_content(req));
        }
    } else if (strcmp(method, "ping") == 0) {
        res = json_object_new_object();
    } else {
        return mc_jsonrpc_error(json_object_get(id), -32601, "Method not found", NULL);
    }
    return mc_jsonrpc_result(json_object_get(id), res);
}

/* Answers every request the server sent since the capture was last emptied
 * (and empties it). */
static void answer_server_requests(sess_t *ss, int policy, int64_t *now)
{
    char *copy = ss->capture != NULL ? strdup(ss->capture) : NULL;
    char *p = copy, *nl;

    capture_clear(ss);
    while (p != NULL && *p != '\0') {
        json_object *v, *vid, *m, *ans;
        nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        v = mc_fuzz_parse(p, strlen(p));
        if (json_object_is_type(v, json_type_object) && json_object_object_get_ex(v, "id", &vid) &&
            vid != NULL && json_object_object_get_ex(v, "method", &m) &&
            json_object_is_type(m, json_type_string)) {
            size_t n = 0;
            const char *txt;
            ans = answer_for(v, vid, json_object_get_string(m), policy);
            txt = ans != NULL ? mc_json_compact(ans, &n) : NULL;
            if (txt != NULL)
                script_line(ss, txt, now);
            json_object_put(ans);
        }
        json_object_put(v);
        p = nl != NULL ? nl + 1 : NULL;
    }
    free(copy);
}

/* Calls a tool and answers what it asks with the policy, for as long as it
 * asks (URL mode asks again after the first answer). */
static void script_tool(sess_t *ss, int64_t *next_id, json_object *params, int policy, int64_t *now)
{
    int round;

    capture_clear(ss);
    script_call(ss, next_id, "tools/call", params, now);
    for (round = 0; round < 3 && ss->capture_len > 0; round++)
        answer_server_requests(ss, policy, now);
}

/* Arguments for a tool from its input schema: each property gets a value of
 * its type (the first enum value when there is one). New reference. */
static json_object *tool_args(json_object *schema)
{
    json_object *args = json_object_new_object(), *props;

    if (!json_object_object_get_ex(schema, "properties", &props) ||
        !json_object_is_type(props, json_type_object))
        return args;
    json_object_object_foreach(props, k, p)
    {
        json_object *en = NULL, *v;
        const char *type = mc__rs_get_str(p, "type");
        if (json_object_object_get_ex(p, "enum", &en) && json_object_is_type(en, json_type_array) &&
            json_object_array_length(en) > 0) {
            json_object_object_add(args, k, json_object_get(json_object_array_get_idx(en, 0)));
            continue;
        }
        if (type == NULL)
            type = "string";
        if (strcmp(type, "integer") == 0 || strcmp(type, "number") == 0)
            v = json_object_new_int(2);
        else if (strcmp(type, "boolean") == 0)
            v = json_object_new_boolean(1);
        else if (strcmp(type, "object") == 0)
            v = json_object_new_object();
        else if (strcmp(type, "array") == 0)
            v = json_object_new_array();
        else
            v = json_object_new_string("hello");
        json_object_object_add(args, k, v);
    }
    return args;
}

/* Walks every page of a list, appending its items to items_out. */
static void walk_list(sess_t *ss, int64_t *next_id, const char *method, const char *member,
                      int64_t *now, json_object *items_out)
{
    char cursor[512] = "";
    int pages;

    for (pages = 0; pages < 64; pages++) {
        json_object *params = json_object_new_object(), *ans, *res = NULL, *items, *next;
        int64_t id;
        if (cursor[0] != '\0')
            json_object_object_add(params, "cursor", json_object_new_string(cursor));
        capture_clear(ss);
        id = script_call(ss, next_id, method, params, now);
        ans = answer_to(ss, id);
        cursor[0] = '\0';
        if (json_object_object_get_ex(ans, "result", &res) &&
            json_object_object_get_ex(res, member, &items) &&
            json_object_is_type(items, json_type_array) && items_out != NULL) {
            size_t i;
            for (i = 0; i < json_object_array_length(items); i++)
                json_object_array_add(items_out,
                                      json_object_get(json_object_array_get_idx(items, i)));
        }
        if (res != NULL && json_object_object_get_ex(res, "nextCursor", &next) &&
            json_object_is_type(next, json_type_string))
            snprintf(cursor, sizeof(cursor), "%s", json_object_get_string(next));
        json_object_put(ans);
        if (cursor[0] == '\0')
            break;
    }
}

/* Requests each list at every offset a cursor can name (seeds recorded with
 * another page size carry such cursors): n[i] is how many items list i has
 * now; a dynamic item can add one, and one past the end is an empty page. */
static void every_offset(sess_t *ss, int64_t *next_id, int64_t *now, const size_t n[4])
{
    static const struct {
        rs_list_t list;
        const char *method;
    } lists[] = {{RS_LIST_RESOURCES, "resources/list"},
                 {RS_LIST_TEMPLATES, "resources/templates/list"},
                 {RS_LIST_PROMPTS, "prompts/list"},
                 {RS_LIST_TOOLS, "tools/list"}};
    char cur[32];
    size_t i, off;

    for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        for (off = 1; off <= n[i] + 2; off++) {
            json_object *p = json_object_new_object();
            mc__rs_cursor_text(ss->rs, lists[i].list, off, cur);
            json_object_object_add(p, "cursor", json_object_new_string(cur));
            script_call(ss, next_id, lists[i].method, p, now);
        }
    }
}

/* Sends a request whose params are given as JSON text. */
static void script_req(sess_t *ss, int64_t *next_id, const char *method, const char *params,
                       int64_t *now)
{
    script_call(ss, next_id, method, params != NULL ? json_tokener_parse(params) : NULL, now);
}

/* Lines whose answers do not depend on what the session lists: the errors
 * of malformed messages (with a usable id, without one, with a bad one) and
 * of bad parameters. */
static const char *const fixed_lines[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":9001,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9003,\"method\":\"no/such/method\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9003,\"method\":\"no/such/method\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9004,\"method\":\"initialize\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9005,\"method\":\"tools/call\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9006,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9007,\"method\":\"tools/call\",\"params\":{\"name\":"
    "\"test_simple_text\",\"arguments\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9008,\"method\":\"resources/read\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9010,\"method\":\"prompts/get\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9011,\"method\":\"prompts/get\",\"params\":{\"name\":"
    "\"no_such_prompt\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9012,\"method\":\"logging/setLevel\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9013,\"method\":\"logging/setLevel\",\"params\":{\"level\":"
    "\"loud\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9014,\"method\":\"completion/complete\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9015,\"method\":\"resources/subscribe\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9016,\"method\":\"resources/unsubscribe\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9017,\"method\":\"prompts/list\",\"params\":{\"cursor\":17}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9018,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9019,\"method\":\"resources/list\",\"params\":{\"cursor\":"
    "\"not-a-cursor\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9020,\"method\":\"prompts/list\",\"params\":{\"cursor\":\"x\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9021,\"method\":\"resources/templates/list\",\"params\":{"
    "\"cursor\":\"x\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9022,\"method\":\"tools/list\",\"params\":[]}",
    "{\"jsonrpc\":\"2.0\",\"id\":9023,\"method\":\"tools/call\",\"params\":{\"name\":"
    "\"no_such_tool\",\"arguments\":{}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"",
    "not json at all",
    "{\"jsonrpc\":\"2.0\",\"id\":9025,\"method\":1}",
    "{\"jsonrpc\":\"2.0\",\"method\":1}",
    "{\"jsonrpc\":\"1.0\",\"id\":\"x\",\"method\":\"ping\"}",
    "{\"jsonrpc\":\"1.0\",\"method\":\"ping\"}",
    "{\"jsonrpc\":1,\"id\":9026,\"method\":\"ping\"}",
    "{\"id\":9027,\"method\":\"ping\"}",
    "{\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9028}",
    "{\"jsonrpc\":\"2.0\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9029,\"method\":\"ping\",\"params\":1}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":1}",
    "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9030,\"method\":\"ping\",\"result\":{}}",
    "{\"jsonrpc\":\"2.0\",\"result\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":1}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}",
    "{}",
    "[]",
    "[1]",
    "[[]]",
    "\"x\"",
    "1",
    "1.5",
    "null",
    "true",
    "{\"jsonrpc\":\"2.0\",\"id\":9031,\"method\":\"ping\"} x",
    /* Notifications and stray answers: no output, but they keep state. */
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,"
    "\"progress\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
    /* Last: in the session without a handshake this one initializes. */
    "{\"jsonrpc\":\"2.0\",\"id\":9004,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"" MC_VERSION_BASELINE "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"again\",\"version\":\"1\"}}}",
};

/* Resources read by URI besides the listed ones (as the seed recorder). */
static const char *const extra_uris[] = {
    "test://template/42/data", "test://greeting/alice",   "test://items/fruit/apple",
    "test://blob/16",          "test://no-such-resource", "test://template//data",
};

/* Requests the seed recorder sends with fixed parameters. */
static const char *const fixed_requests[][2] = {
    {"prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":"
                    "\"hello\",\"arg2\":\"world\"}}"},
    {"prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"x\"}}"},
    {"prompts/get", "{\"name\":\"test_prompt_with_embedded_resource\",\"arguments\":{"
                    "\"resourceUri\":\"test://static-text\"}}"},
    {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                            "\"test_prompt_with_arguments\"},\"argument\":{\"name\":\"arg2\","
                            "\"value\":\"t\"}}"},
    {"completion/complete", "{\"ref\":{\"type\":\"ref/resource\",\"uri\":"
                            "\"test://template/{id}/data\"},\"argument\":{\"name\":\"id\","
                            "\"value\":\"4\"}}"},
    {"completion/complete", "{\"ref\":{\"type\":\"ref/resource\",\"uri\":"
                            "\"test://items/{category}/{item}\"},\"argument\":{\"name\":"
                            "\"category\",\"value\":\"f\"},\"context\":{\"arguments\":{}}}"},
};

/* Runs the script on a session already started; vname is the version the
 * session asked for (progress tokens carry it, as in the seeds). */
static void script_body(sess_t *ss, const char *vname, int64_t *now)
{
    static const char *const levels[] = {"debug",    "info",  "notice",    "warning", "error",
                                         "critical", "alert", "emergency", "verbose"};
    static const char *const triggers[][3] = {
        {"test_trigger_resource_list_change", "resources/list", "resources"},
        {"test_trigger_prompt_change", "prompts/list", "prompts"},
        {"test_trigger_tool_change", "tools/list", "tools"},
    };
    json_object *tools = json_object_new_array(), *res = json_object_new_array(),
                *prompts = json_object_new_array(), *tpl = json_object_new_array();
    size_t counts[4];
    int64_t next_id = 1;
    size_t i, j;
    int policy, variant;
    char tok[64];

    for (i = 0; i < sizeof(fixed_lines) / sizeof(fixed_lines[0]); i++)
        script_line(ss, fixed_lines[i], now);
    walk_list(ss, &next_id, "resources/list", "resources", now, res);
    walk_list(ss, &next_id, "resources/templates/list", "resourceTemplates", now, tpl);
    walk_list(ss, &next_id, "prompts/list", "prompts", now, prompts);
    walk_list(ss, &next_id, "tools/list", "tools", now, tools);
    counts[0] = json_object_array_length(res);
    counts[1] = json_object_array_length(tpl);
    counts[2] = json_object_array_length(prompts);
    counts[3] = json_object_array_length(tools);
    every_offset(ss, &next_id, now, counts);
    for (i = 0; i < json_object_array_length(res) + sizeof(extra_uris) / sizeof(extra_uris[0]);
         i++) {
        json_object *p = json_object_new_object();
        const char *uri = i < json_object_array_length(res)
                              ? mc__rs_get_str(json_object_array_get_idx(res, i), "uri")
                              : extra_uris[i - json_object_array_length(res)];
        json_object_object_add(p, "uri", json_object_new_string(uri != NULL ? uri : ""));
        script_call(ss, &next_id, "resources/read", p, now);
    }
    script_req(ss, &next_id, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}", now);
    script_req(ss, &next_id, "tools/call",
               "{\"name\":\"test_trigger_resource_update\",\"arguments\":{}}", now);
    script_req(ss, &next_id, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}", now);
    for (i = 0; i < json_object_array_length(prompts); i++) {
        json_object *it = json_object_array_get_idx(prompts, i), *argl, *p, *args;
        const char *name = mc__rs_get_str(it, "name");
        if (name == NULL)
            continue;
        for (variant = 0; variant < 3; variant++) {
            p = json_object_new_object();
            json_object_object_add(p, "name", json_object_new_string(name));
            if (variant > 0) {
                args = json_object_new_object();
                if (variant == 2 && json_object_object_get_ex(it, "arguments", &argl) &&
                    json_object_is_type(argl, json_type_array)) {
                    for (j = 0; j < json_object_array_length(argl); j++) {
                        const char *an = mc__rs_get_str(json_object_array_get_idx(argl, j), "name");
                        if (an != NULL)
                            json_object_object_add(args, an, json_object_new_string("hello"));
                    }
                }
                json_object_object_add(p, "arguments", args);
            }
            script_call(ss, &next_id, "prompts/get", p, now);
        }
    }
    for (i = 0; i < sizeof(fixed_requests) / sizeof(fixed_requests[0]); i++)
        script_req(ss, &next_id, fixed_requests[i][0], fixed_requests[i][1], now);
    /* Each tool with empty and with made-up arguments, and each answer policy. */
    snprintf(tok, sizeof(tok), "tok-%s", vname);
    for (i = 0; i < json_object_array_length(tools); i++) {
        json_object *it = json_object_array_get_idx(tools, i), *schema = NULL;
        const char *name = mc__rs_get_str(it, "name");
        if (name == NULL || strncmp(name, "test_trigger_", 13) == 0)
            continue;
        json_object_object_get_ex(it, "inputSchema", &schema);
        for (policy = 0; policy < ANSWER_POLICIES + 2; policy++) {
            json_object *p = json_object_new_object(), *meta;
            json_object_object_add(p, "name", json_object_new_string(name));
            json_object_object_add(p, "arguments",
                                   policy == ANSWER_POLICIES + 1 ? tool_args(schema)
                                                                 : json_object_new_object());
            if (policy == ANSWER_POLICIES) {
                meta = json_object_new_object();
                json_object_object_add(meta, "progressToken", json_object_new_string(tok));
                json_object_object_add(p, "_meta", meta);
            }
            script_tool(ss, &next_id, p, policy % ANSWER_POLICIES, now);
        }
    }
    /* Logging: each level, then a tool that logs. */
    for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        json_object *p = json_object_new_object();
        json_object_object_add(p, "level", json_object_new_string(levels[i]));
        script_call(ss, &next_id, "logging/setLevel", p, now);
        script_req(ss, &next_id, "tools/call",
                   "{\"name\":\"test_logging_levels\",\"arguments\":{}}", now);
        script_req(ss, &next_id, "tools/call",
                   "{\"name\":\"test_tool_with_logging\",\"arguments\":{}}", now);
        *now += 1000; /* past the log rate limit's window */
    }
    /* List changes: on, the list walked, off again. */
    for (i = 0; i < sizeof(triggers) / sizeof(triggers[0]); i++) {
        char params[128];
        snprintf(params, sizeof(params), "{\"name\":\"%s\",\"arguments\":{}}", triggers[i][0]);
        script_req(ss, &next_id, "tools/call", params, now);
        walk_list(ss, &next_id, triggers[i][1], triggers[i][2], now, NULL);
        script_req(ss, &next_id, "tools/call", params, now);
        walk_list(ss, &next_id, triggers[i][1], triggers[i][2], now, NULL);
    }
    json_object_put(tools);
    json_object_put(res);
    json_object_put(prompts);
    json_object_put(tpl);
}

/* Records one session: a fresh server initialized with version and caps
 * (version NULL: the template clone; "": no initialize at all). */
static void script_session(const char *version, const char *caps)
{
    sess_t *ss = calloc(1, sizeof(*ss));
    int64_t now = 1000000;
    char buf[1024];

    if (ss == NULL)
        return;
    ss->record = 1;
    sess_open(ss, version != NULL);
    if (version != NULL && version[0] != '\0') {
        snprintf(buf, sizeof(buf),
                 "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                 "\"protocolVersion\":\"%s\",\"capabilities\":%s,"
                 "\"clientInfo\":{\"name\":\"mcpcheck-fuzz\",\"version\":\"1.0\"}}}",
                 version, caps);
        script_line(ss, buf, &now);
        script_line(ss, initialized_line, &now);
    }
    script_body(ss, version != NULL && version[0] != '\0' ? version : MC_VERSION_NEWEST_HANDSHAKE,
                &now);
    sess_close(ss);
    free(ss);
}

/* Builds the template: the handshake, through the full oracle. The template
 * lives for the process and is never fed again (clones get their own emit
 * context). */
static void make_template(void)
{
    sess_t *ss = calloc(1, sizeof(*ss));
    int64_t now = 1000000;

    if (ss == NULL)
        abort();
    sess_open(ss, 1);
    ss->ids[0].key = id_key_text("0", 1);
    memcpy(ss->ids[0].method, "initialize", sizeof("initialize"));
    ss->n_ids = 1;
    if (mc_refserver_handle(ss->rs, init_line, sizeof(init_line) - 1, now) != MC_OK ||
        mc_refserver_handle(ss->rs, initialized_line, sizeof(initialized_line) - 1, now) != MC_OK) {
        fprintf(stderr, "refserver_session: the handshake failed\n");
        abort();
    }
    g_tmpl = ss->rs;
    ss->rs = NULL;
    sess_close(ss);
    free(ss);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *versions[MC_V_COUNT + 1];
    size_t n_versions = mc_version_list(MC_VF_INITIALIZE, versions, MC_V_COUNT + 1);
    static const char *const caps[] = {
        "{\"roots\":{\"listChanged\":true},\"sampling\":{},\"elicitation\":{\"form\":{},"
        "\"url\":{}}}",
        "{}"};
    mc_refserver_opts_t opts;
    mc_errbuf_t eb;
    size_t v, c;

    (void)argc;
    if (g_reg != NULL)
        return 0;
    g_reg = mc_fuzz_registry(argv != NULL && *argv != NULL ? (*argv)[0] : NULL);
    memset(&opts, 0, sizeof(opts));
    opts.step_delay_ms = -1;
    mc_errbuf_clear(&eb);
    g_cache = mc_refserver_cache_new(&opts, &eb);
    if (g_cache == NULL) {
        fprintf(stderr, "refserver_session: mc_refserver_cache_new: %s\n", eb.msg);
        abort();
    }
    /* Without the set there is no fast path: slower, with the same verdicts. */
    g_known = calloc(KNOWN_SLOTS, sizeof(*g_known));
    make_template();
    if (g_known == NULL)
        return 0;
    script_session(NULL, NULL);
    script_session("", NULL);
    for (v = 0; v < n_versions; v++)
        for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
            script_session(versions[v], caps[c]);
    if (getenv("MC_FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "refserver_session: %zu messages known at start-up\n", g_known_n);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MC_FUZZ_MAX_INPUT)
        return -1;
    if (g_reg == NULL)
        LLVMFuzzerInitialize(NULL, NULL);
    run_session(data, size);
    return 0;
}
