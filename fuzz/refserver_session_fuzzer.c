/*
 * refserver_session_fuzzer.c - a whole client session against the reference
 * server, in memory, with the MCP schemas as the oracle.
 *
 * Input: newline-delimited client messages. When no line is an initialize
 * request, an initialize (protocol 2025-11-25, declaring roots, sampling and
 * form + URL elicitation so every server->client path is reachable) and
 * notifications/initialized are fed first. Each line goes to
 * mc_refserver_handle() on a virtual clock; afterwards due timers are run.
 *
 * Oracle (abort() on a violation, besides the sanitizers):
 *  - every emitted line is exactly one line of strict JSON;
 *  - it validates against the MCP schema of the negotiated version
 *    (versions without a bundled schema get the JSON-RPC envelope check);
 *    a response is validated against the result definition of the method of
 *    the request it answers (this target keeps an id -> method map of what
 *    it fed; with duplicate ids any of the candidate methods may match);
 *  - a success response answers an id that was fed as a request.
 * Documented leniency: error responses with "id": null (parse errors and
 * invalid requests, refserver/server.c answer_invalid) are checked with the
 * id removed, since the 2025-06-18 schema requires an id no server can give.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/jsonrpc.h"
#include "refserver/internal.h"
#include "refserver/refserver.h"

#define MAX_IDS (MC_FUZZ_MAX_LINES + 2)

static const char init_line[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
    "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":{\"listChanged\":true},"
    "\"sampling\":{},\"elicitation\":{\"form\":{},\"url\":{}}},"
    "\"clientInfo\":{\"name\":\"mcpcheck-fuzz\",\"version\":\"1.0\"}}}";
static const char initialized_line[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

/* Read-only after LLVMFuzzerInitialize. */
static mc_registry_t *g_reg;

typedef struct fed_id {
    uint64_t key; /* hash of the id's compact JSON */
    char method[64];
} fed_id_t;

typedef struct sess {
    mc_refserver_t *rs;
    json_tokener *tok; /* one tokener per input, reset between lines */
    int quiet;         /* feeding the fixed handshake: checked once, at start-up */
    fed_id_t ids[MAX_IDS];
    size_t n_ids;
} sess_t;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_session(const uint8_t *data, size_t size, int check_handshake);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    g_reg = mc_fuzz_registry(argv != NULL && *argv != NULL ? (*argv)[0] : NULL);
    /* The fixed handshake, checked once with the full oracle. */
    run_session((const uint8_t *)"", 0, 1);
    return 0;
}

/*
 * Parses line[0..len) with the session's tokener: strict JSON with UTF-8
 * validation when strict is set (the server's output), lenient otherwise
 * (our own bookkeeping of the input). Returns a new reference or NULL.
 */
static json_object *parse_line(sess_t *ss, const char *line, size_t len, int strict, int *ok)
{
    json_object *v;
    size_t end;

    *ok = 0;
    json_tokener_reset(ss->tok);
    json_tokener_set_flags(ss->tok, strict ? JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8 : 0);
    v = json_tokener_parse_ex(ss->tok, line, (int)len);
    if (v == NULL && json_tokener_get_error(ss->tok) == json_tokener_continue)
        v = json_tokener_parse_ex(ss->tok, " ", 1);
    if (json_tokener_get_error(ss->tok) != json_tokener_success) {
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

/* A 64-bit FNV-1a hash of an id's compact JSON text. */
static uint64_t id_key_text(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    size_t i;

    for (i = 0; s != NULL && i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The key of an id ("null" for JSON null). */
static uint64_t id_key(json_object *id)
{
    size_t n = 4;
    const char *s = id == NULL ? "null" : mc_json_compact(id, &n);

    return id_key_text(s, n);
}

/* Remembers the id -> method of a request line we feed. */
static void note_request(sess_t *ss, json_object *msg)
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

/* Checks one message object (not a batch) against the negotiated version. */
static void check_message(sess_t *ss, const char *version, int has_schema, json_object *msg,
                          const char *line, size_t len)
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
    if (!has_schema)
        return;

    has_id = json_object_object_get_ex(msg, "id", &id);
    if (has_id && id == NULL && json_object_object_get_ex(msg, "error", NULL)) {
        if (json_object_deep_copy(msg, &copy, NULL) != 0)
            return;
        json_object_object_del(copy, "id");
        /* 2025-06-18 requires an id: stand in a valid one for the envelope. */
        if (strcmp(version, "2025-06-18") == 0)
            json_object_object_add(copy, "id", json_object_new_int(0));
        target = copy;
    }
    if (!is_response || n_cand == 0) {
        mc_schema_report_clear(&rep);
        mc_errbuf_clear(&eb);
        if (mc_registry_validate_message(g_reg, version, target, NULL, &rep, &eb) == MC_EINVALID)
            fail_report("message", version, NULL, &rep, line, len);
        json_object_put(copy);
        return;
    }
    for (i = 0; i < n_cand; i++) {
        mc_schema_report_clear(&rep);
        mc_errbuf_clear(&eb);
        if (mc_registry_validate_message(g_reg, version, target, cand[i], &rep, &eb) !=
            MC_EINVALID) {
            json_object_put(copy);
            return;
        }
    }
    fail_report("response", version, cand[0], &rep, line, len);
}

/* The server's emit callback: one line per call. */
static void on_emit(void *ctx, const char *line, size_t len)
{
    sess_t *ss = ctx;
    const char *version;
    json_object *v;
    int has_schema, ok;

    if (ss->quiet)
        return;
    if (len == 0 || line[len - 1] != '\n')
        mc_fuzz_fail("an emitted line does not end in a newline", line, len);
    if (memchr(line, '\n', len - 1) != NULL)
        mc_fuzz_fail("an emitted line holds an embedded newline", line, len);
    /* json-c in strict mode with UTF-8 validation; the exact RFC 8259 check
     * of the server's encoder is left out here for speed (the server
     * serializes with json-c, and jsonrpc_decode_fuzzer holds the two
     * parsers against each other). */
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
            check_message(ss, version, has_schema, json_object_array_get_idx(v, i), line, len);
    } else {
        check_message(ss, version, has_schema, v, line, len);
    }
    json_object_put(v);
}

/* True when some line is a request with method "initialize". */
static int has_initialize(const uint8_t *data, size_t size)
{
    const char *line;
    size_t len;
    int found = 0;

    /* Cheap filter first: most inputs either contain the word or do not. */
    if (size < 12 || !mc_fuzz_contains(data, size, "initialize\""))
        return 0;
    while (!found && mc_fuzz_next_line(&data, &size, &line, &len)) {
        json_object *v = mc_fuzz_parse(line, len), *m;
        found = json_object_is_type(v, json_type_object) &&
                json_object_object_get_ex(v, "method", &m) &&
                json_object_is_type(m, json_type_string) &&
                strcmp(json_object_get_string(m), "initialize") == 0;
        json_object_put(v);
    }
    return found;
}

/* Feeds one line to the server and notes it if it is a request. */
static int feed(sess_t *ss, const char *line, size_t len, int64_t now)
{
    int ok;
    json_object *v = parse_line(ss, line, len, 0, &ok);

    if (json_object_is_type(v, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            note_request(ss, json_object_array_get_idx(v, i));
    } else if (v != NULL) {
        note_request(ss, v);
    }
    json_object_put(v);
    return mc_refserver_handle(ss->rs, line, len, now);
}

/*
 * Runs one session. The fixed handshake's output is the same for every
 * input, so it is checked once (check_handshake, from LLVMFuzzerInitialize)
 * and not again per input.
 */
static void run_session(const uint8_t *data, size_t size, int check_handshake)
{
    mc_refserver_opts_t opts;
    sess_t *ss;
    mc_errbuf_t eb;
    const char *line;
    size_t len;
    int64_t now = 1000000;
    int lines = 0, rc = MC_OK, i;

    ss = calloc(1, sizeof(*ss));
    if (ss == NULL)
        return;
    ss->tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH + 1);
    if (ss->tok == NULL) {
        free(ss);
        return;
    }
    memset(&opts, 0, sizeof(opts));
    opts.step_delay_ms = -1; /* every tool step at once: no waiting in a fuzzer */
    mc_errbuf_clear(&eb);
    ss->rs = mc_refserver_new(&opts, on_emit, ss, &eb);
    if (ss->rs == NULL) {
        fprintf(stderr, "mc_refserver_new: %s\n", eb.msg);
        abort();
    }
    if (!has_initialize(data, size)) {
        /* The handshake's id 0 answers initialize; no need to parse it. */
        ss->ids[0].key = id_key_text("0", 1);
        memcpy(ss->ids[0].method, "initialize", sizeof("initialize"));
        ss->n_ids = 1;
        ss->quiet = !check_handshake;
        rc = mc_refserver_handle(ss->rs, init_line, sizeof(init_line) - 1, now);
        if (rc == MC_OK)
            rc = mc_refserver_handle(ss->rs, initialized_line, sizeof(initialized_line) - 1,
                                     now);
        ss->quiet = 0;
    }
    while (rc == MC_OK && lines < MC_FUZZ_MAX_LINES &&
           mc_fuzz_next_line(&data, &size, &line, &len)) {
        now += 7;
        lines++;
        if (len == 0 || (len == 1 && line[0] == '\r'))
            continue; /* the framer never hands empty lines to the server */
        if (len > 0 && line[len - 1] == '\r')
            len--;
        rc = feed(ss, line, len, now);
    }
    /* Let timed work finish: progress steps, deferred notifications. */
    for (i = 0; rc == MC_OK && i < 64; i++) {
        int64_t due = mc_refserver_next_deadline(ss->rs);
        if (due < 0)
            break;
        if (due > now)
            now = due;
        rc = mc_refserver_tick(ss->rs, now);
    }
    mc_refserver_free(ss->rs);
    json_tokener_free(ss->tok);
    free(ss);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MC_FUZZ_MAX_INPUT)
        return -1;
    if (g_reg == NULL)
        LLVMFuzzerInitialize(NULL, NULL);
    run_session(data, size, 0);
    return 0;
}
