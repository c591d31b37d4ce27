/* Unit tests for the rules on the _meta of the server's messages
 * (judge/wire_meta.c), on the meaning of the codes 2026-07-28 defines, on
 * the requests a server's cancellation names, on the keys of inputRequests
 * as written and on the progress tokens of the server's own requests: each
 * seen holding and seen failing on a scripted transcript. */
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

/* The _meta objects of the server's messages: key names from 2025-06-18;
 * trace context values, extension identifiers and serverInfo in every
 * result at 2026-07-28. */
static void test_meta(void **state)
{
    mc_wire_t w;
    const char *info = "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"s\",\"version\":\"1\"}";
    char line[1024];

    (void)state;
    handshake(&w, "{\"tools\":{}}", "{}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"_meta\":{\"com.example/ok\":1,"
           "\"io.modelcontextprotocol/related-task\":{},\"progressToken\":1,\"a1.b-2/\":0,\"\":0,"
           "\"x.y/n_a.m-e\":0},\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\","
           "\"properties\":{\"_meta\":{\"-\":1}}},\"_meta\":{\"com.example-/x\":1}}]}}");
    assert_int_equal(findings(&w, "wire/meta-key-format"), 1);
    assert_non_null(strstr(detail(&w, "wire/meta-key-format"), "com.example-/x"));
    assert_int_equal(evals(&w, "wire/meta-key-format"), 7);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"_meta\":{\"_x\":1,\"a/b/c\":1,"
           "\"1a/x\":1,\"a..b/x\":1,\"x-\":1,\"traceparent\":\"bad\"},\"tools\":[]}}");
    assert_int_equal(findings(&w, "wire/meta-key-format"), 6);
    /* No trace context rule before 2026-07-28. */
    assert_int_equal(evals(&w, "wire/meta-trace-context"), 0);
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
           "\"_meta\":{\"bad name!\":1},\"level\":\"info\",\"data\":1}}");
    assert_int_equal(findings(&w, "wire/meta-key-format"), 7);
    mc_wire_free(&w);

    assert_int_equal(mc_wire_init(&w), MC_OK);
    mreq(&w, 1, "server/discover", "{}", "", "");
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\","
             "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"extensions\":{"
             "\"io.modelcontextprotocol/ui\":{},\"ui\":{},\"com.example/x-\":{}}},\"_meta\":{%s,"
             "\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01\","
             "\"tracestate\":\"rojo=00f067aa0ba902b7, congo=t61rcWkgMzE\","
             "\"baggage\":\"userId=alice,serverNode=DF%%2028;p=1\"}}}",
             info);
    in(&w, line);
    assert_int_equal(findings(&w, "wire/extension-id-format"), 2);
    assert_int_equal(evals(&w, "wire/extension-id-format"), 3);
    assert_int_equal(findings(&w, "wire/meta-trace-context"), 0);
    assert_int_equal(evals(&w, "wire/meta-trace-context"), 3);
    assert_int_equal(findings(&w, "wire/result-server-info"), 0);
    mreq(&w, 2, "tools/list", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",\"tools\":[],"
           "\"_meta\":{\"traceparent\":\"00-00000000000000000000000000000000-00f067aa0ba902b7-01\","
           "\"tracestate\":\"novalue\",\"baggage\":7}}}");
    assert_int_equal(findings(&w, "wire/meta-trace-context"), 3);
    assert_int_equal(findings(&w, "wire/result-server-info"), 1);
    /* A later traceparent version may carry more after its flags. */
    mreq(&w, 3, "tools/list", "{}", "", "");
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\",\"tools\":[],"
             "\"_meta\":{%s,\"traceparent\":\"01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-"
             "ab\"}}}",
             info);
    in(&w, line);
    assert_int_equal(findings(&w, "wire/meta-trace-context"), 3);
    assert_int_equal(findings(&w, "wire/result-server-info"), 1);
    /* Defined codes only with their meaning. */
    mreq(&w, 4, "tools/list", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32022,\"message\":\"v\",\"data\":{"
           "\"supported\":[\"2026-07-28\"],\"requested\":\"2026-07-28\"}}}");
    assert_int_equal(findings(&w, "wire/error-code-meaning"), 1);
    mreq(&w, 5, "tools/list", "{}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32022,\"message\":\"v\",\"data\":{"
           "\"supported\":[\"2025-11-25\"],\"requested\":\"2026-07-28\"}}}");
    mreq(&w, 6, "tools/call", "{\"elicitation\":{}}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-32021,\"message\":\"c\",\"data\":{"
           "\"requiredCapabilities\":{\"elicitation\":{\"url\":{}}}}}}");
    assert_int_equal(findings(&w, "wire/error-code-meaning"), 1);
    mreq(&w, 7, "tools/call", "{\"elicitation\":{\"form\":{}}}", "", "");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32021,\"message\":\"c\",\"data\":{"
           "\"requiredCapabilities\":{\"elicitation\":{}}}}}");
    assert_int_equal(findings(&w, "wire/error-code-meaning"), 2);
    assert_int_equal(evals(&w, "wire/error-code-meaning"), 4);
    mc_wire_free(&w);
}

/* A server's notifications/cancelled names a request the server sent,
 * answered or not (the answer may cross it), never one of the client's. */
static void test_cancelled_own(void **state)
{
    mc_wire_t w;

    (void)state;
    handshake(&w, "{\"tools\":{}}", "{\"sampling\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"s/1\",\"method\":\"sampling/createMessage\","
           "\"params\":{\"messages\":[],\"maxTokens\":1}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
           "\"requestId\":\"s/1\"}}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":\"s/1\",\"result\":{}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
           "\"requestId\":\"s\\/1\"}}");
    assert_int_equal(findings(&w, "wire/cancelled-own-request"), 0);
    assert_int_equal(evals(&w, "wire/cancelled-own-request"), 2);
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}");
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
           "\"requestId\":7}}");
    assert_int_equal(findings(&w, "wire/cancelled-own-request"), 1);
    assert_non_null(strstr(detail(&w, "wire/cancelled-own-request"), "client request"));
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
           "\"requestId\":99}}");
    assert_int_equal(findings(&w, "wire/cancelled-own-request"), 2);
    /* No requestId: the schema's matter, not judged here. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
    assert_int_equal(evals(&w, "wire/cancelled-own-request"), 4);
    mc_wire_free(&w);
}

/* The keys of an InputRequiredResult's inputRequests, read as written: a
 * key written twice is found though the parsed object holds it once. */
static void test_input_keys(void **state)
{
    mc_wire_t w;
    const char *req = "{\"method\":\"roots/list\"}";
    char line[1024];

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    mreq(&w, 1, "tools/call", "{\"roots\":{}}", "", "");
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
             "\"inputRequests\":{\"a\":%s, \"b\" : {\"method\":\"roots/list\",\"params\":{\"x\":"
             "[\"a\",{\"a\":1}]}}}}}",
             req);
    in(&w, line);
    assert_int_equal(findings(&w, "wire/input-request-keys-unique"), 0);
    assert_int_equal(evals(&w, "wire/input-request-keys-unique"), 1);
    mreq(&w, 2, "tools/call", "{\"roots\":{}}", "", "");
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
             "\"inputRequests\":{\"a\":%s,\"b\\\"\":%s,\"a\":%s}}}",
             req, req, req);
    in(&w, line);
    assert_int_equal(findings(&w, "wire/input-request-keys-unique"), 1);
    assert_non_null(strstr(detail(&w, "wire/input-request-keys-unique"), "\"a\" twice"));
    mc_wire_free(&w);
}

/* A server request's progressToken differs from those of the server's
 * requests still active: unanswered by the client, not cancelled by the
 * server. A token used again once its request was answered is fine, and
 * the client's own tokens are not the server's. */
static void test_server_token_unique(void **state)
{
    mc_wire_t w;

#define SREQ(id, tok)                                                                              \
    "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"sampling/createMessage\",\"params\":{" \
    "\"_meta\":{\"progressToken\":" tok "},\"messages\":[],\"maxTokens\":1}}"
#define ANSWER(id) "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"result\":{}}"
    (void)state;
    handshake(&w, "{\"tools\":{}}", "{\"sampling\":{}}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
            "\"_meta\":{\"progressToken\":\"a\"}}}");
    in(&w, SREQ("1", "\"a\""));
    /* Alone: nothing to compare with. */
    assert_int_equal(evals(&w, "wire/progress-token-unique"), 0);
    in(&w, SREQ("2", "\"b\""));
    assert_int_equal(findings(&w, "wire/progress-token-unique"), 0);
    assert_int_equal(evals(&w, "wire/progress-token-unique"), 1);
    in(&w, SREQ("3", "\"a\""));
    assert_int_equal(findings(&w, "wire/progress-token-unique"), 1);
    assert_non_null(strstr(detail(&w, "wire/progress-token-unique"), "request 1"));
    out(&w, ANSWER("1"));
    out(&w, ANSWER("3"));
    /* "b" is still active; "a" is free again. */
    in(&w, SREQ("4", "\"a\""));
    assert_int_equal(findings(&w, "wire/progress-token-unique"), 1);
    in(&w, SREQ("5", "\"b\""));
    assert_int_equal(findings(&w, "wire/progress-token-unique"), 2);
    /* A request the server cancels is no longer active. */
    in(&w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
           "\"requestId\":2}}");
    out(&w, "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-1,\"message\":\"no\"}}");
    in(&w, SREQ("6", "\"b\""));
    assert_int_equal(findings(&w, "wire/progress-token-unique"), 2);
    /* The same value as a number is another token. */
    in(&w, SREQ("7", "4"));
    in(&w, SREQ("8", "\"4\""));
    assert_int_equal(findings(&w, "wire/progress-token-unique"), 2);
    mc_wire_free(&w);
#undef SREQ
#undef ANSWER
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meta),
        cmocka_unit_test(test_cancelled_own),
        cmocka_unit_test(test_input_keys),
        cmocka_unit_test(test_server_token_unique),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
