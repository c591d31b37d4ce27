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

#include "core/jsonrpc.h"
#include "core/jsonsyntax.h"
#include "core/version.h"
#include "refserver/units.h"
#include "refserver_session.h"

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

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    if (len > sizeof(head_method) - 1 && mc__rss_same_bytes(line, head_method, sizeof(head_method) - 1)) {
        sh->idclass = ID_NONE;
        sh->tail = line;
        sh->tail_len = len;
        return 1;
    }
    if (len <= sizeof(head_id) - 1 || !mc__rss_same_bytes(line, head_id, sizeof(head_id) - 1))
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
    } else if ((size_t)(end - p) >= 4 && mc__rss_same_bytes(p, "null", 4)) {
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
    sh->is_result = sh->tail_len > 10 && mc__rss_same_bytes(sh->tail, ",\"result\":", 10);
    return 1;
}

/* ---- the known set ---- */

/* The hash of a message's bytes: its first and last 32 and its length
 * (lookups compare the whole text). */
MC_FUZZ_NO_COVERAGE
static uint64_t tail_hash(const char *tail, size_t len)
{
    size_t k = len < 32 ? len : 32;
    uint64_t h = mc__rss_fnv(tail, k, FNV_INIT);

    h = mc__rss_fnv(tail + len - k, k, h);
    return mc__rss_fnv((const char *)&len, sizeof(len), h);
}

/* The hash of a known message: its bytes' hash th, version, id kind and
 * the method it answers. */
MC_FUZZ_NO_COVERAGE
static uint64_t known_hash(int version, int idclass, const char *method, uint64_t th)
{
    return mc__rss_fnv(method, strlen(method), th ^ (uint64_t)(version * 4 + idclass)) | 1u;
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
            mc__rss_same_str(k->method, method) && mc__rss_same_bytes(k->tail, tail, len))
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
    const char *version = mc_refserver_version(ss->rs);

    if (!line_shape(line, len - 1, &sh))
        return;
    if (sh.idclass == ID_VALUE && mc_fuzz_registry_has(g_reg, version) &&
        !valid_with_other_ids(version, msg, method))
        return;
    known_add(mc__rss_version_key(ss->rs), sh.idclass, method != NULL ? method : "", sh.tail, sh.tail_len);
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
        key = mc__rss_id_key(m.id);
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
    int version = mc__rss_version_key(ss->rs);
    size_t i, n_cand = 0;
    uint64_t key, th;

    if (g_known_n == 0 || !line_shape(line, len, &sh))
        return 0;
    th = tail_hash(sh.tail, sh.tail_len);
    if (!sh.is_result)
        return known_has(version, sh.idclass, "", sh.tail, sh.tail_len, th);
    key = mc__rss_id_key_text(sh.id, sh.id_len);
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
    v = mc__rss_parse_line(ss, line, len - 1, 1, &ok);
    if (!ok)
        mc_fuzz_fail("an emitted line is not strict JSON", line, len);
    version = mc_refserver_version(ss->rs);
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
int mc__rss_sess_open(sess_t *ss, int fresh)
{
    mc_refserver_opts_t opts;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    if (!fresh && g_tmpl != NULL) {
        ss->rs = mc_refserver_clone(g_tmpl, on_emit, ss, &eb);
        /* The handshake's id 0 answered initialize. */
        ss->ids[0].key = mc__rss_id_key_text("0", 1);
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

void mc__rss_sess_close(sess_t *ss)
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
int mc__rss_feed(sess_t *ss, const char *line, size_t len, int64_t now)
{
    mc__rss_note_line(ss, line, len);
    return mc_refserver_handle(ss->rs, line, len, now);
}

/* Runs the timers that are due until none is left (at most 64 rounds). */
int mc__rss_run_timers(sess_t *ss, int64_t *now)
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
                   mc__rss_is_initialize(&ss, lines[i].p, lines[i].len);
    mc__rss_sess_open(&ss, own_init);
    for (i = 0; rc == MC_OK && i < n; i++) {
        now += 7;
        if (lines[i].len == 0)
            continue; /* the framer never hands empty lines to the server */
        rc = mc__rss_feed(&ss, lines[i].p, lines[i].len, now);
    }
    /* Let timed work finish: progress steps, deferred notifications. */
    if (rc == MC_OK)
        mc__rss_run_timers(&ss, &now);
    mc__rss_sess_close(&ss);
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
    g_tmpl = mc__rss_make_template();
    if (g_known == NULL)
        return 0;
    mc__rss_script_session(NULL, NULL);
    mc__rss_script_session("", NULL);
    for (v = 0; v < n_versions; v++)
        for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
            mc__rss_script_session(versions[v], caps[c]);
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
