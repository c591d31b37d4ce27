/* Unit tests for the wire checks (judge/wire.h): each rule seen holding and
 * seen failing on a scripted transcript. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "judge/wire.h"
#include "core/frame.h"
#include "wire_support.h"

/* A notification answered with {"id": null, "result": {}} breaks the
 * no-response rule, not (only) the envelope; the answer may come after the
 * client already sent a request. */
static void test_null_id_answer_to_notification(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    /* Answers to notifications/initialized, one message late. */
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/no-response-to-notification"), 1);
    assert_int_equal(findings(&w, "wire/jsonrpc-envelope"), 0);
    /* One notification sent, one answer already blamed on it: a second such
     * result is an envelope fault. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/no-response-to-notification"), 1);
    assert_int_equal(findings(&w, "wire/jsonrpc-envelope"), 1);
    mc_wire_free(&w);
}

/* A server request id used twice is caught by the wire checks, whatever
 * the method; ids beyond 64 bits are kept and printed as the server wrote
 * them. */
static void test_server_request_ids(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"srv-2\",\"method\":\"ping\"}");
    assert_int_equal(findings(&w, "wire/server-request-id-unique"), 0);
    assert_int_equal(evals(&w, "wire/server-request-id-unique"), 2);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"roots/list\"}");
    assert_int_equal(findings(&w, "wire/server-request-id-unique"), 1);
    assert_non_null(strstr(detail(&w, "wire/server-request-id-unique"), "\"srv-1\""));
    /* 2^64+2 and 2^64+3 are different ids, though both parse to one value. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":18446744073709551618,\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":18446744073709551619,\"method\":\"ping\"}");
    assert_int_equal(findings(&w, "wire/server-request-id-unique"), 1);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\", \"result\":{\"id\":1}, \"id\" : 18446744073709551618 }");
    assert_int_equal(findings(&w, "wire/response-id"), 1);
    assert_non_null(strstr(detail(&w, "wire/response-id"), "18446744073709551618"));
    mc_wire_free(&w);
}

/* An oversize line is reported while it is still open. */
static void test_oversize_open(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    mc_wire_inbound(&w, MC_FRAME_OVERSIZE, MC_FRAME_F_OPEN, NULL, 17000000, NULL);
    assert_int_equal(findings(&w, "wire/message-size"), 1);
    assert_non_null(strstr(w.findings[0].detail, "no newline yet"));
    mc_wire_free(&w);
}

static void test_ids_and_envelope(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    assert_int_equal(w.n_findings, 0);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"result\":{}}");
    assert_int_equal(findings(&w, "wire/response-id"), 1); /* type differs */
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/single-response"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/response-id"), 2);
    in(&w, "[{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}]");
    assert_int_equal(findings(&w, "wire/no-batch"), 1);
    in(&w, "{\"jsonrpc\":\"1.0\",\"id\":3,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/jsonrpc-envelope"), 1);
    in(&w, "banner text");
    assert_int_equal(findings(&w, "wire/stdout-only-messages"), 1);
    in(&w, "{\"a\":\"\xff\"}");
    assert_int_equal(findings(&w, "wire/utf8"), 1);
    in(&w, "");
    assert_int_equal(findings(&w, "wire/newline-delimited"), 1);
    assert_true(evals(&w, "wire/response-id") >= 3);
    mc_wire_free(&w);
}

static void test_null_ids_and_notifications(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    out(&w, "{not json");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
    assert_int_equal(w.n_findings, 0); /* allowed: the id could not be read */
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"again\"}}");
    assert_int_equal(findings(&w, "wire/null-id-only-for-unreadable-requests"), 1);
    out(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32601,\"message\":\"no\"}}");
    assert_int_equal(findings(&w, "wire/no-response-to-notification"), 1);
    mc_wire_free(&w);
}

/* The answers to the requests inside a JSON array (a batch the harness
 * sends on purpose) answer requests the client did send; a single error
 * with a null id may refuse the array itself, once. */
static void test_batch_answers(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    out(&w, "[{\"jsonrpc\":\"2.0\",\"id\":\"b1\",\"method\":\"ping\"},"
            "{\"jsonrpc\":\"2.0\",\"id\":\"b2\",\"method\":\"ping\"},7]");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"b1\",\"result\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"b2\",\"result\":{}}");
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"b3\",\"result\":{}}");
    assert_int_equal(findings(&w, "wire/response-id"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}");
    assert_int_equal(findings(&w, "wire/null-id-only-for-unreadable-requests"), 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}");
    assert_int_equal(findings(&w, "wire/null-id-only-for-unreadable-requests"), 1);
    mc_wire_free(&w);
}

/* Over HTTP, the body of an error status that refused a POSTed request
 * whose id was readable answers that request and carries its id: without
 * one it breaks wire/response-id. A 403 (the transport flags the id as
 * optional) may have none; the same null-id error in any other frame
 * breaks the id rule. */
static void test_http_refusal_null_id(void **state)
{
    mc_wire_t w;
    const char *err = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                      "\"message\":\"Bad Request\"}}";

    (void)state;
    handshake(&w, "{}", "{}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}");
    mc_wire_inbound(&w, MC_FRAME_LINE, MC_FRAME_F_REFUSAL, err, strlen(err), NULL);
    assert_int_equal(findings(&w, "wire/response-id"), 1);
    assert_int_equal(w.n_findings, 1);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}");
    mc_wire_inbound(&w, MC_FRAME_LINE, MC_FRAME_F_REFUSAL | MC_FRAME_F_ID_OPTIONAL, err,
                    strlen(err), NULL);
    assert_int_equal(w.n_findings, 1);
    assert_true(evals(&w, "wire/null-id-only-for-unreadable-requests") >= 1);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}");
    in(&w, err);
    assert_int_equal(findings(&w, "wire/null-id-only-for-unreadable-requests"), 1);
    mc_wire_free(&w);
}

static void test_capabilities(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{\"resources\":{\"subscribe\":true},\"prompts\":{}}", "{\"roots\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}");
    assert_int_equal(findings(&w, "wire/negotiated-capabilities"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}");
    assert_int_equal(findings(&w, "wire/negotiated-capabilities"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"method\":\"elicitation/create\",\"params\":{}}");
    assert_int_equal(findings(&w, "wire/negotiated-capabilities"), 2);
    /* Subscriptions. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"a://x\"}}");
    assert_int_equal(findings(&w, "wire/resource-updated-subscribed"), 1);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"a://x\"}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"a://x\"}}");
    assert_int_equal(findings(&w, "wire/resource-updated-subscribed"), 1);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/unsubscribe\",\"params\":{\"uri\":\"a://x\"}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"a://x\"}}");
    assert_int_equal(findings(&w, "wire/resource-updated-subscribed"), 2);
    mc_wire_free(&w);
}

static void test_requests_before_initialized(void **state)
{
    mc_wire_t w;

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{\"roots\":{}}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"roots/list\"}");
    assert_int_equal(findings(&w, "wire/requests-before-initialized"), 1);
    mc_wire_free(&w);
}

static void test_logging(void **state)
{
    mc_wire_t w;
    const char *debug = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"debug\",\"data\":1}}";
    const char *err = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"error\",\"data\":1}}";

    (void)state;
    handshake(&w, "{}", "{}");
    in(&w, err);
    assert_int_equal(findings(&w, "wire/logging-capability"), 1);
    mc_wire_free(&w);

    handshake(&w, "{\"logging\":{}}", "{}");
    in(&w, debug); /* no level set yet: anything goes */
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"warning\"}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    in(&w, err);
    assert_int_equal(w.n_findings, 0);
    in(&w, debug);
    assert_int_equal(findings(&w, "wire/log-level"), 1);
    assert_int_equal(mc_log_level_rank("emergency"), 7);
    assert_int_equal(mc_log_level_rank("verbose"), -1);
    mc_wire_free(&w);
}

static void test_progress(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{\"tools\":{}}", "{}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"_meta\":{\"progressToken\":\"tok\"}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"tok\",\"progress\":1}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"tok\",\"progress\":2}}");
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"tok\",\"progress\":2}}");
    assert_int_equal(findings(&w, "wire/progress-increases"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"other\",\"progress\":1}}");
    assert_int_equal(findings(&w, "wire/progress-active-token"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"tok\",\"progress\":3}}");
    assert_int_equal(findings(&w, "wire/progress-active-token"), 2); /* after the response */
    mc_wire_free(&w);
}

/* A task-augmented request's token outlives its CreateTaskResult and ends
 * with the task: a tasks/result result, a terminal tasks/get or tasks/cancel
 * result, or a terminal notifications/tasks/status (2025-11-25). */
static void test_task_progress(void **state)
{
    static const char *const ends[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"content\":[]}}",
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"taskId\":\"T\",\"status\":\"failed\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":{"
        "\"taskId\":\"T\",\"status\":\"cancelled\"}}",
    };
    static const char *const methods[] = {"tasks/result", "tasks/cancel", "tasks/get"};
    char line[256];
    mc_wire_t w;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
        handshake(&w, "{\"tools\":{},\"tasks\":{}}", "{}");
        out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                "\"task\":{},\"_meta\":{\"progressToken\":\"tok\"}}}");
        in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"task\":{\"taskId\":\"T\","
               "\"status\":\"working\"}}}");
        in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
               "\"progressToken\":\"tok\",\"progress\":1}}");
        /* A poll that finds the task working, or an error, ends nothing. */
        out(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"T\"}}");
        in(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"taskId\":\"T\",\"status\":\"working\"}}");
        out(&w, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/result\",\"params\":{\"taskId\":\"T\"}}");
        in(&w, "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32603,\"message\":\"busy\"}}");
        in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
               "\"progressToken\":\"tok\",\"progress\":2}}");
        assert_int_equal(w.n_findings, 0);
        snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"%s\",\"params\":{\"taskId\":\"T\"}}",
                 methods[i]);
        out(&w, line);
        in(&w, ends[i]);
        in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
               "\"progressToken\":\"tok\",\"progress\":3}}");
        assert_int_equal(findings(&w, "wire/progress-active-token"), 1);
        mc_wire_free(&w);
    }
    /* Without a task field, a task-shaped result still ends the request. */
    handshake(&w, "{\"tools\":{}}", "{}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
            "\"_meta\":{\"progressToken\":\"tok\"}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"task\":{\"taskId\":\"T\"}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
           "\"progressToken\":\"tok\",\"progress\":1}}");
    assert_int_equal(findings(&w, "wire/progress-active-token"), 1);
    mc_wire_free(&w);
}

/* A client that sends one id twice (a fuzzer does, on purpose) may get two
 * answers; a third is a second response. */
static void test_reused_request_id(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{}", "{}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/single-response"), 1);
    mc_wire_free(&w);
}

/* Long sessions outgrow the checker's tables. An ended token's slot is
 * reused, so progress on the 300th token is judged; what the tables had no
 * room for is never a finding. */
static void test_full_tables(void **state)
{
    mc_wire_t w;
    char line[256];
    int i;

    (void)state;
    handshake(&w, "{\"tools\":{},\"resources\":{\"subscribe\":true}}", "{}");
    for (i = 1; i <= MC_WIRE_MAX_TOKENS + 44; i++) {
        snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"t\",\"_meta\":{\"progressToken\":%d}}}", 100 + i, i);
        out(&w, line);
        snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
                 "\"progressToken\":%d,\"progress\":1}}", i);
        in(&w, line);
        snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"content\":[]}}",
                 100 + i);
        in(&w, line);
    }
    assert_int_equal(w.n_findings, 0);
    assert_int_equal(evals(&w, "wire/progress-active-token"), MC_WIRE_MAX_TOKENS + 44);
    /* An ended token, forgotten or not, still fails. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":2}}");
    assert_int_equal(findings(&w, "wire/progress-active-token"), 1);
    mc_wire_free(&w);

    /* Every slot holds an active token: the next is not recorded, and its
     * progress is not judged. */
    handshake(&w, "{\"tools\":{}}", "{}");
    for (i = 1; i <= MC_WIRE_MAX_TOKENS + 1; i++) {
        snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"t\",\"_meta\":{\"progressToken\":%d}}}", 100 + i, i);
        out(&w, line);
    }
    assert_int_equal(w.tokens_untracked, 1);
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{"
             "\"progressToken\":%d,\"progress\":1}}", MC_WIRE_MAX_TOKENS + 1);
    in(&w, line);
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}");
    assert_int_equal(w.n_findings, 0); /* a recorded active token is judged as before */
    assert_int_equal(evals(&w, "wire/progress-active-token"), 1);
    mc_wire_free(&w);

    /* More subscriptions than the table holds. */
    handshake(&w, "{\"resources\":{\"subscribe\":true}}", "{}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"x://0\"}}");
    assert_int_equal(findings(&w, "wire/resource-updated-subscribed"), 1);
    for (i = 1; i <= MC_WIRE_MAX_SUBSCRIPTIONS + 1; i++) {
        snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"resources/subscribe\",\"params\":{"
                 "\"uri\":\"x://%d\"}}", 100 + i, i);
        out(&w, line);
    }
    assert_int_equal(w.subs_untracked, 1);
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{"
             "\"uri\":\"x://%d\"}}", MC_WIRE_MAX_SUBSCRIPTIONS + 1);
    in(&w, line);
    assert_int_equal(findings(&w, "wire/resource-updated-subscribed"), 1);
    mc_wire_free(&w);

    /* An unanswered request pushed out of the request table, answered late. */
    handshake(&w, "{}", "{}");
    for (i = 1; i <= MC_WIRE_MAX_REQUESTS + 1; i++) {
        snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}", 100 + i);
        out(&w, line);
    }
    assert_int_equal(w.reqs_forgotten, 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":101,\"result\":{}}");
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":102,\"result\":{}}"); /* still remembered */
    assert_int_equal(w.n_findings, 0);
    assert_int_equal(evals(&w, "wire/response-id"), 2); /* the initialize answer and 102 */
    mc_wire_free(&w);
}

/* A server of both eras on one connection: what answers or follows a
 * request served as a legacy one is judged by the legacy rules. */
static void test_stateless_legacy_requests(void **state)
{
    mc_wire_t w;
    const char *log = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
                      "\"level\":\"info\",\"data\":1}}";
    const char *changed = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    mreq(&w, 1, "server/discover", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\","
           "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{\"listChanged\":true},"
           "\"logging\":{}},\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"s\","
           "\"version\":\"1\"}}}}");
    /* A tools/call without _meta, in progress: its log message and list
     * change are not the stateless rules' to judge. */
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}");
    in(&w, log);
    in(&w, changed);
    assert_int_equal(w.n_findings, 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}");
    in(&w, log);
    in(&w, changed);
    assert_int_equal(findings(&w, "wire/log-per-request"), 1);
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 1);
    /* Once the server accepts a legacy initialize, the connection also
     * carries a legacy session. */
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{"
            "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\","
            "\"version\":\"1\"}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"protocolVersion\":\"2025-11-25\","
           "\"capabilities\":{\"tools\":{\"listChanged\":true}},\"serverInfo\":{\"name\":\"s\","
           "\"version\":\"1\"}}}");
    assert_true(w.legacy_accepted);
    in(&w, changed);
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 1);
    mc_wire_free(&w);
}

static void test_stateless(void **state)
{
    mc_wire_t w;

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    /* resultType on every result, known values only. */
    mreq(&w, 1, "server/discover", "{}", "", "");
    assert_true(w.stateless);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\","
           "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}}}}");
    assert_int_equal(findings(&w, "wire/result-type"), 0);
    assert_int_equal(evals(&w, "wire/result-type"), 1);
    mreq(&w, 2, "tools/list", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[]}}");
    assert_int_equal(findings(&w, "wire/result-type"), 1);
    mreq(&w, 3, "tools/list", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"partial\",\"tools\":[]}}");
    assert_int_equal(findings(&w, "wire/result-type"), 2);
    /* A request naming no stateless version (none, or a legacy one): a
     * server of both eras may serve it as a legacy request, so its result
     * is not held to resultType (nor, by the judge, to the schema). */
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"ping\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":30,\"result\":{}}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"ping\",\"params\":{\"_meta\":{"
            "\"io.modelcontextprotocol/protocolVersion\":\"2025-06-18\"}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":31,\"result\":{}}");
    assert_int_equal(findings(&w, "wire/result-type"), 2);
    assert_int_equal(evals(&w, "wire/result-type"), 3);
    {
        mc_wire_info_t info;
        const char *a32 = "{\"jsonrpc\":\"2.0\",\"id\":32,\"result\":{}}";
        const char *a33 = "{\"jsonrpc\":\"2.0\",\"id\":33,\"result\":{\"resultType\":\"complete\"}}";
        out(&w, "{\"jsonrpc\":\"2.0\",\"id\":32,\"method\":\"ping\"}");
        mc_wire_inbound(&w, MC_FRAME_LINE, 0, a32, strlen(a32), &info);
        assert_true(info.answered_unversioned);
        mc_wire_info_free(&info);
        mreq(&w, 33, "ping", "{}", "", "");
        mc_wire_inbound(&w, MC_FRAME_LINE, 0, a33, strlen(a33), &info);
        assert_false(info.answered_unversioned);
        mc_wire_info_free(&info);
    }

    /* InputRequiredResult: only on the three methods, never empty, only
     * for declared capabilities. */
    mreq(&w, 4, "tools/call", "{\"elicitation\":{}}", "", ",\"name\":\"t\"");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"input_required\","
           "\"inputRequests\":{\"a\":{\"method\":\"elicitation/create\",\"params\":{}}}}}");
    assert_int_equal(findings(&w, "wire/input-required-shape"), 0);
    assert_int_equal(findings(&w, "wire/input-requests-declared"), 0);
    assert_int_equal(evals(&w, "wire/input-requests-declared"), 1);
    mreq(&w, 5, "tools/call", "{}", "", ",\"name\":\"t\"");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"resultType\":\"input_required\","
           "\"inputRequests\":{\"a\":{\"method\":\"sampling/createMessage\",\"params\":{}}}}}");
    assert_int_equal(findings(&w, "wire/input-requests-declared"), 1);
    mreq(&w, 6, "tools/call", "{}", "", ",\"name\":\"t\"");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"resultType\":\"input_required\"}}");
    assert_int_equal(findings(&w, "wire/input-required-shape"), 1);
    mreq(&w, 7, "tools/list", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"resultType\":\"input_required\","
           "\"requestState\":\"s\"}}");
    assert_int_equal(findings(&w, "wire/input-required-methods"), 1);
    assert_int_equal(findings(&w, "wire/input-required-shape"), 1);

    /* notifications/message only while a request that set a level runs. */
    mreq(&w, 8, "tools/call", "{}", ",\"io.modelcontextprotocol/logLevel\":\"info\"",
         ",\"name\":\"t\"");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
           "\"level\":\"info\",\"data\":1}}");
    assert_int_equal(findings(&w, "wire/log-per-request"), 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"resultType\":\"complete\",\"content\":[]}}");
    mreq(&w, 9, "tools/call", "{}", "", ",\"name\":\"t\"");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
           "\"level\":\"info\",\"data\":1}}");
    assert_int_equal(findings(&w, "wire/log-per-request"), 1);

    /* subscriptions/listen: acknowledged first, opted-in types only. */
    mreq(&w, 10, "subscriptions/listen", "{}", "",
         ",\"notifications\":{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"a://b\"]}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{"
           "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":10}}}");
    assert_int_equal(findings(&w, "wire/listen-ack-first"), 1);
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
           "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":10},"
           "\"notifications\":{\"toolsListChanged\":true}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{"
           "\"uri\":\"a://b\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":10}}}");
    assert_int_equal(findings(&w, "wire/listen-ack-first"), 1);
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\",\"params\":{"
           "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":10}}}");
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 1);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{"
           "\"uri\":\"a://other\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":10}}}");
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 2);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 3);
    assert_non_null(strstr(detail(&w, "wire/listen-opted-in"), "without a subscriptionId"));
    /* The legacy rules do not judge the stateless notifications. */
    assert_int_equal(findings(&w, "wire/resource-updated-subscribed"), 0);
    mc_wire_free(&w);
}

/* A listen request's id sent again (an invalid request, as a fuzzer's id
 * collisions make): an answer to that id may be the other request's, and a
 * notification tagged with it may belong to either listen stream. */
static void test_listen_reused_id(void **state)
{
    mc_wire_t w;

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    mreq(&w, 40, "subscriptions/listen", "{}", "", ",\"notifications\":{\"promptsListChanged\":true}");
    out(&w, "{\"id\":40}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
           "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":40},"
           "\"notifications\":{\"promptsListChanged\":true}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":40,\"error\":{\"code\":-32600,\"message\":\"x\"}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\",\"params\":{"
           "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":40}}}");
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 0);
    assert_int_equal(evals(&w, "wire/listen-opted-in"), 1);
    /* Two listens with one id: the second opted in, the first did not. */
    mreq(&w, 41, "subscriptions/listen", "{}", "", ",\"notifications\":{}");
    mreq(&w, 41, "subscriptions/listen", "{}", "", ",\"notifications\":{\"toolsListChanged\":true}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
           "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":41},"
           "\"notifications\":{}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{"
           "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":41}}}");
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 0);
    assert_int_equal(findings(&w, "wire/listen-ack-first"), 0);
    /* Still judged: a kind neither opted in to. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\",\"params\":{"
           "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":41}}}");
    assert_int_equal(findings(&w, "wire/listen-opted-in"), 1);
    mc_wire_free(&w);
}

/* Answers to an id the client sent twice teach nothing: server/discover and
 * tools/call sent with one id, and the tool's result (which has no
 * capabilities) must not become the server's declared capabilities. */
static void test_shared_id_teaches_nothing(void **state)
{
    mc_wire_t w;
    const char *log = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
                      "\"level\":\"info\",\"data\":1}}";

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    mreq(&w, 1, "server/discover", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\","
           "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"logging\":{}}}}");
    mreq(&w, 5, "tools/call", "{}", "", ",\"name\":\"t\"");
    mreq(&w, 5, "server/discover", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"resultType\":\"complete\","
           "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"logging\":{}}}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"resultType\":\"complete\",\"content\":[]}}");
    mreq(&w, 6, "tools/call", "{}", ",\"io.modelcontextprotocol/logLevel\":\"info\"", ",\"name\":\"t\"");
    in(&w, log);
    assert_int_equal(findings(&w, "wire/logging-capability"), 0);
    assert_int_equal(evals(&w, "wire/logging-capability"), 1);
    assert_int_equal(findings(&w, "wire/single-response"), 0);
    mc_wire_free(&w);
}


static void test_bounded_findings(void **state)
{
    mc_wire_t w;
    int i;

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    for (i = 0; i < MC_WIRE_MAX_FINDINGS + 10; i++)
        in(&w, "garbage");
    assert_int_equal(w.n_findings, MC_WIRE_MAX_FINDINGS);
    assert_int_equal(w.findings_dropped, 10);
    mc_wire_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_and_envelope),
        cmocka_unit_test(test_null_ids_and_notifications),
        cmocka_unit_test(test_capabilities),
        cmocka_unit_test(test_requests_before_initialized),
        cmocka_unit_test(test_logging),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_task_progress),
        cmocka_unit_test(test_reused_request_id),
        cmocka_unit_test(test_full_tables),
        cmocka_unit_test(test_bounded_findings),
        cmocka_unit_test(test_stateless),
        cmocka_unit_test(test_stateless_legacy_requests),
        cmocka_unit_test(test_listen_reused_id),
        cmocka_unit_test(test_shared_id_teaches_nothing),
        cmocka_unit_test(test_null_id_answer_to_notification),
        cmocka_unit_test(test_server_request_ids),
        cmocka_unit_test(test_oversize_open),
        cmocka_unit_test(test_batch_answers),
        cmocka_unit_test(test_http_refusal_null_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
