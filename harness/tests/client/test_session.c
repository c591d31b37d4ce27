/*
 * Unit tests for the client session (client/session.h) over an in-memory
 * link: a scripted fake server sees each line the client sends and queues
 * the lines it answers with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "client/session.h"
#include "core/clock.h"

#define MAX_LINES 64

typedef struct fake fake_t;
/* Reacts to one line the client sent (parsed), by queuing answers. */
typedef void (*script_fn)(fake_t *f, json_object *sent);

struct fake {
    char *inbound[MAX_LINES]; /* lines the "server" will deliver */
    int in_head, in_count;
    char *sent[MAX_LINES];    /* lines the client sent */
    int n_sent;
    script_fn script;
    const char *version;      /* version the fake answers initialize with (NULL = echo) */
    int eof_when_empty;
    unsigned next_flags;      /* flags of the next frame delivered, then cleared */
    const char *next_answers; /* its answers field (HTTP refusals), then cleared */
};

static void push(fake_t *f, const char *line)
{
    assert_true(f->in_head + f->in_count < MAX_LINES);
    f->inbound[f->in_head + f->in_count++] = strdup(line);
}

static int64_t sent_id(json_object *sent)
{
    json_object *id;
    return json_object_object_get_ex(sent, "id", &id) ? json_object_get_int64(id) : -1;
}

static const char *sent_method(json_object *sent)
{
    json_object *m;
    return json_object_object_get_ex(sent, "method", &m) ? json_object_get_string(m) : "";
}

static void answer_result(fake_t *f, json_object *sent, const char *result_json)
{
    char buf[1024];
    snprintf(buf, sizeof(buf), "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":%s}",
             (long long)sent_id(sent), result_json);
    push(f, buf);
}

/* A well-behaved server: answers initialize and ping. */
static void script_good(fake_t *f, json_object *sent)
{
    const char *m = sent_method(sent);

    if (strcmp(m, "initialize") == 0) {
        char res[512];
        json_object *p, *v;
        const char *ver = f->version;
        if (ver == NULL && json_object_object_get_ex(sent, "params", &p) &&
            json_object_object_get_ex(p, "protocolVersion", &v))
            ver = json_object_get_string(v);
        snprintf(res, sizeof(res),
                 "{\"protocolVersion\":\"%s\",\"capabilities\":{\"logging\":{}},"
                 "\"serverInfo\":{\"name\":\"fake\",\"version\":\"9.9\"}}",
                 ver);
        answer_result(f, sent, res);
    } else if (strcmp(m, "ping") == 0) {
        answer_result(f, sent, "{}");
    }
}

static int fake_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    fake_t *f = ctx;
    json_object *v;

    (void)deadline_ms;
    assert_true(f->n_sent < MAX_LINES);
    assert_int_equal(line[len - 1], '\n');
    f->sent[f->n_sent++] = strndup(line, len - 1);
    v = json_tokener_parse(f->sent[f->n_sent - 1]);
    if (v != NULL && f->script != NULL)
        f->script(f, v);
    json_object_put(v);
    return MC_OK;
}

static int fake_recv(void *ctx, mc_record_t *fr, int64_t deadline_ms)
{
    fake_t *f = ctx;
    char *line;

    (void)deadline_ms;
    if (f->in_count == 0)
        return f->eof_when_empty ? MC_EEOF : MC_ETIMEOUT;
    line = f->inbound[f->in_head];
    f->inbound[f->in_head] = NULL;
    f->in_head++;
    f->in_count--;
    memset(fr, 0, sizeof(*fr));
    fr->kind = line[0] ? MC_FRAME_LINE : MC_FRAME_EMPTY;
    fr->data = line;
    fr->len = strlen(line);
    fr->at_ms = mc_now_ms();
    fr->flags = f->next_flags;
    if (f->next_answers != NULL)
        snprintf(fr->facts.answers, sizeof(fr->facts.answers), "%s", f->next_answers);
    f->next_flags = 0;
    f->next_answers = NULL;
    return MC_OK;
}

static void fake_free(fake_t *f)
{
    for (int i = 0; i < MAX_LINES; i++) {
        free(f->inbound[i]);
        free(f->sent[i]);
    }
}

static void start(fake_t *f, mc_session_t *s, script_fn script)
{
    mc_link_t l = {f, fake_send, fake_recv, NULL};

    memset(f, 0, sizeof(*f));
    f->script = script;
    assert_int_equal(mc_session_init(s, l, NULL), MC_OK);
}

/* How many findings the session's judge recorded against check. */
static int count_findings(const mc_session_t *s, const char *check)
{
    int n = 0;
    for (size_t i = 0; i < s->judge->w.n_findings; i++)
        n += strcmp(s->judge->w.findings[i].check, check) == 0;
    return n;
}

static int count_events(const mc_session_t *s, mc_event_kind_t kind)
{
    int n = 0;
    for (size_t i = 0; i < s->n_events; i++)
        n += s->events[i].kind == kind;
    return n;
}

static void test_initialize_and_ping(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_errbuf_t eb;
    mc_msg_t r;

    (void)state;
    start(&f, &s, script_good);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 1000, &eb), MC_OK);
    assert_string_equal(s.negotiated_version, "2025-06-18");
    assert_false(s.counter_offer);
    assert_string_equal(s.server_name, "fake");
    assert_string_equal(s.server_version, "9.9");
    assert_non_null(s.server_caps);
    /* initialize, then notifications/initialized */
    assert_int_equal(f.n_sent, 2);
    assert_non_null(strstr(f.sent[0], "\"clientInfo\":{\"name\":\"mcpcheck\""));
    assert_non_null(strstr(f.sent[0], "\"id\":1"));
    assert_string_equal(f.sent[1], "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assert_int_equal(mc_session_request(&s, "ping", NULL, 1000, &r), MC_OK);
    assert_int_equal(r.kind, MC_MSG_RESULT);
    assert_int_equal(json_object_get_int64(r.id), 2);
    mc_msg_free(&r);
    assert_int_equal(s.n_events, 0);
    assert_int_equal(s.n_pending, 0);
    mc_session_free(&s);
    fake_free(&f);
}

static void test_counter_offer_known_and_unknown(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_errbuf_t eb;

    (void)state;
    start(&f, &s, script_good);
    f.version = "2025-03-26";
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-11-25", NULL, 1000, &eb), MC_OK);
    assert_true(s.counter_offer);
    assert_string_equal(s.negotiated_version, "2025-03-26");
    mc_session_free(&s);
    fake_free(&f);

    start(&f, &s, script_good);
    f.version = "1999-01-01";
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 1000, &eb), MC_EPROTO);
    assert_true(s.unsupported_version);
    assert_non_null(strstr(eb.msg, "1999-01-01"));
    assert_int_equal(f.n_sent, 1); /* no notifications/initialized */
    mc_session_free(&s);
    fake_free(&f);

    /* A version of the stateless protocol cannot come of an initialize:
     * a session at it would send requests without their _meta. */
    start(&f, &s, script_good);
    f.version = "2026-07-28";
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-11-25", NULL, 1000, &eb), MC_EPROTO);
    assert_true(s.unsupported_version);
    assert_non_null(strstr(eb.msg, "no initialize handshake"));
    assert_int_equal(f.n_sent, 1);
    mc_session_free(&s);
    fake_free(&f);
}

static void script_error_init(fake_t *f, json_object *sent)
{
    char buf[256];
    snprintf(buf, sizeof(buf),
             "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"error\":{\"code\":-32602,\"message\":\"Unsupported "
             "protocol version\"}}",
             (long long)sent_id(sent));
    push(f, buf);
}

static void test_initialize_error_and_silence(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_errbuf_t eb;

    (void)state;
    start(&f, &s, script_error_init);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 1000, &eb), MC_EPROTO);
    assert_non_null(strstr(eb.msg, "-32602"));
    mc_session_free(&s);
    fake_free(&f);

    start(&f, &s, NULL);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 10, &eb), MC_ETIMEOUT);
    mc_session_free(&s);
    fake_free(&f);

    start(&f, &s, NULL);
    f.eof_when_empty = 1;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 10, &eb), MC_EEOF);
    assert_true(s.eof);
    mc_session_free(&s);
    fake_free(&f);
}

/* Answers initialize with a line carrying its id that is no JSON text
 * (invalid UTF-8, then, on the next session, nesting past the limit). */
static void script_unreadable_init(fake_t *f, json_object *sent)
{
    char buf[512];
    int n;

    if (strcmp(sent_method(sent), "initialize") != 0)
        return;
    if (f->version != NULL && strcmp(f->version, "deep") == 0) {
        n = snprintf(buf, sizeof(buf), "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":",
                     (long long)sent_id(sent));
        for (int i = 0; i < 100 && n < (int)sizeof(buf) - 2; i++)
            buf[n++] = '[';
        buf[n] = '\0';
    } else {
        snprintf(buf, sizeof(buf),
                 "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":{\"protocolVersion\":\"\xff\xfe\"}}",
                 (long long)sent_id(sent));
    }
    push(f, buf);
}

/* An answer to initialize that cannot be read ends the wait at once, with
 * why; the budget given is long enough that a wait left running would
 * time out instead. */
static void test_unreadable_answer_ends_handshake(void **state)
{
    static const char *kinds[] = {"utf8", "deep"};
    static const char *whys[] = {"invalid UTF-8", "nesting"};
    fake_t f;
    mc_session_t s;
    mc_errbuf_t eb;

    (void)state;
    for (int k = 0; k < 2; k++) {
        start(&f, &s, script_unreadable_init);
        f.version = kinds[k];
        mc_errbuf_clear(&eb);
        assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 2000, &eb), MC_EPARSE);
        assert_non_null(strstr(eb.msg, "answered initialize with a line that cannot be read"));
        assert_non_null(strstr(eb.msg, whys[k]));
        mc_session_free(&s);
        fake_free(&f);
    }
}

/* Writes a log notification (a message) or a plain-text banner before
 * anything else, and never answers. */
static void script_speaks_no_answer(fake_t *f, json_object *sent)
{
    if (strcmp(sent_method(sent), "initialize") != 0)
        return;
    if (f->version != NULL && strcmp(f->version, "banner") == 0)
        push(f, "Starting demo server...");
    else
        push(f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                "\"params\":{\"level\":\"info\",\"data\":\"up\"}}");
}

/* Once the server has written a message, the start-up budget is over: the
 * answer gets opts.answer_timeout_ms. A plain-text line does not end it (a
 * banner may come before a slow start). */
static void test_answer_timeout_after_first_message(void **state)
{
    mc_session_opts_t o;
    fake_t f;
    mc_session_t s;
    mc_link_t l = {&f, fake_send, fake_recv, NULL};
    mc_errbuf_t eb;

    (void)state;
    memset(&o, 0, sizeof(o));
    o.answer_timeout_ms = 1;
    memset(&f, 0, sizeof(f));
    f.script = script_speaks_no_answer;
    assert_int_equal(mc_session_init(&s, l, &o), MC_OK);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 60000, &eb), MC_ETIMEOUT);
    assert_string_equal(eb.msg, "no answer to initialize within 1 ms of the server's first message");
    assert_int_equal(s.handshake_after_ms, 1);
    mc_session_free(&s);
    fake_free(&f);

    memset(&f, 0, sizeof(f));
    f.script = script_speaks_no_answer;
    f.version = "banner";
    assert_int_equal(mc_session_init(&s, l, &o), MC_OK);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 50, &eb), MC_ETIMEOUT);
    assert_string_equal(eb.msg, "no answer to initialize within 50 ms");
    assert_int_equal(s.handshake_after_ms, 0);
    assert_int_equal(count_findings(&s, "wire/stdout-only-messages"), 1);
    mc_session_free(&s);
    fake_free(&f);
}

/* Answers requests out of order and sprinkles anomalies between them. */
static void test_out_of_order_and_anomalies(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_msg_t r, n;
    int64_t a, b;

    (void)state;
    start(&f, &s, NULL);
    assert_int_equal(mc_session_send_request(&s, "tools/list", NULL, &a, 100), MC_OK);
    assert_int_equal(mc_session_send_request(&s, "prompts/list", NULL, &b, 100), MC_OK);
    assert_int_equal(s.n_pending, 2);
    push(&f, "Server ready!");                                            /* garbage */
    push(&f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}");
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}");           /* unsolicited */
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}");        /* id type */
    push(&f, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}]");          /* batch */
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"b\":1}}");
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":1}}");
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"again\":1}}"); /* duplicate */
    push(&f, "");                                                         /* empty line */
    push(&f, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
    push(&f, "{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"x\"}");         /* invalid */

    assert_int_equal(mc_session_await(&s, a, 100, &r), MC_OK);
    assert_int_equal(json_object_get_int64(r.id), 1);
    assert_non_null(json_object_object_get(r.result, "a"));
    mc_msg_free(&r);
    assert_int_equal(mc_session_await(&s, b, 100, &r), MC_OK);
    assert_non_null(json_object_object_get(r.result, "b"));
    mc_msg_free(&r);
    assert_int_equal(mc_session_poll(&s, 10), MC_OK);

    assert_int_equal(count_findings(&s, "wire/stdout-only-messages"), 1);
    /* The unsolicited id and the id of another type. */
    assert_int_equal(count_findings(&s, "wire/response-id"), 2);
    assert_int_equal(count_findings(&s, "wire/no-batch"), 1);
    assert_int_equal(count_findings(&s, "wire/single-response"), 1);
    assert_int_equal(count_findings(&s, "wire/newline-delimited"), 1);
    assert_int_equal(count_findings(&s, "wire/null-id-only-for-unreadable-requests"), 1);
    assert_int_equal(count_findings(&s, "wire/jsonrpc-envelope"), 1);
    /* Lines are numbered in both directions: two requests went out first. */
    assert_string_equal(s.judge->w.findings[0].check, "wire/stdout-only-messages");
    assert_int_equal(s.judge->w.findings[0].seq, 3);
    assert_string_equal(mc_event_kind_name(MC_EV_FLOOD), "flood");

    assert_int_equal(mc_session_next_notification(&s, 10, &n), MC_OK);
    assert_string_equal(n.method, "notifications/message");
    mc_msg_free(&n);
    assert_int_equal(mc_session_next_notification(&s, 10, &n), MC_ETIMEOUT);
    mc_session_free(&s);
    fake_free(&f);
}

static void test_timeout_then_late_answer(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_msg_t r;
    int64_t a;

    (void)state;
    start(&f, &s, NULL);
    assert_int_equal(mc_session_send_request(&s, "resources/list", NULL, &a, 100), MC_OK);
    assert_int_equal(mc_session_await(&s, a, 5, &r), MC_ETIMEOUT);
    assert_int_equal(s.n_pending, 0);
    assert_int_equal(mc_session_await(&s, a, 5, &r), MC_ENOTFOUND);
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    /* A late answer to an abandoned request breaks no rule: it is dropped. */
    assert_int_equal(count_findings(&s, "wire/single-response"), 0);
    assert_int_equal(s.judge->w.n_findings, 0);
    assert_int_equal(s.n_pending, 0);
    mc_session_free(&s);
    fake_free(&f);
}

/* Over HTTP, an error without an id in the body of an HTTP error status
 * answers the request its POST carried (the transport names it); the same
 * error in any other frame answers nothing. */
static void test_http_refusal_answers_request(void **state)
{
    static const char *err = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                             "\"message\":\"Bad Request\"}}";
    fake_t f;
    mc_session_t s;
    mc_msg_t r;
    int64_t a;
    json_object *want = json_object_new_string("raw-1");

    (void)state;
    start(&f, &s, NULL);
    assert_int_equal(mc_session_send_request(&s, "tools/list", NULL, &a, 100), MC_OK);
    push(&f, err);
    assert_int_equal(mc_session_await(&s, a, 20, &r), MC_ETIMEOUT);
    assert_int_equal(count_findings(&s, "wire/null-id-only-for-unreadable-requests"), 1);

    assert_int_equal(mc_session_send_request(&s, "tools/list", NULL, &a, 100), MC_OK);
    push(&f, err);
    f.next_flags = MC_FRAME_F_REFUSAL;
    f.next_answers = "2";
    assert_int_equal(mc_session_await(&s, a, 1000, &r), MC_OK);
    assert_int_equal(r.kind, MC_MSG_ERROR);
    assert_int_equal(r.error_code, -32000);
    mc_msg_free(&r);

    push(&f, err);
    f.next_flags = MC_FRAME_F_REFUSAL;
    f.next_answers = "\"raw-1\"";
    {
        static const char *raw = "{\"id\":\"raw-1\",\"method\":\"ping\"}";
        assert_int_equal(mc_session_raw_request(&s, raw, strlen(raw), want, 1000, &r), MC_OK);
    }
    assert_int_equal(r.kind, MC_MSG_ERROR);
    mc_msg_free(&r);
    json_object_put(want);
    mc_session_free(&s);
    fake_free(&f);
}

static void test_response_after_notification(void **state)
{
    fake_t f;
    mc_session_t s;

    (void)state;
    start(&f, &s, NULL);
    assert_int_equal(mc_session_notify(&s, "notifications/cancelled", NULL, 100), MC_OK);
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(count_findings(&s, "wire/no-response-to-notification"), 1);
    assert_non_null(strstr(s.judge->w.findings[0].detail, "notification"));
    mc_session_free(&s);
    fake_free(&f);
}

static void test_server_requests(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_errbuf_t eb;
    json_object *caps = json_object_new_object();

    (void)state;
    start(&f, &s, script_good);
    json_object_object_add(caps, "roots", json_object_new_object());
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", caps, 1000, &eb), MC_OK);
    json_object_put(caps);
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}");
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"method\":\"roots/list\"}");
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":\"s3\",\"method\":\"elicitation/create\",\"params\":{}}");
    push(&f, "{\"jsonrpc\":\"2.0\",\"id\":\"s4\",\"method\":\"weird/thing\"}");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(f.n_sent, 6);
    assert_string_equal(f.sent[2], "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}");
    assert_string_equal(f.sent[3], "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"result\":{\"roots\":[]}}");
    assert_non_null(strstr(f.sent[4], "\"id\":\"s3\",\"error\":{\"code\":-32601"));
    assert_non_null(strstr(f.sent[5], "\"id\":\"s4\",\"error\":{\"code\":-32601"));
    assert_int_equal(count_findings(&s, "wire/negotiated-capabilities"), 1);
    assert_int_equal(count_events(&s, MC_EV_UNKNOWN_SERVER_REQUEST), 1);
    assert_true(mc_session_client_declares(&s, "roots"));
    assert_false(mc_session_client_declares(&s, "sampling"));
    mc_session_free(&s);
    fake_free(&f);
}

static void test_pending_table_is_bounded(void **state)
{
    fake_t f;
    mc_session_t s;
    int64_t id;
    int i, rc = MC_OK;

    (void)state;
    start(&f, &s, NULL);
    /* The fake keeps at most MAX_LINES sent lines; make sending free. */
    for (i = 0; i < MC_MAX_PENDING_REQUESTS + 1; i++) {
        if (f.n_sent == MAX_LINES) {
            for (int k = 0; k < MAX_LINES; k++) {
                free(f.sent[k]);
                f.sent[k] = NULL;
            }
            f.n_sent = 0;
        }
        rc = mc_session_send_request(&s, "ping", NULL, &id, 10);
        if (rc != MC_OK)
            break;
    }
    assert_int_equal(rc, MC_EFULL);
    assert_int_equal(i, MC_MAX_PENDING_REQUESTS);
    mc_session_free(&s);
    fake_free(&f);
}

static void test_known_versions(void **state)
{
    (void)state;
    assert_true(mc_protocol_version_known("2024-11-05"));
    assert_true(mc_protocol_version_known("2025-11-25"));
    assert_true(mc_protocol_version_known("2026-07-28"));
    assert_false(mc_protocol_version_known("2025-11-26"));
    assert_false(mc_protocol_version_known(NULL));
}

/* --- the stateless protocol (2026-07-28) ------------------------------------ */

/* _meta[key] of a sent request, as a string ("" when absent). */
static const char *sent_meta(json_object *sent, const char *key)
{
    json_object *p, *m, *v;

    if (!json_object_object_get_ex(sent, "params", &p) ||
        !json_object_object_get_ex(p, "_meta", &m) || !json_object_object_get_ex(m, key, &v))
        return "";
    return json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                    : json_object_to_json_string(v);
}

/* A stateless server: discover, and a tool that asks for elicitation until
 * the retry carries the answer and the state it handed out. */
static void script_stateless(fake_t *f, json_object *sent)
{
    const char *m = sent_method(sent);
    json_object *p = NULL, *resp, *st;

    json_object_object_get_ex(sent, "params", &p);
    if (strcmp(sent_meta(sent, "io.modelcontextprotocol/protocolVersion"), "2026-07-28") != 0) {
        char buf[256];
        snprintf(buf, sizeof(buf),
                 "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"error\":{\"code\":-32602,\"message\":\"meta\"}}",
                 (long long)sent_id(sent));
        push(f, buf);
    } else if (strcmp(m, "server/discover") == 0) {
        answer_result(f, sent,
                      "{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],"
                      "\"capabilities\":{\"tools\":{}},\"ttlMs\":1,\"cacheScope\":\"public\","
                      "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"fake\","
                      "\"version\":\"2\"}}}");
    } else if (strcmp(m, "tools/call") == 0) {
        if (json_object_object_get_ex(p, "inputResponses", &resp) &&
            json_object_object_get_ex(p, "requestState", &st) &&
            strcmp(json_object_get_string(st), "opaque-1") == 0)
            answer_result(f, sent, "{\"resultType\":\"complete\",\"content\":[]}");
        else
            answer_result(f, sent,
                          "{\"resultType\":\"input_required\",\"requestState\":\"opaque-1\","
                          "\"inputRequests\":{\"q\":{\"method\":\"elicitation/create\","
                          "\"params\":{\"message\":\"m\",\"requestedSchema\":{\"type\":"
                          "\"object\",\"properties\":{}}}}}}");
    }
}

static void test_stateless_session(void **state)
{
    fake_t f;
    mc_session_t s;
    mc_errbuf_t eb;
    mc_msg_t resp;
    json_object *caps = json_tokener_parse("{\"elicitation\":{}}"), *sent;

    (void)state;
    start(&f, &s, script_stateless);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2026-07-28", caps, 1000, &eb), MC_OK);
    assert_true(s.stateless);
    assert_string_equal(s.negotiated_version, "2026-07-28");
    assert_string_equal(s.server_name, "fake");
    assert_non_null(s.server_caps);
    /* No initialize: the first line is server/discover, with the _meta. */
    sent = json_tokener_parse(f.sent[0]);
    assert_string_equal(sent_method(sent), "server/discover");
    assert_string_equal(sent_meta(sent, "io.modelcontextprotocol/clientCapabilities"),
                        "{ \"elicitation\": { } }");
    json_object_put(sent);

    /* input_required is answered by the responder (decline) and retried
     * with the state echoed and a new id. */
    assert_int_equal(mc_session_request(&s, "tools/call",
                                        json_tokener_parse("{\"name\":\"t\"}"), 1000, &resp),
                     MC_OK);
    assert_int_equal(resp.kind, MC_MSG_RESULT);
    assert_false(mc_session_input_required(&resp));
    mc_msg_free(&resp);
    assert_int_equal(f.n_sent, 3);
    sent = json_tokener_parse(f.sent[2]);
    assert_non_null(strstr(f.sent[2], "\"inputResponses\":{\"q\":{\"action\":\"decline\"}}"));
    assert_non_null(strstr(f.sent[2], "\"requestState\":\"opaque-1\""));
    assert_true(sent_id(sent) != 2);
    json_object_put(sent);

    /* input_retry_off hands the interim result over as it is. */
    s.input_retry_off = 1;
    assert_int_equal(mc_session_request(&s, "tools/call",
                                        json_tokener_parse("{\"name\":\"t\"}"), 1000, &resp),
                     MC_OK);
    assert_true(mc_session_input_required(&resp));
    mc_msg_free(&resp);
    /* A version already in _meta is kept. */
    assert_int_equal(mc_session_request(&s, "tools/list",
                                        json_tokener_parse("{\"_meta\":{\"io.modelcontextprotocol/"
                                                           "protocolVersion\":\"1900-01-01\"}}"),
                                        1000, &resp),
                     MC_OK);
    assert_int_equal(resp.kind, MC_MSG_ERROR);
    mc_msg_free(&resp);
    json_object_put(caps);
    mc_session_free(&s);
    fake_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initialize_and_ping),
        cmocka_unit_test(test_counter_offer_known_and_unknown),
        cmocka_unit_test(test_initialize_error_and_silence),
        cmocka_unit_test(test_out_of_order_and_anomalies),
        cmocka_unit_test(test_timeout_then_late_answer),
        cmocka_unit_test(test_response_after_notification),
        cmocka_unit_test(test_server_requests),
        cmocka_unit_test(test_pending_table_is_bounded),
        cmocka_unit_test(test_known_versions),
        cmocka_unit_test(test_stateless_session),
        cmocka_unit_test(test_http_refusal_answers_request),
        cmocka_unit_test(test_unreadable_answer_ends_handshake),
        cmocka_unit_test(test_answer_timeout_after_first_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
