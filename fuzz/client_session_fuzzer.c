/*
 * client_session_fuzzer.c - hostile server output against the harness's
 * client session, wire checks and schema validation.
 *
 * Input: the bytes a server writes to stdout. They are cut by the core framer
 * (a 16 KiB line cap, so oversize lines happen) into frames that an in-memory
 * link hands to mc_session_t while it runs a fixed client script: initialize
 * (2025-11-25, declaring roots, sampling and elicitation), then ping,
 * tools/list, resources/list, prompts/list, tools/call of the sampling,
 * elicitation, roots and logging tools, resources/read; then it drains
 * notifications until the output ends. The ids are 1, 2, 3, ... in that
 * order, so recorded refserver traffic for the same script (the seeds)
 * matches. Every frame, in both directions, goes through the session's
 * judge (the wire rules, and the schema of every inbound message), as in a
 * conformance run.
 *
 * Oracle: the sanitizers; every line the client sends is one line of valid
 * JSON-RPC that validates against the MCP schema (its answers to server
 * requests against the result of the request's method); the session's and
 * the wire checker's tables stay within their caps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/session.h"
#include "common.h"
#include "core/clock.h"
#include "core/frame.h"
#include "core/jsonrpc.h"
#include "core/version.h"
#include "judge/judge.h"

#define LINE_CAP (16u * 1024u)
#define MAX_FRAMES 512
#define MAX_SERVER_REQS 64

static mc_registry_t *g_reg; /* read-only after LLVMFuzzerInitialize */

typedef struct frame {
    mc_frame_kind_t kind;
    unsigned flags;
    char *data; /* owned copy, NULL for OVERSIZE */
    size_t len;
} frame_t;

typedef struct server_req {
    char key[96];
    char method[64];
} server_req_t;

typedef struct fake {
    frame_t frames[MAX_FRAMES];
    size_t n_frames, next;
    server_req_t reqs[MAX_SERVER_REQS];
    size_t n_reqs;
    mc_session_t *s;
    mc_judge_t *judge; /* the session's judge: the wire rules and the schemas */
} fake_t;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    g_reg = mc_fuzz_registry(argv != NULL && *argv != NULL ? (*argv)[0] : NULL);
    return 0;
}

static int on_frame(void *ctx, const mc_frame_t *f)
{
    fake_t *fk = ctx;
    frame_t *fr;

    if (fk->n_frames == MAX_FRAMES)
        return 0;
    fr = &fk->frames[fk->n_frames];
    fr->kind = f->kind;
    fr->flags = f->flags;
    fr->len = f->len;
    fr->data = NULL;
    if (f->data != NULL) {
        fr->data = malloc(f->len + 1);
        if (fr->data == NULL)
            return 0;
        memcpy(fr->data, f->data, f->len);
        fr->data[f->len] = '\0';
    }
    fk->n_frames++;
    return 0;
}

static const char *version_of(const mc_session_t *s)
{
    return s->negotiated_version[0] ? s->negotiated_version : s->requested_version;
}

/* Remembers a server->client request so the client's answer can be checked. */
static void note_server_request(fake_t *fk, const frame_t *fr)
{
    json_object *v, *m, *id;
    server_req_t *r;
    const char *txt;
    size_t n = 0;

    if (fk->n_reqs == MAX_SERVER_REQS || fr->kind != MC_FRAME_LINE || fr->data == NULL)
        return;
    /* A request has a member named "method": spelled out, or with an escape
     * in its name. Other lines need no parse. */
    if (!mc_fuzz_contains((const uint8_t *)fr->data, fr->len, "method") &&
        memchr(fr->data, '\\', fr->len) == NULL)
        return;
    v = mc_fuzz_parse(fr->data, fr->len);
    if (json_object_is_type(v, json_type_object) && json_object_object_get_ex(v, "method", &m) &&
        json_object_is_type(m, json_type_string) && json_object_object_get_ex(v, "id", &id) &&
        mc_jsonrpc_id_valid(id)) {
        r = &fk->reqs[fk->n_reqs];
        txt = mc_json_compact(id, &n);
        if (txt != NULL && n < sizeof(r->key) &&
            (size_t)json_object_get_string_len(m) < sizeof(r->method)) {
            memcpy(r->key, txt, n + 1);
            memcpy(r->method, json_object_get_string(m), (size_t)json_object_get_string_len(m) + 1);
            fk->n_reqs++;
        }
    }
    json_object_put(v);
}

/* The session's judge parses and judges the frame (hostile input: any
 * verdict is fine, only crashes count); it does so at the version the
 * session speaks by then. */
static void check_inbound(fake_t *fk, const frame_t *fr)
{
    (void)fr;
    if (fk->s != NULL)
        mc_judge_set_version(fk->judge, version_of(fk->s));
}

static int fake_recv(void *ctx, mc_record_t *out, int64_t deadline_ms)
{
    fake_t *fk = ctx;
    frame_t *fr;

    (void)deadline_ms;
    if (fk->next == fk->n_frames)
        return MC_EEOF;
    fr = &fk->frames[fk->next++];
    note_server_request(fk, fr);
    check_inbound(fk, fr);
    memset(out, 0, sizeof(*out));
    out->kind = fr->kind;
    out->flags = fr->flags;
    out->data = fr->data; /* ownership moves to the session */
    out->len = fr->len;
    out->at_ms = mc_now_ms();
    fr->data = NULL;
    return MC_OK;
}

static void fail_out(const char *what, const mc_schema_report_t *rep, const char *line,
                     size_t len)
{
    size_t i;

    for (i = 0; rep != NULL && i < rep->n_entries; i++)
        if (rep->entries[i].severity == MC_SCHEMA_ERROR)
            fprintf(stderr, "  %s [%s at %s]\n", rep->entries[i].message, rep->entries[i].keyword,
                    rep->entries[i].schema_path);
    mc_fuzz_fail(what, line, len);
}

static int fake_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    fake_t *fk = ctx;
    mc_schema_report_t rep;
    mc_errbuf_t eb;
    mc_msg_t m;
    const char *answered = NULL;
    size_t i;

    (void)deadline_ms;
    if (len == 0 || line[len - 1] != '\n' || memchr(line, '\n', len - 1) != NULL)
        mc_fuzz_fail("the client sent something that is not exactly one line", line, len);
    if (mc_msg_decode(line, len - 1, 0, &m) != MC_OK || m.kind == MC_MSG_INVALID) {
        fprintf(stderr, "classifier: %s\n", m.reason);
        mc_msg_free(&m);
        mc_fuzz_fail("the client sent an invalid JSON-RPC message", line, len);
    }
    if ((m.kind == MC_MSG_RESULT || m.kind == MC_MSG_ERROR) && m.id != NULL) {
        size_t n = 0;
        const char *key = mc_json_compact(m.id, &n);
        for (i = fk->n_reqs; key != NULL && i-- > 0;)
            if (strcmp(fk->reqs[i].key, key) == 0) {
                answered = fk->reqs[i].method;
                break;
            }
    }
    mc_schema_report_clear(&rep);
    mc_errbuf_clear(&eb);
    if (fk->s != NULL && mc_fuzz_registry_has(g_reg, version_of(fk->s)) &&
        mc_registry_validate_message(g_reg, version_of(fk->s), m.root, answered, &rep, &eb) ==
            MC_EINVALID) {
        mc_msg_free(&m);
        fail_out("the client sent a message that breaks the MCP schema", &rep, line, len);
    }
    mc_msg_free(&m);
    return MC_OK;
}

static json_object *tool_call(const char *name)
{
    json_object *p = json_object_new_object();

    json_object_object_add(p, "name", json_object_new_string(name));
    json_object_object_add(p, "arguments", json_object_new_object());
    return p;
}

static json_object *read_params(const char *uri)
{
    json_object *p = json_object_new_object();

    json_object_object_add(p, "uri", json_object_new_string(uri));
    return p;
}

static json_object *client_caps(void)
{
    json_object *caps = json_object_new_object(), *roots = json_object_new_object();

    json_object_object_add(roots, "listChanged", json_object_new_boolean(1));
    json_object_object_add(caps, "roots", roots);
    json_object_object_add(caps, "sampling", json_object_new_object());
    json_object_object_add(caps, "elicitation", json_object_new_object());
    return caps;
}

static void check_bounds(const fake_t *fk, const mc_session_t *s)
{
    if (s->n_events > MC_MAX_SESSION_EVENTS || s->n_pending > MC_MAX_PENDING_REQUESTS ||
        s->notes_count > MC_MAX_QUEUED_NOTIFICATIONS)
        mc_fuzz_fail("a session table grew past its cap", NULL, 0);
    if (fk->judge->w.n_findings > MC_WIRE_MAX_FINDINGS)
        mc_fuzz_fail("the wire checker's findings grew past their cap", NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const tools[] = {"test_sampling", "test_elicitation", "test_list_roots",
                                        "test_tool_with_logging"};
    fake_t *fk;
    mc_session_t *s;
    mc_framer_t fr;
    mc_link_t link;
    mc_session_opts_t so;
    mc_errbuf_t eb;
    json_object *caps;
    mc_msg_t resp;
    size_t i;
    int rc;

    if (size > MC_FUZZ_MAX_INPUT)
        return -1;
    if (g_reg == NULL)
        LLVMFuzzerInitialize(NULL, NULL);
    fk = calloc(1, sizeof(*fk));
    s = calloc(1, sizeof(*s));
    if (fk == NULL || s == NULL) {
        free(fk);
        free(s);
        return 0;
    }
    fk->judge = calloc(1, sizeof(*fk->judge));
    if (fk->judge == NULL || mc_judge_init(fk->judge, g_reg) != MC_OK) {
        free(fk->judge);
        free(fk);
        free(s);
        return 0;
    }
    mc_framer_init(&fr, LINE_CAP);
    (void)mc_framer_feed(&fr, (const char *)data, size, on_frame, fk, NULL);
    mc_framer_finish(&fr, on_frame, fk);
    mc_framer_free(&fr);

    link.ctx = fk;
    link.send = fake_send;
    link.recv = fake_recv;
    link.set_sink = NULL;
    memset(&so, 0, sizeof(so));
    so.judge = fk->judge;
    if (mc_session_init(s, link, &so) != MC_OK)
        goto out;
    fk->s = s;
    caps = client_caps();
    mc_errbuf_clear(&eb);
    rc = mc_session_initialize(s, mc_version_name(MC_V_2025_11_25), caps, 1000, &eb);
    json_object_put(caps);
    check_bounds(fk, s);
    if (rc == MC_OK) {
        static const char *const lists[] = {"ping", "tools/list", "resources/list",
                                            "prompts/list"};
        for (i = 0; rc != MC_EEOF && i < sizeof(lists) / sizeof(lists[0]); i++) {
            rc = mc_session_request(s, lists[i], NULL, 1000, &resp);
            if (rc == MC_OK)
                mc_msg_free(&resp);
        }
        for (i = 0; rc != MC_EEOF && i < sizeof(tools) / sizeof(tools[0]); i++) {
            rc = mc_session_request(s, "tools/call", tool_call(tools[i]), 1000, &resp);
            if (rc == MC_OK)
                mc_msg_free(&resp);
        }
        if (rc != MC_EEOF) {
            rc = mc_session_request(s, "resources/read", read_params("test://static-text"), 1000,
                                    &resp);
            if (rc == MC_OK)
                mc_msg_free(&resp);
        }
        check_bounds(fk, s);
    }
    (void)mc_session_poll(s, 0);
    while (mc_session_next_notification(s, 0, &resp) == MC_OK)
        mc_msg_free(&resp);
    check_bounds(fk, s);
    mc_session_free(s);
out:
    mc_judge_free(fk->judge);
    free(fk->judge);
    for (i = 0; i < fk->n_frames; i++)
        free(fk->frames[i].data);
    free(fk);
    free(s);
    return 0;
}
