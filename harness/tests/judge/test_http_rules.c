/* Unit tests for the judge's HTTP rules (judge/http_rules.c, http_related.c,
 * http_events.c, http_legacy.c): records as the transport hands them to its
 * sink go in, the findings of the judge's table and what it tells the
 * transport back come out. No transport, no socket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/version.h"
#include "judge/judge.h"

/* Failures of check in j's table. */
static int fails(const mc_judge_t *j, const char *check)
{
    size_t i;
    int n = 0;

    for (i = 0; i < j->w.n_findings; i++)
        if (strcmp(j->w.findings[i].check, check) == 0)
            n++;
    return n;
}

/* The first failure of check, or NULL. */
static const mc_wire_finding_t *failure(const mc_judge_t *j, const char *check)
{
    size_t i;

    for (i = 0; i < j->w.n_findings; i++)
        if (strcmp(j->w.findings[i].check, check) == 0)
            return &j->w.findings[i];
    return NULL;
}

/* Times check was evaluated. */
static uint64_t evals(const mc_judge_t *j, const char *check)
{
    size_t i;

    for (i = 0; i < j->w.n_checks; i++)
        if (strcmp(j->w.check_ids[i], check) == 0)
            return j->w.check_evals[i];
    return 0;
}

/* A record of what on stream kind#num, with st. */
static mc_record_t rec(mc_record_what_t what, mc_stream_kind_t kind, unsigned num,
                       mc_record_stream_t *st)
{
    mc_record_t r;

    memset(&r, 0, sizeof(r));
    r.what = what;
    r.facts.stream = kind;
    r.facts.num = num;
    r.facts.st = st;
    return r;
}

/* Starts POST#num carrying the request of compact id id (NULL: a
 * notification), method and token. */
static void start_post(mc_judge_t *j, unsigned num, const char *id, const char *method,
                       const char *token, unsigned flags)
{
    mc_record_stream_t st;
    mc_record_t r;

    memset(&st, 0, sizeof(st));
    st.flags = flags | (id != NULL ? MC_RS_REQUEST : 0);
    st.method = method;
    st.token = token;
    r = rec(MC_REC_STREAM_START, MC_STREAM_POST, num, &st);
    snprintf(r.facts.answers, sizeof(r.facts.answers), "%s", id != NULL ? id : "");
    mc_judge_http(j, &r, NULL);
}

/* Message text arriving on kind#num (resuming POST#resumes); returns the reply. */
static mc_record_reply_t message(mc_judge_t *j, mc_stream_kind_t kind, unsigned num,
                                 unsigned resumes, const char *text, unsigned flags)
{
    mc_record_stream_t st;
    mc_record_reply_t reply;
    mc_record_t r;

    memset(&st, 0, sizeof(st));
    memset(&reply, 0, sizeof(reply));
    st.flags = flags;
    r = rec(MC_REC_MESSAGE, kind, num, &st);
    r.facts.resumes = resumes;
    r.kind = MC_FRAME_LINE;
    r.data = (char *)text;
    r.len = strlen(text);
    mc_judge_http(j, &r, &reply);
    return reply;
}

/* An SSE event with id on kind#num (resuming POST#resumes); returns the reply. */
static mc_record_reply_t event(mc_judge_t *j, mc_stream_kind_t kind, unsigned num,
                               unsigned resumes, const char *id, unsigned flags)
{
    mc_record_stream_t st;
    mc_record_reply_t reply;
    mc_record_t r;

    memset(&st, 0, sizeof(st));
    memset(&reply, 0, sizeof(reply));
    st.flags = flags;
    st.event = "";
    r = rec(MC_REC_SSE_EVENT, kind, num, &st);
    r.facts.resumes = resumes;
    snprintf(r.facts.event_id, sizeof(r.facts.event_id), "%s", id);
    mc_judge_http(j, &r, &reply);
    return reply;
}

/* The end of POST#num with status, content type, flags and version. */
static void end_post(mc_judge_t *j, unsigned num, const char *id, long status,
                     const char *ctype, unsigned flags, const char *version)
{
    mc_record_stream_t st;
    mc_record_t r;

    memset(&st, 0, sizeof(st));
    st.flags = flags | (id != NULL ? MC_RS_REQUEST : 0);
    snprintf(st.version, sizeof(st.version), "%s", version);
    r = rec(MC_REC_STREAM_END, MC_STREAM_POST, num, &st);
    r.facts.status = status;
    snprintf(r.facts.ctype, sizeof(r.facts.ctype), "%s", ctype);
    snprintf(r.facts.answers, sizeof(r.facts.answers), "%s", id != NULL ? id : "");
    mc_judge_http(j, &r, NULL);
}

static void judge_new(mc_judge_t *j)
{
    assert_int_equal(mc_judge_init(j, NULL), MC_OK);
}

/* A POSTed notification is answered 202; a request JSON or SSE. */
static void test_post_status(void **state)
{
    mc_judge_t j;

    (void)state;
    judge_new(&j);
    start_post(&j, 1, NULL, NULL, NULL, 0);
    end_post(&j, 1, NULL, 202, "", 0, MC_VN_2025_11_25);
    assert_int_equal(fails(&j, "http/notification-202"), 0);
    assert_int_equal(evals(&j, "http/notification-202"), 1);
    start_post(&j, 2, NULL, NULL, NULL, 0);
    end_post(&j, 2, NULL, 400, "application/json", MC_RS_JSON, MC_VN_2025_11_25);
    assert_int_equal(fails(&j, "http/notification-202"), 1);
    assert_int_equal(failure(&j, "http/notification-202")->status, 400);
    start_post(&j, 3, "7", "ping", NULL, 0);
    end_post(&j, 3, "7", 200, "text/plain", 0, MC_VN_2025_11_25);
    assert_int_equal(fails(&j, "http/request-content-type"), 1);
    assert_int_equal(failure(&j, "http/request-content-type")->request_unread, 0);
    start_post(&j, 4, "", "ping", NULL, 0);
    end_post(&j, 4, "", 200, "text/plain", 0, MC_VN_2025_11_25);
    assert_int_equal(j.w.findings[j.w.n_findings - 1].request_unread, 1);
    mc_judge_free(&j);
}

/* A response goes on its own request's stream, never on the GET stream
 * (except at 2026-07-28, which has none); the judge tells the transport
 * which message answers its stream's request. */
static void test_response_streams(void **state)
{
    mc_judge_t j;
    mc_record_reply_t rp;

    (void)state;
    judge_new(&j);
    start_post(&j, 1, "1", "tools/list", NULL, 0);
    rp = message(&j, MC_STREAM_POST, 1, 0, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}", 0);
    assert_true(rp.flags & MC_RR_RESPONSE);
    assert_false(rp.flags & MC_RR_ANSWERS);
    assert_int_equal(fails(&j, "http/response-on-own-stream"), 1);
    rp = message(&j, MC_STREAM_POST, 1, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", 0);
    assert_true(rp.flags & MC_RR_ANSWERS);
    assert_non_null(rp.result);
    message(&j, MC_STREAM_GET, 2, 0, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}",
            MC_RS_STATELESS);
    assert_int_equal(fails(&j, "http/get-stream-no-response"), 0);
    message(&j, MC_STREAM_GET, 2, 0, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", 0);
    assert_int_equal(fails(&j, "http/get-stream-no-response"), 1);
    mc_judge_free(&j);
}

/* initialize's answer names the version the transport then sends. */
static void test_initialize_version(void **state)
{
    mc_judge_t j;
    mc_record_reply_t rp;

    (void)state;
    judge_new(&j);
    start_post(&j, 1, "1", "initialize", NULL, MC_RS_INITIALIZE);
    rp = message(&j, MC_STREAM_POST, 1, 0,
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}",
                 0);
    assert_string_equal(rp.version, "2025-06-18");
    mc_judge_free(&j);
}

/* Event ids: one stream each; a resumption repeating its own stream's
 * event is a redelivery, another stream's a finding; an event carries data. */
static void test_event_ids(void **state)
{
    mc_judge_t j;
    mc_record_reply_t rp;

    (void)state;
    judge_new(&j);
    event(&j, MC_STREAM_POST, 1, 0, "a", MC_RS_DATA);
    event(&j, MC_STREAM_POST, 2, 0, "b", MC_RS_DATA);
    assert_int_equal(fails(&j, "http/sse-event-id-unique"), 0);
    event(&j, MC_STREAM_POST, 2, 0, "a", MC_RS_DATA);
    assert_int_equal(fails(&j, "http/sse-event-id-unique"), 1);
    rp = event(&j, MC_STREAM_GET, 3, 1, "a", MC_RS_DATA);
    assert_true(rp.flags & MC_RR_REDELIVERY);
    assert_int_equal(fails(&j, "http/resume-own-stream"), 0);
    rp = event(&j, MC_STREAM_GET, 3, 1, "b", MC_RS_DATA);
    assert_false(rp.flags & MC_RR_REDELIVERY);
    assert_int_equal(fails(&j, "http/resume-own-stream"), 1);
    event(&j, MC_STREAM_POST, 4, 0, "z", MC_RS_STATELESS);
    assert_int_equal(fails(&j, "http/sse-event-has-data"), 1);
    event(&j, MC_STREAM_POST, 5, 0, "z", MC_RS_STATELESS | MC_RS_DATA);
    assert_int_equal(fails(&j, "http/sse-event-id-unique"), 1); /* not tracked there */
    mc_judge_free(&j);
}

/* How an SSE answer ends: nothing after the response; before it, from
 * 2025-11-25 only after a retry field, up to 2025-06-18 not at all. */
static void test_stream_end(void **state)
{
    mc_judge_t j;

    (void)state;
    judge_new(&j);
    start_post(&j, 1, "1", "tools/call", NULL, 0);
    message(&j, MC_STREAM_POST, 1, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", 0);
    message(&j, MC_STREAM_POST, 1, 0,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}", 0);
    end_post(&j, 1, "1", 200, "text/event-stream", MC_RS_SSE | MC_RS_COMPLETE,
             MC_VN_2025_11_25);
    assert_int_equal(fails(&j, "http/response-closes-stream"), 1);
    start_post(&j, 2, "2", "tools/call", NULL, 0);
    end_post(&j, 2, "2", 200, "text/event-stream", MC_RS_SSE | MC_RS_COMPLETE | MC_RS_RETRY,
             MC_VN_2025_11_25);
    assert_int_equal(fails(&j, "http/sse-retry-before-close"), 0);
    assert_int_equal(evals(&j, "http/sse-retry-before-close"), 1);
    start_post(&j, 3, "3", "tools/call", NULL, 0);
    end_post(&j, 3, "3", 200, "text/event-stream", MC_RS_SSE | MC_RS_COMPLETE,
             MC_VN_2025_11_25);
    assert_int_equal(fails(&j, "http/sse-retry-before-close"), 1);
    start_post(&j, 4, "4", "tools/call", NULL, 0);
    end_post(&j, 4, "4", 200, "text/event-stream", MC_RS_SSE | MC_RS_COMPLETE | MC_RS_CANCELLED,
             MC_VN_2025_06_18);
    assert_int_equal(fails(&j, "http/stream-open-until-response"), 0);
    start_post(&j, 5, "5", "tools/call", NULL, 0);
    end_post(&j, 5, "5", 200, "text/event-stream", MC_RS_SSE | MC_RS_COMPLETE,
             MC_VN_2025_06_18);
    assert_int_equal(fails(&j, "http/stream-open-until-response"), 1);
    mc_judge_free(&j);
}

/* Progress of another request on a POST's stream, and of a running
 * request on the GET stream; one message on two streams. */
static void test_related(void **state)
{
    mc_judge_t j;
    const char *prog = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                       "{\"progressToken\":\"t1\",\"progress\":1}}";

    (void)state;
    judge_new(&j);
    start_post(&j, 1, "1", "tools/call", "\"t1\"", 0);
    start_post(&j, 2, "2", "tools/call", "\"t2\"", 0);
    message(&j, MC_STREAM_POST, 2, 0, prog, 0);
    end_post(&j, 2, "2", 200, "text/event-stream", MC_RS_SSE | MC_RS_COMPLETE, MC_VN_2025_06_18);
    assert_int_equal(fails(&j, "http/request-stream-related"), 1);
    message(&j, MC_STREAM_GET, 3, 0, prog, 0);
    assert_int_equal(fails(&j, "http/get-stream-unrelated"), 1);
    assert_int_equal(fails(&j, "http/message-on-one-stream"), 1);
    mc_judge_free(&j);
}

/* The answer to a stateless request: no session id, X-Accel-Buffering: no
 * on an SSE answer, 404 with -32601. */
static void test_stateless(void **state)
{
    mc_judge_t j;
    mc_record_stream_t st;
    mc_record_t r;

    (void)state;
    judge_new(&j);
    start_post(&j, 1, "1", "tools/list", NULL, MC_RS_MODERN | MC_RS_STATELESS);
    message(&j, MC_STREAM_POST, 1, 0,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"x\"}}",
            MC_RS_STATELESS);
    memset(&st, 0, sizeof(st));
    st.flags = MC_RS_REQUEST | MC_RS_MODERN | MC_RS_STATELESS | MC_RS_JSON;
    r = rec(MC_REC_STREAM_END, MC_STREAM_POST, 1, &st);
    r.facts.status = 200;
    snprintf(r.facts.answers, sizeof(r.facts.answers), "1");
    snprintf(r.facts.session_id, sizeof(r.facts.session_id), "s1");
    mc_judge_http(&j, &r, NULL);
    assert_int_equal(fails(&j, "http/method-not-found-404"), 1);
    assert_int_equal(fails(&j, "http/stateless-no-session-id"), 1);
    start_post(&j, 2, "2", "tools/list", NULL, MC_RS_MODERN | MC_RS_STATELESS);
    st.flags = MC_RS_REQUEST | MC_RS_MODERN | MC_RS_STATELESS | MC_RS_SSE;
    st.accel = "";
    r = rec(MC_REC_STREAM_END, MC_STREAM_POST, 2, &st);
    r.facts.status = 200;
    mc_judge_http(&j, &r, NULL);
    assert_int_equal(fails(&j, "http/sse-accel-buffering"), 1);
    mc_judge_free(&j);
}

/* A session id the transport adopted is visible ASCII. */
static void test_session_id(void **state)
{
    mc_judge_t j;
    mc_record_stream_t st;
    mc_record_t r;

    (void)state;
    judge_new(&j);
    memset(&st, 0, sizeof(st));
    r = rec(MC_REC_SESSION_ID, MC_STREAM_POST, 1, &st);
    snprintf(r.facts.session_id, sizeof(r.facts.session_id), "a b");
    mc_judge_http(&j, &r, NULL);
    assert_int_equal(fails(&j, "http/session-id-visible-ascii"), 1);
    mc_judge_free(&j);
}

/* HTTP+SSE: the first event is the endpoint; the initialize POSTed there,
 * once accepted, is answered on the stream before the session ends. */
static void test_legacy(void **state)
{
    mc_judge_t j;
    mc_record_stream_t st;
    mc_record_t r;
    int answered;

    (void)state;
    for (answered = 0; answered < 2; answered++) {
        judge_new(&j);
        memset(&st, 0, sizeof(st));
        st.flags = MC_RS_LEGACY | MC_RS_DATA;
        st.event = "message";
        r = rec(MC_REC_SSE_EVENT, MC_STREAM_SSE, 1, &st);
        mc_judge_http(&j, &r, NULL);
        st.event = "endpoint";
        mc_judge_http(&j, &r, NULL);
        assert_int_equal(fails(&j, "http/sse-endpoint-event"), 1);
        start_post(&j, 2, "1", "initialize", NULL, MC_RS_LEGACY | MC_RS_INITIALIZE);
        end_post(&j, 2, "1", 202, "", MC_RS_LEGACY | MC_RS_SINGLE, "");
        if (answered)
            message(&j, MC_STREAM_SSE, 1, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", 0);
        memset(&st, 0, sizeof(st));
        st.flags = MC_RS_LEGACY;
        r = rec(MC_REC_CLOSE, MC_STREAM_SSE, 1, &st);
        mc_judge_http(&j, &r, NULL);
        assert_int_equal(fails(&j, "http/sse-two-endpoints"), answered ? 0 : 1);
        assert_int_equal(evals(&j, "http/sse-two-endpoints"), 1);
        mc_judge_free(&j);
    }
}

/* A tools/list result of a stateless session whose annotation is used twice. */
static void test_x_mcp_header(void **state)
{
    mc_judge_t j;

    (void)state;
    judge_new(&j);
    start_post(&j, 1, "1", "tools/list", NULL, MC_RS_MODERN | MC_RS_STATELESS);
    message(&j, MC_STREAM_POST, 1, 0,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"t\",\"inputSchema\":"
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":"
            "\"R\"},\"b\":{\"type\":\"string\",\"x-mcp-header\":\"r\"}}}}]}}",
            MC_RS_MODERN | MC_RS_STATELESS);
    assert_int_equal(fails(&j, "http/x-mcp-header-valid"), 1);
    mc_judge_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_status),     cmocka_unit_test(test_response_streams),
        cmocka_unit_test(test_initialize_version), cmocka_unit_test(test_event_ids),
        cmocka_unit_test(test_stream_end),      cmocka_unit_test(test_related),
        cmocka_unit_test(test_stateless),       cmocka_unit_test(test_session_id),
        cmocka_unit_test(test_legacy),          cmocka_unit_test(test_x_mcp_header),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
